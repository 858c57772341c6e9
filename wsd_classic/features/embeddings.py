"""Context embeddings after Iacobacci, Pilehvar & Navigli (2016): the word vectors of the W words
on each side of the target, combined by average, fractional decay or exponential decay.

A word at distance d from the target (counting the context's words that have a letter, the
target and its particles left out) weighs 1 (``average``), (W - d) / W (``fractional``) or
(1 - a)^(d - 1) with a = 1 - 0.1^(1 / (W - 1)) (``exponential``: the farthest word weighs a
tenth of the nearest). The weighted sum is scaled to length ``scale``: the svm adds these
values beside its binary part, each row of which has length 1, so ``scale`` is how much the
embedding weighs against the other groups (chosen by cross-validation). Words the vectors lack
are skipped; with none known the block is all zeros.

With ``gloss`` above 0 a second block follows, ``embgloss=<sense key>`` per candidate of a
lexelt with two or more: the cosine of the context's embedding with the sense's gloss
embedding, times ``gloss``. A sense's gloss embedding is the mean of the unit-length vectors of
the distinct words of its signature (``features.gloss``: the synset's words, definition and
examples and its neighbours' words and definitions, the target's own words left out), less the
mean over the lexelt's candidates (a direction every candidate's gloss shares tells none
apart). It is the gloss group's evidence with similar words meeting, not only equal stems
(Basile et al. 2014's distributional Lesk, as a feature).

The rule's ``sources`` name the vectors read: installed pretrained sets
(``features.pretrained_vectors``) and, by a name of the caller's choosing, at most one set of
word vectors the caller gives (``ContextEmbedding``'s ``vectors``: a study's own). With several,
each source is one block, combined and scaled to length ``scale / sqrt(sources)`` on its own
(the whole has length ``scale``, each source weighs the same whatever its dimensions or vector
lengths), and a gloss cosine is the mean of the sources' cosines.
"""
from __future__ import annotations

import re
from collections.abc import MutableMapping
from dataclasses import dataclass

import cachetools
import numpy as np

from wsd_classic.errors import WsdError
from wsd_classic.features import gloss, pretrained_vectors
from wsd_classic.features.weighted import Weighted
from wsd_classic.features.word_vectors import WordVectors, unit_rows
from wsd_classic.preprocess.document import ProcessedInstance, has_letter

STRATEGIES = ("average", "fractional", "exponential")
GLOSS_PREFIX = "embgloss="
# A context embedding's dimensions say nothing one by one: ``--explain`` shows them as one.
DIMENSION = re.compile(r"emb\d+")
EVIDENCE_NAME = "context embedding"


def evidence_name(feature: str) -> str:
    """What ``--explain`` calls a feature: its name, or for a dimension of the context
    embedding, ``context embedding``, under which every dimension's evidence is summed."""
    return EVIDENCE_NAME if DIMENSION.fullmatch(feature) else feature


@dataclass(frozen=True)
class EmbeddingRule:
    """How a task combines context vectors, and the ``sources`` of the vectors: installed
    pretrained sets by name, and at most one other name, that of the vectors the caller gives
    (``given``)."""

    strategy: str = "exponential"
    window: int = 10
    scale: float = 1.0
    gloss: float = 0.0
    sources: tuple[str, ...] = ()

    def __post_init__(self):
        object.__setattr__(self, "sources", tuple(self.sources))  # a header's JSON list
        if not self.sources or len(set(self.sources)) < len(self.sources):
            raise WsdError(f"embedding sources {','.join(self.sources)!r}: one or more, each once")
        others = [source for source in self.sources if source not in pretrained_vectors.PRETRAINED]
        if len(others) > 1:
            raise WsdError(f"embedding sources {','.join(others)!r}: installed word vectors are "
                           f"{', '.join(pretrained_vectors.PRETRAINED)}, and a caller gives one "
                           "other set at most")
        if self.strategy not in STRATEGIES:
            raise WsdError(f"unknown embedding strategy {self.strategy!r}; known: "
                           f"{', '.join(STRATEGIES)}")
        if self.window < 2:
            raise WsdError(f"embedding window {self.window}: at least 2 words each side")
        if self.gloss < 0:
            raise WsdError(f"embedding gloss scale {self.gloss}: 0 (none) or more")

    @property
    def given(self) -> str | None:
        """The source that is no installed set: the name of the vectors the caller gives."""
        return next((source for source in self.sources
                     if source not in pretrained_vectors.PRETRAINED), None)


def decay_weights(strategy: str, window: int) -> np.ndarray:
    """The weights of the words at distance 1 … ``window`` from the target."""
    distance = np.arange(1, window + 1, dtype=np.float64)
    if strategy == "average":
        return np.ones(window)
    if strategy == "fractional":
        return (window - distance) / window
    alpha = 1 - 0.1 ** (1 / (window - 1))
    return (1 - alpha) ** (distance - 1)


class _Source:
    """One source of vectors in a context embedding: its row per word, its gloss embeddings
    (kept per lexelt: all of them, or the most recently used up to ``gloss_cache_bytes``)."""

    def __init__(self, vectors: WordVectors, gloss_cache_bytes: int | None = None):
        self.vectors = vectors
        # a plain view of a memory-mapped matrix: np.memmap adds its subclass's work to every
        # lookup
        self._matrix = np.asarray(vectors.matrix)
        self._last: tuple[tuple[str, ...] | None, list[int]] = (None, [])
        self._gloss_embeddings: MutableMapping[tuple[str, tuple[str, ...]], np.ndarray] = (
            {} if gloss_cache_bytes is None
            else cachetools.LRUCache(gloss_cache_bytes, getsizeof=lambda array: array.nbytes))

    def rows(self, words: tuple[str, ...]) -> list[int]:
        """Per word: its row of the vectors, -1 if they lack it. The targets of a sentence share
        its words' tuple, so the last one's rows are kept (as one tuple: threads may share this
        featurizer)."""
        last_words, last_rows = self._last
        if words is last_words:
            return last_rows
        index = self.vectors.index
        rows = [index.get(word.lower(), -1) for word in words]
        self._last = (words, rows)
        return rows

    def combined(self, words: tuple[str, ...], positions: list[int],
                 weights: list[float]) -> np.ndarray:
        """The weighted sum of the vectors of the words at ``positions`` it knows."""
        word_rows = self.rows(words)
        known = [(word_rows[position], weight) for position, weight in zip(positions, weights)
                 if word_rows[position] >= 0]
        if not known:
            return np.zeros(self.vectors.dimensions)
        rows, known_weights = zip(*known)
        return np.asarray(known_weights) @ self._matrix[list(rows)].astype(np.float64)

    def gloss_embeddings(self, lexelt: str, particles: tuple[str, ...],
                         keys: tuple[str, ...]) -> np.ndarray:
        """The unit-length gloss embeddings of ``keys``, the lexelt's candidates (kept per
        lexelt: tagging meets the same lexelts again and again)."""
        found = self._gloss_embeddings.get((lexelt, particles))
        if found is not None:
            return found
        own = set(gloss.text_words(" ".join([lexelt.rpartition(".")[0], *particles])))
        index = self.vectors.index
        rows_of_keys = [sorted({index[word] for word in gloss.signature_words(key)
                                if word in index and word not in own}) for key in keys]
        # every key's word vectors made unit length in one call (row by row, as alone)
        units = unit_rows(self._matrix[[row for rows in rows_of_keys for row in rows]]
                          .astype(np.float64))
        senses = np.zeros((len(keys), self.vectors.dimensions))
        start = 0
        for sense, rows in enumerate(rows_of_keys):
            if rows:
                senses[sense] = units[start:start + len(rows)].mean(axis=0)
                start += len(rows)
        senses -= senses.mean(axis=0)
        found = unit_rows(senses)
        if found.nbytes <= getattr(self._gloss_embeddings, "maxsize", found.nbytes):
            self._gloss_embeddings[lexelt, particles] = found
        return found


class ContextEmbedding:
    """The ``emb`` feature group: one ``Weighted`` block of as many values as its sources'
    dimensions. ``vectors``: those the caller gives, the rule's ``given`` source (None when every
    source is installed); ``pretrained``: the rule's installed sources in order (default: read
    from their install). ``gloss_cache_bytes``: what each source's gloss embeddings may keep in
    memory (None: all, as training does, its corpus meeting each lexelt again and again; a
    loaded model tags any input in bounded memory)."""

    def __init__(self, rule: EmbeddingRule, vectors: WordVectors | None = None,
                 pretrained: list[WordVectors] | None = None,
                 gloss_cache_bytes: int | None = None):
        if rule.given is not None and vectors is None:
            raise WsdError(f"the embedding reads word vectors {rule.given!r}, which are not "
                           f"installed (installed: {', '.join(pretrained_vectors.PRETRAINED)}) "
                           "and were not given")
        if rule.given is None and vectors is not None:
            raise WsdError("word vectors were given, and the embedding's sources "
                           f"{','.join(rule.sources)!r} are all installed ones")
        if pretrained is None:
            pretrained = [pretrained_vectors.load(source) for source in rule.sources
                          if source != rule.given]
        others = iter(pretrained)
        self.rule, self.vectors = rule, vectors
        self.pretrained = tuple(pretrained)
        self._sources = [_Source(vectors if source == rule.given else next(others),
                                 gloss_cache_bytes) for source in rule.sources]
        self._weights = decay_weights(rule.strategy, rule.window).tolist()
        self._block_scale = rule.scale / np.sqrt(len(self._sources))
        self.names = tuple(f"emb{column}" for column in range(  # matching DIMENSION
            sum(source.vectors.dimensions for source in self._sources)))
        # per lexelt and particles: the candidates' keys and their features' names
        self._candidates: dict[tuple[str, tuple[str, ...]],
                               tuple[tuple[str, ...], tuple[str, ...]]] = {}

    def gloss_embeddings(self, lexelt: str, particles: tuple[str, ...] = ()):
        """``(names, [senses x dimensions per source])``: the unit-length gloss embeddings of
        the lexelt's candidates, or None for a lexelt with fewer than two."""
        candidates = self._candidates.get((lexelt, particles))
        if candidates is None:
            keys = gloss.candidate_keys(lexelt, particles)
            candidates = self._candidates[lexelt, particles] = (
                keys, tuple(GLOSS_PREFIX + key for key in keys))
        keys, names = candidates
        if len(keys) < 2:
            return None
        return names, [source.gloss_embeddings(lexelt, particles, keys)
                       for source in self._sources]

    def _context_words(self, doc: ProcessedInstance) -> tuple[list[int], list[float]]:
        """The positions of the words within the window on each side of the target (words with
        a letter count in distances, the target and its particles do not) and their weights."""
        skipped = {doc.target, *doc.sats}
        positions, weights = [], []
        for side in (range(doc.target - 1, -1, -1), range(doc.target + 1, len(doc))):
            distance = 0
            for position in side:
                if position in skipped or not has_letter(doc.words[position]):
                    continue
                distance += 1
                if distance > self.rule.window:
                    break
                positions.append(position)
                weights.append(self._weights[distance - 1])
        return positions, weights

    def __call__(self, doc: ProcessedInstance) -> list[Weighted]:
        positions, weights = self._context_words(doc)
        sums = [source.combined(doc.words, positions, weights) for source in self._sources]
        lengths = [np.sqrt(combined.dot(combined)) for combined in sums]  # without norm's checks
        blocks = []
        if self.rule.gloss > 0:
            senses = self.gloss_embeddings(doc.lexelt, gloss.target_particles(doc))
            if senses is not None:
                names, embeddings = senses
                cosines = [embedding @ combined / length if length > 0
                           else np.zeros(len(names))
                           for embedding, combined, length in zip(embeddings, sums, lengths)]
                # np.mean's sum and division, without its checks (asked of every target)
                mean = sum(cosines[1:], cosines[0]) / len(cosines)
                blocks.append(Weighted(names, (self.rule.gloss * mean).astype(np.float32)))
        for combined, length in zip(sums, lengths):
            if length > 0:
                combined *= self._block_scale / length
        return [Weighted(self.names, np.concatenate(sums).astype(np.float32)), *blocks]


def without_vectors(doc: ProcessedInstance) -> list:
    """The ``emb`` group of a featurizer that has no word vectors (a task without them): empty."""
    return []
