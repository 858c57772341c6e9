"""Word vectors, the resource the ``emb`` group reads (``WordVectors``): a table of words and a
matrix with one row per word, the installed pretrained sets' (``features.pretrained_vectors``)
or a caller's own (a study's), and its arrays' form in a model file,
which holds a caller's vectors as float16 so that the model tags without them.
"""
from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass

import numpy as np


def unit_rows(matrix: np.ndarray) -> np.ndarray:
    """``matrix`` with each non-zero row (along its last axis) scaled to length 1 (in its own dtype)."""
    norms = np.linalg.norm(matrix, axis=-1, keepdims=True)
    return matrix / np.where(norms > 0, norms, 1)


@dataclass(frozen=True, eq=False)
class WordVectors:
    """One row of ``matrix`` per word of ``words``; ``identity`` is the SHA-256 of both, the
    values as float16 (a caller's own vectors should be float16 values: a model file holds them
    so)."""

    words: tuple[str, ...]
    matrix: np.ndarray

    @functools.cached_property
    def identity(self) -> str:
        digest = hashlib.sha256("\n".join(self.words).encode())
        digest.update(np.ascontiguousarray(self.matrix, dtype=np.float16).tobytes())
        return digest.hexdigest()

    @functools.cached_property
    def index(self) -> dict[str, int]:
        return {word: row for row, word in enumerate(self.words)}

    @property
    def dimensions(self) -> int:
        return self.matrix.shape[1]

    def to_arrays(self) -> dict[str, np.ndarray]:
        return {"words": np.frombuffer("\n".join(self.words).encode(), dtype=np.uint8),
                "matrix": np.ascontiguousarray(self.matrix, dtype=np.float16)}

    @classmethod
    def from_arrays(cls, words: np.ndarray, matrix: np.ndarray) -> "WordVectors":
        text = words.tobytes().decode()
        return cls(tuple(text.split("\n")) if text else (), np.asarray(matrix, dtype=np.float16))
