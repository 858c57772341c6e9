"""``bin/compare`` on Raganato's ALL with predictions made from its gold key, checked against an
independent scorer, and timed.

The predictions are the gold key with 1% of the lines dropped and about 30% of the rest
answered with another WordNet sense of the gold key's lemma (seed 43). ``bin/compare --format
csv`` scores them beside the classic rows. ``independent_figures`` scores them again, sharing no
code with ``wsd_classic``: it reads both key files as text and counts. The run fails if the two
disagree on P, R, F1 or the answered count of any column. Writes bench/results/compare.json
with both scorings, the classic rows' F1 and the command's wall time, CPU-seconds (its own and
its children's) and the load average.

    python -m bench compare --models-dir DIR [--data-dir DIR] [--out-dir DIR]
"""
from __future__ import annotations

import argparse
import csv
import io
import json
import os
import random
import resource
import subprocess
import sys
import time
from pathlib import Path

from wsd_classic.corpora.allwords import key_lexelt
from wsd_classic.tasks.allwords_evaluation import resolve_dataset
from wsd_classic.wordnet import wordnet_senses

RESULTS = Path(__file__).resolve().parent / "results"
REPO = Path(__file__).resolve().parent.parent
SEED = 43
DROPPED = 0.01
SWAPPED = 0.30
LABEL = "perturbed"


def perturbed_gold(gold_path: Path, out: Path) -> None:
    """Write the gold key with lines dropped and answers swapped (see the module's doc)."""
    rng = random.Random(SEED)
    lines = []
    for line in gold_path.read_text(encoding="utf-8").splitlines():
        instance, *keys = line.split()
        draw = rng.random()
        if draw < DROPPED:
            continue
        key = keys[0]
        if draw < SWAPPED:
            others = [other for other in wordnet_senses(*key_lexelt(key)) if other not in keys]
            key = rng.choice(others) if others else key
        lines.append(f"{instance} {key}")
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")


def independent_figures(gold_path: Path, predictions_path: Path) -> dict[str, dict]:
    """P, R, F1 and the answered count per set of ALL (its ids' prefix) and on ALL."""

    def read(path):
        return {fields[0]: set(fields[1:]) for fields in
                (line.split() for line in path.read_text(encoding="utf-8").splitlines())
                if fields}

    gold, predicted = read(gold_path), read(predictions_path)
    figures = {}
    for part in sorted({instance.split(".")[0] for instance in gold}) + ["ALL"]:
        ids = [instance for instance in gold if part == "ALL" or instance.startswith(part + ".")]
        answered = [instance for instance in ids if predicted.get(instance)]
        credit = sum(len(predicted[i] & gold[i]) / len(predicted[i]) for i in answered)
        precision, recall = credit / len(answered), credit / len(ids)
        figures[part] = {"precision": precision, "recall": recall,
                         "f1": 2 * precision * recall / (precision + recall),
                         "answered": len(answered), "instances": len(ids)}
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--models-dir", type=Path, required=True)
    parser.add_argument("--data-dir", type=Path)
    parser.add_argument("--out-dir", type=Path, default=Path("/tmp/compare-bench"))
    args = parser.parse_args()
    dataset = resolve_dataset("ALL", args.data_dir)
    args.out_dir.mkdir(parents=True, exist_ok=True)
    predictions = args.out_dir / "perturbed.ALL.key"
    perturbed_gold(dataset.gold, predictions)
    command = [str(REPO / "bin" / "compare"), "--dataset", "ALL", "--predictions",
               f"{LABEL}={predictions}", "--models-dir", str(args.models_dir), "--format", "csv"]
    if args.data_dir:
        command += ["--data-dir", str(args.data_dir)]
    load = os.getloadavg()[0]
    started, children = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"bin/compare failed: {done.stderr}")
    rows = list(csv.DictReader(io.StringIO(done.stdout)))
    table = {(row["dataset"], row["system"], row["measure"]): float(row["value"]) for row in rows}
    independent = independent_figures(dataset.gold, predictions)
    for part, figures in independent.items():
        for measure, value in figures.items():
            shown = table[(part, LABEL, measure)]
            assert abs(shown - value) < 1e-12, (part, measure, shown, value)
    classic = {row["system"]: {} for row in rows if row["kind"] == "classic"}
    for (part, system, measure), value in table.items():
        if system in classic and measure == "f1":
            classic[system][part] = value
    result = {"dataset": dataset.name, "command": " ".join(command[1:]),
              "predictions": {"seed": SEED, "dropped": DROPPED, "swapped": SWAPPED},
              "bin_compare": {part: {measure: table[(part, LABEL, measure)]
                                     for measure in figures}
                              for part, figures in independent.items()},
              "independent": independent, "classic_f1": classic,
              "wall_seconds": round(seconds, 1),
              "cpu_seconds": round(after.ru_utime + after.ru_stime - children.ru_utime
                                   - children.ru_stime, 1),
              "load_average_before": round(load, 1)}
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "compare.json").write_text(json.dumps(result, indent=2, sort_keys=True) + "\n")
    print(json.dumps({part: round(100 * figures["f1"], 2)
                      for part, figures in independent.items()}))


if __name__ == "__main__":
    main()
