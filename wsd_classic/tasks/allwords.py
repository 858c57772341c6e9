"""The all-words task's training: systems fitted on SemCor that tag any Raganato-format dataset
(``tasks.tagger``).

Training is the lexical sample's, per lexelt (``lemma.pos``, e.g. ``bank.n``): SemCor's
sense-tagged words become a ``LexicalSample`` with one lexelt per lemma and part of speech, their
contexts are featurized by the same featurizer, and ``tasks.engine.train`` fits the same
estimators on every lexelt: ``svm``, ``dlist``, and ``mfs``, which is the ``commonest``
estimator (the lexelt's SemCor sense distribution); ``svm`` also learns from WordNet's example
sentences of the lexelt's senses (``corpora.wordnet_examples``), for every lexelt WordNet gives
two senses or more, so one SemCor tags with a single sense learns its others from them.
A lexelt whose training instances show one sense only has nothing to learn from features, so
its estimator is fitted on empty feature lists and answers that sense. ``wn1`` needs no
training: WordNet's first sense.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from wsd_classic import modelstore, systems
from wsd_classic.corpora import registry
from wsd_classic.corpora.model import Instance, Lexelt, LexicalSample
from wsd_classic.corpora.semcor import PARTS
from wsd_classic.errors import WsdError
from wsd_classic.features.featurizer import Featurizer
from wsd_classic.modelstore import TrainedSystem
from wsd_classic.wordnet import wordnet_senses
from wsd_classic.preprocess import sentences
from wsd_classic.tasks import catalogue, engine, staging
from wsd_classic.tasks.allwords_features import as_lexical_sample, featurize
from wsd_classic.corpora.allwords import AllWordsCorpus, read_semcor_corpus
from wsd_classic.corpora.wordnet_examples import read_wordnet_examples
from wsd_classic.tasks.catalogue import Task
from wsd_classic.tasks.engine import FeaturizedCorpus
from wsd_classic.tasks.timing import StageTimer


@dataclass
class TrainingData:
    """SemCor ready for the estimators, WordNet's examples of its lexelts (None: not read), and
    what the models must record about them."""

    corpus: AllWordsCorpus
    featurized: FeaturizedCorpus
    info: dict
    examples: FeaturizedCorpus | None = None

    def featurized_with(self, *extras: FeaturizedCorpus) -> FeaturizedCorpus:
        """SemCor's featurized instances with the instances of each lexelt in ``extras`` (the
        examples) added to it."""
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
    right answers so than with that sense alone (``python -m bench semcor --tune-example-lexelts``:
    277 targets right so only, against 92)."""
    return tagged_with_several(senses) | {
        lexelt for lexelt in senses if len(wordnet_senses(*lexelt.rsplit(".", 1))) >= 2}


def prepare_training(semcor_root: Path, parts: Iterable[str] = PARTS, with_features: bool = True,
                     with_examples: bool = True,
                     featurizer: Featurizer | None = None,
                     jobs: int = 1, progress: bool | None = None,
                     timer: StageTimer | None = None) -> TrainingData:
    """Read SemCor and featurize the targets of its polysemous lexelts (``polysemous``), and
    WordNet's examples of those lexelts (with ``with_features`` and ``with_examples``), with
    ``featurizer`` (the semcor task's when None, its svm's word vectors included). ``timer``
    times each step as a stage of its own (the preparation's whole time otherwise)."""
    parts = tuple(parts)
    timer = timer or StageTimer()
    with timer.stage("read SemCor"):
        corpus = read_semcor_corpus(semcor_root, parts)
    senses: dict[str, set[str]] = defaultdict(set)
    for target in corpus.targets:
        senses[target.lexelt].update(target.keys)
    multi_sense, polysemous_lexelts = tagged_with_several(senses), polysemous(senses)
    # Only these can learn a second sense; the engine fits the others without features.
    learning = polysemous_lexelts if with_examples else multi_sense
    sample = as_lexical_sample(corpus, corpus.targets)
    analyses = None
    extras = {}  # name: (corpus, analyses) of WordNet's texts read beside SemCor
    if with_features:
        with timer.stage("spaCy SemCor"):
            analyses = sentences.analyse(corpus, jobs, progress, "spaCy (SemCor)")
        if with_examples:
            with timer.stage("read WordNet examples"):
                extra = read_wordnet_examples(learning)
            with timer.stage("spaCy WordNet examples"):
                extras["examples"] = (extra, sentences.analyse(extra, jobs, progress,
                                                               "spaCy (WordNet examples)"))
    if featurizer is None:
        with timer.stage("word vectors"):
            featurizer = catalogue.SEMCOR.featurizer(catalogue.SEMCOR.systems)
    learnt = ((lambda target: target.lexelt in learning) if with_features
              else (lambda target: False))
    # By TrainingData's field: the texts read beside SemCor, then SemCor's targets. The
    # examples, too few for workers, are featurized in this process first: that fills the
    # featurizer's caches of each lexelt's gloss signatures and embeddings, which SemCor's
    # workers, forked after, share rather than fill each again (docs/speed.md).
    parts_to_featurize = {
        **{name: (extra, as_lexical_sample(extra, extra.targets), lambda target: True,
                  extra_analyses) for name, (extra, extra_analyses) in extras.items()},
        "featurized": (corpus, sample, learnt, analyses)}
    with timer.stage("features"):
        featurized_parts = {
            name: featurize(part, part_sample, featurizer, selected, jobs, progress,
                            analyses=part_analyses)
            for name, (part, part_sample, selected, part_analyses) in parts_to_featurize.items()}
    info = {"training": "SemCor 3.0", "parts": list(parts),
            "training_sha256": registry.tree_sha256(
                Path(semcor_root), tuple(f"{part}/tagfiles" for part in parts)),
            "targets": len(corpus.targets), "lexelts": len(senses),
            "multi_sense_lexelts": len(multi_sense),
            "polysemous_lexelts": len(polysemous_lexelts), "unknown_keys": corpus.unknown_keys}
    return TrainingData(corpus, info=info, **featurized_parts)


def train_system(name: str, data: TrainingData, jobs: int = 1, progress: bool | None = None,
                 params: dict | None = None, wordnet_examples: bool | None = None,
                 task: Task = catalogue.SEMCOR,
                 fitted: Mapping[str, TrainedSystem] | None = None) -> TrainedSystem:
    """Fit the all-words system ``name`` (not ``wn1``) on every lexelt of the training data;
    ``params`` override the task's parameters for it, ``wordnet_examples`` (not None) its use
    of WordNet's examples. ``fitted``: systems already trained on the same data, by name, which
    a system made of others takes as its members (``engine.train``)."""
    if wordnet_examples is None:
        wordnet_examples = name in task.wordnet_examples
    if wordnet_examples and data.examples is None:
        raise WsdError(f"all-words system {name} trains on WordNet's examples: prepare the "
                       f"training data with features")
    featurized = data.featurized_with(*([data.examples] if wordnet_examples else []))
    trained = engine.train(name, featurized, task.name, jobs, progress,
                           {**task.system_params(name), **(params or {})}, task.kind,
                           fitted, discourse_weight=task.discourse_weights.get(name, 0.0))
    if systems.get(name).scorer is not None:  # the hybrid weighs ppr by SemCor's instances
        support = semcor_support(data)
        for item, model in trained.models.items():
            model.with_support(support.get(item, 0))
    trained.info = {**data.info, "all_words_system": name,
                    "wordnet_examples": len(data.examples.sample) if wordnet_examples else 0}
    return trained


def semcor_support(data: TrainingData) -> dict[str, int]:
    """SemCor's training instances of each lexelt (WordNet's examples not counted)."""
    return {lexelt.item: len(lexelt.instances) for lexelt in data.featurized.sample.lexelts}


def train_all_words(task: Task, names: list[str], models_root: Path, data_dir=None,
                    jobs: int = 1) -> str:
    """The ``bin/train`` job of an all-words task: train and save ``names``; returns the report."""
    return train_semcor(task.root(data_dir), names, models_root, jobs, task, data_dir)


def train_semcor(semcor_root: Path, names: list[str], models_root: Path, jobs: int = 1,
                 task: Task = catalogue.SEMCOR, data_dir=None) -> str:
    """Train the all-words systems ``names`` on SemCor at ``semcor_root`` and save them; a
    context scorer's resources come from ``data_dir``."""
    timer = StageTimer()
    trainable = [name for name in task.check_systems(names)
                 if systems.get(name).estimator is not None]
    with_features = any(systems.get(name).feature_groups for name in trainable)
    lines = []
    if trainable:  # a context scorer (ppr) reads no SemCor
        with timer.stage("read and preprocess"):
            data = prepare_training(
                semcor_root, with_features=with_features, jobs=jobs,
                with_examples=any(name in task.wordnet_examples for name in trainable),
                featurizer=task.featurizer(trainable))
        lines += _training_summary(data, [name for name in trainable
                                          if name in task.wordnet_examples])
    # Like bin/train's lexical-sample runs: the task's models change all at once, one run at a time.
    # A system made of others takes their models trained earlier in the run (engine.train).
    earlier: dict[str, TrainedSystem] = {}
    with staging.exclusive(models_root, task.name), \
            staging.staged_directory(Path(models_root) / task.name) as stage:
        for name in names:
            system = systems.get(name)
            if system.scorer is not None and system.estimator is None:
                with timer.stage(f"build {name}"):
                    trained = scorer_model(name, task, data_dir)
                with timer.stage("save"):
                    modelstore.save(trained, models_root, task_dir=stage)
                graph = trained.info["graph"]
                lines.append(f"{name}: nothing to train; its {graph['graph']} graph "
                             f"({graph['nodes']:,} synsets, {graph['edges']:,} edges) saved to "
                             f"{modelstore.model_path(models_root, task.name, name)}")
                continue
            if system.estimator is None:
                lines.append(f"{name}: nothing to train (WordNet's first sense)")
                continue
            with timer.stage(f"train {name}"):
                trained = train_system(name, data, jobs, task=task, fitted=earlier)
            if system.scorer is not None:  # the hybrid: its scorer's resources beside its models
                with timer.stage(f"build {name}"):
                    scorer = system.scorer.built(task.system_params(name), data_dir)
                trained.resources = scorer.resources()
                trained.info = {**trained.info, "graph": scorer.graph.header}
            if any(name in systems.get(other).estimator.member_systems
                   for other in names[names.index(name) + 1:]
                   if systems.get(other).estimator is not None):
                earlier[name] = trained
            with timer.stage("save"):
                modelstore.save(trained, models_root, task_dir=stage)
            lines.append(f"{name}: {system.estimator.__name__} estimators for "
                         f"{len(trained.models):,} lexelts saved to "
                         f"{modelstore.model_path(models_root, task.name, name)}")
    lines.append(timer.summary())
    return "\n".join(lines)


def _training_summary(data: TrainingData, learners: list[str]) -> list[str]:
    info = data.info
    lines = [f"SemCor ({', '.join(info['parts'])}): {len(data.corpus.sentences):,} sentences, "
             f"{info['targets']:,} sense-tagged words in {info['lexelts']:,} lexelts "
             f"({info['multi_sense_lexelts']:,} tagged with two senses or more, "
             f"{info['polysemous_lexelts']:,} polysemous in SemCor or WordNet 3.0); "
             f"{info['unknown_keys']:,} tags of senses WordNet 3.0 lacks left out"]
    if data.examples is not None:
        lines.append(f"WordNet 3.0 examples of the polysemous lexelts' senses: "
                     f"{len(data.examples.sample):,}, training instances for {', '.join(learners)}")
    return lines


def scorer_model(name: str, task: Task = catalogue.SEMCOR, data_dir=None) -> TrainedSystem:
    """A context scorer's model (``ppr``): nothing fitted, its task's parameters and what it
    reads (the knowledge graph, built from the data directory), which the header describes."""
    scorer = systems.get(name).scorer.built(task.system_params(name), data_dir)
    return TrainedSystem(task.name, name, {}, info={"graph": scorer.graph.header},
                         featurizer=Featurizer(task.context), kind=task.kind,
                         params=scorer.params, resources=scorer.resources())
