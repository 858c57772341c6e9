"""Train, tag and score the systems on a lexical-sample corpus (one code path for every corpus).

Per lexelt, each system is fitted on feature lists built from the spaCy analyses of the training
contexts, and tags the test contexts with a weighted sense distribution.
"""
from __future__ import annotations

import contextlib
import signal
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np
from joblib import Parallel, delayed
from tqdm import tqdm

from wsd_classic import features as feature_groups
from wsd_classic import systems
from wsd_classic.corpora.model import Instance, LexicalSample
from wsd_classic.errors import WsdError
from wsd_classic.modelstore import TrainedSystem
from wsd_classic.preprocess.cache import processed


@dataclass
class FeaturizedCorpus:
    """A corpus with every instance's features, per feature group, by instance id."""

    sample: LexicalSample
    features: dict[str, dict[str, list[str]]]

    def rows(self, instances: Iterable[Instance], groups: Sequence[str]) -> list[list[str]]:
        return [[name for group in groups for name in self.features[instance.id][group]]
                for instance in instances]


def featurize(sample: LexicalSample, jobs: int = 1, description: str = "spaCy") -> FeaturizedCorpus:
    instances = list(sample.instances())
    docs = processed(instances, jobs=jobs, description=description)
    table = {doc.id: {group: extract(doc) for group, extract in feature_groups.EXTRACTORS.items()}
             for doc in docs}
    return FeaturizedCorpus(sample, table)


def training_rows(corpus: FeaturizedCorpus, instances: Sequence[Instance], groups: Sequence[str]):
    """X, y, sample weights: an instance with n gold tags gives n rows of weight 1/n."""
    X, y, weights = [], [], []
    for instance, row in zip(instances, corpus.rows(instances, groups)):
        tags = list(dict.fromkeys(instance.answers))
        for tag in tags:
            X.append(row)
            y.append(tag)
            weights.append(1.0 / len(tags))
    return X, y, weights


def _fit_lexelt(system: str, params: dict, item: str, X, y, weights):
    try:
        return systems.make(system, **params).fit(X, y, sample_weight=weights)
    except WsdError as error:  # an estimator does not know which lexelt it is fitted on
        raise WsdError(f"lexelt {item}: {system}: {error.message}") from None


def train(system: str, corpus: FeaturizedCorpus, task: str, jobs: int = 1,
          progress: bool | None = None, params: dict | None = None) -> TrainedSystem:
    """Fit ``system`` on every lexelt of ``corpus`` that has annotated instances.

    ``params`` override the system's registered constructor parameters.
    """
    groups = systems.SYSTEMS[system][0].feature_groups
    jobs_input = []
    for lexelt in corpus.sample.lexelts:
        annotated = [instance for instance in lexelt.instances if instance.answers]
        if annotated:
            jobs_input.append((lexelt.item, *training_rows(corpus, annotated, groups)))
    if progress is None:
        progress = sys.stderr.isatty()
    bar = tqdm(total=len(jobs_input), desc=f"train {system}", unit="lexelt", disable=not progress,
               file=sys.stderr)
    with _workers_deaf_to_interrupts(jobs):
        fitted = Parallel(n_jobs=jobs, return_as="generator")(
            delayed(_fit_lexelt)(system, params or {}, item, X, y, w)
            for item, X, y, w in jobs_input)
    models = {}
    for (item, *_), model in zip(jobs_input, fitted):
        models[item] = model
        bar.update()
    bar.close()
    return TrainedSystem(task, system, models)


@contextlib.contextmanager
def _workers_deaf_to_interrupts(jobs: int):
    """Worker processes joblib starts in this block ignore Ctrl-C, and this process does too.

    A Ctrl-C at the terminal reaches every process of the group, and each worker would print its
    own KeyboardInterrupt traceback. An ignored SIGINT survives the workers' exec (Python then
    installs no handler of its own), so only this process is interrupted, and stops them. The
    block lasts while joblib starts them and hands out the first lexelts: milliseconds.
    """
    if jobs == 1:  # no worker: joblib runs the lexelts here, and Ctrl-C must work
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def tag(trained: TrainedSystem, corpus: FeaturizedCorpus):
    """``(lexelt, instance id, {sense: weight})`` for every instance of a lexelt the system knows."""
    estimator = systems.SYSTEMS[trained.estimator_name][0]
    for lexelt in corpus.sample.lexelts:
        model = trained.models.get(lexelt.item)
        if model is None or not lexelt.instances:
            continue
        proba = model.predict_proba(corpus.rows(lexelt.instances, estimator.feature_groups))
        for instance, row in zip(lexelt.instances, proba):
            yield lexelt.item, instance.id, dict(zip(model.classes_.tolist(), row.tolist()))


def uses_wordnet_keys(sample: LexicalSample) -> bool:
    """Whether the corpus's sense ids are WordNet sense keys (else Lesk has no glosses)."""
    tags = [tag for instance in sample.instances() for tag in instance.answers]
    keys = [tag for tag in tags if "%" in tag]
    return bool(tags) and len(keys) >= 0.5 * len(tags)


def top_sense(weights: dict[str, float]) -> str:
    senses = list(weights)
    return senses[int(np.argmax([weights[sense] for sense in senses]))]
