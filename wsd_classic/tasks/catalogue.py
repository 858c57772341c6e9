"""The task catalogue: one entry per task, and every command looks tasks up here.

A task holds its corpora (a registered dataset, or files given by path), its kind (a lexical
sample, or all-words on WordNet's inventory), its candidate rule, its context rule, its default
systems and the system parameters its own cross-validation chose. Adding a task is one
``register`` call (see ARCHITECTURE.md).
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from wsd_classic import systems, tuned
from wsd_classic.corpora import registry
from wsd_classic.errors import WsdError
from wsd_classic.features.embeddings import ContextEmbedding, EmbeddingRule
from wsd_classic.features.featurizer import VECTOR_GROUP, ContextRule, Featurizer

# A task's kind fixes what a target is and its candidate senses: in a lexical sample, an
# instance of a lexelt, choosing among the senses its training data shows (with SENSEVAL's
# phrasal-verb filter); in all-words, every content word, choosing among the WordNet 3.0 senses of
# its lemma for its part of speech (``tasks.engine.decide``).
LEXICAL_SAMPLE, ALL_WORDS = "lexical-sample", "all-words"
# A plausibility benchmark rates how well a given meaning of a word fits a story, reading the
# all-words svm's sense distribution with the whole story as context (``benchmarks``).
PLAUSIBILITY = "plausibility"


@dataclass(frozen=True)
class LexicalSampleFiles:
    """File names inside the task's dataset directory, or paths (``directory`` None)."""

    train: str | os.PathLike
    test: str | os.PathLike | None = None
    key: str | os.PathLike | None = None
    sensemap: str | os.PathLike | None = None
    training_key: str | os.PathLike | None = None
    train_answers: str | os.PathLike | None = None  # the training answers, when not in its XML


@dataclass(frozen=True)
class Task:
    """``dataset``: the ``corpora.registry`` name holding the corpora (None: ``directory``, or
    paths in ``files``); ``split``: train:test parts drawn from ``files.train`` (seed ``seed``)
    when there is no test set; ``params``: per-system parameters over the registered ones;
    ``wordnet_examples``: systems that also train on WordNet's example sentences;
    ``discourse_weights``: per all-words system, how far the targets of one lexelt in one
    document are pulled towards each other's distributions (``systems.discourse``; 0 when
    absent);
    ``embedding``: how the ``emb`` group combines word vectors (None: the task has none);
    ``on_request``: systems trained only when ``--systems`` names them (``systems`` are the
    default);
    ``published``: whether tables set the published rows of this task beside ours."""

    name: str
    kind: str
    systems: tuple[str, ...]
    context: ContextRule = ContextRule()
    on_request: tuple[str, ...] = ()
    embedding: EmbeddingRule | None = None
    dataset: str | None = None
    directory: Path | None = None
    files: LexicalSampleFiles | None = None
    params: dict[str, dict] = field(default_factory=dict)
    wordnet_examples: frozenset[str] = frozenset()
    discourse_weights: dict[str, float] = field(default_factory=dict)
    split: tuple[int, int] | None = None
    seed: int = 0
    published: bool = False

    def system_params(self, name: str) -> dict:
        return {**systems.get(name).params, **self.params.get(name, {})}

    def featurizer(self, names) -> Featurizer:
        """The featurizer that systems ``names`` train with: with the task's installed word
        vectors when one of them reads embeddings."""
        if self.embedding is None or not any(
                VECTOR_GROUP in systems.get(name).feature_groups for name in names):
            return Featurizer(self.context)
        return Featurizer(self.context, embedding=ContextEmbedding(self.embedding))

    def check_systems(self, names) -> list[str]:
        return systems.check_systems(names, self.systems + self.on_request, self.name)

    def root(self, data_dir: str | os.PathLike | None = None) -> Path:
        """The directory of the task's corpora, checked against the registry when registered."""
        if self.dataset is not None:
            return registry.locate(self.dataset, data_dir)
        return Path(self.directory) if self.directory is not None else Path()

    def path(self, which: str, data_dir: str | os.PathLike | None = None) -> Path | None:
        """The path of ``files.<which>`` (None when the task has no such file)."""
        name = getattr(self.files, which)
        return None if name is None else self.root(data_dir) / name


TASKS: dict[str, Task] = {}


def register(task: Task) -> Task:
    systems.check_systems(task.systems + task.on_request)
    TASKS[task.name] = task
    return task


def get(name: str) -> Task:
    if name not in TASKS:
        raise WsdError(f"unknown task {name!r}; known: {', '.join(TASKS)}")
    return TASKS[name]


def of_kind(kind: str) -> list[str]:
    return [name for name, task in TASKS.items() if task.kind == kind]


LEXICAL_SAMPLE_SYSTEMS = ("commonest", "lesk", "lesk-corpus", "dlist", "svm", "combo")


def tuned_embedding(task: str) -> EmbeddingRule:
    """The task's registered ``EmbeddingRule`` (``wsd_classic/tuned/<task>.json``)."""
    return EmbeddingRule(**tuned.value(task, "embedding"))


# Every value below is read from ``wsd_classic/tuned/<task>.json``, which names the bench
# command and results file that chose it (docs/choices.md tells the story).
SENSEVAL2_SVM = tuned.value("senseval2-ls", "svm")
SENSEVAL2_LS = register(Task(
    "senseval2-ls", LEXICAL_SAMPLE, LEXICAL_SAMPLE_SYSTEMS, dataset="senseval2-ls",
    files=LexicalSampleFiles("eng-lex-sample.training.xml", "eng-lex-samp.evaluation.xml",
                             "eng-lex-samp.evaluation.key", "eng-lex-sample.training.senses",
                             "eng-lex-sample.training.key"),
    embedding=tuned_embedding("senseval2-ls"),
    params={"svm": SENSEVAL2_SVM,
            "combo": {**tuned.value("senseval2-ls", "combo"),
                      "member_params": {"svm": SENSEVAL2_SVM}}},
    published=True))

# SemCor's settings are chosen on held-out SemCor files (bench/semcor.py), ties broken on the
# development set semeval2007.
SEMCOR_SVM_FITTING = tuned.value("semcor", "svm")
SEMCOR = register(Task(
    "semcor", ALL_WORDS, ("mfs", "wn1", "svm", "dlist"),
    ContextRule(sentences=tuned.value("semcor", "context_sentences")),
    # on request: combo costs training time for little on ALL; rank misses the removed senses'
    # target; ppr, the knowledge-based row, is below the svm on ALL; the hybrid does not beat the
    # svm on held-out SemCor files (docs/choices.md, results.md)
    ("combo", "rank", "ppr", "hybrid"),
    tuned_embedding("semcor"), dataset="semcor-3.0",
    params={"svm": SEMCOR_SVM_FITTING,
            "combo": {**tuned.value("semcor", "combo"),
                      "member_params": {"svm": {
                          "C": tuned.value("semcor", "combo_svm_C"),
                          "min_instances": SEMCOR_SVM_FITTING["min_instances"]}}},
            # stacked on the task's svm, so a run that trains both fits the svm once
            "rank": {"member_params": {"svm": SEMCOR_SVM_FITTING},
                     **tuned.value("semcor", "rank")},
            "ppr": tuned.value("semcor", "ppr"),
            # the task's svm (a run that trains both fits it once), and the mixture and walk
            # docs/choices.md's rule chose for it
            "hybrid": {**SEMCOR_SVM_FITTING, **tuned.value("semcor", "hybrid")}},
    # rank trains on the svm's rows; the hybrid is the svm's models, and pulls as the svm does
    wordnet_examples=frozenset({*tuned.value("semcor", "wordnet_examples"), "hybrid"}),
    discourse_weights={**tuned.value("semcor", "discourse_weights"),
                       "hybrid": tuned.value("semcor", "discourse_weights")["svm"]}))


def lexical_sample_files(train: Path, test: Path | None = None, key: Path | None = None,
                         sensemap: Path | None = None, split: tuple[int, int] | None = None,
                         seed: int = 0, train_answers: Path | None = None) -> Task:
    """The ad-hoc lexical-sample task of ``bin/train --train X.xml [--test ... | --split ...]``,
    named after the training file."""
    name = Path(train).name.removesuffix(".xml").replace(".", "-")
    return Task(name, LEXICAL_SAMPLE, LEXICAL_SAMPLE_SYSTEMS,
                files=LexicalSampleFiles(train, test, key, sensemap, train_answers=train_answers),
                split=split, seed=seed)


def parse_split(ratio: str) -> tuple[int, int]:
    try:
        parts = tuple(int(part) for part in ratio.split(":"))
    except ValueError:
        parts = ()
    if len(parts) != 2 or min(parts) < 1:
        raise WsdError(f"--split {ratio!r}: expected TRAIN:TEST parts such as 2:1")
    return parts


# SemEval-2026 Task 5: a rater fitted on AmbiStory's train, chosen by cross-validation on train
# (bench/results/ambistory.json); the story is one document, and the svm's bag of words reads up
# to 10 of its sentences on each side of the homonym's: more than any story has.
AMBISTORY = register(Task("ambistory", PLAUSIBILITY, ("svm",), ContextRule(sentences=10),
                          dataset="ambistory"))
