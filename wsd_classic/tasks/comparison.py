"""The ``bin/compare`` job: a reader's predictions beside the classic rows, on every dataset.

A dataset is a registered name (``ALL``, ``semeval2007``, ``lexen-v1``, ...) or a ``*.data.xml``
path, with its gold key given or lying beside it. A dataset whose ids fall into several of ALL's
sets (``senseval2.d000.s000.t000``, ...) is also scored on each of them: one column per set,
then the whole.

The classic rows are the installed all-words models (every one by default; wn1, which needs no
model, always) applied to the dataset. Their keys are cached under
``<cache>/compare/<dataset SHA-256>/<task>-<system>-<identity>.key``, the identity being the
SHA-256 of the package version and the model file, so a dataset is tagged once per model.

SemCor's seen senses and lemmas (``scoring.comparison.SemcorInventory``) are read from the
registered SemCor once and cached by its tree hash.
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from wsd_classic import __version__, modelstore, settings, systems
from wsd_classic.atomic import write_json_atomically
from wsd_classic.corpora import registry
from wsd_classic.corpora.allwords import read_raganato_corpus, read_semcor_corpus
from wsd_classic.corpora.predictions import read_predictions
from wsd_classic.corpora.raganato import iter_raganato, read_raganato_key, write_raganato_key
from wsd_classic.errors import WsdError
from wsd_classic.scoring.comparison import (DatasetComparison, SemcorInventory, compare_rows,
                                            instance_splits)
from wsd_classic.scoring.sensebench import dataset_of
from wsd_classic.tasks import catalogue
from wsd_classic.tasks.allwords_evaluation import EvaluationSet, resolve_dataset
from wsd_classic.tasks.tagger import Tagger

CACHE_FOLDER = "compare"
SEMCOR = "semcor-3.0"
ALL = "ALL"


@dataclass(frozen=True)
class ClassicSystem:
    task: str
    system: str
    label: str


@dataclass(frozen=True)
class Comparison:
    """The columns (each a dataset or one of ALL's sets) and where every figure came from."""

    columns: tuple[DatasetComparison, ...]
    datasets: tuple[EvaluationSet, ...]
    semcor: Path
    tagged: tuple[str, ...]  # "svm on ALL: tagged" or "...: cached"
    sources: dict[str, str]  # by row label: the package, or the predictions files' names
    registered: frozenset[str]  # the columns that are registered datasets, byte for byte


def resolve_datasets(specs: Sequence[str], golds: Sequence[Path], data_dir=None
                     ) -> list[EvaluationSet]:
    """Each ``--dataset`` with its ``--gold`` (given once per dataset, in order, or never)."""
    if golds and len(golds) != len(specs):
        raise WsdError(f"{len(golds)} --gold for {len(specs)} --dataset: give one gold key per "
                       "dataset, in the same order, or none (registered names and NAME.data.xml "
                       "with NAME.gold.key.txt beside it need none)")
    if not golds:
        return [resolve_dataset(spec, data_dir) for spec in specs]
    datasets = []
    for spec, gold in zip(specs, golds):
        if spec.endswith(".data.xml"):
            data = Path(spec)
            name = data.name.removesuffix(".data.xml")
        else:
            data = resolve_dataset(spec, data_dir).data
            name = spec
        for path in (data, gold):
            if not Path(path).is_file():
                raise WsdError("no such file", path)
        datasets.append(EvaluationSet(name, data, Path(gold)))
    return datasets


def classic_systems(names: Sequence[str] | None, models_root: Path) -> list[ClassicSystem]:
    """The classic rows: ``names`` (``system`` or ``task/system``), or every installed
    all-words model and every all-words system that needs none."""
    tasks = [catalogue.get(name) for name in catalogue.of_kind(catalogue.ALL_WORDS)]
    several = len(tasks) > 1
    if names is not None:
        chosen = []
        for name in names:
            task_name, _, system = name.rpartition("/")
            task = catalogue.get(task_name) if task_name else tasks[0]
            if task.kind != catalogue.ALL_WORDS:
                raise WsdError(f"--systems {name}: {task.name} is not an all-words task")
            task.check_systems([system])
            chosen.append(ClassicSystem(task.name, system,
                                        f"{task.name}/{system}" if several else system))
        return chosen
    installed = {(model.task, model.system) for model in modelstore.installed(models_root)
                 if model.problem is None}
    return [ClassicSystem(task.name, system, f"{task.name}/{system}" if several else system)
            for task in tasks for system in task.systems + task.on_request
            if (task.name, system) in installed or not systems.get(system).has_model_file]


@dataclass(frozen=True)
class _ReadDataset:
    """A dataset read and checked: its instances' tags, its columns' gold keys, the reader's
    predictions by label, whether it is the registered dataset of its name."""

    dataset: EvaluationSet
    pos_tags: dict[str, str]
    columns: list[tuple[str, dict[str, Sequence[str]]]]
    predictions: dict[str, dict[str, tuple[str, ...]]]
    registered: bool


def compare(datasets: Sequence[EvaluationSet], predictions: Mapping[str, Sequence[Path]],
            classic: Sequence[ClassicSystem], models_root: Path, data_dir=None,
            semcor_root: Path | None = None, jobs: int = 1) -> Comparison:
    """Read and check everything, then tag what the cache lacks and score every column."""
    clashing = sorted(set(predictions) & {system.label for system in classic})
    if clashing:
        raise WsdError(f"--predictions label {clashing[0]!r} is also a classic row's: choose "
                       "another label")
    for label, paths in predictions.items():
        if len(paths) != len(datasets):
            raise WsdError(f"--predictions {label}: {len(paths)} file(s) for {len(datasets)} "
                           "dataset(s): give LABEL=FILE once per --dataset, in their order")
    read = [_read(dataset, {label: paths[number] for label, paths in predictions.items()})
            for number, dataset in enumerate(datasets)]
    names = [name for each in read for name, _ in each.columns]
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise WsdError(f"two columns named {repeated[0]}: give each dataset once (ALL brings "
                       "a column for each of its sets)")
    inventory, semcor = semcor_inventory(data_dir, semcor_root)
    tagged_notes, columns = [], []
    for each in read:
        classic_rows = {}
        for system in classic:
            keys, note = classic_keys(system, each.dataset, models_root, jobs)
            classic_rows[system.label] = keys
            tagged_notes.append(f"{system.label} on {each.dataset.name}: {note}")
        for name, gold in each.columns:
            columns.append(compare_rows(name, gold, {**classic_rows, **each.predictions},
                                        set(classic_rows),
                                        instance_splits(gold, each.pos_tags, inventory)))
    sources = {system.label: f"wsd-classic {__version__} ({system.task} task)"
               for system in classic}
    sources.update({label: ", ".join(path.name for path in paths)
                    for label, paths in predictions.items()})
    published = frozenset(name for each in read if each.registered for name, _ in each.columns)
    return Comparison(tuple(columns), tuple(datasets), semcor, tuple(tagged_notes), sources,
                      published)


def _read(dataset: EvaluationSet, predictions: Mapping[str, Path]) -> _ReadDataset:
    pos_tags = {token.instance_id: token.pos for sentence in iter_raganato(dataset.data)
                for token in sentence.instances}
    gold = read_raganato_key(dataset.gold)
    missing = [instance for instance in gold if instance not in pos_tags]
    if missing:
        raise WsdError(f"the gold key names instance {missing[0]!r}, which {dataset.data} does "
                       "not hold: a gold key of another dataset?", dataset.gold)
    registered = is_registered(dataset)
    return _ReadDataset(
        dataset, pos_tags, dataset_columns(dataset.name, gold, registered and dataset.name == ALL),
        {label: read_predictions(path, pos_tags, dataset.name)
         for label, path in predictions.items()}, registered)


def is_registered(dataset: EvaluationSet) -> bool:
    """Whether the dataset's files are those of the registered dataset of its name, so that
    published figures of that name apply to it."""
    registered = registry.DATASETS.get(dataset.name)
    hashes = {entry.path: entry.sha256 for entry in registered.files} if registered else {}
    return all(hashes.get(path.name) == registry.file_sha256(path)
               for path in (Path(dataset.data), Path(dataset.gold)))


def dataset_columns(name: str, gold: Mapping[str, Sequence[str]], registered_all: bool
                    ) -> list[tuple[str, dict[str, Sequence[str]]]]:
    """``(column, gold)``: each of ALL's sets the ids fall into, when more than one, then the
    whole dataset. The sets of the registered ALL are named as the sets; those of any other
    dataset (lexEN and ALLamended keep ALL's ids) ``dataset/set``."""
    parts: dict[str, dict[str, Sequence[str]]] = {}
    for instance, keys in gold.items():
        part = dataset_of(instance, registry.ALL_PARTS)
        if part is not None:
            parts.setdefault(part, {})[instance] = keys
    ordered = [(part if registered_all else f"{name}/{part}", parts[part])
               for part in registry.ALL_PARTS if part in parts]
    return [*(ordered if len(ordered) > 1 else []), (name, dict(gold))]


def classic_keys(system: ClassicSystem, dataset: EvaluationSet, models_root: Path,
                 jobs: int) -> tuple[dict[str, tuple[str, ...]], str]:
    """The system's keys for every instance of the dataset, from the cache or tagged now (and
    cached); with ``"cached"`` or ``"tagged"``."""
    path = (settings.cache_dir() / CACHE_FOLDER / registry.file_sha256(Path(dataset.data))
            / f"{system.task}-{system.system}-{model_identity(system, models_root)}.key")
    if path.is_file():
        return read_raganato_key(path), "cached"
    tagger = Tagger.load(system.system, models_root, system.task)
    tagged = tagger.tag(read_raganato_corpus(dataset.data), jobs)
    keys = {answer.instance_id: (answer.key,) for answer in tagged}
    path.parent.mkdir(parents=True, exist_ok=True)
    write_raganato_key(path, keys)
    return keys, "tagged"


def model_identity(system: ClassicSystem, models_root: Path) -> str:
    """SHA-256 of the package version and the model file (a system without one: its name)."""
    model = modelstore.model_path(models_root, system.task, system.system)
    content = (registry.file_sha256(model) if systems.get(system.system).has_model_file
               else "no model file")
    return hashlib.sha256(f"{__version__} {content}".encode()).hexdigest()


def semcor_inventory(data_dir=None, root: Path | None = None) -> tuple[SemcorInventory, Path]:
    """SemCor's tagged senses and lexelts (the registered, verified copy unless ``root`` is
    given), cached by the SHA-256 of its tag files; and where SemCor was."""
    registered = registry.DATASETS[SEMCOR]
    root = Path(root) if root is not None else registry.locate(SEMCOR, data_dir)
    directories = tuple(directory for tree in registered.trees for directory in tree.directories
                        if (root / directory).is_dir())
    if not directories:
        raise WsdError("no SemCor tagfiles folders (brown1/tagfiles, brown2/tagfiles, "
                       "brownv/tagfiles) here", root)
    path = (settings.cache_dir() / CACHE_FOLDER
            / f"semcor-{registry.tree_sha256(root, directories)}.json")
    if not path.is_file():
        corpus = read_semcor_corpus(root, [directory.split("/")[0]
                                           for directory in directories])
        path.parent.mkdir(parents=True, exist_ok=True)
        write_json_atomically(path, {
            "senses": sorted({key for target in corpus.targets for key in target.keys}),
            "lexelts": sorted({target.lexelt for target in corpus.targets})})
    seen = json.loads(path.read_text(encoding="utf-8"))
    return SemcorInventory(frozenset(seen["senses"]), frozenset(seen["lexelts"])), root
