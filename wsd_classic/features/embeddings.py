"""Context embeddings after Iacobacci, Pilehvar & Navigli (2016): the word vectors of the W words
on each side of the target, combined by average, fractional decay or exponential decay.

A word at distance d from the target (counting the context's words that have a letter, the
target and its particles left out) weighs 1 (``average``), (W - d) / W (``fractional``) or
(1 - a)^(d - 1) with a = 1 - 0.1^(1 / (W - 1)) (``exponential``: the farthest word weighs a
tenth of the nearest). The weighted sum is scaled to length ``scale``: the svm adds these
values beside its binary part, each row of which has length 1, so ``scale`` is how much the
embedding weighs against the other groups (chosen by cross-validation). Words the vectors lack
are skipped; with none known the block is all zeros.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np

from wsd_classic.errors import WsdError
from wsd_classic.features.weighted import Weighted
from wsd_classic.features.word_vectors import VectorSettings, WordVectors
from wsd_classic.preprocess.document import ProcessedInstance, has_letter

STRATEGIES = ("average", "fractional", "exponential")


@dataclass(frozen=True)
class EmbeddingRule:
    """How a task combines context vectors, and the vectors' own settings."""

    strategy: str = "exponential"
    window: int = 10
    scale: float = 1.0
    vectors: VectorSettings = field(default_factory=VectorSettings)

    def __post_init__(self):
        if self.strategy not in STRATEGIES:
            raise WsdError(f"unknown embedding strategy {self.strategy!r}; known: "
                           f"{', '.join(STRATEGIES)}")
        if self.window < 2:
            raise WsdError(f"embedding window {self.window}: at least 2 words each side")


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

    @functools.cached_property
    def _matrix(self) -> np.ndarray:
        return self.vectors.matrix.astype(np.float64)

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
        if length > 0:
            combined *= self.rule.scale / length
        return [Weighted(self.names, combined.astype(np.float32))]


def without_vectors(doc: ProcessedInstance) -> list:
    """The ``emb`` group of a featurizer that has no word vectors (a task without them): empty."""
    return []
