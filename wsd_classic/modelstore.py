"""Safe, self-describing model files.

A trained system for a task is one file, ``<models>/<task>/<system>/model.npz``: NumPy arrays
plus a ``__meta__`` entry holding JSON (task, system, parameters, feature groups, training-data
hash, library versions, creation time, per-lexelt metadata) and a SHA-256 over every array; the
zip comment holds the SHA-256 of the whole file, checked before anything in it is parsed.
Loading uses ``allow_pickle=False`` — nothing in the file can run code — and refuses a file whose
digests, format version or task/system do not match. Saving writes a temporary file beside the
target and ``os.replace``s it, so an interrupted save leaves the previous model intact.
"""
from __future__ import annotations

import hashlib
import io
import json
import os
import platform
import time
import zipfile
import zlib
from importlib.metadata import version
from collections.abc import Iterator, Mapping
from typing import BinaryIO
from dataclasses import dataclass, field
from pathlib import Path

import cachetools
import numpy as np

from wsd_classic import __version__
from wsd_classic.atomic import write_atomically
from wsd_classic.errors import WsdError
from wsd_classic import systems
from wsd_classic.features.featurizer import Featurizer
from wsd_classic.features.word_vectors import WordVectors
from wsd_classic.preprocess.pipeline import model_signature
from wsd_classic.systems import SenseClassifier, reads_walks
from wsd_classic.systems.base import HashedVocabulary
from wsd_classic.systems.personalised_pagerank import PersonalisedPageRank

FORMAT = "wsd-classic-model/4"
META_ENTRY = "__meta__"
# Starts the zip comment that holds the SHA-256 of the whole file (see ``_sealed``).
SEAL_PREFIX = b"wsd-classic-model sha256:"
SEAL_READ_BYTES = 1 << 20
FILENAME = "model.npz"
# The word vectors a caller gave a model's embedding (``ContextEmbedding``'s ``vectors``), so it
# tags without them (pretrained vectors are an installed resource, named in the featurizer settings).
VECTOR_ENTRIES = {"words": "__vector_words__", "matrix": "__vectors__"}
# The arrays a context scorer reads (``ppr``'s knowledge graph), or the walk whose evidence a
# lexical-sample model reads, are stored as ``__resource_NAME``.
RESOURCE_PREFIX = "__resource_"


@dataclass
class TrainedSystem:
    """A system's per-lexelt estimators, the featurizer they read, and what they were trained on.

    ``models`` maps lexelts to fitted estimators; a loaded model builds each lexelt's estimator
    the first time it is asked for (``LazyModels``). ``kind`` is the task's
    (``tasks.catalogue.LEXICAL_SAMPLE`` or ``ALL_WORDS``): what a target is, and its candidates.
    ``discourse_weight``: how far tagging pulls the targets of one lexelt in one document towards
    each other's distributions (``systems.discourse``), the task's setting when it was trained.
    A context scorer (``systems.System.scorer``) has no lexelt models: its ``params`` and the
    ``resources`` it reads (named arrays) are its model. ``walk``: the walk whose evidence fills
    the ``ppr`` group the estimators read (``systems.reads_walks``; None: they read none); the
    file keeps its settings (the header's ``walk``) and its graph, so tagging needs no data
    directory.
    """

    task: str
    system: str
    models: Mapping[str, SenseClassifier]
    info: dict = field(default_factory=dict)
    featurizer: Featurizer = field(default_factory=Featurizer)
    kind: str = "lexical-sample"
    discourse_weight: float = 0.0
    params: dict = field(default_factory=dict)
    resources: dict[str, np.ndarray] = field(default_factory=dict)
    walk: PersonalisedPageRank | None = None


def library_versions() -> dict[str, str]:
    """From the installed packages' metadata: saving a model imports none of them."""
    # The spaCy model too: the features a model learnt from are the analyses that model made.
    return {"wsd-classic": __version__, "python": platform.python_version(),
            **{name: version(name) for name in ("numpy", "scipy", "scikit-learn", "spacy")},
            "spacy-model": model_signature(), "nltk": version("nltk")}


def _packed(meta: dict, arrays: dict) -> bytes:
    """A lexelt as one archive member: the length of a JSON head, the head (the estimator's
    metadata and the layout of its arrays, ``[[name, dtype, shape, offset], ...]``), then each
    array's bytes. One member per lexelt, not one per array: reading a member costs the parse
    of its own .npy header, which tagging pays for each lexelt it meets."""
    arrays = {name: np.ascontiguousarray(array) for name, array in arrays.items()}
    layout, offset = [], 0
    for name, array in arrays.items():
        layout.append([name, array.dtype.str, list(array.shape), offset])
        offset += array.nbytes
    head = json.dumps({"meta": meta, "layout": layout}, sort_keys=True).encode()
    return b"".join([len(head).to_bytes(8, "little"), head,
                     *(array.tobytes() for array in arrays.values())])


def _unpacked(blob: np.ndarray) -> tuple[dict, dict[str, np.ndarray]]:
    """The metadata and arrays ``_packed`` put in ``blob`` (arrays are read-only views)."""
    size = int.from_bytes(blob[:8].tobytes(), "little")
    head = json.loads(blob[8:8 + size].tobytes().decode())
    start = 8 + size
    arrays = {name: np.frombuffer(blob, dtype=np.dtype(dtype), count=int(np.prod(shape)),
                                  offset=start + offset).reshape(shape)
              for name, dtype, shape, offset in head["layout"]}
    return head["meta"], arrays


def model_path(models_root: Path, task: str, system: str) -> Path:
    return Path(models_root) / task / system / FILENAME


def save(trained: TrainedSystem, models_root: Path, task_dir: Path | None = None) -> Path:
    """Write ``trained`` atomically; returns the file's path.

    ``task_dir`` replaces ``models_root/<task>`` (``bin/train`` saves into a staging copy of it).
    """
    system = systems.get(trained.system)
    arrays: dict[str, np.ndarray] = {}
    lexelts = {}
    params = trained.params or system.params
    for number, (item, model) in enumerate(sorted(trained.models.items())):
        meta, model_arrays = model.get_state()
        params = model.get_params()
        blob = _packed(meta, model_arrays)
        lexelts[item] = {"member": f"l{number}", "sha256": hashlib.sha256(blob).hexdigest()}
        arrays[f"l{number}"] = np.frombuffer(blob, dtype=np.uint8)
    featurizer = trained.featurizer.for_groups(system.feature_groups)
    if featurizer.embedding is not None and featurizer.embedding.vectors is not None:
        arrays.update({VECTOR_ENTRIES[name]: array
                       for name, array in featurizer.embedding.vectors.to_arrays().items()})
    resources = {**trained.resources, **(trained.walk.resources() if trained.walk else {})}
    arrays.update({RESOURCE_PREFIX + name: array for name, array in resources.items()})
    header = {
        "format": FORMAT, "task": trained.task, "kind": trained.kind, "system": trained.system,
        "estimator": _maker(system).__name__, "params": params,
        "feature_groups": list(system.feature_groups),
        "featurizer": featurizer.settings(), "discourse_weight": trained.discourse_weight,
        "created": time.strftime(
            "%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "versions": library_versions(),
        "info": trained.info, "lexelts": lexelts,
        **({"walk": trained.walk.params} if trained.walk else {}),
    }
    arrays[META_ENTRY] = np.frombuffer(json.dumps(header, sort_keys=True).encode(), dtype=np.uint8)
    path = (model_path(models_root, trained.task, trained.system) if task_dir is None
            else Path(task_dir) / trained.system / FILENAME)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, [_sealed(_npz(arrays))])
    return path


def _npz(arrays: dict[str, np.ndarray]) -> bytes:
    """``np.savez_compressed``'s archive at deflate's fastest level: level 6 costs twice the
    time for files 8% smaller."""
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as zipped:
        for name, array in arrays.items():
            with zipped.open(f"{name}.npy", "w", force_zip64=True) as member:
                np.lib.format.write_array(member, array, allow_pickle=False)
    return archive.getvalue()


def _sealed(archive: bytes) -> bytes:
    """The zip ``archive`` with the SHA-256 of all its bytes as its zip comment.

    The digest over the arrays alone would let changes to the zip's own fields (timestamps,
    flags, the directory) through; this one covers every byte, and the file stays a plain .npz.
    """
    if archive[-2:] != b"\0\0":
        raise ValueError("the archive already has a zip comment")
    seal = SEAL_PREFIX + hashlib.sha256(archive).hexdigest().encode()
    return archive[:-2] + len(seal).to_bytes(2, "little") + seal


def _sealed_correctly(stream: BinaryIO) -> bool:
    """Whether the file ``stream`` ends in a seal that matches the archive before it, read in
    pieces: a sealed file is itself a zip archive (the seal is its comment), so it is then read
    as it is, member by member, and never held whole in memory."""
    length = len(SEAL_PREFIX) + 64
    size = stream.seek(0, io.SEEK_END)
    if size < length + 2:
        return False
    stream.seek(size - length - 2)
    declared, seal = stream.read(2), stream.read(length)
    if not seal.startswith(SEAL_PREFIX) or declared != length.to_bytes(2, "little"):
        return False
    stream.seek(0)
    digest = hashlib.sha256()
    remaining = size - length - 2
    while remaining > 0:
        piece = stream.read(min(remaining, SEAL_READ_BYTES))
        if not piece:
            return False
        digest.update(piece)
        remaining -= len(piece)
    digest.update(b"\0\0")
    return digest.hexdigest().encode() == seal[len(SEAL_PREFIX):]


def read_header(path: Path) -> tuple[dict, np.lib.npyio.NpzFile]:
    """The verified header of a model file and its archive, whose arrays are read on demand, or
    a ``WsdError`` saying what is wrong. The whole-file seal is checked here; each lexelt's
    arrays are checked against their own digest when they are read (``LazyModels``)."""
    if not path.is_file():
        raise WsdError("no trained model here: run bin/train first", path)
    try:
        stream = open(path, "rb")
        sealed = _sealed_correctly(stream)
    except OSError as error:
        raise WsdError(f"cannot read the model file: {error.strerror or error}", path) from None
    if not sealed:
        stream.close()
        raise WsdError("model file fails its SHA-256 check (changed, damaged or made by an "
                       "older version): retrain with bin/train", path)
    try:
        archive = np.load(_PositionalReader(stream), allow_pickle=False)
        header = json.loads(archive[META_ENTRY].tobytes().decode())
    except _DAMAGED as error:
        stream.close()
        raise WsdError(f"corrupt model file ({type(error).__name__}): retrain with bin/train",
                       path) from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        stream.close()
        raise WsdError(f"not a {FORMAT} model file: retrain with bin/train", path)
    return header, archive


class _PositionalReader(io.RawIOBase):
    """A file read at positions it keeps itself (``os.pread``), not at the descriptor's: a
    forked process that reads a model's members then never moves another's position."""

    def __init__(self, stream: BinaryIO):
        super().__init__()
        self.stream, self.position = stream, 0
        self.size = os.fstat(stream.fileno()).st_size

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        self.position = offset + (0, self.position, self.size)[whence]
        return self.position

    def tell(self) -> int:
        return self.position

    def readinto(self, buffer) -> int:
        data = os.pread(self.stream.fileno(), len(buffer), self.position)
        buffer[:len(data)] = data
        self.position += len(data)
        return len(data)

    def close(self) -> None:
        self.stream.close()
        super().close()


# Changed bytes surface as whichever of these the damaged layer (zip directory, deflate stream,
# .npy header, JSON) raises first.
_DAMAGED = (OSError, ValueError, KeyError, zipfile.BadZipFile, zlib.error, EOFError,
            UnicodeDecodeError, NotImplementedError, io.UnsupportedOperation)


# What the estimators a loaded model has built may take in memory: past it, those used least
# recently are dropped (and built again if met again), so that tagging a corpus of any size
# stays within bounded memory: an all-words model's estimators all built take gigabytes
# (docs/speed.md).
BUILT_BYTES = 192 << 20
# A vocabulary's entry in memory as a dictionary (a fitted one, or a stored one whose names were
# asked for): the name's string, its index's int and the dict's slot.
VOCABULARY_ENTRY_BYTES = 200


def footprint(model: SenseClassifier) -> int:
    """About how many bytes an estimator takes: the buffers under its arrays (a stored
    estimator's arrays are views of the lexelt's one buffer), its hashed vocabulary's arrays,
    its vocabulary's entries as a dictionary, and those of the estimators it holds."""
    buffers: dict[int, int] = {}
    size = 0
    for value in _state_values(model):
        if isinstance(value, np.ndarray):
            while isinstance(value.base, np.ndarray):
                value = value.base
            buffers[id(value)] = value.nbytes
        elif isinstance(value, HashedVocabulary):
            size += value.order.nbytes + value.sorted.nbytes
        elif isinstance(value, dict):
            size += len(value) * VOCABULARY_ENTRY_BYTES
    return size + sum(buffers.values())


def _state_values(model) -> Iterator:
    """The values of an estimator's attributes, and of the estimators among them or in a
    dictionary of them (a combination's members, the rank system's svm)."""
    for value in vars(model).values():
        if isinstance(value, SenseClassifier):
            yield from _state_values(value)
        elif isinstance(value, dict) and any(isinstance(member, SenseClassifier)
                                             for member in value.values()):
            for member in value.values():
                yield from _state_values(member)
        else:
            yield value


class LazyModels(Mapping):
    """A model file's lexelts, each estimator built from its arrays the first time it is used,
    and kept while those built hold at most ``budget`` bytes (``footprint``), least recently
    used dropped first.

    The all-words models hold over 20,000 lexelts, and a run tags a few of them: building them
    all would cost seconds before the first word is tagged, and keeping all it meets would
    grow with the input.
    """

    def __init__(self, path: Path, header: dict, archive, estimator: type[SenseClassifier],
                 budget: int | None = None):
        self.path, self.archive, self.estimator = path, archive, estimator
        self.params, self.index = header["params"], header["lexelts"]
        self.built: cachetools.LRUCache = cachetools.LRUCache(budget or BUILT_BYTES,
                                                              getsizeof=footprint)

    def __getitem__(self, item: str) -> SenseClassifier:
        model = self.built.get(item)
        if model is None:
            model = self._build(item)
            if footprint(model) <= self.built.maxsize:
                self.built[item] = model
        return model

    def _build(self, item: str) -> SenseClassifier:
        entry = self.index[item]
        try:
            blob = self.archive[entry["member"]]
            if hashlib.sha256(blob.tobytes()).hexdigest() != entry["sha256"]:
                raise WsdError(f"lexelt {item} fails its SHA-256 check (changed or damaged): "
                               "retrain", self.path)
            meta, arrays = _unpacked(blob)
            return self.estimator.from_state(self.params, meta, arrays)
        except _DAMAGED + (TypeError,) as error:
            raise WsdError(f"incompatible model file ({error}): retrain with bin/train",
                           self.path) from None

    def __iter__(self) -> Iterator[str]:
        return iter(self.index)

    def __len__(self) -> int:
        return len(self.index)

    def __contains__(self, item) -> bool:
        return item in self.index


def load(models_root: Path, task: str, system: str) -> TrainedSystem:
    """The ``task``/``system`` model, its featurizer as it was trained."""
    registered = systems.get(system)
    path = model_path(models_root, task, system)
    if not path.is_file():
        present = [f"{model.task}/{model.system}" for model in installed(models_root)]
        raise WsdError(f"no {task}/{system} model in {models_root} (installed: "
                       f"{', '.join(present) or 'none'}); train it with bin/train")
    header, archive = read_header(path)
    if header.get("task") != task or header.get("system") != system:
        raise WsdError(f"model is for {header.get('task')}/{header.get('system')}, "
                       f"not {task}/{system}", path)
    if header.get("estimator") != _maker(registered).__name__:
        raise WsdError(f"model was made by {header.get('estimator')}, incompatible with this "
                       f"version's {_maker(registered).__name__}: retrain", path)
    if header.get("feature_groups") != list(registered.feature_groups):
        raise WsdError(f"model reads features {header.get('feature_groups')}, this version's "
                       f"{system} reads {list(registered.feature_groups)}: retrain", path)
    kind = header.get("kind", "lexical-sample")
    # A lexical-sample model is never pulled: a file older than the field reads as 0. An
    # all-words file older than it was tagged with the catalogue's weight of the day.
    if "discourse_weight" not in header and kind != "lexical-sample":
        raise WsdError("model file predates the discourse weight in its header: retrain with "
                       "bin/train", path)
    try:
        featurizer = Featurizer.from_settings(header["featurizer"], _vectors(archive, path))
        models = LazyModels(path, header, archive, registered.estimator)
    except (KeyError, TypeError) as error:
        raise WsdError(f"incompatible model file ({error}): retrain with bin/train", path) from None
    except WsdError as error:
        raise WsdError(error.message, path) from None
    resources = {name[len(RESOURCE_PREFIX):]: archive[name]
                 for name in archive.files if name.startswith(RESOURCE_PREFIX)}
    return TrainedSystem(task, system, models, header.get("info", {}), featurizer, kind,
                         header.get("discourse_weight", 0.0), header["params"], resources,
                         _walk(header, resources, path))


def _walk(header: dict, resources: dict[str, np.ndarray], path: Path
          ) -> PersonalisedPageRank | None:
    """The walk whose evidence the model's estimators read, from its header's settings and the
    graph among its resources; None when they read none."""
    if "walk" not in header:
        if reads_walks(header["params"]):
            raise WsdError("model reads ppr's walks but holds no knowledge graph (made before "
                           "its file kept one): retrain with bin/train", path)
        return None
    try:
        return PersonalisedPageRank.from_resources(header["walk"], resources)
    except (KeyError, TypeError, ValueError) as error:
        raise WsdError(f"the model's walk is incomplete ({type(error).__name__}: {error}): "
                       "retrain with bin/train", path) from None
    except WsdError as error:
        raise WsdError(error.message, path) from None


def _maker(system: systems.System) -> type:
    """What a model of the system holds: its estimators, or its context scorer."""
    return system.estimator or system.scorer


def _vectors(archive, path: Path) -> WordVectors | None:
    if VECTOR_ENTRIES["matrix"] not in archive.files:
        return None
    try:
        return WordVectors.from_arrays(**{name: archive[entry]
                                          for name, entry in VECTOR_ENTRIES.items()})
    except _DAMAGED as error:
        raise WsdError(f"corrupt word vectors in the model file ({type(error).__name__}): "
                       "retrain with bin/train", path) from None


@dataclass
class InstalledModel:
    """What ``bin/models`` shows of one model file; ``problem`` is set when it does not verify."""

    path: Path
    size: int
    task: str
    system: str
    lexelts: int = 0
    created: str = ""
    training_sha256: str = ""
    versions: dict = field(default_factory=dict)
    problem: str | None = None


def installed(models_root: Path) -> list[InstalledModel]:
    """Every ``<task>/<system>/model.npz`` under ``models_root``, each verified, sorted."""
    found = []
    for path in sorted(Path(models_root).glob(f"*/*/{FILENAME}")):
        task, system = path.parent.parent.name, path.parent.name
        model = InstalledModel(path, path.stat().st_size, task, system)
        try:
            header, archive = read_header(path)
        except WsdError as error:
            model.problem = error.message
        else:
            archive.close()
            if (header.get("task"), header.get("system")) != (task, system):
                model.problem = (f"holds a {header.get('task')}/{header.get('system')} model: "
                                 "bin/tag will refuse it here")
            model.lexelts = len(header.get("lexelts", {}))
            model.created = header.get("created", "")
            model.training_sha256 = header.get("info", {}).get("training_sha256") or ""
            model.versions = header.get("versions", {})
        found.append(model)
    return found
