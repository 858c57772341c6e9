#!/usr/bin/env python3
"""SenseBench baseline rows: run ``bin/evaluate --benchmark sensebench`` on Raganato's ALL with
the SemCor-trained systems, re-score every key file independently, and record both.

The re-scoring (``rescore``) shares no code with ``wsd_classic.scoring``: it reads the key file
and the gold file as plain text and compares synsets through NLTK's reader directly. The run
fails if the key file lacks an id, has one twice, holds more than one key a line, or if the two
scorings disagree on a single instance. Writes bench/results/sensebench.json.

    python -m bench sensebench --models-dir DIR [--systems mfs,wn1,svm,dlist] [--data-dir DIR]
                               [--out-dir DIR] [--jobs N] [--out FILE]

``--out`` writes the results elsewhere than bench/results/sensebench.json (rows of systems
measured apart, such as the hybrid's: bench/results/sensebench-hybrid.json).
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from wsd_classic import settings, wordnet
from wsd_classic.benchmarks import sensebench
from wsd_classic.report import table
from wsd_classic.tasks import catalogue
from wsd_classic.tasks.allwords_evaluation import resolve_datasets

RESULTS = Path(__file__).resolve().parent / "results"
EXPECTED_INSTANCES = 7253


def rescore(key_path: Path, gold_path: Path) -> dict[str, bool]:
    """Per gold instance, whether the key file's one key is a gold key or a synonym of one."""
    reader = wordnet.wordnet()
    gold = {}
    for line in gold_path.read_text().splitlines():
        fields = line.split()
        gold[fields[0]] = fields[1:]
    answers = {}
    for number, line in enumerate(key_path.read_text().splitlines(), 1):
        fields = line.split()
        assert len(fields) == 2, f"{key_path}:{number}: not 'instance_id sense_key'"
        assert fields[0] not in answers, f"{key_path}:{number}: {fields[0]} twice"
        answers[fields[0]] = fields[1]
    assert set(answers) == set(gold), f"{key_path}: ids differ from {gold_path}'s"

    def synset(key):
        return reader.lemma_from_key(key).synset()

    return {instance: answers[instance] in keys
            or synset(answers[instance]) in {synset(key) for key in keys}
            for instance, keys in gold.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--models-dir", type=Path, required=True)
    parser.add_argument("--systems", default=",".join(catalogue.SEMCOR.systems))
    parser.add_argument("--data-dir", type=Path)
    parser.add_argument("--out-dir", type=Path, default=Path("/tmp/sensebench-results"))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, default=RESULTS / "sensebench.json")
    args = parser.parse_args()
    systems = args.systems.split(",")
    (dataset,) = resolve_datasets([sensebench.DEFAULT_DATASETS], args.data_dir)
    started = time.perf_counter()
    run = sensebench.run(systems, [dataset], settings.models_dir(args.models_dir), args.out_dir,
                         args.jobs)
    seconds = time.perf_counter() - started
    checks = {}
    for system in systems:
        key = run.out_dir / f"{system}.{dataset.name}.key"
        independent = rescore(key, dataset.gold)
        assert len(independent) == EXPECTED_INSTANCES, len(independent)
        figures = run.scores[system][dataset.name]["overall"]
        assert sum(independent.values()) == figures["correct"], (system, figures)
        checks[system] = {"ids": len(independent), "rescored_correct": sum(independent.values())}
    print(table.sensebench_table(run.scores))
    args.out.parent.mkdir(exist_ok=True)
    args.out.write_text(json.dumps(
        {"dataset": dataset.name, "scores": run.scores, "independent_rescoring": checks,
         "seconds": round(seconds, 1),
         "targets_per_second": {s: round(v) for s, v in run.speed.items()}},
        indent=2, sort_keys=True) + "\n")
    print(f"independent re-scoring agrees for {', '.join(checks)}; "
          f"{args.out} written ({seconds:.0f}s)")


if __name__ == "__main__":
    main()
