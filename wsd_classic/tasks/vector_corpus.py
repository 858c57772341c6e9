"""The word vectors' training corpus and cache jobs, and a task's featurizer with its vectors.

The vectors are learnt from SemCor 3.0, the SENSEVAL-2 lexical sample's training contexts (not
its test contexts), WordNet 3.0's glosses and examples and AmbiStory's training stories: the
English text this project can read without any test set's labels. They are built once, cached
by what they depend on (``bin/vectors``), and built in a forked process while a run reads and
analyses its corpora (``obtain_later``, through ``featurizer_later``'s ``PendingFeaturizer``).
"""
from __future__ import annotations

import functools
import hashlib
import json
import multiprocessing
import os
import signal
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

from wsd_classic import settings, systems, wordnet
from wsd_classic.corpora import registry
from wsd_classic.corpora.ambistory import read_ambistory
from wsd_classic.corpora.lexsample import read_lexical_sample
from wsd_classic.corpora.semcor import read_semcor
from wsd_classic.features import ALL_GROUPS, word_vectors
from wsd_classic.features.embeddings import ContextEmbedding
from wsd_classic.features.featurizer import VECTOR_GROUP, ContextRule, Featurizer
from wsd_classic.features.word_vectors import VectorSettings, WordVectors, load, save, tokens
from wsd_classic.preprocess.sentences import word_parts
from wsd_classic.tasks import catalogue
from wsd_classic.tasks.catalogue import Task

# Bump when what goes into the corpus or how it is tokenized changes, so stale caches go.
CORPUS_VERSION = 1
WORDNET_TEXT_FILES = ("data.noun", "data.verb", "data.adj", "data.adv")


@dataclass(frozen=True)
class PendingFeaturizer:
    """A task's featurizer whose word vectors may still be building: calling it waits for them;
    ``without_vectors`` computes every other group meanwhile. ``waits``: whether it may (self-
    trained vectors); installed vectors are there at once."""

    context: ContextRule
    make: Callable[[], Featurizer]
    waits: bool = False

    def __call__(self) -> Featurizer:
        return self.make()

    def without_vectors(self) -> Featurizer:
        return Featurizer(self.context, [group for group in ALL_GROUPS if group != VECTOR_GROUP])


def featurizer(task: Task, names, data_dir: str | os.PathLike | None = None) -> Featurizer:
    """The featurizer that systems ``names`` of ``task`` train with: the task's word vectors,
    built and cached on first need, when one of them reads embeddings."""
    return featurizer_later(task, names, data_dir)()


def featurizer_later(task: Task, names,
                     data_dir: str | os.PathLike | None = None) -> PendingFeaturizer:
    """``featurizer``, made when the result is called; word vectors it needs and the cache
    lacks are built meanwhile (``obtain_later``), while the corpora are read and analysed."""
    if task.embedding is None or not any(
            VECTOR_GROUP in systems.get(name).feature_groups for name in names):
        return PendingFeaturizer(task.context, functools.partial(Featurizer, task.context))
    vectors = (obtain_later(task.embedding.vectors, data_dir)
               if task.embedding.self_trained else lambda: None)
    return PendingFeaturizer(task.context, lambda: Featurizer(
        task.context, embedding=ContextEmbedding(task.embedding, vectors())),
        waits=task.embedding.self_trained)


def corpus_sentences(data_dir: str | os.PathLike | None = None) -> Iterator[list[str]]:
    """Every training text, one token list per sentence or context, in a fixed order."""
    semcor = registry.locate(catalogue.SEMCOR.dataset, data_dir)
    for sentence in read_semcor(semcor):  # the text alone: no sense keys looked up
        yield tokens(" ".join(part for token in sentence.tokens for part in word_parts(token.text)))
    for instance in read_lexical_sample(catalogue.SENSEVAL2_LS.path("train", data_dir)).instances():
        yield tokens(instance.text)
    for synset in wordnet.all_synsets():
        yield tokens(synset.definition)
        for example in synset.examples:
            yield tokens(example)
    stories = {sample.story for sample in read_ambistory(
        registry.locate(catalogue.AMBISTORY.dataset, data_dir) / "train.json")}
    for story in sorted(stories):
        yield tokens(" ".join(story))


def cache_key(vector_settings: VectorSettings, data_dir: str | os.PathLike | None = None) -> str:
    """What the vectors depend on: the corpora's registered SHA-256 (``locate`` checks the files
    against them, and names a missing one), WordNet's text, gensim and the settings. Cheaper than
    hashing the corpus's tokens, which takes as long as reading it."""
    import gensim  # seconds to import: only when the key is asked for

    sources = {}
    for name in (catalogue.SEMCOR.dataset, catalogue.SENSEVAL2_LS.dataset,
                 catalogue.AMBISTORY.dataset):
        registry.locate(name, data_dir)
        dataset = registry.DATASETS[name]
        sources[name] = [[entry.path, entry.sha256] for entry in dataset.files] + [
            [list(tree.directories), tree.sha256] for tree in dataset.trees]
    sources["wordnet"] = [registry.file_sha256(wordnet.checked_root() / name)
                          for name in WORDNET_TEXT_FILES]
    return hashlib.sha256(json.dumps([CORPUS_VERSION, gensim.__version__,
                                      asdict(vector_settings), sources]).encode()).hexdigest()


def cache_path(vector_settings: VectorSettings, data_dir: str | os.PathLike | None = None) -> Path:
    return settings.cache_dir() / "vectors" / cache_key(vector_settings, data_dir) / "vectors.npz"


def obtain(vector_settings: VectorSettings,
           data_dir: str | os.PathLike | None = None, log=sys.stderr) -> WordVectors:
    """The vectors of ``vector_settings`` on the corpora of ``data_dir``: from the cache, or
    trained and cached (saying so on ``log``)."""
    path = cache_path(vector_settings, data_dir)
    if path.is_file():
        return load(path)
    started = time.perf_counter()
    print("word vectors: reading SemCor, SENSEVAL-2 training contexts, WordNet glosses and "
          "examples, AmbiStory training stories", file=log, flush=True)
    sentences = [sentence for sentence in corpus_sentences(data_dir) if sentence]
    print(f"word vectors: training word2vec on {sum(map(len, sentences)):,} tokens in "
          f"{len(sentences):,} sentences ({asdict(vector_settings)})", file=log, flush=True)
    vectors = word_vectors.train(sentences, vector_settings)
    save(vectors, path)
    print(f"word vectors: {len(vectors.words):,} words x {vectors.dimensions} saved to {path} "
          f"({time.perf_counter() - started:.0f} s)", file=log, flush=True)
    return vectors


def obtain_later(vector_settings: VectorSettings,
                 data_dir: str | os.PathLike | None = None,
                 log=sys.stderr) -> Callable[[], WordVectors]:
    """``obtain``'s vectors, built meanwhile in a forked process when they are not cached; call
    the result to wait for them. word2vec trains on one core, so a run reads and analyses its
    corpora on the others in the meantime. Missing corpora are reported here, at once."""
    path = cache_path(vector_settings, data_dir)
    if path.is_file():
        return functools.partial(load, path)
    builder = multiprocessing.get_context("fork").Process(
        target=_build, args=(vector_settings, data_dir, log), daemon=True)
    builder.start()

    def result() -> WordVectors:
        try:
            builder.join()
        finally:  # interrupted: the builder goes too, and its unfinished file with it
            if builder.is_alive():
                builder.terminate()
                builder.join()
        if path.is_file():
            return load(path)
        # The builder failed: building here says why, as ``obtain`` always does.
        return obtain(vector_settings, data_dir, log)

    return result


def _build(vector_settings: VectorSettings, data_dir, log) -> None:
    """The forked builder of ``obtain_later``: quiet on failure and on Ctrl-C, which the waiting
    process reports."""
    signal.signal(signal.SIGINT, lambda signal_number, _frame: os._exit(1))
    try:
        obtain(vector_settings, data_dir, log)
    except BaseException:
        os._exit(1)


