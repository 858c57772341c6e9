"""The one featurizer: settings in (a context rule and feature groups), feature rows out.

Every path to a classifier goes through it: training contexts, ``--senseval`` and ``--raganato``
files, plain text and the spaCy component. Its settings are stored in each model's header and a
tagger rebuilds it from there (``from_settings``), so a model is always applied with the context
rule it was trained with.
"""
from __future__ import annotations

import bisect
import sys
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass

from tqdm import tqdm

from wsd_classic.errors import WsdError
from wsd_classic.features import ALL_GROUPS, EXTRACTORS, check_groups
from wsd_classic.features.embeddings import ContextEmbedding, EmbeddingRule
from wsd_classic.features.word_vectors import WordVectors
from wsd_classic.preprocess.document import ProcessedInstance
from wsd_classic.workers import in_workers

# Pieces of work per worker process (each piece's names are interned apart: few pieces, few
# copies). Tables of fewer contexts are made here: for a set the size of SENSEVAL-2's test
# contexts, forking and sending the rows back cost more than the featurizing (docs/speed.md).
PIECES_PER_PROCESS = 4
PARALLEL_MIN_CONTEXTS = 50_000
# What the forked workers of ``Featurizer.table`` read: the featurizer and the contexts.
_SHARED: tuple["Featurizer", list[ProcessedInstance]] | None = None

# The group that reads word vectors: it gives nothing without them (``Featurizer.embedding``).
VECTOR_GROUP = "emb"

# What a loaded model's gloss embeddings keep in memory per source of vectors, so that it tags
# input of any size in bounded memory (docs/speed.md: what all of a model's lexelts would take).
GLOSS_CACHE_BYTES = 96 << 20

# The shape of SENSEVAL-2's lexical-sample contexts: the target's sentence and the sentences
# before it, about 100 words before the target (median).
GIVEN_TOKENS_BEFORE = 120


@dataclass(frozen=True)
class ContextRule:
    """The tokens around a target that context-wide features (bag of words) read.

    ``sentences`` None: the context a lexical-sample instance comes with; in running text, which
    gives none, the target's sentence and the whole sentences before it that start within
    ``tokens_before`` tokens of it (what SENSEVAL-2's contexts hold). ``sentences`` n: the
    target's sentence and up to n sentences on each side within its document.
    Collocations, parts of speech and syntax stay within the target's sentence under every rule.
    """

    sentences: int | None = None
    tokens_before: int = GIVEN_TOKENS_BEFORE

    def span(self, token):
        """The context of the target ``token`` in its spaCy ``Doc``, as a ``Span``."""
        sentences = list(token.doc.sents)
        starts = [sentence.start for sentence in sentences]
        return self.window(sentences, sentence_index(starts, token.i), token.i)

    def window(self, sentences: Sequence, index: int, target: int):
        """The context of the token ``target`` of sentence ``index`` of a doc's ``sentences``
        (its ``Span``s, in order): a ``Span`` of whole sentences."""
        first = last = index
        if self.sentences is None:
            while first > 0 and target - sentences[first - 1].start <= self.tokens_before:
                first -= 1
        else:
            first = max(0, index - self.sentences)
            last = min(len(sentences) - 1, index + self.sentences)
        return sentences[index].doc[sentences[first].start:sentences[last].end]


def sentence_index(starts: Sequence[int], token: int) -> int:
    """Which of a doc's sentences, given by their first tokens' indices, holds token ``token``."""
    return bisect.bisect_right(starts, token) - 1


class Featurizer:
    """Feature names of processed contexts, by group (``features.EXTRACTORS``).

    ``embedding`` (the ``emb`` group's rule and word vectors) None: that group gives nothing.
    """

    def __init__(self, context: ContextRule = ContextRule(), groups: Sequence[str] = ALL_GROUPS,
                 embedding: ContextEmbedding | None = None):
        self.context = context
        self.groups = check_groups(groups)
        self.embedding = embedding if VECTOR_GROUP in self.groups else None
        self.extractors = {group: EXTRACTORS[group] for group in self.groups}
        if self.embedding is not None:
            self.extractors[VECTOR_GROUP] = self.embedding

    def for_groups(self, groups: Sequence[str]) -> "Featurizer":
        """This featurizer reduced to ``groups`` (what a system's model file records)."""
        return Featurizer(self.context, [group for group in self.groups if group in groups],
                          self.embedding)

    def with_context(self, context: ContextRule) -> "Featurizer":
        return Featurizer(context, self.groups, self.embedding)

    def settings(self) -> dict:
        embedding = None
        if self.embedding is not None:
            vectors = self.embedding.vectors
            embedding = {**asdict(self.embedding.rule),
                         "vectors_sha256": None if vectors is None else vectors.identity,
                         "pretrained_sha256": [pretrained.identity
                                               for pretrained in self.embedding.pretrained]}
        return {"context": asdict(self.context), "groups": list(self.groups),
                "embedding": embedding}

    @classmethod
    def from_settings(cls, settings: dict, vectors: WordVectors | None = None) -> "Featurizer":
        """The featurizer of ``settings``, with the word vectors a model file holds if its
        settings name them, and the installed pretrained vectors they name; its gloss
        embeddings kept up to ``GLOSS_CACHE_BYTES`` per source."""
        try:
            embedding = settings["embedding"]
            if embedding is not None:
                expected = embedding["vectors_sha256"]
                if expected is not None and (vectors is None or vectors.identity != expected):
                    raise WsdError("the word vectors the model was trained with are missing or "
                                   "changed: retrain")
                # ``vectors``: the word2vec settings that headers written while the package
                # trained its own vectors carry; the vectors themselves are what counts
                rule = {key: value for key, value in embedding.items()
                        if key not in ("vectors_sha256", "pretrained_sha256", "vectors")}
                pretrained = embedding.get("pretrained_sha256", [])
                embedding = ContextEmbedding(EmbeddingRule(**rule), vectors,
                                             gloss_cache_bytes=GLOSS_CACHE_BYTES)
                if [installed.identity for installed in embedding.pretrained] != pretrained:
                    raise WsdError("the pretrained word vectors the model was trained with are "
                                   "not the installed ones: retrain")
            return cls(ContextRule(**settings["context"]), settings["groups"], embedding)
        except (KeyError, TypeError) as error:
            raise WsdError(f"unreadable featurizer settings {settings!r} ({error}): retrain")

    def by_group(self, doc: ProcessedInstance, interned: bool = False) -> dict[str, list[str]]:
        """``{group: names}``; ``interned`` for a corpus's table, where the same few hundred
        thousand names recur across hundreds of thousands of targets."""
        if interned:
            return {group: [sys.intern(name) if isinstance(name, str) else name
                            for name in self.extractors[group](doc)]
                    for group in self.groups}
        return {group: self.extractors[group](doc) for group in self.groups}

    def table(self, docs: Iterable[ProcessedInstance], jobs: int = 1,
              progress: bool | None = None) -> dict[str, dict[str, list[str]]]:
        """Every context's features by id, made on ``jobs`` forked processes (the featurizer
        is pure Python: SemCor's warm preparation, 178,206 rows, takes 48.4 s with the table
        made on one core, 36.7 s on two)."""
        global _SHARED
        docs = list(docs)
        processes = max(1, jobs) if len(docs) >= PARALLEL_MIN_CONTEXTS else 1
        size = max(1, -(-len(docs) // (PIECES_PER_PROCESS * processes)))
        bounds = [(start, start + size) for start in range(0, len(docs), size)]
        if progress is None:
            progress = sys.stderr.isatty()
        table = {}
        _SHARED = (self, docs)
        try:
            with tqdm(total=len(docs), desc="features", unit="ctx",
                      disable=not progress, file=sys.stderr) as bar:
                for part in in_workers(_table_part, bounds, processes):
                    table.update(part)
                    bar.update(len(part))
        finally:
            _SHARED = None
        return table


def _table_part(bounds: tuple[int, int]) -> list[tuple[str, dict[str, list[str]]]]:
    featurizer, docs = _SHARED
    return [(doc.id, featurizer.by_group(doc, interned=True)) for doc in docs[slice(*bounds)]]


def row(features: dict[str, list[str]], groups: Sequence[str]) -> list[str]:
    """The names of ``groups`` in group order, without repeats."""
    return list(dict.fromkeys(name for group in groups for name in features[group]))
