"""Runs of ``bin/`` commands on the small fixtures that both the test suite and
``bench/reliability.py`` make: ``bin/train`` started in a session of its own (so that a signal
reaches it and its workers as Ctrl-C would), its outputs snapshotted and checked whole, and any
command's peak memory measured by a parent that does nothing else (``RUSAGE_CHILDREN``)."""
from __future__ import annotations

import hashlib
import json
import math
import os
import signal
import subprocess
import sys
from pathlib import Path

from wsd_classic import modelstore
from wsd_classic.answers.senseval import read_answers
from wsd_classic.corpora.keys import read_key
from wsd_classic.scoring import scorer2

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "tests" / "fixtures"
TASK = "train_small"
SYSTEMS = ("commonest", "dlist", "svm")
BEFORE_RUN = ("--split", "2:1", "--seed", "3")
NEW_RUN = ("--test", FIXTURES / "test_small.xml", "--key", FIXTURES / "test_small.key")
RUN_SECONDS = 300


def answer_ctrl_c() -> None:
    """A shell starting the test suite in the background makes its children ignore SIGINT, and
    Python then never turns Ctrl-C into KeyboardInterrupt: give bin/train the default back."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start(command, cache: Path, stderr=subprocess.PIPE) -> subprocess.Popen:
    """``command`` with its own spaCy cache, in a session of its own: a signal sent to its
    process group reaches it and its workers as Ctrl-C at a terminal would."""
    environment = {**os.environ, "WSD_CLASSIC_CACHE": str(cache)}
    return subprocess.Popen([str(part) for part in command], stdout=subprocess.PIPE,
                            stderr=stderr, text=True, env=environment, start_new_session=True,
                            preexec_fn=answer_ctrl_c)


def start_train(root: Path, arguments, systems=SYSTEMS, jobs: int = 1, stderr=subprocess.PIPE):
    """``bin/train`` on the small corpus into ``root``, in a session of its own."""
    command = [REPO / "bin" / "train", "--train", FIXTURES / "train_small.xml", *arguments,
               "--systems", ",".join(systems), "--jobs", str(jobs),
               "--models-dir", root / "models", "--out-dir", root / "results"]
    return start(command, root / "cache", stderr=stderr)


def run_train(root: Path, arguments, **options) -> None:
    process = start_train(root, arguments, **options)
    _, stderr = process.communicate(timeout=RUN_SECONDS)
    assert process.returncode == 0, stderr


def snapshot(directory: Path) -> dict[str, str]:
    """Every file under ``directory`` (hidden ones too) and its SHA-256."""
    return {str(path.relative_to(directory)): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(directory.rglob("*")) if path.is_file()}


def check_complete_results(directory: Path, systems=SYSTEMS) -> None:
    """The results of a whole ``NEW_RUN``: every answer file covers its test set, the scores
    are those of the answer files, nothing else stands in the directory."""
    key = read_key(FIXTURES / "test_small.key")
    scores = json.loads((directory / "scores.json").read_text())
    assert set(scores) >= set(systems)
    for system in systems:
        for suffix in (".ans", ".top.ans"):
            answers = read_answers(directory / f"{system}{suffix}")
            assert sorted(answer.instance for answer in answers) == sorted(key), system
        top = read_answers(directory / f"{system}.top.ans")
        assert math.isclose(scores[system]["fine"]["recall"], scorer2.score(key, top).recall)
    assert set(json.loads((directory / "timings.json").read_text())["systems"]) <= set(SYSTEMS)
    allowed = {f"{system}{suffix}" for system in SYSTEMS for suffix in (".ans", ".top.ans")}
    assert {path.name for path in directory.iterdir()} <= allowed | {
        "scores.json", "timings.json", "test.key", "ids.tsv"}


def check_complete_models(models_root: Path, systems=SYSTEMS) -> None:
    for system in systems:
        trained = modelstore.load(models_root, TASK, system)  # verifies the file's SHA-256
        assert trained.info["split"] is None and sorted(trained.models) == ["bank.n", "play.v"]
    assert {str(path.relative_to(models_root / TASK)) for path in (models_root / TASK).rglob("*")
            if path.is_file()} <= {f"{system}/{modelstore.FILENAME}" for system in SYSTEMS}


def check_before_or_complete(root: Path, before: dict[str, dict[str, str]]) -> dict[str, str]:
    """Each output directory is exactly as before or completely new; returns which."""
    states = {}
    for name, check in (("results", lambda: check_complete_results(root / "results" / TASK)),
                        ("models", lambda: check_complete_models(root / "models"))):
        if snapshot(root / name / TASK) == before[name]:
            states[name] = "before"
        else:
            check()
            states[name] = "new"
    return states


def leftovers(root: Path) -> list[str]:
    """Staging copies, swapped-out directories and temporary files an interrupted run left."""
    return sorted(str(path.relative_to(root)) for name in ("models", "results")
                  for path in (root / name).rglob("*")
                  if ".staging-" in path.name or path.name.endswith((".old", ".partial", ".tmp")))


_MEASURE = ("import resource, subprocess, sys\n"
            "code = subprocess.run(sys.argv[2:]).returncode\n"
            "with open(sys.argv[1], 'w') as out:\n"
            "    out.write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))\n"
            "sys.exit(code)\n")


def measured(tmp_path: Path, name: str, *args, cache: Path | None = None,
             timeout: float | None = 600):
    """Run ``bin/NAME args``: the finished process and its peak memory (all processes) in MB."""
    peak_file = tmp_path / f"{name}.peak"
    environment = {**os.environ, "WSD_CLASSIC_CACHE": str(cache or tmp_path / "cache")}
    command = [sys.executable, "-c", _MEASURE, str(peak_file), str(REPO / "bin" / name),
               *map(str, args)]
    result = subprocess.run(command, capture_output=True, text=True, env=environment,
                            cwd=tmp_path, timeout=timeout)
    peak = int(peak_file.read_text()) / 1024
    print(f"bin/{name}: peak {peak:.0f} MB")  # shown with -rP, and when a test fails
    return result, peak
