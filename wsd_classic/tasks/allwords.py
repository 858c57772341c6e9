"""The all-words task: systems trained on SemCor that tag any Raganato-format dataset.

Training is the lexical sample's, per lexelt (``lemma.pos``, e.g. ``bank.n``): SemCor's
sense-tagged words become a ``LexicalSample`` with one lexelt per lemma and part of speech, their
contexts are featurized by the same featurizer, and ``tasks.engine.train`` fits the same
estimators on every lexelt: ``svm``, ``dlist``, and ``mfs``, which is the ``commonest``
estimator (the lexelt's SemCor sense distribution); ``svm`` also learns from WordNet's example
sentences of the lexelt's senses (``corpora.wordnet_examples``), for every lexelt WordNet gives
two senses or more, so one SemCor tags with a single sense learns its others from them; a
task may have it learn from their definitions too (``corpora.wordnet_definitions``), and from
SemCor's instances of its senses' other words, at a lower weight (``corpora.sense_relatives``).
A lexelt whose training instances show one sense only has nothing to learn from features, so
its estimator is fitted on empty feature lists and answers that sense. ``wn1`` needs no
training: WordNet's first sense.

Tagging restricts a system's distribution to the target's candidates (the lemma's WordNet 3.0
senses for its part of speech). A lemma SemCor never tagged, or none of whose SemCor senses is a
candidate, gets the system's back-off: WordNet's first sense for ``svm`` and ``dlist`` (as IMS
does). ``mfs`` is the published SemCor MFS baseline (Raganato et al. 2017), which knows SemCor's
counts only: it takes the candidate first in WordNet's database order instead, since WordNet's
first sense is the ``wn1`` baseline's answer. (With WordNet's first sense as its back-off,
``mfs`` scores 66.8 / 66.2 / 55.6 F1 on senseval2 / senseval3 / semeval2007, 1.2 and 1.1 points
above the published 65.6 / 66.0 / 54.5 on two of them; any order that ignores sense frequency
lands within 0.4 of all three: ``bench/semcor.py --mfs-back-offs``.) Every target gets exactly
one key.
"""
from __future__ import annotations

import dataclasses
import os
from collections import defaultdict
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from wsd_classic import modelstore, systems
from wsd_classic.corpora import registry
from wsd_classic.corpora.model import Instance, Lexelt, LexicalSample
from wsd_classic.corpora.semcor import PARTS
from wsd_classic.errors import WsdError
from wsd_classic.features.featurizer import VECTOR_GROUP, Featurizer
from wsd_classic.modelstore import TrainedSystem
from wsd_classic.systems import BackOff
from wsd_classic.systems import discourse
from wsd_classic.systems.first_sense import wordnet_senses
from wsd_classic.preprocess import sentences
from wsd_classic.preprocess.document import ProcessedInstance
from wsd_classic.tasks import catalogue, engine, staging
from wsd_classic.corpora.allwords import (
    AllWordsCorpus, Target, read_raganato_corpus, read_semcor_corpus)
from wsd_classic.corpora.sense_relatives import read_sense_relatives
from wsd_classic.corpora.wordnet_definitions import read_wordnet_definitions
from wsd_classic.corpora.wordnet_examples import read_wordnet_examples
from wsd_classic.tasks.catalogue import PendingFeaturizer, Task
from wsd_classic.tasks.engine import FeaturizedCorpus
from wsd_classic.tasks.timing import StageTimer


@dataclass(frozen=True)
class TaggedInstance:
    """A target's answer: ``senses`` is the distribution over its candidates, best first,
    summing to 1; ``key`` the chosen sense; ``rank`` its 1-based position in WordNet's order."""

    instance_id: str
    senses: list[tuple[str, float]]
    key: str
    rank: int


# --- features ----------------------------------------------------------------------------------

def as_lexical_sample(corpus: AllWordsCorpus, targets: Iterable[Target]) -> LexicalSample:
    """``targets`` as lexical-sample instances, one lexelt per ``lemma.pos`` (sorted).

    An instance's text is its sentence (one string per sentence, shared) and its head the
    target word's character span there.
    """
    texts: dict[int, tuple[str, list[int]]] = {}
    by_lexelt: dict[str, list[Instance]] = defaultdict(list)
    for target in targets:
        if target.sentence not in texts:
            words = corpus.sentences[target.sentence].words
            starts = [0]
            for word in words[:-1]:
                starts.append(starts[-1] + len(word) + 1)
            texts[target.sentence] = (" ".join(words), starts)
        text, starts = texts[target.sentence]
        start = starts[target.token]
        head = (start, start + len(corpus.sentences[target.sentence].words[target.token]))
        by_lexelt[target.lexelt].append(Instance(
            target.id, target.lexelt, text, head, answers=target.keys,
            docsrc=corpus.sentences[target.sentence].document))
    return LexicalSample([Lexelt(item, instances) for item, instances in sorted(by_lexelt.items())],
                         corpus.source)


def featurize(corpus: AllWordsCorpus, sample: LexicalSample, featurizer: Featurizer,
              needs_features: Callable[[Target], bool], jobs: int = 1,
              progress: bool | None = None, description: str = "spaCy",
              analyses: list[ProcessedInstance] | None = None) -> FeaturizedCorpus:
    """Features of the targets ``needs_features`` selects, each in the context ``featurizer``'s
    rule gives it; the others get none. ``analyses``: the corpus's (``sentences.analyse``),
    made here when None and needed."""
    no_features = {group: () for group in featurizer.groups}
    table = {instance.id: no_features for instance in sample.instances()}

    def selected(target: Target) -> bool:
        return target.id in table and needs_features(target)

    if not any(map(selected, corpus.targets)):
        return FeaturizedCorpus(sample, table, featurizer)
    if analyses is None:
        analyses = sentences.analyse(corpus, jobs, progress, description)
    docs = sentences.contexts(corpus, analyses, featurizer.context.sentences or 0, selected)
    table.update(featurizer.table(docs, jobs, progress))
    return FeaturizedCorpus(sample, table, featurizer)


# --- training ----------------------------------------------------------------------------------

@dataclass
class TrainingData:
    """SemCor ready for the estimators, WordNet's examples and definitions of its lexelts and
    SemCor's instances of their senses' relatives (None: not read), and what the models must
    record about them."""

    corpus: AllWordsCorpus
    featurized: FeaturizedCorpus
    info: dict
    examples: FeaturizedCorpus | None = None
    definitions: FeaturizedCorpus | None = None
    relatives: FeaturizedCorpus | None = None

    def weighted_relatives(self, weight: float,
                           lexelts: Iterable[str] | None = None) -> FeaturizedCorpus | None:
        """The relatives' instances of ``lexelts`` (None: all), each of training weight
        ``weight`` (None: not read)."""
        if self.relatives is None:
            return None
        sample = self.relatives.sample
        wanted = None if lexelts is None else set(lexelts)
        lexelts = [Lexelt(lexelt.item, [dataclasses.replace(instance, weight=weight)
                                        for instance in lexelt.instances])
                   for lexelt in sample.lexelts if wanted is None or lexelt.item in wanted]
        return FeaturizedCorpus(LexicalSample(lexelts, sample.source), self.relatives.features,
                                self.relatives.featurizer)

    def featurized_with(self, *extras: FeaturizedCorpus) -> FeaturizedCorpus:
        """SemCor's featurized instances with the instances of each lexelt in ``extras`` (the
        examples, the definitions) added to it."""
        return with_instances(self.featurized, *extras)


def with_instances(base: FeaturizedCorpus, *extras: FeaturizedCorpus) -> FeaturizedCorpus:
    """``base`` with the instances of each of its lexelts in ``extras`` added after its own."""
    if not extras:
        return base
    extra: dict[str, list[Instance]] = defaultdict(list)
    for corpus in extras:
        for lexelt in corpus.sample.lexelts:
            extra[lexelt.item].extend(lexelt.instances)
    lexelts = [Lexelt(lexelt.item, [*lexelt.instances, *extra.get(lexelt.item, ())])
               for lexelt in base.sample.lexelts]
    features = dict(base.features)
    for corpus in extras:
        features.update(corpus.features)
    return FeaturizedCorpus(LexicalSample(lexelts, base.sample.source), features,
                            base.featurizer)


def tagged_with_several(senses: Mapping[str, Collection[str]]) -> set[str]:
    """The lexelts of ``senses`` (``lemma.pos``: the senses training tags them with) that
    training tags with two senses or more."""
    return {lexelt for lexelt, keys in senses.items() if len(keys) >= 2}


def polysemous(senses: Mapping[str, Collection[str]]) -> set[str]:
    """The lexelts of ``senses`` (as ``tagged_with_several``'s) that have two senses or more in
    WordNet 3.0 or in training. A lexelt training tags with one sense still learns WordNet's
    others from their examples: on every set of held-out SemCor files its targets get more
    right answers so than with that sense alone (``bench/semcor.py --tune-example-lexelts``:
    277 targets right so only, against 92)."""
    return tagged_with_several(senses) | {
        lexelt for lexelt in senses if len(wordnet_senses(*lexelt.rsplit(".", 1))) >= 2}


def prepare_training(semcor_root: Path, parts: Iterable[str] = PARTS, with_features: bool = True,
                     with_examples: bool = True, with_definitions: bool = False,
                     relatives_cap: int = 0,
                     featurizer: Featurizer | PendingFeaturizer | None = None,
                     jobs: int = 1, progress: bool | None = None) -> TrainingData:
    """Read SemCor and featurize the targets of its polysemous lexelts (``polysemous``), and
    WordNet's examples and definitions of those lexelts (with ``with_features`` and
    ``with_examples``, ``with_definitions``); with ``relatives_cap`` above 0, SemCor's
    instances of relatives of its lexelts' senses too (up to that many per sense,
    ``corpora.sense_relatives``), and the targets of the lexelts they give a second sense.
    ``featurizer`` (the semcor task's when None, its svm's word vectors included) may be
    ``Task.featurizer_later``'s, whose word vectors build meanwhile: every other group is
    computed first, while they build, and theirs once they are there."""
    parts = tuple(parts)
    featurizer = featurizer or catalogue.SEMCOR.featurizer_later(catalogue.SEMCOR.systems)
    corpus = read_semcor_corpus(semcor_root, parts)
    senses: dict[str, set[str]] = defaultdict(set)
    for target in corpus.targets:
        senses[target.lexelt].update(target.keys)
    multi_sense, polysemous_lexelts = tagged_with_several(senses), polysemous(senses)
    # Only these can learn a second sense; the engine fits the others without features.
    learning = polysemous_lexelts if with_examples or with_definitions else multi_sense
    featured = set(learning)
    relatives = None
    if with_features and relatives_cap > 0:
        relatives = read_sense_relatives(corpus, senses, relatives_cap)
        for target in relatives.targets:
            if senses[target.lexelt] != set(target.keys):
                featured.add(target.lexelt)
    sample = as_lexical_sample(corpus, corpus.targets)
    analyses = None
    extras = {}  # name: (corpus, analyses) of WordNet's texts read beside SemCor
    if with_features:
        analyses = sentences.analyse(corpus, jobs, progress, "spaCy (SemCor)")
        for name, wanted, read in (("examples", with_examples, read_wordnet_examples),
                                   ("definitions", with_definitions, read_wordnet_definitions)):
            if wanted:
                extra = read(learning)
                extras[name] = (extra, sentences.analyse(extra, jobs, progress,
                                                         f"spaCy (WordNet {name})"))
    if relatives is not None:
        extras["relatives"] = (relatives, analyses)
    ready = featurizer if isinstance(featurizer, Featurizer) else featurizer.without_vectors()
    learnt = ((lambda target: target.lexelt in featured) if with_features
              else (lambda target: False))
    parts_to_featurize = {  # by TrainingData's field: SemCor's targets, the texts read beside
        "featurized": (corpus, sample, learnt, analyses),
        **{name: (extra, as_lexical_sample(extra, extra.targets), lambda target: True,
                  extra_analyses) for name, (extra, extra_analyses) in extras.items()}}
    featurized_parts = {
        name: featurize(part, part_sample, ready, selected, jobs, progress, analyses=part_analyses)
        for name, (part, part_sample, selected, part_analyses) in parts_to_featurize.items()}
    if ready is not featurizer:
        featurizer = featurizer()
        vector_group = featurizer.for_groups([VECTOR_GROUP])
        for name, (part, part_sample, selected, part_analyses) in parts_to_featurize.items():
            vectors = (featurize(part, part_sample, vector_group, selected, jobs, progress,
                                 analyses=part_analyses).features
                       if featurizer.embedding is not None else {})
            featurized_parts[name] = FeaturizedCorpus(part_sample, {
                identifier: {**groups, VECTOR_GROUP: (), **vectors.get(identifier, {})}
                for identifier, groups in featurized_parts[name].features.items()}, featurizer)
    info = {"training": "SemCor 3.0", "parts": list(parts),
            "training_sha256": registry.tree_sha256(
                Path(semcor_root), tuple(f"{part}/tagfiles" for part in parts)),
            "targets": len(corpus.targets), "lexelts": len(senses),
            "multi_sense_lexelts": len(multi_sense),
            "polysemous_lexelts": len(polysemous_lexelts), "unknown_keys": corpus.unknown_keys,
            **({"relatives_cap": relatives_cap} if relatives is not None else {})}
    return TrainingData(corpus, info=info, **featurized_parts)


def train_system(name: str, data: TrainingData, jobs: int = 1, progress: bool | None = None,
                 params: dict | None = None, wordnet_examples: bool | None = None,
                 wordnet_definitions: bool | None = None, relatives_weight: float | None = None,
                 relatives_least: int | None = None, task: Task = catalogue.SEMCOR,
                 fitted: Mapping[str, TrainedSystem] | None = None) -> TrainedSystem:
    """Fit the all-words system ``name`` (not ``wn1``) on every lexelt of the training data;
    ``params`` override the task's parameters for it, ``wordnet_examples`` and
    ``wordnet_definitions`` (not None) its use of WordNet's examples and definitions,
    ``relatives_weight`` (not None; 0: none) the training weight of the sense relatives'
    instances and ``relatives_least`` (not None) the training instances of its own, SemCor's
    and WordNet's texts', a lexelt needs to get them. ``fitted``: systems already trained on
    the same data, by name, which a system made of others takes as its members
    (``engine.train``)."""
    if wordnet_examples is None:
        wordnet_examples = name in task.wordnet_examples
    if wordnet_definitions is None:
        wordnet_definitions = name in task.wordnet_definitions
    if relatives_weight is None:
        relatives_weight = task.relatives.weight if name in task.sense_relatives else 0.0
    if relatives_least is None:
        relatives_least = task.relatives.least_instances
    extras = []
    for wanted, extra, what in ((wordnet_examples, data.examples, "WordNet's examples"),
                                (wordnet_definitions, data.definitions, "WordNet's definitions"),
                                (relatives_weight > 0, data.relatives,
                                 "SemCor's instances of sense relatives")):
        if wanted and extra is None:
            raise WsdError(f"all-words system {name} trains on {what}: prepare the "
                           f"training data with features")
        if wanted and extra is not data.relatives:
            extras.append(extra)
    featurized = data.featurized_with(*extras)
    if relatives_weight > 0:
        relatives = data.weighted_relatives(relatives_weight, [
            lexelt.item for lexelt in featurized.sample.lexelts
            if len(lexelt.instances) >= relatives_least])
        featurized = with_instances(featurized, relatives)
    trained = engine.train(name, featurized, task.name, jobs, progress,
                           {**task.system_params(name), **(params or {})}, task.kind,
                           fitted)
    trained.info = {**data.info, "all_words_system": name,
                    "wordnet_examples": len(data.examples.sample) if wordnet_examples else 0,
                    "wordnet_definitions":
                        len(data.definitions.sample) if wordnet_definitions else 0,
                    "sense_relatives": len(relatives.sample) if relatives_weight > 0 else 0,
                    "sense_relatives_weight": relatives_weight,
                    "sense_relatives_least_instances": relatives_least}
    return trained


def train_all_words(task: Task, names: list[str], models_root: Path, data_dir=None,
                    jobs: int = 1) -> str:
    """The ``bin/train`` job of an all-words task: train and save ``names``; returns the report."""
    return train_semcor(task.root(data_dir), names, models_root, jobs, task, data_dir)


def train_semcor(semcor_root: Path, names: list[str], models_root: Path, jobs: int = 1,
                 task: Task = catalogue.SEMCOR, data_dir=None) -> str:
    """Train the all-words systems ``names`` on SemCor at ``semcor_root`` and save them; the
    word vectors come from ``data_dir``."""
    timer = StageTimer()
    trainable = [name for name in task.check_systems(names)
                 if systems.get(name).estimator is not None]
    with_features = any(systems.get(name).feature_groups for name in trainable)
    with timer.stage("read and preprocess"):
        data = prepare_training(
            semcor_root, with_features=with_features, jobs=jobs,
            with_examples=any(name in task.wordnet_examples for name in trainable),
            with_definitions=any(name in task.wordnet_definitions for name in trainable),
            relatives_cap=task.relatives.cap if any(
                name in task.sense_relatives for name in trainable) else 0,
            featurizer=task.featurizer_later(trainable, data_dir))
    info = data.info
    lines = [f"SemCor ({', '.join(info['parts'])}): {len(data.corpus.sentences):,} sentences, "
             f"{info['targets']:,} sense-tagged words in {info['lexelts']:,} lexelts "
             f"({info['multi_sense_lexelts']:,} tagged with two senses or more, "
             f"{info['polysemous_lexelts']:,} polysemous in SemCor or WordNet 3.0); "
             f"{info['unknown_keys']:,} tags of senses WordNet 3.0 lacks left out"]
    if data.examples is not None:
        learners = [name for name in trainable if name in task.wordnet_examples]
        lines.append(f"WordNet 3.0 examples of the polysemous lexelts' senses: "
                     f"{len(data.examples.sample):,}, training instances for {', '.join(learners)}")
    # Like bin/train's lexical-sample runs: the task's models change all at once, one run at a time.
    with staging.exclusive(models_root, task.name), \
            staging.staged_directory(Path(models_root) / task.name) as stage:
        for name in names:
            system = systems.get(name)
            if system.estimator is None:
                lines.append(f"{name}: nothing to train (WordNet's first sense)")
                continue
            with timer.stage(f"train {name}"):
                trained = train_system(name, data, jobs, task=task)
            with timer.stage("save"):
                modelstore.save(trained, models_root, task_dir=stage)
            lines.append(f"{name}: {system.estimator.__name__} estimators for "
                         f"{len(trained.models):,} lexelts saved to "
                         f"{modelstore.model_path(models_root, task.name, name)}")
    lines.append(timer.summary())
    return "\n".join(lines)


# --- tagging -----------------------------------------------------------------------------------

class AllWordsTagger:
    """A trained all-words system (``trained`` None for ``wn1``) that tags any number of corpora;
    ``discourse_weight``: how far the targets of one lexelt in one document are pulled towards
    each other's distributions (``systems.discourse``)."""

    def __init__(self, trained: TrainedSystem | None, back_off: BackOff,
                 discourse_weight: float = 0.0):
        self.trained = trained
        self.back_off = back_off
        self.discourse_weight = discourse_weight

    @classmethod
    def load(cls, name: str, models_root: Path, task: Task = catalogue.SEMCOR) -> "AllWordsTagger":
        system = systems.get(task.check_systems([name])[0])
        trained = modelstore.load(models_root, task.name, name) if system.estimator else None
        return cls(trained, system.back_off, task.discourse_weights.get(name, 0.0))

    def tag(self, corpus: AllWordsCorpus, jobs: int = 1,
            progress: bool | None = None) -> list[TaggedInstance]:
        """Every target of ``corpus``, in corpus order, with exactly one candidate key."""
        return self.answers(corpus, self.distributions(corpus, jobs, progress))

    def answers(self, corpus: AllWordsCorpus,
                distributions: dict[str, dict[str, float]]) -> list[TaggedInstance]:
        """Every target of ``corpus`` decided from the system's ``distributions`` (by target
        id), then pulled towards the others of its lexelt in its document."""
        decided = [self.decide(target, distributions.get(target.id))
                   for target in corpus.targets]
        pulled = discourse.pulled_together(
            [answer.senses for answer in decided],
            [(corpus.sentences[target.sentence].document, target.lexelt)
             for target in corpus.targets], self.discourse_weight)
        return [answer if weights is None else self.decide(target, weights)
                for answer, target, weights in zip(decided, corpus.targets, pulled)]

    def decide(self, target: Target, weights: dict[str, float] | None) -> TaggedInstance:
        senses, rank = engine.decide(wordnet_senses(target.lemma, target.pos), weights,
                                     self.back_off)
        return TaggedInstance(target.id, senses, senses[0][0], rank)

    def reads_features(self, lexelt: str) -> bool:
        """Whether the system's answer for ``lexelt`` depends on the context."""
        return (bool(systems.get(self.trained.system).feature_groups)
                and len(self.trained.models[lexelt].classes_) > 1)

    def distributions(self, corpus: AllWordsCorpus, jobs: int = 1,
                      progress: bool | None = None) -> dict[str, dict[str, float]]:
        """The system's sense distribution of every target of a lexelt it has a model of."""
        if self.trained is None:
            return {}
        models = self.trained.models
        sample = as_lexical_sample(
            corpus, (target for target in corpus.targets if target.lexelt in models))
        featurized = featurize(corpus, sample, self.trained.featurizer,
                               lambda target: self.reads_features(target.lexelt), jobs, progress)
        return {instance: weights
                for _, instance, weights in engine.tag(self.trained, featurized)}


def tag_raganato(path: str | os.PathLike, system: str, models_root: Path, *, jobs: int = 1,
                 progress: bool | None = None,
                 task: Task = catalogue.SEMCOR) -> Iterator[TaggedInstance]:
    """Tag every instance of a Raganato-format ``*.data.xml`` file, in file order."""
    tagger = AllWordsTagger.load(system, models_root, task)
    yield from tagger.tag(read_raganato_corpus(path), jobs, progress)
