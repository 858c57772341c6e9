#!/usr/bin/env python3
"""Reliability benchmark: ``bin/train`` killed at random points in a loop, reproducibility on the
real SENSEVAL-2 task, the fuzz suite's counts and ``bin/tag``'s memory against text size.
Writes bench/results/reliability.json.

    python -m bench reliability [--kills 20] [--data-dir DIR] [--fuzz-scale 1]
                                [--tag-copies 1,4] [--skip kill,reproducibility,fuzz,tag]

* **kill loop**: from the outputs of a complete run, ``bin/train`` on the small fixture corpus
  is started again and again and its process group gets SIGINT or SIGKILL after a random delay
  (up to the length of a whole run). After each, the models and results directories must be
  exactly as before or complete and consistent (``tests/test_interrupts.py`` says what that
  means), an interrupted run must exit 130 with one line; a final rerun must complete and leave
  no staging directory behind.
* **reproducibility**: ``bin/train --task senseval2-ls`` twice into separate directories, with
  ``--jobs 2`` and ``--jobs 1`` (spaCy cache warm): the answer files and ``scores.json`` must be
  byte-identical, the model files identical but for their creation time.
* **fuzz**: runs ``tests/test_fuzz_readers.py`` and records the inputs tried per reader.
* **tag memory**: ``bin/tag`` on the SENSEVAL-2 test contexts as plain text, repeated
  ``--tag-copies`` times, with the svm the reproducibility stage trained (or the one in models/
  when that stage is skipped): the peak memory must not grow with the text.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from bench.runs import (BEFORE_RUN, NEW_RUN, TASK, check_before_or_complete, leftovers,
                        measured, run_train, snapshot, start_train)
from bench.tag import write_contexts
from wsd_classic import modelstore, settings
from wsd_classic.tasks import catalogue
from wsd_classic.atomic import write_json_atomically

REPO = Path(__file__).resolve().parent.parent

RESULTS = REPO / "bench" / "results" / "reliability.json"
STAGES = ("kill", "reproducibility", "fuzz", "tag")


def kill_loop(kills: int, work: Path, seed: int) -> dict:
    generator = random.Random(seed)
    root = work / "kill"
    started = time.perf_counter()
    run_train(root, BEFORE_RUN)
    whole_run = time.perf_counter() - started
    runs, problems = [], []
    for number in range(kills):
        before = {name: snapshot(root / name / TASK) for name in ("results", "models")}
        signal_number = generator.choice([signal.SIGINT, signal.SIGKILL])
        delay = generator.uniform(0, 1.5 * whole_run)  # some runs finish first
        process = start_train(root, NEW_RUN, jobs=generator.choice([1, 2]))
        time.sleep(delay)
        if process.poll() is None:
            os.killpg(process.pid, signal_number)
        _, stderr = process.communicate(timeout=600)
        record = {"signal": signal_number.name, "delay_s": round(delay, 3),
                  "exit": process.returncode}
        try:
            record["state"] = check_before_or_complete(root, before)
            # -2: CPython ends by SIGINT, after the one line, when the interrupt landed in code
            # exec() ran from a string while modules loaded (see wsd_classic/__main__.py)
            if signal_number == signal.SIGINT and process.returncode not in (0, 130, -2):
                raise AssertionError(f"SIGINT gave exit {process.returncode}")
            if process.returncode in (130, -2) and stderr.strip() != "train: interrupted":
                raise AssertionError(f"interrupted run said {stderr[-300:]!r}")
        except (AssertionError, OSError, ValueError) as error:
            record["problem"] = f"{type(error).__name__}: {error}"
            problems.append(number)
        runs.append(record)
        print(f"kill {number + 1}/{kills}: {record}", file=sys.stderr, flush=True)
    run_train(root, NEW_RUN)
    final_leftovers = leftovers(root)
    states = Counter(f"results {run['state']['results']}, models {run['state']['models']}"
                     for run in runs if "state" in run)
    return {"runs": runs, "whole_run_s": round(whole_run, 1), "problems": problems,
            "states": dict(states), "rerun_leftovers": final_leftovers,
            "passed": not problems and not final_leftovers}


def reproducibility(work: Path, data_dir: str | None) -> dict:
    roots, seconds = {}, {}
    for jobs in (2, 1):
        roots[jobs] = work / f"jobs{jobs}"
        command = [REPO / "bin" / "train", "--task", catalogue.SENSEVAL2_LS.name, "--jobs", str(jobs),
                   "--models-dir", roots[jobs] / "models", "--out-dir", roots[jobs] / "results"]
        if data_dir:
            command += ["--data-dir", data_dir]
        started = time.perf_counter()
        result = subprocess.run([str(part) for part in command], capture_output=True, text=True)
        seconds[jobs] = round(time.perf_counter() - started, 1)
        if result.returncode != 0:
            return {"error": result.stderr.strip(), "passed": False}
        print(f"senseval2-ls with --jobs {jobs}: {seconds[jobs]} s", file=sys.stderr, flush=True)
    results = {jobs: root / "results" / catalogue.SENSEVAL2_LS.name for jobs, root in roots.items()}
    compared = sorted(path.name for path in results[2].iterdir()
                      if path.name.endswith(".ans") or path.name == "scores.json")
    differing = [name for name in compared
                 if (results[2] / name).read_bytes() != (results[1] / name).read_bytes()]
    models = {}
    for path in sorted((roots[2] / "models" / catalogue.SENSEVAL2_LS.name).glob(f"*/{modelstore.FILENAME}")):
        headers = [modelstore.read_header(root / "models" / catalogue.SENSEVAL2_LS.name / path.parent.name /
                                          modelstore.FILENAME)[0] for root in roots.values()]
        for header in headers:
            header.pop("created")
        models[path.parent.name] = headers[0] == headers[1]
    return {"seconds": {f"jobs{jobs}": value for jobs, value in seconds.items()},
            "files_compared": compared, "files_differing": differing,
            "models_identical_but_created": models,
            "passed": bool(compared) and not differing and all(models.values())}


def fuzz_counts(work: Path, scale: float) -> dict:
    counts_file = work / "fuzz-counts.json"
    environment = {**os.environ, "WSD_CLASSIC_FUZZ_COUNTS": str(counts_file),
                   "WSD_CLASSIC_FUZZ_SCALE": str(scale)}
    started = time.perf_counter()
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                             str(REPO / "tests" / "test_fuzz_readers.py")],
                            capture_output=True, text=True, env=environment, cwd=REPO)
    summary = result.stdout.strip().splitlines()[-1] if result.stdout.strip() else result.stderr
    counts = json.loads(counts_file.read_text()) if counts_file.exists() else {}
    return {"scale": scale, "seconds": round(time.perf_counter() - started, 1),
            "pytest": summary, "inputs_per_reader": counts, "passed": result.returncode == 0}


def tag_memory(work: Path, copies: list[int], data_dir: str | None, models_root: Path) -> dict:
    contexts = work / "contexts.txt"
    write_contexts(settings.data_dir(data_dir), contexts)
    text = contexts.read_text(encoding="utf-8")
    runs = []
    for count in copies:
        path = work / f"contexts-x{count}.txt"
        path.write_text(text * count, encoding="utf-8")
        started = time.perf_counter()
        result, peak = measured(work, "tag", "--task", catalogue.SENSEVAL2_LS.name, "--models-dir", models_root,
                                "--format", "jsonl", "--jobs", "2", "-q",
                                "--output", work / "tagged.jsonl", path,
                                cache=settings.cache_dir(), timeout=None)
        runs.append({"copies": count, "megabytes": round(path.stat().st_size / 2 ** 20, 1),
                     "seconds": round(time.perf_counter() - started, 1),
                     "peak_rss_mb": round(peak), "exit": result.returncode})
        print(f"bin/tag on {runs[-1]}", file=sys.stderr, flush=True)
        path.unlink()
    peaks = [run["peak_rss_mb"] for run in runs]
    return {"runs": runs, "passed": all(run["exit"] == 0 for run in runs)
            and max(peaks) - min(peaks) < 100}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0, help="of the kill delays and signals")
    parser.add_argument("--data-dir", default=os.environ.get("WSD_CLASSIC_DATA"))
    parser.add_argument("--fuzz-scale", type=float, default=1.0)
    parser.add_argument("--tag-copies", default="1,4",
                        help="sizes of the tagged text, in copies of the 2.6 MB SENSEVAL-2 "
                             "test contexts (37 copies: 100 MB)")
    parser.add_argument("--skip", default="", help=f"comma-separated stages of {STAGES}")
    args = parser.parse_args()
    skipped = {stage for stage in args.skip.split(",") if stage}
    report = {"date": time.strftime("%Y-%m-%d %H:%M:%S"), "cpus": os.cpu_count(),
              "load_average_before": os.getloadavg()}
    with tempfile.TemporaryDirectory(prefix="wsd-reliability-") as scratch:
        work = Path(scratch)
        if "kill" not in skipped:
            report["kill_loop"] = kill_loop(args.kills, work, args.seed)
        models_root = settings.models_dir()
        if "reproducibility" not in skipped:
            report["reproducibility"] = reproducibility(work, args.data_dir)
            models_root = work / "jobs2" / "models"
        if "fuzz" not in skipped:
            report["fuzz"] = fuzz_counts(work, args.fuzz_scale)
        if "tag" not in skipped:
            report["tag_memory"] = tag_memory(
                work, [int(count) for count in args.tag_copies.split(",")], args.data_dir,
                models_root)
    report["load_average_after"] = os.getloadavg()
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    write_json_atomically(RESULTS, report)
    verdicts = {name: part["passed"] for name, part in report.items()
                if isinstance(part, dict) and "passed" in part}
    print(json.dumps(verdicts, indent=2))
    print(f"wrote {RESULTS}")
    return 0 if all(verdicts.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
