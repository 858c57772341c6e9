"""Run bench/'s tuning entry points with the evaluation files watched (a subprocess of
``test_tuning_reads_no_evaluation.py``):

    python tests/tuning_under_watch.py PLAN.json REPORT.json

PLAN: ``data_dir`` (a data directory in the real layout), ``watched`` (the evaluation files),
``bench`` (a copy of bench/, whose results/ the runs may write) and ``runs``: ``[name, script,
arguments]``, or ``[name, "corpus_sentences", []]`` for the word vectors' training corpus. An
audit hook sees every ``open`` of this process and of its forked workers (a file opened by
path, whatever opens it: ``open``, ``Path.open``, gzip, ElementTree): opening a watched file is
recorded and refused. REPORT: ``reads`` (run, path), ``failures`` (run, error) and the
``seconds`` of each run.
"""
from __future__ import annotations

import itertools
import json
import os
import runpy
import sys
import time
import traceback
from pathlib import Path

PLAN = json.loads(Path(sys.argv[1]).read_text())
REPORT = Path(sys.argv[2])
WATCHED = {os.path.realpath(path) for path in PLAN["watched"]}
CURRENT = ["set-up"]
READS: list[list[str]] = []
# WordNet's glosses are not evaluation text; the first of them are enough for word vectors
# built here, and all of them would take the vectors a minute.
WORDNET_SYNSETS = 2000


class EvaluationFileRead(Exception):
    """A watched file was opened (not an OSError: no reader takes it for a missing file)."""


def watch(event: str, args: tuple) -> None:
    if event == "open" and isinstance(args[0], (str, bytes, os.PathLike)):
        path = os.path.realpath(os.fsdecode(args[0]))
        if path in WATCHED:
            READS.append([CURRENT[0], path])
            raise EvaluationFileRead(path)


def located(name: str, data_dir=None, download: bool = True) -> Path:
    """``registry.locate`` without the SHA-256 check, which the fixtures cannot pass."""
    root = settings.data_dir(data_dir) / registry.DATASETS[name].directory
    if not root.is_dir():
        raise FileNotFoundError(root)
    return root


# The copy of bench/ first, so that ``bench`` is the copy, whose results/ the runs write.
sys.path[:0] = [str(Path(PLAN["bench"]).parent), PLAN["repo"]]
from wsd_classic import settings, wordnet
from wsd_classic.corpora import registry
# The word vectors' corpus builder (the copy's).
from bench.self_vectors import corpus_sentences

registry.locate = located
all_synsets = wordnet.all_synsets
wordnet.all_synsets = lambda: itertools.islice(all_synsets(), WORDNET_SYNSETS)
sys.addaudithook(watch)

failures, seconds = [], {}
for name, script, arguments in PLAN["runs"]:
    CURRENT[0] = name
    started = time.perf_counter()
    try:
        if script == "corpus_sentences":
            sum(1 for _ in corpus_sentences(PLAN["data_dir"]))
        else:
            sys.argv = [str(Path(PLAN["bench"]) / script), *arguments]
            runpy.run_module(f"bench.{Path(script).stem}", run_name="__main__")
    except SystemExit as exit:
        if exit.code not in (0, None):
            failures.append([name, f"exit {exit.code}"])
    except EvaluationFileRead:
        pass  # in READS
    except Exception:  # reported to the test, which shows it
        failures.append([name, traceback.format_exc()])
    seconds[name] = time.perf_counter() - started
REPORT.write_text(json.dumps({"reads": READS, "failures": failures, "seconds": seconds},
                              indent=2))
