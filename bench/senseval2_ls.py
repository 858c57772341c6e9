#!/usr/bin/env python3
"""Benchmark of ``bin/train --task senseval2-ls``: a cold run (empty preprocessing cache) and a
warm run, wall and CPU time per stage and training CPU by system, peak memory of the whole process tree, accuracy per system, and
whether the two runs wrote byte-identical answers and scores; beside the cold run, plain spaCy
(``en_core_web_sm``, its whole pipeline but NER, ``nlp.pipe`` on ``--jobs`` processes) over the
same training and test contexts, and the ratio of the two wall times. Writes
bench/results/senseval2-ls.json.

    python -m bench senseval2_ls [--data-dir DIR] [--jobs 2] [--warm-only] [--out FILE]
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
from wsd_classic.tasks import catalogue

TASK = catalogue.SENSEVAL2_LS.name
TARGETS = {"commonest": (46.1, 49.1), "lesk-corpus": (51.0, None), "dlist": (58.0, None),
           "svm": (65.5, None)}
COLD_OVER_SPACY = 0.75
# What a new user's plain spaCy run over the task's contexts costs: the yardstick of a cold run.
PLAIN_SPACY = """
import json, sys, time
import spacy
from wsd_classic.corpora.lexsample import read_lexical_sample
from wsd_classic.preprocess.pipeline import installed_model
texts = [instance.text for path in sys.argv[2:]
         for instance in read_lexical_sample(path).instances()]
nlp = spacy.load(installed_model(), exclude=["ner"])
started = time.perf_counter()
tokens = sum(len(doc) for doc in nlp.pipe(texts, n_process=int(sys.argv[1])))
print(json.dumps({"contexts": len(texts), "tokens": tokens,
                  "pipe_seconds": time.perf_counter() - started}))
"""


def tree_sample(root_pid: int) -> tuple[int, dict[int, float]]:
    """Resident memory of a process and all its descendants, and the CPU seconds (user +
    system) each of them has used so far, from /proc."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    cpu: dict[int, float] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            children.setdefault(int(fields[1]), []).append(int(entry))
            rss[int(entry)] = int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
            cpu[int(entry)] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError):
            continue
    total, stack, used = 0, [root_pid], {}
    while stack:
        pid = stack.pop()
        total += rss.get(pid, 0)
        used[pid] = cpu.get(pid, 0.0)
        stack.extend(children.get(pid, []))
    return total, used


def timed_run(arguments: list[str], environment: dict) -> dict:
    """Wall time, peak memory and CPU seconds: user + system of the run and the descendants it
    waited for (``cpu_seconds``), and the sum over every process of the tree as last sampled
    (``tree_cpu_seconds``: also counts workers never waited for, such as joblib's, less their
    last 0.2 s). Contention from other work on the machine affects CPU less than wall time."""
    start = time.perf_counter()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    process = subprocess.Popen(arguments, env=environment, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, cwd=REPO)
    peak = 0
    cpu_of: dict[int, float] = {}

    def sample():
        nonlocal peak
        while process.poll() is None:
            rss, used = tree_sample(process.pid)
            peak = max(peak, rss)
            cpu_of.update(used)
            time.sleep(0.2)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    stdout, stderr = process.communicate()
    sampler.join()
    if process.returncode != 0:
        sys.exit(f"bin/train failed ({process.returncode}):\n{stderr}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall_seconds": time.perf_counter() - start, "cpu_seconds": cpu,
            "tree_cpu_seconds": sum(cpu_of.values()), "peak_rss_mb": peak / 2**20,
            "stdout": stdout}


def digests(directory: Path) -> dict[str, str]:
    return {path.name: hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(directory.glob("*")) if path.suffix in (".ans", ".json", ".key")
            and path.name != "timings.json"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data-dir", default=os.environ.get("WSD_CLASSIC_DATA"))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--warm-only", action="store_true",
                        help="skip the cold run (the cache in $WSD_CLASSIC_CACHE is used)")
    parser.add_argument("--out", type=Path,
                        default=REPO / "bench" / "results" / "senseval2-ls.json")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="wsd-bench-"))
    environment = dict(os.environ)
    if not args.warm_only:
        environment["WSD_CLASSIC_CACHE"] = str(work / "cache")
    runs = {}
    load_average = os.getloadavg()[0]
    if not args.warm_only:
        task = catalogue.SENSEVAL2_LS
        print("plain spaCy ...", flush=True)
        runs["spacy"] = timed_run([sys.executable, "-c", PLAIN_SPACY, str(args.jobs),
                                   str(task.path("train", args.data_dir)),
                                   str(task.path("test", args.data_dir))], environment)
        runs["spacy"].update(json.loads(runs["spacy"].pop("stdout")))
        print(f"plain spaCy: {runs['spacy']['wall_seconds']:.1f}s wall "
              f"({runs['spacy']['tokens']:,} tokens)", flush=True)
    for label in (("warm",) if args.warm_only else ("cold", "warm")):
        command = [str(REPO / "bin" / "train"), "--task", TASK, "--jobs", str(args.jobs),
                   "--models-dir", str(work / label / "models"),
                   "--out-dir", str(work / label / "results")]
        if args.data_dir:
            command += ["--data-dir", args.data_dir]
        print(f"{label} run ...", flush=True)
        run = timed_run(command, environment)
        out = work / label / "results" / TASK
        timings = json.loads((out / "timings.json").read_text())
        for key in ("stages", "stage_cpu_seconds", "train_seconds", "train_cpu_seconds"):
            run[key] = timings[key]
        run["digests"] = digests(out)
        runs[label] = run
        print(f"{label}: {run['wall_seconds']:.1f}s wall, {run['cpu_seconds']:.1f}s CPU "
              f"({run['tree_cpu_seconds']:.1f}s over the tree), peak {run['peak_rss_mb']:.0f} MB, "
              f"stages {json.dumps({k: round(v, 1) for k, v in run['stages'].items()})}, "
              f"their CPU {json.dumps({k: round(v, 1) for k, v in run['stage_cpu_seconds'].items()})}, "
              f"training CPU by system "
              f"{json.dumps({k: round(v, 1) for k, v in run['train_cpu_seconds'].items()})}",
              flush=True)
    last = work / "warm" / "results" / TASK
    scores = json.loads((last / "scores.json").read_text())
    accuracy = {system: {"fine_recall": 100 * figures["fine"]["recall"],
                         "coarse_recall": 100 * figures["coarse"]["recall"]}
                for system, figures in scores.items()}
    cold_over_spacy = (runs["cold"]["wall_seconds"] / runs["spacy"]["wall_seconds"]
                       if "cold" in runs else None)
    checks = {}
    for system, (low, high) in TARGETS.items():
        value = accuracy[system]["fine_recall"]
        checks[system] = {"fine_recall": round(value, 2), "target": [low, high],
                          "met": value >= low and (high is None or value <= high)}
    result = {
        "date": time.strftime("%Y-%m-%d %H:%M:%S"), "jobs": args.jobs,
        "runs": {label: {k: v for k, v in run.items() if k not in ("stdout", "digests")}
                 for label, run in runs.items()},
        "identical_outputs": (runs["cold"]["digests"] == runs["warm"]["digests"]
                              if "cold" in runs else None),
        "accuracy": accuracy, "targets": checks, "cold_over_spacy": cold_over_spacy,
        # Wall times depend on what else the machine runs: its load average, at the start.
        "load_average": load_average,
        "speed_targets": {"warm_at_most_15s": runs["warm"]["wall_seconds"] <= 15,
                          "cold_at_most_60s": (runs["cold"]["wall_seconds"] <= 60
                                               if "cold" in runs else None),
                          f"cold_at_most_{COLD_OVER_SPACY}x_spacy": (
                              cold_over_spacy <= COLD_OVER_SPACY if "cold" in runs else None),
                          "peak_under_3GB": max(r["peak_rss_mb"] for r in runs.values()) < 3072},
    }
    target = args.out
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(result, indent=2) + "\n")
    print(runs["warm"]["stdout"])
    print(json.dumps({k: result[k] for k in ("targets", "speed_targets", "identical_outputs",
                                             "cold_over_spacy")}, indent=2))
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
