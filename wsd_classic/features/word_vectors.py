"""Word vectors trained here: the resource the ``emb`` group reads (``WordVectors``), word2vec's
settings, how text becomes its tokens, the gensim call and the cache file's form.
``tasks.vector_corpus`` gathers the training text and keeps the cache.

No package on the registries ships English vectors and spaCy's small model has none (its token
tensors are task-trained CNN features, not word meanings), so the vectors are learnt here. A
token is a lower-cased word that has a letter, as ``features.embeddings`` looks words up.
Training is deterministic: one worker, a fixed seed and a hash of word strings that does not
depend on Python's per-process salt. Values are rounded to float16, the precision a model file
stores them in, so a model tags with exactly the vectors it was trained with.
"""
from __future__ import annotations

import dataclasses
import functools
import hashlib
import re
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from wsd_classic.atomic import atomic_file
from wsd_classic.errors import WsdError
from wsd_classic.preprocess.document import has_letter

TOKEN = re.compile(r"\w+|[^\w\s]")


@dataclass(frozen=True)
class VectorSettings:
    """word2vec's settings: CBOW (``sg`` False) or skip-gram, ``window`` words each side."""

    dimensions: int = 100
    window: int = 5
    epochs: int = 10
    sg: bool = False
    min_count: int = 3
    seed: int = 1

    def replaced(self, text: str) -> VectorSettings:
        """These settings with the ``NAME=VALUE,...`` of ``text`` (a study's), e.g. ``sg=1``."""
        fields = {field.name: field.type for field in dataclasses.fields(self)}
        changes = {}
        for part in filter(None, text.split(",")):
            name, _, value = part.partition("=")
            if name not in fields or not value.isdigit():
                raise WsdError(f"vector setting {part!r}: NAME=INTEGER with NAME among "
                               f"{', '.join(fields)}")
            changes[name] = bool(int(value)) if fields[name] == "bool" else int(value)
        return dataclasses.replace(self, **changes)


def unit_rows(matrix: np.ndarray) -> np.ndarray:
    """``matrix`` with each non-zero row (along its last axis) scaled to length 1 (in its own dtype)."""
    norms = np.linalg.norm(matrix, axis=-1, keepdims=True)
    return matrix / np.where(norms > 0, norms, 1)


@dataclass(frozen=True, eq=False)
class WordVectors:
    """One float16 row of ``matrix`` per word of ``words``; ``identity`` is the SHA-256 of both."""

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


def tokens(text: str) -> list[str]:
    """The lower-cased words of ``text`` that have a letter."""
    return [token for token in TOKEN.findall(text.lower()) if has_letter(token)]


def stable_hash(word: str) -> int:
    """For gensim's initial vectors: Python's ``hash`` of a string changes between processes."""
    return zlib.crc32(word.encode())


def train(sentences: Sequence[Sequence[str]], vector_settings: VectorSettings) -> WordVectors:
    """word2vec on ``sentences`` (lists of tokens), deterministically."""
    from gensim.models import Word2Vec  # gensim takes seconds to import: only when training

    model = Word2Vec(sentences, vector_size=vector_settings.dimensions,
                     window=vector_settings.window, min_count=vector_settings.min_count,
                     sg=int(vector_settings.sg), epochs=vector_settings.epochs,
                     seed=vector_settings.seed, workers=1, hashfxn=stable_hash)
    return WordVectors(tuple(model.wv.index_to_key), model.wv.vectors.astype(np.float16))


def save(vectors: WordVectors, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_file(path) as stream:
        np.savez(stream, **vectors.to_arrays())


def load(path: Path) -> WordVectors:
    try:
        with np.load(path, allow_pickle=False) as arrays:
            return WordVectors.from_arrays(arrays["words"], arrays["matrix"])
    except (OSError, ValueError, KeyError, zlib.error) as error:
        raise WsdError(f"unreadable cached word vectors ({error}): delete the file", path) from None
