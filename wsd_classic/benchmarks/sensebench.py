"""``bin/evaluate --benchmark sensebench``: SenseBench baseline key files and their accuracy.

For each all-words system and dataset (Raganato's ALL by default; any registered set or
``NAME.data.xml`` path, lexEN's export among them) it writes under ``<out>/sensebench/``:

- ``<system>.<dataset>.key``: ``instance_id sense_key``, one WordNet 3.0 key a line, every
  instance of the dataset once (the file SenseBench takes from a baseline);
- ``<system>.<dataset>.p002.jsonl``: ``{"id", "key", "index"}`` per instance, ``index`` the
  1-based position of the key's synset in ``wn.synsets(lemma, pos)``, the number prompt p002
  asks an LLM for, so the row sits beside LLM runs that answer with indices;
- ``scores.json``: accuracy by SenseBench's rule (``scoring.sensebench``) with its 95% bootstrap
  interval, overall and per part of an ALL-style set, and McNemar's test of each system against
  the best one (overall accuracy) on the same instances.
"""
from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from wsd_classic import wordnet
from wsd_classic.atomic import write_json_atomically, write_lines_atomically
from wsd_classic.corpora.registry import ALL_PARTS
from wsd_classic.corpora.raganato import write_raganato_key
from wsd_classic.scoring.statistics import mcnemar
from wsd_classic.scoring.sensebench import accuracy, correct_by_instance, dataset_of
from wsd_classic.tasks import staging
from wsd_classic.tasks.allwords_evaluation import (
    Evaluation, EvaluationSet, read_evaluation_sets, tag_each)

BENCHMARK = "sensebench"
DEFAULT_DATASETS = "ALL"


def p002_index(key: str, lemma: str, pos: str) -> int:
    """The 1-based position of ``key``'s synset among ``wn.synsets(lemma, pos)``."""
    synsets = wordnet.wordnet().synsets(lemma, pos)
    return synsets.index(wordnet.synset_of_key(key)) + 1


def run(system_names: Sequence[str], datasets: Sequence[EvaluationSet], models_root: Path,
        results_root: Path, jobs: int = 1) -> Evaluation:
    """Tag every dataset with every system, write keys, p002 indices and ``scores.json``
    (``scores[system][dataset]``: ``{"overall": figures, "parts": {part: figures}, "mcnemar":
    {...} against the best system}``)."""
    out_dir = Path(results_root) / BENCHMARK
    corpora, golds = read_evaluation_sets(datasets)
    correct: dict[str, dict[str, dict[str, bool]]] = {system: {} for system in system_names}
    speed: dict[str, float] = {}
    with staging.exclusive(results_root, BENCHMARK), staging.staged_directory(out_dir) as stage:
        for system, name, tagged in tag_each(system_names, corpora, models_root, jobs, speed):
            write_raganato_key(stage / f"{system}.{name}.key",
                               [(answer.instance_id, [answer.key]) for answer in tagged])
            write_lines_atomically(stage / f"{system}.{name}.p002.jsonl", (
                json.dumps({"id": answer.instance_id, "key": answer.key,
                            "index": p002_index(answer.key, target.lemma, target.pos)})
                for target, answer in zip(corpora[name].targets, tagged)))
            correct[system][name] = correct_by_instance(
                golds[name], {answer.instance_id: answer.key for answer in tagged})
        scores = {system: {dataset.name: figures(correct, system, dataset.name)
                           for dataset in datasets} for system in system_names}
        write_json_atomically(stage / "scores.json", scores)
    return Evaluation(scores, speed, out_dir)


def figures(correct: dict[str, dict[str, dict[str, bool]]], system: str, dataset: str) -> dict:
    """Accuracy of ``system`` on ``dataset`` overall and per ALL part, and McNemar's test
    against the system with the best overall accuracy there."""
    results = correct[system][dataset]
    by_part: dict[str, list[bool]] = {}
    for instance, right in results.items():
        part = dataset_of(instance, ALL_PARTS)
        if part is not None:
            by_part.setdefault(part, []).append(right)
    best = max(correct, key=lambda name: sum(correct[name][dataset].values()))
    test = mcnemar(list(results.values()), list(correct[best][dataset].values()))
    return {"overall": accuracy(list(results.values())).as_dict(),
            "parts": {part: accuracy(values).as_dict() for part, values in by_part.items()},
            "mcnemar": {"against": best, "only_this": test.only_first,
                        "only_best": test.only_second, "p_value": test.p_value}}
