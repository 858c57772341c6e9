"""All-words tagging as a user runs it: ``bin/tag`` processes on the SENSEVAL-2 test contexts 1x
and 4x beside spaCy alone, CPU and peak memory each. Writes bench/results/tag-scale.json.

    python -m bench tag_scale [--task semcor] [--system svm] [--models-dir models]
                              [--contexts 600] [--repeats 1 4] [--rounds 1]

Every figure is one child process's, process start included, from ``os.wait4``: its CPU time
(user + system), its peak resident memory and its wall time. For each size (the first
``--contexts`` test contexts as plain text, one paragraph each, written ``repeat`` times in one
file), it runs

- spaCy alone: a process that loads the pipeline ``bin/tag`` loads, without the ``wsd_classic``
  component, and runs it over the same blocks in the same batches;
- ``bin/tag --task TASK --system SYSTEM --format jsonl -q FILE`` (its output to /dev/null).

The speed ratio is ``bin/tag``'s tokens per CPU-second over spaCy alone's on the same file, that
is spaCy's CPU over ``bin/tag``'s (target at least 0.6 on the 1x file, issue 41). One line:
``bin/tag`` on one short line less spaCy alone on it, which is spaCy's own load (target at
most 1.5 CPU-s); peak memory: at most 1.5 GB at every size. ``--rounds`` repeats every
measurement, the medians reported; the load average is recorded before and after each.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.tag import write_contexts, write_results
from wsd_classic import settings
from wsd_classic.tasks import catalogue

REPO = Path(__file__).resolve().parent.parent
TARGET_RATIO = 0.6
TARGET_ONE_LINE_BEYOND_SPACY_CPU_S = 1.5
TARGET_PEAK_RSS_GB = 1.5
ONE_LINE = "The bank raised its interest rates.\n"
# What ``bin/tag`` runs before its component: the same pipeline, blocks and batches.
SPACY_ALONE = """
import sys
from spacy.attrs import IS_SPACE
from wsd_classic.preprocess.pipeline import load_spacy
from wsd_classic.tasks import tagging
from wsd_classic.tasks.text_input import read_blocks
nlp = load_spacy.__wrapped__()
blocks = (block.text for block in read_blocks(sys.argv[1]))
print(sum(len(doc) - int(doc.to_array(IS_SPACE).sum())
          for doc in nlp.pipe(blocks, batch_size=tagging.SPACY_BATCH)))
"""


def child(argv: list[str], capture: bool) -> dict:
    """Wall, CPU (user + system) and peak RSS of the process ``argv``; with ``capture``, its
    stdout's first line (spaCy alone's token count), else its stdout goes to /dev/null; the
    load average before and after."""
    load = os.getloadavg()[0]
    start = time.perf_counter()
    environment = {**os.environ, "PYTHONPATH": str(REPO)}
    process = subprocess.Popen(argv, stdout=subprocess.PIPE if capture else subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True, cwd=REPO, env=environment)
    out = process.stdout.read() if capture else ""
    err = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - start
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({process.returncode}):\n{err}")
    return {"wall_s": wall, "cpu_s": usage.ru_utime + usage.ru_stime,
            "peak_rss_mb": usage.ru_maxrss / 1024, "output": out.split("\n")[0],
            "load_average_1min_before": load, "load_average_1min_after": os.getloadavg()[0]}


def measure(args, text: Path) -> dict:
    """spaCy alone and ``bin/tag`` on ``text``, each ``--rounds`` times, alternating."""
    spacy_runs, tag_runs = [], []
    for _ in range(args.rounds):
        spacy_runs.append(child([sys.executable, "-c", SPACY_ALONE, str(text)], capture=True))
        tag_runs.append(child([str(REPO / "bin" / "tag"), "--task", args.task, "--system",
                               args.system, "--models-dir", str(args.models_dir.resolve()),
                               "--format", "jsonl", "-q", str(text)], capture=False))

    def median(runs: list[dict], key: str) -> float:
        return statistics.median(run[key] for run in runs)

    tokens = int(spacy_runs[0]["output"])
    spacy_cpu, tag_cpu = median(spacy_runs, "cpu_s"), median(tag_runs, "cpu_s")
    return {"tokens": tokens, "bytes": text.stat().st_size,
            "spacy_alone": {key: median(spacy_runs, key)
                            for key in ("wall_s", "cpu_s", "peak_rss_mb")},
            "bin_tag": {key: median(tag_runs, key) for key in ("wall_s", "cpu_s", "peak_rss_mb")},
            "spacy_tokens_per_cpu_s": tokens / spacy_cpu,
            "bin_tag_tokens_per_cpu_s": tokens / tag_cpu,
            "speed_ratio_cpu": spacy_cpu / tag_cpu,
            "runs": {"spacy_alone": spacy_runs, "bin_tag": tag_runs}}


def run_arguments(description: str) -> argparse.ArgumentParser:
    """The options of a run of ``bin/tag`` on the test contexts (this study's and
    ``tag_profile``'s)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--data-dir", type=Path)
    parser.add_argument("--task", default=catalogue.SEMCOR.name, choices=list(catalogue.TASKS))
    parser.add_argument("--system", default="svm")
    parser.add_argument("--models-dir", type=Path, default=Path("models"))
    parser.add_argument("--contexts", type=int, default=600)
    return parser


def main() -> int:
    parser = run_arguments(__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, nargs="+", default=[1, 4])
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "tag-scale.json")
    args = parser.parse_args()
    results = {"task": args.task, "system": args.system, "contexts": args.contexts,
               "machine": {"cpus": os.cpu_count(), "load_average_before": os.getloadavg()},
               "sizes": {}}
    with tempfile.TemporaryDirectory() as scratch:
        once = Path(scratch) / "contexts.txt"
        write_contexts(settings.data_dir(args.data_dir), once, args.contexts)
        line = Path(scratch) / "one-line.txt"
        line.write_text(ONE_LINE, encoding="utf-8")
        one_line = measure(args, line)
        beyond = one_line["bin_tag"]["cpu_s"] - one_line["spacy_alone"]["cpu_s"]
        results["one_line"] = {**one_line, "beyond_spacy_cpu_s": beyond,
                               "target_beyond_spacy_cpu_s": TARGET_ONE_LINE_BEYOND_SPACY_CPU_S}
        print(f"one line: bin/tag {one_line['bin_tag']['cpu_s']:.2f} CPU-s, spaCy alone "
              f"{one_line['spacy_alone']['cpu_s']:.2f}: {beyond:.2f} beyond spaCy's load",
              file=sys.stderr)
        for repeat in args.repeats:
            text = Path(scratch) / f"contexts-{repeat}x.txt"
            text.write_text(once.read_text(encoding="utf-8") * repeat, encoding="utf-8")
            size = results["sizes"][f"{repeat}x"] = measure(args, text)
            print(f"{repeat}x: {size['tokens']:,} tokens; spaCy alone "
                  f"{size['spacy_alone']['cpu_s']:.1f} CPU-s, bin/tag "
                  f"{size['bin_tag']['cpu_s']:.1f} CPU-s ({size['bin_tag']['wall_s']:.1f} s "
                  f"wall, peak {size['bin_tag']['peak_rss_mb']:,.0f} MB): "
                  f"{size['speed_ratio_cpu']:.2f}x spaCy's tokens per CPU-second",
                  file=sys.stderr)
    first = results["sizes"][f"{args.repeats[0]}x"]
    peak = max(size["bin_tag"]["peak_rss_mb"] for size in results["sizes"].values()) / 1024
    results.update({
        "speed_ratio_cpu": first["speed_ratio_cpu"], "target_ratio": TARGET_RATIO,
        "peak_rss_gb": peak, "target_peak_rss_gb": TARGET_PEAK_RSS_GB,
        "meets": {"ratio": first["speed_ratio_cpu"] >= TARGET_RATIO,
                  "one_line": beyond <= TARGET_ONE_LINE_BEYOND_SPACY_CPU_S,
                  "peak_rss": peak <= TARGET_PEAK_RSS_GB}})
    results["machine"]["load_average_after"] = os.getloadavg()
    out = write_results(results, args.out)
    print(f"results in {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
