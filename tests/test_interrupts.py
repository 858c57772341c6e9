"""``bin/train`` killed mid-run, and two runs at once: the outputs are never half-written.

Each test copies the outputs of an earlier complete run (``--split``: the "before" state), runs
``bin/train`` again with a different test set (``--test``/``--key``: the "new" state) and kills
its whole process group, as Ctrl-C or ``kill -9`` would, when the run reaches a given point:
spaCy preprocessing, training, saving a model, the final swap. Afterwards each of the models and
results directories must hold exactly the "before" files or a complete, consistent "new" set;
an interrupted run says so in one line and exits 130, and a rerun cleans up and completes.
"""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sysconfig
import time
from pathlib import Path

import pytest
from conftest import REPO

from bench.runs import (BEFORE_RUN, NEW_RUN, RUN_SECONDS, TASK, check_before_or_complete,
                        check_complete_models, check_complete_results, leftovers, run_train,
                        snapshot, start, start_train)
from wsd_classic.tasks import staging


@pytest.fixture(scope="module")
def before(tmp_path_factory):
    """A complete ``BEFORE_RUN``: its root and the snapshot of its two output directories."""
    root = tmp_path_factory.mktemp("before")
    run_train(root, BEFORE_RUN)
    return root, {name: snapshot(root / name / TASK) for name in ("results", "models")}


def copy_of(before_root: Path, root: Path) -> Path:
    for name in ("models", "results"):
        shutil.copytree(before_root / name, root / name)
    return root


# Where to strike: each maker, given the run's root and process id, returns a test that turns true
# at that point.
def _preprocessing(root: Path, pid: int):
    # With a cold cache the training contexts' analyses are stored first: the test contexts are
    # being analysed now.
    return lambda: any((root / "cache" / "preprocess").glob("*"))


def _training(root: Path, pid: int):
    """Training runs in worker processes (``--jobs 2``), which are loading its code: two children
    have grown past the size of a bare interpreter."""
    return lambda: (any((root / "models").glob(f".{TASK}.staging-*"))
                    and sum(_resident_mb(child) > 20 for child in _children(pid)) >= 2)


def _children(pid: int) -> list[str]:
    try:
        return [child for task in Path(f"/proc/{pid}/task").iterdir()
                for child in (task / "children").read_text().split()]
    except OSError:  # the process has ended
        return []


def _resident_mb(pid: str) -> float:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0
    return next((int(line.split()[1]) / 1024 for line in status.splitlines()
                 if line.startswith("VmRSS:")), 0)


def _saving(root: Path, pid: int):
    """A model file written in the staging copy (not one of the hard links it starts as)."""
    linked = {_inode(path) for path in (root / "models" / TASK).glob("*/*")}
    return lambda: any(_inode(path) not in linked
                       for path in (root / "models").glob(f".{TASK}.staging-*/*/*"))


def _swapping(root: Path, pid: int):
    """The results directory is swapped in; the models directory is next."""
    before = _inode(root / "results" / TASK / "timings.json")
    return lambda: _inode(root / "results" / TASK / "timings.json") not in (before, None)


def _inode(path: Path) -> int | None:
    try:
        return path.stat().st_ino
    except FileNotFoundError:  # renamed or removed by the run since it was listed
        return None


POINTS = {"preprocess": _preprocessing, "train": _training, "save": _saving, "swap": _swapping}


def strike(process: subprocess.Popen, root: Path, point: str, signal_number: int) -> bool:
    """Send ``signal_number`` to the run's process group once ``point`` is reached; False if the
    run ended first."""
    reached = POINTS[point](root, process.pid)
    deadline = time.monotonic() + RUN_SECONDS
    while process.poll() is None and time.monotonic() < deadline:
        if reached():
            os.killpg(process.pid, signal_number)
            return True
        time.sleep(0.001)
    return False


@pytest.mark.parametrize("point, signal_number", [
    ("preprocess", signal.SIGINT), ("train", signal.SIGINT), ("save", signal.SIGINT),
    ("preprocess", signal.SIGKILL), ("train", signal.SIGKILL), ("swap", signal.SIGKILL),
], ids=lambda value: value.name if isinstance(value, signal.Signals) else value)
def test_killed_run_leaves_outputs_as_before_or_complete(before, tmp_path, point, signal_number):
    before_root, before_files = before
    root = copy_of(before_root, tmp_path)
    # two training processes where training is struck: Ctrl-C reaches joblib's workers too
    process = start_train(root, NEW_RUN, jobs=2 if point == "train" else 1)
    try:
        assert strike(process, root, point, signal_number), f"the run ended before {point}"
        _, stderr = process.communicate(timeout=RUN_SECONDS)
    finally:  # a run that outlives its signal is a failure, and must not outlive the test
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    states = check_before_or_complete(root, before_files)
    if point == "swap":
        assert states["results"] == "new"
    else:
        assert states == {"results": "before", "models": "before"}
    if signal_number == signal.SIGINT:
        assert process.returncode == 130, stderr
        assert stderr.strip() == "train: interrupted", stderr  # one line, no traceback
        assert leftovers(root) == []
    else:
        assert process.returncode == -signal.SIGKILL


def test_rerun_after_a_kill_cleans_up_and_completes(before, tmp_path):
    root = copy_of(before[0], tmp_path)
    process = start_train(root, NEW_RUN)
    assert strike(process, root, "save", signal.SIGKILL)
    process.wait(timeout=RUN_SECONDS)
    assert leftovers(root), "a killed run leaves its staging directories"
    run_train(root, NEW_RUN)
    assert check_before_or_complete(root, before[1]) == {"results": "new", "models": "new"}
    assert leftovers(root) == []


def test_concurrent_runs_into_the_same_directories_serialize(tmp_path):
    """The second run waits for the first's lock and says so; each keeps the other's systems."""
    first = start_train(tmp_path, NEW_RUN, systems=("commonest", "dlist"), jobs=2)
    second_log = tmp_path / "second.stderr"
    try:
        assert strike(first, tmp_path, "train", signal.SIGSTOP)  # holds the locks, frozen
        with open(second_log, "w") as log:
            second = start_train(tmp_path, NEW_RUN, systems=("svm",), stderr=log)
        deadline = time.monotonic() + RUN_SECONDS
        while "waiting for another run" not in second_log.read_text():
            assert second.poll() is None and time.monotonic() < deadline, second_log.read_text()
            time.sleep(0.05)
        os.killpg(first.pid, signal.SIGCONT)
        _, first_err = first.communicate(timeout=RUN_SECONDS)
        second.communicate(timeout=RUN_SECONDS)
    finally:  # never leave a frozen run behind
        if first.poll() is None:
            os.killpg(first.pid, signal.SIGKILL)
    assert first.returncode == 0, first_err
    assert second.returncode == 0, second_log.read_text()
    assert f"waiting for another run writing {tmp_path / 'models' / TASK}" in second_log.read_text()
    check_complete_results(tmp_path / "results" / TASK)
    check_complete_models(tmp_path / "models")
    assert leftovers(tmp_path) == []


def test_the_swap_is_one_atomic_exchange(tmp_path, monkeypatch):
    """On Linux the final directory never goes missing: no rename is left to do."""
    final = tmp_path / "task"
    final.mkdir()
    (final / "old.ans").write_text("old")
    with staging.staged_directory(final) as stage:
        (stage / "new.ans").write_text("new")
        monkeypatch.setattr(os, "rename", _no_rename)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["task"]
    assert sorted(path.name for path in final.iterdir()) == ["new.ans", "old.ans"]


def test_without_the_exchange_two_renames_swap(tmp_path, monkeypatch):
    monkeypatch.setattr(staging, "_exchange", lambda first, second: False)
    final = tmp_path / "task"
    final.mkdir()
    with staging.staged_directory(final) as stage:
        (stage / "new.ans").write_text("new")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["task"]
    assert (final / "new.ans").read_text() == "new"


def _no_rename(source, target):
    raise AssertionError(f"rename {source} -> {target}: not one atomic step")


def interrupt(process: subprocess.Popen) -> subprocess.CompletedProcess:
    """Ctrl-C to the process group; the process once it has ended."""
    os.killpg(process.pid, signal.SIGINT)
    stdout, stderr = process.communicate(timeout=RUN_SECONDS)
    return subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)


def await_spacy_workers(process: subprocess.Popen) -> None:
    """Until two child processes (spaCy's workers for ``--jobs 2``) have been analysing a while."""
    deadline = time.monotonic() + RUN_SECONDS
    while len(_children(process.pid)) < 2:
        assert process.poll() is None and time.monotonic() < deadline, "no worker started"
        time.sleep(0.001)
    time.sleep(0.1)


def test_ctrl_c_while_spacy_workers_analyse_is_one_line(tmp_path):
    """Over 200 contexts a side and ``--jobs 2``, spaCy analyses in worker processes: Ctrl-C reaches
    them too, and still only one line is printed."""
    contexts = "".join(f'<instance id="w.{n}"><answer instance="w.{n}" senseid="s{n % 2}"/>'
                       f"<context>Line {n} of the <head>word</head> list.</context></instance>\n"
                       for n in range(600))
    corpus = tmp_path / "many.xml"
    corpus.write_text(f'<corpus lang="en"><lexelt item="word.n">\n{contexts}</lexelt></corpus>\n')
    process = start([REPO / "bin" / "train", "--train", corpus, "--split", "1:1", "--systems",
                     "commonest", "--jobs", "2", "--models-dir", tmp_path / "models",
                     "--out-dir", tmp_path / "results"], tmp_path / "cache")
    await_spacy_workers(process)  # training's workers start after staging
    assert not any((tmp_path / "models").glob(".*.staging-*")), "preprocessing was over"
    result = interrupt(process)
    assert (result.returncode, result.stderr.strip()) == (130, "train: interrupted")


def test_ctrl_c_while_tag_jobs_analyse_is_one_line(tiny_models, tmp_path):
    """``bin/tag --jobs 2`` runs spaCy and the tagger in worker processes: Ctrl-C reaches them
    too, and still only one line is printed."""
    models_root, task, _ = tiny_models
    text = tmp_path / "long.txt"
    text.write_text("The bank called off the strike. Modern art filled the museum.\n\n" * 20_000)
    process = start([REPO / "bin" / "tag", "--task", task, "--models-dir", models_root,
                     "--jobs", "2", "--format", "jsonl", "--quiet", text], tmp_path / "cache")
    await_spacy_workers(process)
    result = interrupt(process)
    assert (result.returncode, result.stderr.strip()) == (130, "tag: interrupted")


@pytest.mark.parametrize("installed", [False, True], ids=["bin/train", "wsd-train"])
def test_ctrl_c_while_the_libraries_load_is_one_line(tmp_path, installed):
    """Ctrl-C as NumPy loads (its C set-up would turn an interrupt into an ImportError), by
    ``bin/train`` or the console script pip installs (``--help`` would print, had loading ended)."""
    if installed:
        program = shutil.which("wsd-train", path=sysconfig.get_path("scripts"))
        if program is None:
            pytest.skip("the console scripts are not installed (pip install -e .)")
    else:
        program = REPO / "bin" / "train"
    process = start([program, "--help"], tmp_path / "cache")
    deadline = time.monotonic() + RUN_SECONDS
    while not _has_loaded(process.pid, "_multiarray_umath"):
        assert process.poll() is None and time.monotonic() < deadline, "NumPy never loaded"
        time.sleep(0.001)
    result = interrupt(process)
    assert (result.returncode, result.stderr.strip(), result.stdout) == (
        130, "train: interrupted", "")


def _has_loaded(pid: int, library: str) -> bool:
    try:
        return library in Path(f"/proc/{pid}/maps").read_text()
    except OSError:  # the process has ended
        return False
