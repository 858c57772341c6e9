"""Cross-validation on the SENSEVAL-2 training data, per lexelt, for every ``bench/tune*.py``.

A lexelt's rows (``engine.lexelt_rows``: an instance with n gold tags gives n rows) are split
into ``--folds`` folds by instance with scikit-learn's ``GroupKFold`` (shuffled, fixed seed), so
that no instance has rows on both sides; a setting is scored by its top sense on each held-out
instance (right when it is one of the instance's gold tags). The test set is never read.
"""
from __future__ import annotations

import argparse
import itertools
from collections.abc import Iterator, Sequence
from typing import NamedTuple

import numpy as np
from joblib import Parallel, delayed
from sklearn.model_selection import GroupKFold

from wsd_classic import systems
from wsd_classic.corpora.lexsample import read_lexical_sample
from wsd_classic.tasks import catalogue, engine
from wsd_classic.tasks.engine import FeaturizedCorpus

FOLD_SEED = 0


class LexeltRows(NamedTuple):
    """One lexelt's training rows, as the engine fits them, and the instance each row is of."""

    X: list
    y: list
    weights: list
    instances: list[str]


def cv_parser(description: str) -> argparse.ArgumentParser:
    """The options every cross-validation on the SENSEVAL-2 training data takes."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--data-dir")
    return parser


def number_settings(text: str) -> dict[str, float]:
    """``{"tol": 0.001}`` from ``tol=0.001`` (several comma-separated; empty: none)."""
    settings = {}
    for part in filter(None, text.split(",")):
        name, _, value = part.partition("=")
        try:
            settings[name] = float(value)
        except ValueError:
            raise SystemExit(f"{part!r}: expected NAME=NUMBER") from None
    return settings


def training_corpus(data_dir, jobs: int) -> FeaturizedCorpus:
    """The SENSEVAL-2 training sample, featurized as the task's svm trains (the test set is
    never read)."""
    task = catalogue.SENSEVAL2_LS
    sample = read_lexical_sample(task.path("train", data_dir))
    return engine.featurize(sample, task.featurizer(["svm"]), jobs=jobs,
                            description="spaCy (train)")


def lexelt_rows(corpus: FeaturizedCorpus, groups: Sequence[str]) -> list[LexeltRows]:
    """``engine.lexelt_rows`` of ``groups`` with each row's instance id."""
    lexelts = {lexelt.item: lexelt for lexelt in corpus.sample.lexelts}
    data = []
    for item, X, y, weights in engine.lexelt_rows(corpus, groups):
        # engine.training_rows gives each annotated instance one row per distinct tag
        instances = [instance.id for instance in lexelts[item].instances if instance.answers
                     for _ in dict.fromkeys(instance.answers)]
        data.append(LexeltRows(X, y, weights, instances))
    return data


def instance_folds(instances: Sequence[str], folds: int) -> Iterator[tuple[np.ndarray, list]]:
    """Per fold, the training rows and, per held-out instance, its rows; no fold when the lexelt
    has fewer instances than folds. The rows are taken in instance-id order, so that the folds
    and the training rows' order do not depend on the order of the file."""
    if len(set(instances)) < folds:
        return
    order = np.argsort(np.asarray(instances), kind="stable")
    ordered = [instances[row] for row in order]
    splitter = GroupKFold(folds, shuffle=True, random_state=FOLD_SEED)
    for train, test in splitter.split(ordered, groups=ordered):
        yield order[train], [list(order[list(rows)]) for _, rows in
                             itertools.groupby(test, ordered.__getitem__)]


def lexelt_accuracy(system: str, params: dict, rows: LexeltRows,
                    folds: int) -> tuple[np.ndarray, np.ndarray]:
    """Per fold, the held-out instances ``system`` with ``params`` gets right, and their count
    (zeros for a lexelt with fewer instances than folds)."""
    correct, scored = np.zeros(folds, int), np.zeros(folds, int)
    for fold, (train, held_out) in enumerate(instance_folds(rows.instances, folds)):
        model = systems.make(system, **params).fit(
            [rows.X[row] for row in train], [rows.y[row] for row in train],
            sample_weight=[rows.weights[row] for row in train])
        predicted = model.predict([rows.X[instance[0]] for instance in held_out])
        correct[fold] = sum(sense in {rows.y[row] for row in instance}
                            for sense, instance in zip(predicted, held_out))
        scored[fold] = len(held_out)
    return correct, scored


class FoldAccuracy(NamedTuple):
    """Held-out accuracy over every instance, and per fold: fold k gathers every lexelt's k-th
    held-out part, so two settings' folds hold the same instances."""

    accuracy: float
    folds: list[float]

    @property
    def standard_error(self) -> float:
        """The standard error of the mean fold accuracy (sample deviation / sqrt(folds))."""
        return float(np.std(self.folds, ddof=1) / np.sqrt(len(self.folds)))


def fold_accuracy(system: str, params: dict, data: list[LexeltRows], folds: int,
                  jobs: int) -> FoldAccuracy:
    """Held-out accuracy of ``system`` with ``params`` over every lexelt of ``data``, and per
    fold."""
    outcomes = Parallel(n_jobs=jobs)(
        delayed(lexelt_accuracy)(system, params, rows, folds) for rows in data)
    correct = sum(c for c, _ in outcomes)
    scored = sum(n for _, n in outcomes)
    return FoldAccuracy(float(correct.sum() / scored.sum()),
                        [float(value) for value in correct / scored])


def cross_validate(system: str, params: dict, data: list[LexeltRows], folds: int,
                   jobs: int) -> float:
    """Held-out accuracy of ``system`` with ``params`` over every lexelt of ``data``."""
    return fold_accuracy(system, params, data, folds, jobs).accuracy
