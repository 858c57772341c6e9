#!/usr/bin/env python3
"""Targets of ``bin/report`` on SENSEVAL-2: the svm's expected calibration error on the test set
(top sense, 15 equal-width bins; target <= 0.05) and the wall time of regenerating the report from
saved results (target < 10 s, HTML and Markdown). Writes bench/results/report.json.

    python -m bench report [--results-dir DIR] [--data-dir DIR] [--repeats 3]

Without --results-dir it first runs ``bin/train --task senseval2-ls`` into a temporary folder.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
from wsd_classic.answers.senseval import read_answers
from wsd_classic.corpora import registry
from wsd_classic.corpora.keys import read_key
from wsd_classic.report.calibration import calibration
from wsd_classic.tasks import catalogue

TASK = catalogue.SENSEVAL2_LS.name
ECE_TARGET = 0.05
SECONDS_TARGET = 10.0


def run(command: list[str], environment: dict) -> float:
    start = time.perf_counter()
    result = subprocess.run(command, env=environment, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit(f"{' '.join(command)} failed:\n{result.stderr}")
    return seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--results-dir", type=Path, help="results of bin/train (default: train)")
    parser.add_argument("--data-dir", type=Path)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    environment = dict(os.environ)
    if args.data_dir:
        environment["WSD_CLASSIC_DATA"] = str(args.data_dir)
    scratch = Path(tempfile.mkdtemp(prefix="bench-report-"))
    results_dir = args.results_dir
    if results_dir is None:
        results_dir = scratch / "results"
        print("training (bin/train --task senseval2-ls) ...", file=sys.stderr)
        run([str(REPO / "bin" / "train"), "--task", TASK, "--models-dir", str(scratch / "models"),
             "--out-dir", str(results_dir)], environment)
    key = read_key(registry.file(TASK, "eng-lex-samp.evaluation.key", args.data_dir))
    calibrations = {path.name[:-len(".ans")]: calibration(key, read_answers(path))
                    for path in sorted((results_dir / TASK).glob("*.ans"))
                    if not path.name.endswith(".top.ans")}
    timings = {}
    for output_format in ("html", "md"):
        timings[output_format] = [
            run([str(REPO / "bin" / "report"), "--task", TASK, "--results-dir", str(results_dir),
                 "--format", output_format, "--out", str(scratch / "report")], environment)
            for _ in range(args.repeats)]
    svm_ece = calibrations["svm"].ece if "svm" in calibrations else None
    slowest = max(max(seconds) for seconds in timings.values())
    summary = {
        "results_dir": str(results_dir),
        "calibration": {name: {"ece": result.ece, "log_loss": result.log_loss,
                               "brier": result.brier, "accuracy": result.accuracy,
                               "mean_confidence": result.mean_confidence}
                        for name, result in calibrations.items()},
        "report_seconds": timings,
        "targets": {"svm_ece": {"value": svm_ece, "target": ECE_TARGET,
                                "met": svm_ece is not None and svm_ece <= ECE_TARGET},
                    "report_seconds": {"value": slowest, "target": SECONDS_TARGET,
                                       "met": slowest < SECONDS_TARGET}},
    }
    out = REPO / "bench" / "results" / "report.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(summary, indent=2) + "\n")
    for name, result in calibrations.items():
        print(f"{name:<12} ECE {result.ece:.3f}  log-loss {result.log_loss:.3f}  "
              f"Brier {result.brier:.3f}  accuracy {100 * result.accuracy:.1f}%  "
              f"mean confidence {100 * result.mean_confidence:.1f}%")
    for output_format, seconds in timings.items():
        print(f"bin/report --format {output_format}: "
              + ", ".join(f"{value:.2f}s" for value in seconds))
    for name, target in summary["targets"].items():
        print(f"target {name}: {target['value']} vs {target['target']}: "
              f"{'met' if target['met'] else 'MISSED'}")
    print(f"written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
