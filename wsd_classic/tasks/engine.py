"""The one train/tag engine under every command: fit per lexelt, predict, restrict, back off.

Per lexelt, a system's estimator is fitted on the feature rows of its annotated instances (in
parallel over lexelts), and predicts a sense distribution for each instance to tag. All-words
tasks then keep only the target's candidates (its lemma's WordNet senses) and answer a target
the system knows nothing of with the system's back-off (``decide``).
"""
from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from tqdm import tqdm

from wsd_classic import systems
from wsd_classic.corpora.model import Instance, LexicalSample
from wsd_classic.errors import WsdError
from wsd_classic.features.featurizer import Featurizer, row
from wsd_classic.modelstore import TrainedSystem
from wsd_classic.preprocess.cache import processed
from wsd_classic.preprocess.document import ProcessedInstance
from wsd_classic.systems import BackOff, reads_walks
from wsd_classic.systems.personalised_pagerank import WALK_GROUP, PersonalisedPageRank
from wsd_classic.wordnet import rank
from wsd_classic.tasks.catalogue import LEXICAL_SAMPLE
from wsd_classic.workers import in_workers


@dataclass
class FeaturizedCorpus:
    """A corpus with every instance's features, per feature group, by instance id, the
    featurizer that made them and ``walk``, the walk whose evidence fills their ``ppr`` group
    (``add_walk_evidence``; None: the group is the featurizer's, empty)."""

    sample: LexicalSample
    features: dict[str, dict[str, list[str]]]
    featurizer: Featurizer
    walk: PersonalisedPageRank | None = None

    def rows(self, instances: Iterable[Instance], groups: Sequence[str]) -> list[list[str]]:
        return [row(self.features[instance.id], groups) for instance in instances]


def analyse(sample: LexicalSample, jobs: int = 1,
            description: str = "spaCy") -> list[ProcessedInstance]:
    """spaCy's analyses of a lexical sample's instances, each in the context it comes with."""
    return processed(list(sample.instances()), jobs=jobs, description=description)


def featurize(sample: LexicalSample, featurizer: Featurizer = Featurizer(), jobs: int = 1,
              description: str = "spaCy",
              docs: list[ProcessedInstance] | None = None) -> FeaturizedCorpus:
    """Features of a lexical sample's instances, from their analyses ``docs`` (``analyse``'s,
    made here when None)."""
    docs = analyse(sample, jobs, description) if docs is None else docs
    return FeaturizedCorpus(sample, featurizer.table(docs, jobs), featurizer)


def add_walk_evidence(corpora: Sequence[FeaturizedCorpus],
                      docs: Sequence[Sequence[ProcessedInstance]], walk: PersonalisedPageRank,
                      jobs: int = 1) -> None:
    """Fill the ``ppr`` group of every context of ``corpora`` (their analyses ``docs``, by
    corpus) with ``walk``'s evidence (``PersonalisedPageRank.evidence``), over all of them at
    once; each corpus then names the walk, which its models keep (``train``)."""
    evidence = walk_evidence([doc for side in docs for doc in side], walk, jobs)
    for corpus in corpora:
        for instance, groups in corpus.features.items():
            groups[WALK_GROUP] = evidence[instance]
        corpus.walk = walk


def walk_evidence(docs: Sequence[ProcessedInstance], walk: PersonalisedPageRank,
                  jobs: int = 1) -> dict[str, list]:
    """The ``ppr`` group of each context of ``docs`` (by id): one block of ``walk``'s
    probabilities of its candidates. A context's block is the same whatever else is walked
    with it, so tagging gives a context the block training gave it."""
    return {instance: [block] for instance, block in walk.evidence(docs, jobs).items()}


def training_rows(corpus: FeaturizedCorpus, instances: Sequence[Instance], groups: Sequence[str]):
    """X, y, sample weights: an instance with n gold tags gives n rows of weight 1 / n."""
    X, y, weights = [], [], []
    for instance, features in zip(instances, corpus.rows(instances, groups)):
        tags = list(dict.fromkeys(instance.answers))
        for tag in tags:
            X.append(features)
            y.append(tag)
            weights.append(1.0 / len(tags))
    return X, y, weights


def lexelt_rows(corpus: FeaturizedCorpus, groups: Sequence[str]) -> list[tuple]:
    """``(item, X, y, weights)`` of every lexelt of ``corpus`` that has annotated instances; a
    lexelt they show with one sense only gets empty rows: its estimator has nothing to learn
    from features, and its model need not keep their names."""
    rows = []
    for lexelt in corpus.sample.lexelts:
        annotated = [instance for instance in lexelt.instances if instance.answers]
        if annotated:
            X, y, weights = training_rows(corpus, annotated, groups)
            if len(set(y)) == 1:
                X = [[] for _ in X]
            rows.append((lexelt.item, X, y, weights))
    return rows


def _fit_lexelt(job: tuple):
    """The estimator of one lexelt's ``(system, params, item, X, y, weights, members,
    shared)``: ``shared``, the ``fit`` arguments the estimator drew from every lexelt."""
    system, params, item, X, y, weights, members, shared = job
    fit_params = {**({"fitted_members": members} if members else {}), **shared}
    try:
        return systems.make(system, **params).fit(X, y, sample_weight=weights, **fit_params)
    except WsdError as error:  # an estimator does not know which lexelt it is fitted on
        raise WsdError(f"lexelt {item}: {system}: {error.message}") from None


def train(system: str, corpus: FeaturizedCorpus, task: str, jobs: int = 1,
          progress: bool | None = None, params: dict | None = None,
          kind: str = LEXICAL_SAMPLE,
          fitted: Mapping[str, TrainedSystem] | None = None,
          discourse_weight: float = 0.0) -> TrainedSystem:
    """Fit ``system`` on every lexelt of ``corpus`` that has annotated instances, for the task
    named ``task`` of kind ``kind``; its model records the task's ``discourse_weight``.

    ``params`` override the system's registered constructor parameters. ``fitted``: systems
    already trained on ``corpus``, by name; a system made of others (``member_systems``) is
    given their models of each lexelt rather than fitting them again. An estimator that learns
    across lexelts (``shared_fit_params``) is handed what it drew from all of them. A system
    that reads ppr's walks (``systems.reads_walks``) keeps the corpus's ``walk`` in its model,
    so that tagging computes the same evidence.
    """
    registered = systems.get(system)
    walk = None
    if reads_walks({**registered.params, **(params or {})}):
        if corpus.walk is None:
            raise WsdError(f"{system} reads ppr's walks over the contexts, which only a "
                           "lexical-sample run computes")
        walk = corpus.walk
    jobs_input = lexelt_rows(corpus, registered.feature_groups)
    registered.estimator.load_resources()
    members = [fitted[name] for name in registered.estimator.member_systems
               if name in (fitted or {})]
    if progress is None:
        progress = sys.stderr.isatty()
    bar = tqdm(total=len(jobs_input), desc=f"train {system}", unit="lexelt", disable=not progress,
               file=sys.stderr)
    shared = registered.estimator.shared_fit_params(jobs_input)
    # The costliest lexelts (rows x senses) go to the workers first, so that the last ones
    # handed out are small and the workers finish together.
    order = sorted(range(len(jobs_input)),
                   key=lambda job: -len(jobs_input[job][1]) * len(set(jobs_input[job][2])))
    fitted_models = {}
    for job, model in zip(order, in_workers(_fit_lexelt, [
            (system, params or {}, item, X, y, weights,
             {member.system: member.models[item] for member in members if item in member.models},
             shared.get(item, {}))
            for item, X, y, weights in (jobs_input[job] for job in order)], jobs)):
        fitted_models[job] = model
        bar.update()
    bar.close()
    models = {item: fitted_models[job] for job, (item, *_) in enumerate(jobs_input)}
    return TrainedSystem(task, system, models, featurizer=corpus.featurizer, kind=kind,
                         discourse_weight=discourse_weight, walk=walk)


def predict(model, rows: list[list[str]]) -> list[dict[str, float]]:
    """``{sense: weight}`` for each row."""
    classes = model.classes_.tolist()
    return [dict(zip(classes, weights.tolist())) for weights in model.predict_proba(rows)]


def tag(trained: TrainedSystem, corpus: FeaturizedCorpus) -> Iterator[tuple[str, str, dict]]:
    """``(lexelt, instance id, {sense: weight})`` for every instance of a lexelt the system knows."""
    groups = systems.get(trained.system).feature_groups
    for lexelt in corpus.sample.lexelts:
        model = trained.models.get(lexelt.item)
        if model is None or not lexelt.instances:
            continue
        for instance, weights in zip(lexelt.instances,
                                     predict(model, corpus.rows(lexelt.instances, groups))):
            yield lexelt.item, instance.id, weights


def decide(candidates: Sequence[str], weights: dict[str, float] | None,
           back_off: BackOff) -> tuple[list[tuple[str, float]], int]:
    """The distribution over ``candidates`` (best first, summing to 1) from a system's weights
    (None: the system knows nothing of the target), and the 1-based WordNet rank of the best.

    Only candidates keep weight; with none left, ``back_off`` gives the distribution. Ties go to
    the sense WordNet lists first.
    """
    kept = {key: weights.get(key, 0.0) for key in candidates} if weights else {}
    total = sum(kept.values())
    if total > 0:
        distribution = {key: weight / total for key, weight in kept.items()}
    else:
        distribution = {key: 0.0 for key in candidates} | back_off(candidates)
    ordered = sorted(candidates, key=lambda key: -distribution[key])
    return [(key, distribution[key]) for key in ordered], rank(ordered[0], candidates)


def uses_wordnet_keys(sample: LexicalSample) -> bool:
    """Whether the corpus's sense ids are WordNet sense keys (else Lesk has no glosses)."""
    tags = [tag for instance in sample.instances() for tag in instance.answers]
    keys = [tag for tag in tags if "%" in tag]
    return bool(tags) and len(keys) >= 0.5 * len(tags)


def top_sense(weights: dict[str, float]) -> str:
    senses = list(weights)
    return senses[int(np.argmax([weights[sense] for sense in senses]))]
