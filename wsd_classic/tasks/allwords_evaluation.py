"""The ``bin/evaluate --task semcor`` job: tag Raganato-format datasets, write keys, score them.

A dataset is a registered name (``senseval2``, ``semeval2007``, ``ALL``, ``lexen-v1``, ...: its
files are located and verified by ``corpora.registry``) or the path of any ``NAME.data.xml`` whose
gold key lies beside it as ``NAME.gold.key.txt``. For each system and dataset the answers go to
``<out>/semcor/<system>.<dataset>.key`` and the figures of Raganato et al.'s scorer to
``<out>/semcor/scores.json`` as ``{system: {dataset: {precision, recall, f1, ...}}}`` (with
the macro-averaged figures over gold senses of ``scoring.raganato.score_macro``), beside
the figures of earlier runs for other systems and datasets (their key files remain). The
directory is written as ``bin/train`` writes its outputs: in a staging copy, under a lock, and
swapped in only once complete.
"""
from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from wsd_classic.atomic import write_json_atomically
from wsd_classic.corpora import registry
from wsd_classic.corpora.raganato import read_raganato_key, write_raganato_key
from wsd_classic.errors import WsdError
from wsd_classic.scoring.raganato import score_macro, score_raganato
from wsd_classic.corpora.allwords import AllWordsCorpus, read_raganato_corpus
from wsd_classic.tasks import catalogue, staging
from wsd_classic.tasks.catalogue import Task
from wsd_classic.tasks.staging import previous_scores
from wsd_classic.tasks.tagger import TaggedInstance, Tagger

DATA_SUFFIX = ".data.xml"
GOLD_SUFFIX = ".gold.key.txt"


@dataclass(frozen=True)
class EvaluationSet:
    name: str
    data: Path
    gold: Path


def resolve_dataset(spec: str, data_dir=None) -> EvaluationSet:
    """A registered dataset name, or a ``*.data.xml`` path with its gold key beside it."""
    if spec.endswith(DATA_SUFFIX):
        data = Path(spec)
        gold = data.with_name(data.name[:-len(DATA_SUFFIX)] + GOLD_SUFFIX)
        for path in (data, gold):
            if not path.is_file():
                raise WsdError("no such file (a dataset needs NAME.data.xml and NAME.gold.key.txt "
                               "side by side)", path)
        return EvaluationSet(data.name[:-len(DATA_SUFFIX)], data, gold)
    data_name, gold_name = spec + DATA_SUFFIX, spec + GOLD_SUFFIX
    registered = registry.DATASETS.get(spec)
    if registered is None or data_name not in registered.paths():
        known = [name for name, dataset in registry.DATASETS.items()
                 if name + DATA_SUFFIX in dataset.paths()]
        raise WsdError(f"{spec!r} is not an all-words dataset: give one of {', '.join(known)} or "
                       f"a path ending in {DATA_SUFFIX}")
    return EvaluationSet(spec, registry.file(spec, data_name, data_dir),
                         registry.file(spec, gold_name, data_dir))


def resolve_datasets(specs: list[str], data_dir=None) -> list[EvaluationSet]:
    datasets = [resolve_dataset(spec, data_dir) for spec in specs]
    names = [dataset.name for dataset in datasets]
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise WsdError(f"two datasets named {', '.join(repeated)}: their key files would clash")
    return datasets


@dataclass
class Evaluation:
    """Figures (fractions) by system and dataset, and tagging speed (targets per second)."""

    scores: dict[str, dict[str, dict]]
    speed: dict[str, float]
    out_dir: Path


def evaluate(system_names: list[str], datasets: list[EvaluationSet], models_root: Path,
             results_root: Path, jobs: int = 1, task: Task = catalogue.SEMCOR) -> Evaluation:
    """Tag every dataset with every system, write the key files and ``scores.json``."""
    out_dir = Path(results_root) / task.name
    corpora, golds = read_evaluation_sets(datasets)
    scores: dict[str, dict[str, dict]] = {system: {} for system in system_names}
    speed: dict[str, float] = {}
    with staging.exclusive(results_root, task.name), staging.staged_directory(out_dir) as stage:
        for system, name, tagged in tag_each(system_names, corpora, models_root, jobs, speed,
                                             task):
            write_raganato_key(stage / f"{system}.{name}.key",
                               [(answer.instance_id, [answer.key]) for answer in tagged])
            answers = {answer.instance_id: [answer.key] for answer in tagged}
            result = score_raganato(golds[name], answers)
            macro = score_macro(golds[name], answers)
            scores[system][name] = {
                "precision": result.precision, "recall": result.recall, "f1": result.f1,
                "correct": result.correct, "answered": result.answered,
                "instances": result.instances, "macro_precision": macro.precision,
                "macro_recall": macro.recall, "macro_f1": macro.f1, "senses": macro.senses}
        write_json_atomically(stage / "scores.json",
                              merged_scores(previous_scores(stage / "scores.json"), scores))
    return Evaluation(scores, speed, out_dir)


def read_evaluation_sets(datasets: Iterable[EvaluationSet]
                         ) -> tuple[dict[str, AllWordsCorpus], dict[str, dict]]:
    """Each dataset's corpus and gold keys, by its name."""
    datasets = list(datasets)
    return ({dataset.name: read_raganato_corpus(dataset.data) for dataset in datasets},
            {dataset.name: read_raganato_key(dataset.gold) for dataset in datasets})


def tag_each(system_names: Iterable[str], corpora: dict[str, AllWordsCorpus], models_root: Path,
             jobs: int, speed: dict[str, float], task: Task = catalogue.SEMCOR
             ) -> Iterator[tuple[str, str, list[TaggedInstance]]]:
    """``(system, corpus name, answers)`` for every system and corpus, each system loaded once;
    ``speed`` receives each system's targets per second (handling its answers included)."""
    for system in system_names:
        tagger = Tagger.load(task.check_systems([system])[0], models_root, task.name)
        started, targets = time.perf_counter(), 0
        for name, corpus in corpora.items():
            tagged = tagger.tag(corpus, jobs)
            targets += len(tagged)
            yield system, name, tagged
        speed[system] = targets / max(time.perf_counter() - started, 1e-9)


def merged_scores(previous: dict, new: dict) -> dict:
    """``previous`` figures with this run's over them, system by system and dataset by dataset."""
    merged = {system: dict(by_dataset) for system, by_dataset in previous.items()}
    for system, by_dataset in new.items():
        merged.setdefault(system, {}).update(by_dataset)
    return merged
