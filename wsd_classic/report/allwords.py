"""An all-words run's saved results (``results/semcor/``) for the report.

``scores.json`` maps each system to its figures per evaluation dataset, as fractions:
``{system: {dataset: {"precision": p, "recall": r, "f1": f, ...}}}`` (other fields are ignored).
Where the run's answers ``<system>.<dataset>.key`` and the dataset's registered gold key are both
at hand, each instance is rescored with Raganato et al.'s scorer, which gives the figures, their
bootstrap intervals and McNemar's tests; otherwise the report shows the figures of
``scores.json`` alone and says why.
"""
from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from wsd_classic.corpora import registry
from wsd_classic.corpora.raganato import read_raganato_key
from wsd_classic.errors import WsdError
from wsd_classic.scoring.statistics import Interval, McNemar, bootstrap_f1_interval, mcnemar
from wsd_classic.scoring.raganato import instance_credit, score_raganato

FIELDS = ("precision", "recall", "f1")
AllWordsScores = dict[str, dict[str, dict[str, float]]]


def read_scores(path: str | os.PathLike) -> AllWordsScores:
    """The P/R/F1 of every system on every dataset, checked to be fractions in [0, 1]."""
    path = Path(path)
    if not path.is_file():
        raise WsdError("no all-words scores: run bin/train --task semcor, then bin/evaluate, "
                       "which writes this file", path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise WsdError(f"cannot read the scores: {error.strerror or error}", path) from None
    except ValueError as error:
        raise WsdError(f"not JSON: {error}", path, getattr(error, "lineno", None)) from None
    if not isinstance(data, dict) or not data:
        raise WsdError("expected {system: {dataset: {precision, recall, f1}}}, found no system",
                       path)
    scores: AllWordsScores = {}
    for system, datasets in data.items():
        if not isinstance(datasets, dict):
            raise WsdError(f"{system}: expected {{dataset: {{precision, recall, f1}}}}", path)
        scores[system] = {dataset: _figures(figures, f"{system}/{dataset}", path)
                          for dataset, figures in datasets.items()}
    return scores


def _figures(figures, where: str, path: Path) -> dict[str, float]:
    if not isinstance(figures, dict) or not all(field in figures for field in FIELDS):
        raise WsdError(f"{where}: expected the fields {', '.join(FIELDS)}", path)
    result = {}
    for field in FIELDS:
        value = figures[field]
        if (isinstance(value, bool) or not isinstance(value, (int, float))
                or not math.isfinite(value) or not 0 <= value <= 1):
            raise WsdError(f"{where}: {field} {value!r} is not a fraction between 0 and 1", path)
        result[field] = float(value)
    return result


def datasets(scores: AllWordsScores) -> list[str]:
    """Every dataset any system was scored on, in first-seen order."""
    return list(dict.fromkeys(dataset for figures in scores.values() for dataset in figures))


@dataclass(frozen=True)
class DatasetScore:
    """One system on one dataset; ``correct`` (per gold instance, in gold order: its prediction
    earned full credit) and ``interval`` (of F1) only when the answers could be rescored."""

    system: str
    precision: float
    recall: float
    f1: float
    interval: Interval | None = None
    correct: np.ndarray | None = None


@dataclass(frozen=True)
class AllWordsResults:
    source: Path
    by_dataset: dict[str, list[DatasetScore]]  # best F1 first
    notes: tuple[str, ...]

    def comparisons(self, dataset: str) -> list[tuple[str, McNemar]]:
        """McNemar's test of the dataset's best rescored system against each other one."""
        rescored = [score for score in self.by_dataset[dataset] if score.correct is not None]
        return [(other.system, mcnemar(rescored[0].correct, other.correct))
                for other in rescored[1:]]


def gold_key_path(dataset: str, data_dir=None) -> Path | None:
    """The registered gold key of a dataset name, or None for a name the registry lacks."""
    registered = registry.DATASETS.get(dataset)
    filename = f"{dataset}.gold.key.txt"
    if registered is None or filename not in registered.paths():
        return None
    return registry.file(dataset, filename, data_dir)


def rescore(gold: dict[str, tuple[str, ...]], predicted: dict[str, tuple[str, ...]],
            system: str) -> DatasetScore:
    """Score each gold instance on its own with Raganato's scorer, then the whole dataset."""
    credit, answered = instance_credit(gold, predicted)
    total = score_raganato(gold, predicted, quiet=True)
    return DatasetScore(system, total.precision, total.recall, total.f1,
                        bootstrap_f1_interval(credit, answered),
                        np.array([value >= 1.0 for value in credit]))


def load(task_dir: Path, data_dir=None) -> AllWordsResults:
    scores_path = Path(task_dir) / "scores.json"
    scores = read_scores(scores_path)
    by_dataset: dict[str, list[DatasetScore]] = {}
    notes = []
    for dataset in datasets(scores):
        try:
            gold_path = gold_key_path(dataset, data_dir)
            gold = read_raganato_key(gold_path) if gold_path else None
            if gold is None:
                notes.append(f"{dataset}: not a registered dataset, so its gold key is unknown: "
                             "figures from scores.json, without intervals or tests")
        except WsdError as error:
            gold = None
            notes.append(f"{dataset}: gold key unavailable ({error}): figures from scores.json, "
                         "without intervals or tests")
        rows = []
        for system, figures in scores.items():
            if dataset not in figures:
                continue
            answers = Path(task_dir) / f"{system}.{dataset}.key"
            if gold is not None and answers.is_file():
                rows.append(rescore(gold, read_raganato_key(answers), system))
            else:
                if gold is not None:
                    notes.append(f"{system} on {dataset}: no answer file {answers.name}: "
                                 "figures from scores.json, without interval or test")
                rows.append(DatasetScore(system, *(figures[dataset][field] for field in FIELDS)))
        by_dataset[dataset] = sorted(rows, key=lambda row: -row.f1)
    return AllWordsResults(scores_path, by_dataset, tuple(notes))
