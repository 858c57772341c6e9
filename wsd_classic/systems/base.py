"""What every system shares: scikit-learn's estimator conventions over feature-name lists.

``X`` is a sequence of instances, each a list of binary feature names (see ``features``);
``y`` the sense ids. ``predict_proba`` returns a row per instance over ``classes_`` (sorted),
summing to 1. ``get_state``/``from_state`` give a JSON-and-arrays form for the model store
(no pickling).
"""
from __future__ import annotations

import json
from itertools import chain, filterfalse
from typing import Sequence

import numpy as np
from scipy import sparse
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.model_selection import GroupKFold
from spacy.strings import hash_string

from wsd_classic.errors import WsdError
from wsd_classic.features.weighted import binary_names

# The linear SVM (liblinear too) and the decision list hold dense senses x features and senses x
# training-rows arrays. A lexelt whose arrays would pass this many entries (256 MiB of float64
# each) is refused rather than left to exhaust memory: the largest SENSEVAL-2 lexelt needs 0.2
# million, SemCor's (be.v) a few million; 5,000 senses with 60,000 features would need 300.
MAX_DENSE_ENTRIES = 1 << 25


class SenseClassifier(ClassifierMixin, BaseEstimator):
    #: feature groups the system reads (``features.EXTRACTORS`` names)
    feature_groups: tuple[str, ...] = ()
    #: the metadata entry holding the names of the fitted ``vocabulary_`` (None: it has none)
    vocabulary_entry: str | None = None
    #: fitted attributes saved in the metadata (JSON) and as arrays, each under its name
    #: without the trailing underscore: ``temperature`` for ``temperature_``
    state_fields: tuple[str, ...] = ()
    state_arrays: tuple[str, ...] = ()
    #: systems whose models, fitted on the same rows, ``fit`` takes as ``fitted_members``
    member_systems: tuple[str, ...] = ()

    @classmethod
    def load_resources(cls) -> None:
        """Load what fitting reads besides its rows, before the training workers fork and
        share it; each would otherwise load it again."""

    @classmethod
    def shared_fit_params(cls, rows: Sequence[tuple]) -> dict[str, dict]:
        """More ``fit`` arguments per lexelt item, drawn from every lexelt's training rows
        ``(item, X, y, weights)``: what one lexelt's model learns from the others (none
        here; an estimator fitted per lexelt knows its own rows only)."""
        return {}

    def predict(self, X) -> np.ndarray:
        return self.classes_[np.argmax(self.predict_proba(X), axis=1)]

    def _prior(self, y: Sequence[str], sample_weight) -> np.ndarray:
        """Training sense distribution over ``classes_`` (set here)."""
        self.classes_ = np.array(sorted(set(y)))
        weights = np.ones(len(y)) if sample_weight is None else np.asarray(sample_weight, float)
        index = np.searchsorted(self.classes_, y)
        prior = np.bincount(index, weights=weights, minlength=len(self.classes_))
        return prior / prior.sum()

    @property
    def vocabulary_(self) -> dict[str, int]:
        """The fitted vocabulary, name to column. An estimator read from a model file holds
        its names' hashes (``hashed_vocabulary_``) and reads the names themselves from their
        stored JSON the first time they are asked for (``--explain``, a decision list's
        rules): tagging looks features up by hash."""
        if "fitted_vocabulary_" not in self.__dict__:
            self.fitted_vocabulary_ = vocabulary_of(json.loads(self.stored_names_.tobytes()))
        return self.fitted_vocabulary_

    @vocabulary_.setter
    def vocabulary_(self, vocabulary: dict[str, int]) -> None:
        self.fitted_vocabulary_ = vocabulary
        self.hashed_vocabulary_ = None

    def columns_of(self) -> "dict[str, int] | HashedVocabulary":
        """What ``feature_matrix`` looks names up in: the hashes of a loaded estimator's
        vocabulary, else the vocabulary."""
        hashed = getattr(self, "hashed_vocabulary_", None)
        return self.vocabulary_ if hashed is None else hashed

    def get_state(self) -> tuple[dict, dict[str, np.ndarray]]:
        """JSON-able metadata and named arrays; a vocabulary is stored as its names (JSON, in
        column order) and their hashes (``HashedVocabulary``)."""
        meta = {"classes": self.classes_.tolist(),
                **{name: getattr(self, f"{name}_") for name in self.state_fields}}
        arrays = {"prior": self.prior_,
                  **{name: getattr(self, f"{name}_") for name in self.state_arrays}}
        if self.vocabulary_entry is not None:
            names = vocabulary_names(self.vocabulary_)
            arrays[self.vocabulary_entry] = np.frombuffer(json.dumps(names).encode(), np.uint8)
            hashes = arrays[self.vocabulary_entry + HASHES_SUFFIX] = name_hashes(names)
            HashedVocabulary(hashes)  # refuses names that share a hash
        return meta, arrays

    @classmethod
    def from_state(cls, params: dict, meta: dict, arrays: dict[str, np.ndarray]):
        """An estimator rebuilt from ``get_state``: its arrays are the stored ones, and its
        vocabulary their hashes (names read only when asked for: ``vocabulary_``)."""
        model = cls(**params)
        model.classes_ = np.array(meta["classes"])
        model.prior_ = arrays["prior"]
        if cls.vocabulary_entry is not None:
            model.stored_names_ = arrays[cls.vocabulary_entry]
            model.hashed_vocabulary_ = HashedVocabulary(
                arrays[cls.vocabulary_entry + HASHES_SUFFIX])
        for name in cls.state_fields:
            setattr(model, f"{name}_", meta[name])
        for name in cls.state_arrays:
            setattr(model, f"{name}_", arrays[name])
        return model


# A stored vocabulary's hashes are the array named after its names' entry with this suffix.
HASHES_SUFFIX = "_hashes"


def name_hashes(names: Sequence[str]) -> np.ndarray:
    """spaCy's 64-bit MurmurHash of each name (``spacy.strings.hash_string``, the key of its
    own string store): the same in every process, unlike Python's ``hash``."""
    return np.fromiter(map(hash_string, names), dtype=np.uint64, count=len(names))


class HashedVocabulary:
    """A fitted vocabulary as the hashes of its names in column order (``name_hashes``), looked
    up many names at a time: no dictionary of names is built, so a stored estimator is ready
    as soon as its arrays are read. Names whose hashes are equal would share a column, so
    ``name_hashes`` of one vocabulary must be distinct (``HashedVocabulary`` checks)."""

    def __init__(self, hashes: np.ndarray):
        self.order = np.argsort(hashes)
        self.sorted = hashes[self.order]
        if len(self.sorted) > 1 and not (self.sorted[1:] > self.sorted[:-1]).all():
            raise ValueError("two feature names of one vocabulary share a hash")

    def __len__(self) -> int:
        return len(self.sorted)

    def columns(self, hashes: np.ndarray) -> np.ndarray:
        """The column of each hashed name, -1 for names the vocabulary lacks."""
        if not len(self.sorted):
            return np.full(len(hashes), -1, dtype=np.int64)
        found = np.minimum(np.searchsorted(self.sorted, hashes), len(self.sorted) - 1)
        return np.where(self.sorted[found] == hashes, self.order[found], -1)


def feature_matrix(X: Sequence[Sequence], vocabulary: "dict[str, int] | HashedVocabulary",
                   unit_binary: bool = False, weighted: bool = False,
                   block_columns: dict | None = None) -> sparse.csr_matrix:
    """CSR matrix of the rows' known features, built in one go (tagging builds one per lexelt and
    batch, where scipy's per-matrix overhead is most of the cost): binary names as 1, or, with
    ``unit_binary``, as 1 / sqrt(their count in the row), so each row's binary part has length 1;
    with ``weighted``, the values of the rows' ``Weighted`` blocks beside them (else those are
    left out). Indices sorted and int32, which liblinear requires (NOTES.md).

    ``vocabulary``: a fitted one's names, or a stored one's hashes (``HashedVocabulary``), which
    give the same matrix. ``block_columns`` keeps, across calls with the same vocabulary, which
    of a block's names it knows and their columns, by the block's names: blocks of one group
    share their names."""
    if isinstance(vocabulary, HashedVocabulary):
        return _hashed_matrix(X, vocabulary, unit_binary, weighted,
                              {} if block_columns is None else block_columns)
    columns_of: dict[tuple[str, ...], tuple[np.ndarray, np.ndarray]] = (
        {} if block_columns is None else block_columns)
    blocks = 0
    indptr = [0]
    indices: list[np.ndarray] = []
    data: list[np.ndarray] = []
    for features in X:
        # the known names by a set intersection, the dict's lookups made in C
        binary = sorted(map(vocabulary.__getitem__, vocabulary.keys() & features))
        value = 1.0 / np.sqrt(max(len(binary), 1)) if unit_binary else 1.0
        indices.append(np.array(binary, dtype=np.int32))
        data.append(np.full(len(binary), value))
        count = indptr[-1] + len(binary)
        # the blocks: the items that are not names, filtered in C (rows hold dozens of names)
        for block in filterfalse(str.__instancecheck__, features) if weighted else ():
            if block.names not in columns_of:  # one lookup per distinct names tuple
                known = np.array([name in vocabulary for name in block.names], dtype=bool)
                columns_of[block.names] = (known, np.array(
                    [vocabulary[name] for name in block.names if name in vocabulary], np.int32))
            known, columns = columns_of[block.names]
            blocks += 1
            indices.append(columns)
            data.append(np.asarray(block.values, np.float64)[known])
            count += len(columns)
        indptr.append(count)
    matrix = sparse.csr_matrix(
        (np.concatenate(data) if data else np.zeros(0),
         np.concatenate(indices) if indices else np.zeros(0, np.int32),
         np.asarray(indptr, dtype=np.int32)), shape=(len(X), len(vocabulary)))
    if blocks:
        matrix.sum_duplicates()  # sorts each row's indices after its blocks
        matrix.eliminate_zeros()
    return matrix


def _hashed_matrix(X: Sequence[Sequence], vocabulary: HashedVocabulary, unit_binary: bool,
                   weighted: bool, columns_of: dict) -> sparse.csr_matrix:
    """``feature_matrix`` over a ``HashedVocabulary``: every row's names hashed and looked up
    at once, then the rows assembled as ``feature_matrix`` does, into the same entries."""
    width = len(vocabulary)
    binary_rows = [list(filter(str.__instancecheck__, features)) for features in X]
    lengths = np.fromiter(map(len, binary_rows), dtype=np.int64, count=len(X))
    columns = vocabulary.columns(name_hashes(list(chain.from_iterable(binary_rows))))
    known = columns >= 0
    # each row's distinct known columns, sorted: (row, column) pairs as one sortable key
    keys = np.unique(np.repeat(np.arange(len(X), dtype=np.int64), lengths)[known] * width
                     + columns[known])
    rows, columns = np.divmod(keys, max(width, 1))
    counts = np.bincount(rows, minlength=len(X))
    values = (1.0 / np.sqrt(np.maximum(counts, 1).astype(np.float64)) if unit_binary
              else np.ones(len(X)))[rows]
    indptr = np.zeros(len(X) + 1, dtype=np.int32)
    np.cumsum(counts, out=indptr[1:])
    columns = columns.astype(np.int32)
    if not weighted or all(len(row) == len(features) for row, features in zip(binary_rows, X)):
        return sparse.csr_matrix((values, columns, indptr), shape=(len(X), width))
    indices: list[np.ndarray] = []
    data: list[np.ndarray] = []
    blocks_indptr = [0]
    for number, features in enumerate(X):
        start, end = indptr[number], indptr[number + 1]
        indices.append(columns[start:end])
        data.append(values[start:end])
        count = blocks_indptr[-1] + end - start
        for block in filterfalse(str.__instancecheck__, features):
            if block.names not in columns_of:  # one lookup per distinct names tuple
                found = vocabulary.columns(name_hashes(block.names))
                columns_of[block.names] = (found >= 0, found[found >= 0].astype(np.int32))
            present, block_columns = columns_of[block.names]
            indices.append(block_columns)
            data.append(np.asarray(block.values, np.float64)[present])
            count += len(block_columns)
        blocks_indptr.append(count)
    matrix = sparse.csr_matrix((np.concatenate(data), np.concatenate(indices),
                                np.asarray(blocks_indptr, dtype=np.int32)),
                               shape=(len(X), width))
    matrix.sum_duplicates()  # sorts each row's indices after its blocks
    matrix.eliminate_zeros()
    return matrix


def build_vocabulary(X: Sequence[Sequence]) -> dict[str, int]:
    """Every feature name of the rows, sorted: binary names and their blocks' names (a group's
    blocks share one names tuple, so each tuple is read once)."""
    names: set[str] = set()
    blocks = set()
    for features in X:
        names.update(filter(str.__instancecheck__, features))
        blocks.update(block.names for block in filterfalse(str.__instancecheck__, features))
    names.update(*blocks)
    return vocabulary_of(sorted(names))


def held_out_folds(X: Sequence[Sequence], folds: int, random_state: int) -> np.ndarray | None:
    """Each row's fold (0 to ``folds`` - 1) for cross-fitting, None when the rows hold fewer
    distinct instances than folds. The rows of an instance with several gold tags are
    identical: they share a fold, or the copy in the training folds would make its held-out
    twin look confidently wrong."""
    groups = np.unique([" ".join(sorted(set(binary_names(row)))) for row in X],
                       return_inverse=True)[1]
    if groups.max(initial=-1) + 1 < folds:
        return None
    assignment = np.empty(len(X), dtype=int)
    splits = GroupKFold(folds, shuffle=True, random_state=random_state).split(X, groups=groups)
    for fold, (_, test) in enumerate(splits):
        assignment[test] = fold
    return assignment


def vocabulary_of(names: Sequence[str]) -> dict[str, int]:
    return {name: index for index, name in enumerate(names)}


def vocabulary_names(vocabulary: dict[str, int]) -> list[str]:
    """Feature names in index order."""
    return sorted(vocabulary, key=vocabulary.__getitem__)


def check_dense_size(senses: int, features: int, rows: int) -> None:
    """``WsdError`` unless dense senses x features and senses x rows arrays stay within
    ``MAX_DENSE_ENTRIES``."""
    columns, name = (features, "features") if features >= rows else (rows, "training rows")
    if senses * columns > MAX_DENSE_ENTRIES:
        raise WsdError(f"{senses:,} senses x {columns:,} {name} need dense arrays of "
                       f"{senses * columns * 8 / 2 ** 30:.1f} GiB each, over the limit of "
                       f"{MAX_DENSE_ENTRIES * 8 / 2 ** 20:.0f} MiB: choose other --systems for it")


def prefixed_senses(X, prefix: str) -> set[str]:
    """The senses the rows' ``Weighted`` blocks of ``prefix`` name (``prefix`` + sense)."""
    return {name[len(prefix):] for row in X for block in row
            if not isinstance(block, str) and block.names[0].startswith(prefix)
            for name in block.names}


def prefixed_values(X, classes: np.ndarray, prefix: str) -> tuple[np.ndarray, np.ndarray]:
    """Rows x classes: the value each row's ``Weighted`` block of ``prefix`` names (``prefix`` +
    sense) gives each class (0 where none), and whether it names the class."""
    column = {sense: index for index, sense in enumerate(classes)}
    values = np.zeros((len(X), len(classes)))
    named = np.zeros((len(X), len(classes)), dtype=bool)
    for row, features in enumerate(X):
        for block in features:
            if not isinstance(block, str) and block.names[0].startswith(prefix):
                for name, value in zip(block.names, block.values):
                    index = column.get(name[len(prefix):])
                    if index is not None:
                        values[row, index] = value
                        named[row, index] = True
    return values, named
