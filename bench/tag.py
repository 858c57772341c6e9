#!/usr/bin/env python3
"""Benchmark of ``bin/tag`` on plain text: the SENSEVAL-2 lexical-sample test contexts, one
paragraph each, beside spaCy's own throughput on the same text. Writes bench/results/tag.json.

    python bench/tag.py [--task senseval2-ls|semcor] [--models-dir models] [--system svm]
                        [--format jsonl] [--rounds 3]

In one process, alternating ``--rounds`` times, it runs (a) spaCy alone (the pipeline bin/tag
loads) over the blocks bin/tag reads, and (b) what bin/tag runs after its start-up: the same
pipeline with the ``wsd_classic`` component, reading the file, formatting every target and writing
it to /dev/null. The WSD share is (b - a) / b, from CPU time (what the work costs, whatever else
the machine runs) and from wall time; the target is under 25%. Start-up (loading spaCy, the model,
WordNet) is timed apart, and one real ``bin/tag`` run gives the end-to-end wall time.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from spacy.attrs import IS_SPACE  # noqa: E402

from wsd_classic import settings  # noqa: E402
from wsd_classic.corpora import registry  # noqa: E402
from wsd_classic.corpora.lexsample import read_lexical_sample  # noqa: E402
from wsd_classic.preprocess.pipeline import load_spacy  # noqa: E402
from wsd_classic.tasks import catalogue, tagging  # noqa: E402
from wsd_classic.tasks.text_input import read_blocks  # noqa: E402

TASK = catalogue.SENSEVAL2_LS.name
TARGET_SHARE = 0.25


def write_contexts(data_dir, path: Path) -> int:
    """The test contexts as plain text, one paragraph per instance; returns their number."""
    sample = read_lexical_sample(registry.locate(TASK, data_dir) / "eng-lex-samp.evaluation.xml")
    with open(path, "w", encoding="utf-8") as out:
        for instance in sample.instances():
            out.write(" ".join(instance.text.split()) + "\n\n")
    return len(sample)


def timed(work) -> tuple[float, float, object]:
    wall, cpu = time.perf_counter(), time.process_time()
    result = work()
    return time.perf_counter() - wall, time.process_time() - cpu, result


def spacy_alone(nlp, path: Path) -> int:
    """Tokens (whitespace tokens aside, as bin/tag counts them) of spaCy's run over the blocks."""
    blocks = (block.text for block in read_blocks(str(path)))
    return sum(len(doc) - int(doc.to_array(IS_SPACE).sum())
               for doc in nlp.pipe(blocks, batch_size=tagging.SPACY_BATCH))


def tag_to_null(nlp, path: Path, output_format: str) -> tagging.TagCounts:
    counts = tagging.TagCounts()
    with open(os.devnull, "w") as sink:
        for line in tagging.format_targets(tagging.tag_text(nlp, [str(path)], counts, progress=False),
                                           output_format):
            sink.write(line + "\n")
    return counts


def startup_beyond_spacy(args) -> dict:
    """Wall seconds of a ``bin/tag`` process on one short line, and of a Python process that
    only loads spaCy and analyses that line: the difference is the start-up the WSD adds."""
    line = "The bank raised its interest rates.\n"
    spacy_only = [sys.executable, "-c", "from wsd_classic.preprocess.pipeline import load_spacy; "
                  "load_spacy()('The bank raised its interest rates.')"]
    tag = [str(REPO / "bin" / "tag"), "--task", args.task, "--system", args.system,
           "--models-dir", str(args.models_dir), "--format", args.format, "-q"]
    spacy_s = min(timed(lambda: subprocess.run(spacy_only, cwd=REPO, check=True))[0]
                  for _ in range(3))
    tag_s = min(timed(lambda: subprocess.run(tag, input=line, text=True, check=True,
                                             stdout=subprocess.DEVNULL))[0] for _ in range(3))
    return {"spacy_process_s": spacy_s, "bin_tag_process_s": tag_s,
            "beyond_spacy_s": tag_s - spacy_s}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data-dir", type=Path)
    parser.add_argument("--task", default=TASK, choices=list(catalogue.TASKS),
                        help="whose models tag the text (semcor: every content word a target)")
    parser.add_argument("--models-dir", type=Path, default=Path("models"))
    parser.add_argument("--system", default="svm")
    parser.add_argument("--format", default="jsonl", choices=tagging.TEXT_FORMATS)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--out", type=Path,
                        help="default bench/results/tag.json (tag-TASK.json for another task)")
    args = parser.parse_args()
    suffix = "" if args.task == TASK else f"-{args.task}"
    args.out = args.out or REPO / "bench" / "results" / f"tag{suffix}.json"
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as scratch:
        text = Path(scratch) / "senseval2-test-contexts.txt"
        paragraphs = write_contexts(settings.data_dir(args.data_dir), text)
        startup = {}
        startup["spacy_s"], _, plain = timed(load_spacy.__wrapped__)
        startup["spacy_and_model_s"], _, full = timed(
            lambda: tagging.tagging_pipeline(args.task, args.system, args.models_dir))
        startup["first_paragraph_s"], _, _ = timed(lambda: list(full.pipe(["The bank lent money."])))
        startup.update(startup_beyond_spacy(args))
        rounds = []
        for number in range(args.rounds):
            spacy_wall, spacy_cpu, tokens = timed(lambda: spacy_alone(plain, text))
            tag_wall, tag_cpu, counts = timed(lambda: tag_to_null(full, text, args.format))
            rounds.append({"spacy_wall_s": spacy_wall, "spacy_cpu_s": spacy_cpu,
                           "tag_wall_s": tag_wall, "tag_cpu_s": tag_cpu})
            print(f"round {number + 1}: spaCy {spacy_wall:.1f}s wall / {spacy_cpu:.1f}s CPU, "
                  f"bin/tag {tag_wall:.1f}s wall / {tag_cpu:.1f}s CPU", file=sys.stderr)
        end_to_end_wall, _, run = timed(lambda: subprocess.run(
            [str(REPO / "bin" / "tag"), "--task", args.task, "--system", args.system, "--models-dir",
             str(args.models_dir), "--format", args.format, "-q", str(text)],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True))
        if run.returncode != 0:
            print(run.stderr, file=sys.stderr)
            return 1
        text_bytes = text.stat().st_size

    def median(key: str) -> float:
        return statistics.median(r[key] for r in rounds)

    spacy_cpu, tag_cpu = median("spacy_cpu_s"), median("tag_cpu_s")
    spacy_wall, tag_wall = median("spacy_wall_s"), median("tag_wall_s")
    share_cpu = (tag_cpu - spacy_cpu) / tag_cpu
    results = {
        "text": {"source": "SENSEVAL-2 lexical-sample test contexts", "paragraphs": paragraphs,
                 "bytes": text_bytes, "spacy_tokens": tokens, "targets": counts.targets,
                 "tokens_tagged": counts.tokens},
        "task": args.task, "system": args.system, "format": args.format, "rounds": rounds,
        "spacy_tokens_per_s": {"cpu": tokens / spacy_cpu, "wall": tokens / spacy_wall},
        "tag_tokens_per_s": {"cpu": tokens / tag_cpu, "wall": tokens / tag_wall},
        "tag_targets_per_s": {"cpu": counts.targets / tag_cpu, "wall": counts.targets / tag_wall},
        "wsd_share": {"cpu": share_cpu, "wall": (tag_wall - spacy_wall) / tag_wall},
        "wsd_share_target": TARGET_SHARE, "meets_target": share_cpu < TARGET_SHARE,
        "startup_s": startup, "bin_tag_end_to_end_wall_s": end_to_end_wall,
        "machine": {"cpus": os.cpu_count(), "load_average_before": load_before,
                    "load_average_after": os.getloadavg()},
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    partial = args.out.with_name(args.out.name + ".partial")
    partial.write_text(json.dumps(results, indent=2) + "\n")
    partial.replace(args.out)
    print(f"{counts.targets:,} targets in {tokens:,} tokens; spaCy alone "
          f"{tokens / spacy_cpu:,.0f} tokens/CPU-s, bin/tag {tokens / tag_cpu:,.0f} tokens/CPU-s "
          f"and {counts.targets / tag_cpu:,.0f} targets/CPU-s; WSD share {100 * share_cpu:.1f}% "
          f"of CPU (target < {100 * TARGET_SHARE:.0f}%), {100 * results['wsd_share']['wall']:.1f}% "
          f"of wall time; end-to-end bin/tag {end_to_end_wall:.1f}s; results in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
