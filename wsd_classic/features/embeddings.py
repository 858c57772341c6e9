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
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np

from wsd_classic.errors import WsdError
from wsd_classic.features import gloss
from wsd_classic.features.weighted import Weighted
from wsd_classic.features.word_vectors import VectorSettings, WordVectors
from wsd_classic.preprocess.document import ProcessedInstance, has_letter

STRATEGIES = ("average", "fractional", "exponential")
GLOSS_PREFIX = "embgloss="


@dataclass(frozen=True)
class EmbeddingRule:
    """How a task combines context vectors, and the vectors' own settings."""

    strategy: str = "exponential"
    window: int = 10
    scale: float = 1.0
    vectors: VectorSettings = field(default_factory=VectorSettings)
    gloss: float = 0.0

    def __post_init__(self):
        if self.strategy not in STRATEGIES:
            raise WsdError(f"unknown embedding strategy {self.strategy!r}; known: "
                           f"{', '.join(STRATEGIES)}")
        if self.window < 2:
            raise WsdError(f"embedding window {self.window}: at least 2 words each side")
        if self.gloss < 0:
            raise WsdError(f"embedding gloss scale {self.gloss}: 0 (none) or more")


def decay_weights(strategy: str, window: int) -> np.ndarray:
    """The weights of the words at distance 1 … ``window`` from the target."""
    distance = np.arange(1, window + 1, dtype=np.float64)
    if strategy == "average":
        return np.ones(window)
    if strategy == "fractional":
        return (window - distance) / window
    alpha = 1 - 0.1 ** (1 / (window - 1))
    return (1 - alpha) ** (distance - 1)


class ContextEmbedding:
    """The ``emb`` feature group: one ``Weighted`` block of ``vectors.dimensions`` values."""

    def __init__(self, rule: EmbeddingRule, vectors: WordVectors):
        self.rule, self.vectors = rule, vectors
        self._weights = decay_weights(rule.strategy, rule.window).tolist()
        self._last: tuple[tuple[str, ...] | None, list[int | None]] = (None, [])
        self.names = tuple(f"emb{column}" for column in range(vectors.dimensions))
        self._gloss_embeddings: dict[tuple[str, tuple[str, ...]], tuple | None] = {}

    @functools.cached_property
    def _matrix(self) -> np.ndarray:
        return self.vectors.matrix.astype(np.float64)

    @functools.cached_property
    def _unit_matrix(self) -> np.ndarray:
        norms = np.linalg.norm(self._matrix, axis=1, keepdims=True)
        return self._matrix / np.where(norms > 0, norms, 1)

    def gloss_embeddings(self, lexelt: str, particles: tuple[str, ...] = ()):
        """``(names, senses x dimensions)``: the unit-length gloss embeddings of the lexelt's
        candidates, or None for a lexelt with fewer than two (kept per lexelt: tagging meets
        the same lexelts again and again)."""
        found = self._gloss_embeddings.get((lexelt, particles), False)
        if found is not False:
            return found
        keys = gloss.candidate_keys(lexelt, particles)
        found = None
        if len(keys) >= 2:
            own = set(gloss.text_words(" ".join([lexelt.rpartition(".")[0], *particles])))
            index = self.vectors.index
            senses = np.zeros((len(keys), self.vectors.dimensions))
            for row, key in enumerate(keys):
                rows = sorted({index[word] for word in gloss.text_words(gloss.signature_text(key))
                               if word in index and word not in own})
                if rows:
                    senses[row] = self._unit_matrix[rows].mean(axis=0)
            senses -= senses.mean(axis=0)
            norms = np.linalg.norm(senses, axis=1, keepdims=True)
            found = (tuple(GLOSS_PREFIX + key for key in keys),
                     senses / np.where(norms > 0, norms, 1))
        self._gloss_embeddings[lexelt, particles] = found
        return found

    def _word_rows(self, words: tuple[str, ...]) -> list[int | None]:
        """Per word: its row of the vectors, -1 if they lack it, None if it has no letter (it
        does not count in distances). The targets of a sentence share its words' tuple, so the
        last one's rows are kept (as one tuple: threads may share this featurizer)."""
        last_words, last_rows = self._last
        if words is last_words:
            return last_rows
        index = self.vectors.index
        rows = [index.get(word.lower(), -1) if has_letter(word) else None for word in words]
        self._last = (words, rows)
        return rows

    def __call__(self, doc: ProcessedInstance) -> list[Weighted]:
        word_rows = self._word_rows(doc.words)
        skipped = {doc.target, *doc.sats}
        rows, weights = [], []
        for side in (range(doc.target - 1, -1, -1), range(doc.target + 1, len(doc))):
            distance = 0
            for position in side:
                row = word_rows[position]
                if row is None or position in skipped:
                    continue
                distance += 1
                if distance > self.rule.window:
                    break
                if row >= 0:
                    rows.append(row)
                    weights.append(self._weights[distance - 1])
        combined = np.asarray(weights) @ self._matrix[rows] if rows else np.zeros(len(self.names))
        length = np.sqrt(combined.dot(combined))  # np.linalg.norm's sum, without its checks
        blocks = []
        if self.rule.gloss > 0:
            senses = self.gloss_embeddings(doc.lexelt, gloss.target_particles(doc))
            if senses is not None:
                names, embeddings = senses
                cosines = embeddings @ combined / length if length > 0 else np.zeros(len(names))
                blocks.append(Weighted(names, (self.rule.gloss * cosines).astype(np.float32)))
        if length > 0:
            combined *= self.rule.scale / length
        return [Weighted(self.names, combined.astype(np.float32)), *blocks]


def without_vectors(doc: ProcessedInstance) -> list:
    """The ``emb`` group of a featurizer that has no word vectors (a task without them): empty."""
    return []
