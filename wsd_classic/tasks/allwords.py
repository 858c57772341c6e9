"""The all-words task: systems trained on SemCor that tag any Raganato-format dataset.

Training is the lexical sample's, per lexelt (``lemma.pos``, e.g. ``bank.n``): SemCor's
sense-tagged words become a ``LexicalSample`` with one lexelt per lemma and part of speech, their
contexts are featurized by the same extractors, and ``tasks.lexical_sample.train`` fits the same
estimators on every lexelt: ``svm``, ``dlist``, and ``mfs``, which is the ``commonest``
estimator (the lexelt's SemCor sense distribution); ``svm`` also learns from WordNet's example
sentences of the lexelt's senses (``tasks.allwords_examples``). A lexelt SemCor tags with one
sense only has nothing to learn from features, so its estimator is fitted on empty feature lists
and answers that sense. ``wn1`` needs no training: WordNet's first sense.

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

import os
import sys
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tqdm import tqdm

from wsd_classic import features as feature_groups
from wsd_classic import modelstore, systems
from wsd_classic.corpora import registry
from wsd_classic.corpora.model import Instance, Lexelt, LexicalSample
from wsd_classic.corpora.semcor import PARTS
from wsd_classic.errors import WsdError
from wsd_classic.modelstore import TrainedSystem
from wsd_classic.systems.first_sense import (
    database_first_sense, first_sense, rank, wordnet_senses)
from wsd_classic.tasks import allwords_preprocess, lexical_sample, staging
from wsd_classic.tasks.allwords_corpus import (
    AllWordsCorpus, Target, read_raganato_corpus, read_semcor_corpus)
from wsd_classic.tasks.allwords_examples import read_wordnet_examples
from wsd_classic.tasks.lexical_sample import FeaturizedCorpus
from wsd_classic.tasks.timing import StageTimer

TASK = "semcor"
SEMCOR_DATASET = "semcor-3.0"  # its name in corpora.registry
BackOff = Callable[[Sequence[str]], dict[str, float]]


@dataclass(frozen=True)
class AllWordsSystem:
    """``estimator``: the ``systems.SYSTEMS`` name fitted per lexelt (None: nothing to fit), with
    ``params`` over its registered ones; ``back_off``: the distribution over a target's
    candidates (WordNet's order) when the system knows nothing of its lemma;
    ``wordnet_examples``: whether WordNet's examples of a lexelt's senses join its SemCor
    instances in training (``tasks.allwords_examples``)."""

    estimator: str | None
    back_off: BackOff
    params: dict = field(default_factory=dict)
    wordnet_examples: bool = False


SYSTEMS = {
    "mfs": AllWordsSystem("commonest", database_first_sense),
    "wn1": AllWordsSystem(None, first_sense),
    # Chosen by held-out SemCor accuracy (every 5th file; within 0.1 point is a tie, broken by
    # F1 on the development set semeval2007), with bench/semcor.py --tune-svm
    # (bench/results/semcor_svm_*.json): lexelts with fewer than 10 training instances answer
    # their SemCor distribution (all five sets of files: 73.74 / 74.01 / 74.09 / 74.05 % for
    # 0 / 5 / 10 / 20); then C (73.50 / 73.84 / 73.83 / 73.79 / 73.75 % for 0.3 / 1 / 3 / 10 /
    # 30, the last four tied, development F1 61.3 / 61.8 / 62.0 / 61.8); then WordNet's
    # examples in training (--tune-examples, semcor_svm_examples.json: 74.31 against 74.09 %
    # without, better on each set of files; development F1 61.3 against 62.0).
    "svm": AllWordsSystem("svm", first_sense, {"C": 10.0, "min_instances": 10},
                          wordnet_examples=True),
    # Without WordNet's examples (semcor_dlist_examples.json): 72.45 % with them against 72.40,
    # a tie, and development F1 60.7 against 61.5.
    "dlist": AllWordsSystem("dlist", first_sense),
}
# Sentences on each side of the target's that the bag of words reads. ``bench/semcor.py
# --tune-context 0,1,2`` (bench/results/semcor_context.json): svm's accuracy on held-out SemCor
# files 73.47 / 73.46 / 73.43 %, F1 on the development set semeval2007 61.1 / 60.4 / 60.7: the
# sentence alone is best on both.
CONTEXT_SENTENCES = 0
NO_FEATURES = {group: () for group in feature_groups.EXTRACTORS}


@dataclass(frozen=True)
class TaggedInstance:
    """A target's answer: ``senses`` is the distribution over its candidates, best first,
    summing to 1; ``key`` the chosen sense; ``rank`` its 1-based position in WordNet's order."""

    instance_id: str
    senses: list[tuple[str, float]]
    key: str
    rank: int


def check_systems(names: Iterable[str]) -> list[str]:
    names = list(names)
    unknown = [name for name in names if name not in SYSTEMS]
    if unknown:
        raise WsdError(f"unknown all-words system {', '.join(unknown)}; known: "
                       f"{', '.join(SYSTEMS)}")
    return names


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


def featurize(corpus: AllWordsCorpus, sample: LexicalSample, context_sentences: int,
              needs_features: Callable[[Target], bool], jobs: int = 1,
              progress: bool | None = None, description: str = "spaCy") -> FeaturizedCorpus:
    """Features of the targets ``needs_features`` selects; the others get none.

    Feature names are interned: the same few hundred thousand names recur across hundreds of
    thousands of targets.
    """
    table = {instance.id: NO_FEATURES for instance in sample.instances()}

    def selected(target: Target) -> bool:
        return target.id in table and needs_features(target)

    count = sum(map(selected, corpus.targets))
    if not count:
        return FeaturizedCorpus(sample, table)
    analyses = allwords_preprocess.analyse(corpus, jobs, progress, description)
    if progress is None:
        progress = sys.stderr.isatty()
    docs = allwords_preprocess.contexts(corpus, analyses, context_sentences, selected)
    for doc in tqdm(docs, total=count, desc="features", unit="target", disable=not progress,
                    file=sys.stderr):
        table[doc.id] = {group: [sys.intern(name) for name in extract(doc)]
                         for group, extract in feature_groups.EXTRACTORS.items()}
    return FeaturizedCorpus(sample, table)


# --- training ----------------------------------------------------------------------------------

@dataclass
class TrainingData:
    """SemCor ready for the estimators, WordNet's examples of its lexelts (None: not read), and
    what the models must record about them."""

    corpus: AllWordsCorpus
    featurized: FeaturizedCorpus
    info: dict
    examples: FeaturizedCorpus | None = None

    def featurized_with_examples(self) -> FeaturizedCorpus:
        """SemCor's featurized instances with the examples of each lexelt added to it."""
        extra = {lexelt.item: lexelt.instances for lexelt in self.examples.sample.lexelts}
        lexelts = [Lexelt(lexelt.item, [*lexelt.instances, *extra.get(lexelt.item, ())])
                   for lexelt in self.featurized.sample.lexelts]
        return FeaturizedCorpus(LexicalSample(lexelts, self.featurized.sample.source),
                                {**self.featurized.features, **self.examples.features})


def prepare_training(semcor_root: Path, parts: Iterable[str] = PARTS, with_features: bool = True,
                     with_examples: bool = True,
                     context_sentences: int = CONTEXT_SENTENCES, jobs: int = 1,
                     progress: bool | None = None) -> TrainingData:
    """Read SemCor and featurize the targets of its lexelts with two senses or more, and
    WordNet's examples of those lexelts (with ``with_features`` and ``with_examples``)."""
    parts = tuple(parts)
    corpus = read_semcor_corpus(semcor_root, parts)
    senses: dict[str, set[str]] = defaultdict(set)
    for target in corpus.targets:
        senses[target.lexelt].update(target.keys)
    multi_sense = {lexelt for lexelt, keys in senses.items() if len(keys) >= 2}
    sample = as_lexical_sample(corpus, corpus.targets)
    featurized = featurize(
        corpus, sample, context_sentences,
        (lambda target: target.lexelt in multi_sense) if with_features else (lambda target: False),
        jobs, progress, "spaCy (SemCor)")
    examples = None
    if with_features and with_examples:
        examples_corpus = read_wordnet_examples(multi_sense)
        examples = featurize(examples_corpus,
                             as_lexical_sample(examples_corpus, examples_corpus.targets),
                             context_sentences, lambda target: True, jobs, progress,
                             "spaCy (WordNet examples)")
    info = {"training": "SemCor 3.0", "parts": list(parts),
            "training_sha256": registry.tree_sha256(
                Path(semcor_root), tuple(f"{part}/tagfiles" for part in parts)),
            "context_sentences": context_sentences, "targets": len(corpus.targets),
            "lexelts": len(senses), "multi_sense_lexelts": len(multi_sense),
            "unknown_keys": corpus.unknown_keys}
    return TrainingData(corpus, featurized, info, examples)


def train_system(name: str, data: TrainingData, jobs: int = 1, progress: bool | None = None,
                 params: dict | None = None,
                 wordnet_examples: bool | None = None) -> TrainedSystem:
    """Fit the all-words system ``name`` (not ``wn1``) on every SemCor lexelt; ``params``
    override its estimator parameters, ``wordnet_examples`` (not None) its use of them."""
    system = SYSTEMS[name]
    if wordnet_examples is None:
        wordnet_examples = system.wordnet_examples
    if wordnet_examples and data.examples is None:
        raise WsdError(f"all-words system {name} trains on WordNet's examples: prepare the "
                       f"training data with features")
    featurized = data.featurized_with_examples() if wordnet_examples else data.featurized
    trained = lexical_sample.train(system.estimator, featurized, TASK, jobs, progress,
                                   {**system.params, **(params or {})})
    trained.system, trained.estimator = name, system.estimator
    trained.info = {**data.info, "all_words_system": name,
                    "wordnet_examples": len(data.examples.sample) if wordnet_examples else 0}
    return trained


def train_semcor(semcor_root: Path, names: list[str], models_root: Path, jobs: int = 1) -> str:
    """The ``bin/train --task semcor`` job: train and save ``names``; returns the report."""
    timer = StageTimer()
    trainable = [name for name in check_systems(names) if SYSTEMS[name].estimator is not None]
    with_features = any(systems.SYSTEMS[SYSTEMS[name].estimator][0].feature_groups
                        for name in trainable)
    with timer.stage("read and preprocess"):
        data = prepare_training(
            semcor_root, with_features=with_features, jobs=jobs,
            with_examples=any(SYSTEMS[name].wordnet_examples for name in trainable))
    info = data.info
    lines = [f"SemCor ({', '.join(info['parts'])}): {len(data.corpus.sentences):,} sentences, "
             f"{info['targets']:,} sense-tagged words in {info['lexelts']:,} lexelts "
             f"({info['multi_sense_lexelts']:,} with two senses or more); "
             f"{info['unknown_keys']:,} tags of senses WordNet 3.0 lacks left out"]
    if data.examples is not None:
        learners = [name for name in trainable if SYSTEMS[name].wordnet_examples]
        lines.append(f"WordNet 3.0 examples of those lexelts' senses: "
                     f"{len(data.examples.sample):,}, training instances for {', '.join(learners)}")
    # Like bin/train's lexical-sample runs: models/semcor/ changes all at once, one run at a time.
    with staging.exclusive(models_root, TASK), \
            staging.staged_directory(Path(models_root) / TASK) as stage:
        for name in names:
            if SYSTEMS[name].estimator is None:
                lines.append(f"{name}: nothing to train (WordNet's first sense)")
                continue
            with timer.stage(f"train {name}"):
                trained = train_system(name, data, jobs)
            with timer.stage("save"):
                modelstore.save(trained, models_root, task_dir=stage)
            lines.append(f"{name}: {SYSTEMS[name].estimator} estimators for "
                         f"{len(trained.models):,} lexelts saved to "
                         f"{modelstore.model_path(models_root, TASK, name)}")
    lines.append(timer.summary())
    return "\n".join(lines)


# --- tagging -----------------------------------------------------------------------------------

class AllWordsTagger:
    """A trained all-words system (``trained`` None for ``wn1``) that tags any number of corpora."""

    def __init__(self, trained: TrainedSystem | None, back_off: BackOff = first_sense):
        self.trained = trained
        self.back_off = back_off

    @classmethod
    def load(cls, name: str, models_root: Path) -> "AllWordsTagger":
        system = SYSTEMS[check_systems([name])[0]]
        trained = (modelstore.load(models_root, TASK, name, system.estimator)
                   if system.estimator else None)
        return cls(trained, system.back_off)

    def tag(self, corpus: AllWordsCorpus, jobs: int = 1,
            progress: bool | None = None) -> list[TaggedInstance]:
        """Every target of ``corpus``, in corpus order, with exactly one candidate key."""
        distributions = self._distributions(corpus, jobs, progress) if self.trained else {}
        return [decide(target, distributions.get(target.id), self.back_off)
                for target in corpus.targets]

    def _distributions(self, corpus: AllWordsCorpus, jobs: int,
                       progress: bool | None) -> dict[str, dict[str, float]]:
        models = self.trained.models
        sample = as_lexical_sample(
            corpus, (target for target in corpus.targets if target.lexelt in models))
        reads_features = bool(systems.SYSTEMS[self.trained.estimator_name][0].feature_groups)
        context_sentences = self.trained.info.get("context_sentences", CONTEXT_SENTENCES)
        featurized = featurize(
            corpus, sample, context_sentences,
            lambda target: reads_features and len(models[target.lexelt].classes_) > 1,
            jobs, progress)
        return {instance: weights
                for _, instance, weights in lexical_sample.tag(self.trained, featurized)}


def decide(target: Target, weights: dict[str, float] | None,
           back_off: BackOff = first_sense) -> TaggedInstance:
    """The answer for ``target`` from a system's sense weights (None: the system knows nothing).

    Only candidates keep weight; with none left, ``back_off`` gives the distribution. Ties go to
    the sense WordNet lists first.
    """
    candidates = wordnet_senses(target.lemma, target.pos)
    kept = {key: weights.get(key, 0.0) for key in candidates} if weights else {}
    total = sum(kept.values())
    if total > 0:
        distribution = {key: weight / total for key, weight in kept.items()}
    else:
        distribution = {key: 0.0 for key in candidates} | back_off(candidates)
    ordered = sorted(candidates, key=lambda key: -distribution[key])
    return TaggedInstance(target.id, [(key, distribution[key]) for key in ordered], ordered[0],
                          rank(ordered[0], candidates))


def tag_raganato(path: str | os.PathLike, system: str, models_root: Path, *, jobs: int = 1,
                 progress: bool | None = None) -> Iterator[TaggedInstance]:
    """Tag every instance of a Raganato-format ``*.data.xml`` file, in file order."""
    tagger = AllWordsTagger.load(system, models_root)
    yield from tagger.tag(read_raganato_corpus(path), jobs, progress)
