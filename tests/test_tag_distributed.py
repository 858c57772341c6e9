"""``bin/tag --scheduler``: tagging on a Dask cluster gives the single-process output byte for byte,
survives a killed worker, stops cleanly on Ctrl-C and says so in one line when it cannot start.

Every cluster listens on 127.0.0.1 only. Most tests share one LocalCluster of two worker processes
(``cluster``), started here and reached by its address as a remote scheduler would be; chunks are
cut to one spaCy batch so that a few hundred lines make dozens of them and documents run across
several.
"""
from __future__ import annotations

import gc
import logging
import os
import signal
import subprocess
import sys
import time

import distributed as dask_distributed
import pytest

from wsd_classic.tasks import distributed, tagging

from conftest import REPO, assert_one_line_error

PARAGRAPHS = (
    "Our bank raised its rates again. The union called off the strike.",
    "Modern art filled the museum.\nNothing else happened, and I called my mother.",
    "Bright students sat on the bank of the river. It was bright.",
    "Nothing here was ever trained on.",
)
RUN_SECONDS = 120


def write_text(path, paragraphs: int, shift: int = 0):
    """``paragraphs`` paragraphs, ``shift`` varying which comes first."""
    path.write_text("\n\n".join(PARAGRAPHS[(shift + n) % len(PARAGRAPHS)] + f" Line {n}."
                                for n in range(paragraphs)) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def inputs(tmp_path):
    """Two documents of several chunks each, an empty one, a short one."""
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    return [write_text(tmp_path / "long.txt", 150), write_text(tmp_path / "second.txt", 41, 1),
            empty, write_text(tmp_path / "short.txt", 3, 2)]


@pytest.fixture(scope="module")
def cluster():
    """A LocalCluster of two single-threaded worker processes: its address and a client."""
    with dask_distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       host="127.0.0.1", dashboard_address="127.0.0.1:0",
                                       silence_logs=logging.ERROR) as local, \
            dask_distributed.Client(local, set_as_default=False) as client:
        yield local.scheduler_address, client


@pytest.fixture
def small_chunks(monkeypatch):
    monkeypatch.setattr(distributed, "CHUNK_BLOCKS", tagging.SPACY_BATCH)


def output_of(tag, *args, out):
    status, stdout, stderr = tag(*args, "-o", out)
    assert (status, stdout) == (0, ""), stderr
    return out.read_bytes(), stderr


@pytest.mark.parametrize("options", [("--format", "text"), ("--format", "jsonl"),
                                     ("--format", "senseval"),
                                     ("--format", "jsonl", "--system", "dlist", "--explain")],
                         ids=["text", "jsonl", "senseval", "jsonl-explain"])
def test_output_is_the_single_process_output_byte_for_byte(tag, cluster, small_chunks, inputs,
                                                           tmp_path, options):
    single, single_err = output_of(tag, *options, *inputs, out=tmp_path / "single")
    on_cluster, cluster_err = output_of(tag, *options, "--scheduler", cluster[0], *inputs,
                                        out=tmp_path / "cluster")
    assert on_cluster == single
    assert single.count(b"\n") > 300
    assert counted(cluster_err) == counted(single_err)
    assert f"tag: {inputs[2]}: no text to tag" in cluster_err


def counted(stderr: str) -> list[str]:
    """The summary's lines without their speeds and timings."""
    return [line.split(" document(s)")[0] for line in stderr.splitlines()]


def test_numbering_continues_across_chunks(tag, cluster, small_chunks, inputs, tmp_path):
    """Targets numbered doc.1, doc.2, ... and sentences counted from each document's start, as
    one process counts them, though each document is cut into many chunks."""
    status, out, _ = tag("--format", "senseval", "--scheduler", cluster[0], inputs[0], inputs[1])
    assert status == 0
    numbers = [line.split()[1] for line in out.splitlines()]
    for document in inputs[:2]:
        mine = [number for number in numbers if number.rsplit(".", 1)[0] == str(document)]
        assert mine == [f"{document}.{n}" for n in range(1, len(mine) + 1)]
        assert len(mine) > 4 * distributed.CHUNK_BLOCKS / len(PARAGRAPHS)


def test_local_workers_started_by_bin_tag(tiny_models, inputs, tmp_path, run_command):
    root, task, _ = tiny_models
    results = [run_command("tag", "--task", task, "--models-dir", root, "--format", "jsonl",
                           *scheduler, *inputs)
               for scheduler in ((), ("--scheduler", "local:2"))]
    for result in results:
        assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    assert results[1].stdout == results[0].stdout and results[0].stdout.count("\n") > 100


def test_a_worker_killed_mid_run_is_replaced_and_every_line_written_once(
        tag, cluster, small_chunks, inputs, tmp_path, monkeypatch):
    address, client = cluster
    single, _ = output_of(tag, "--format", "jsonl", *inputs, out=tmp_path / "single")
    killed = {}
    chunks_in_order = distributed.in_order

    def kill_a_busy_worker_after_the_first_chunk(futures, window, cancel):
        for number, chunk in enumerate(chunks_in_order(futures, window, cancel)):
            if number == 1:
                # chunks being tagged or tagged and not yet collected: lost with the worker
                held = {worker: len(keys) + len(client.has_what()[worker])
                        for worker, keys in client.processing().items()}
                worker = max(held, key=held.get)
                [pid] = client.run(os.getpid, workers=[worker]).values()
                os.kill(pid, signal.SIGKILL)
                killed.update(pid=pid, held=held[worker])
            yield chunk

    monkeypatch.setattr(distributed, "in_order", kill_a_busy_worker_after_the_first_chunk)
    started = time.monotonic()
    on_cluster, _ = output_of(tag, "--format", "jsonl", "--scheduler", address, *inputs,
                              out=tmp_path / "cluster")
    assert killed["held"] > 0, "the worker killed had no chunk to lose"
    assert on_cluster == single
    client.wait_for_workers(2, timeout=RUN_SECONDS)
    assert killed["pid"] not in client.run(os.getpid).values()
    assert time.monotonic() - started < RUN_SECONDS


class Ready:
    """A future whose result is its number."""

    def __init__(self, number: int):
        self.number = number

    def result(self) -> int:
        return self.number


def test_back_pressure_bounds_the_chunks_submitted_and_not_written():
    submitted, written, cancelled = [], [], []

    def futures():
        for number in range(20):
            submitted.append(number)
            yield Ready(number)

    for result in distributed.in_order(futures(), 3, cancelled.extend):
        written.append(result)
        assert len(submitted) - len(written) <= 3  # the window: the next goes as one comes back
    assert written == list(range(20)) and cancelled == []


def test_chunks_still_pending_are_cancelled_when_the_run_stops():
    cancelled = []
    chunks = distributed.in_order((Ready(n) for n in range(10)), 4, cancelled.extend)
    assert next(chunks) == 0
    chunks.close()
    assert [future.number for future in cancelled] == [1, 2, 3, 4]


def test_ctrl_c_swallowed_in_a_gc_callback_is_not_reported_and_other_errors_are(monkeypatch):
    """Dask's scheduler runs a garbage-collection callback in this process: Ctrl-C landing in
    it is remembered, not printed as "Exception ignored"; anything else still reaches the hook."""
    reported = []
    monkeypatch.setattr(sys, "unraisablehook", reported.append)

    def raising(error):
        def callback(phase, info):
            raise error
        gc.callbacks.append(callback)
        try:
            gc.collect()
        finally:
            gc.callbacks.remove(callback)

    with distributed._ctrl_c_remembered() as pressed:
        raising(ValueError("not Ctrl-C"))
        pressed.set()
        raising(KeyboardInterrupt())
    assert [type(report.exc_value) for report in reported] == [ValueError, ValueError]
    assert sys.unraisablehook == reported.append


def test_ctrl_c_cancels_the_run_and_leaves_no_output_file(tiny_models, tmp_path):
    root, task, _ = tiny_models
    text = write_text(tmp_path / "long.txt", 20_000)
    out = tmp_path / "out.jsonl"
    process = subprocess.Popen(
        [str(REPO / "bin" / "tag"), "--task", task, "--models-dir", str(root), "--format",
         "jsonl", "--scheduler", "local:2", "-o", str(out), str(text)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        env={**os.environ, "WSD_CLASSIC_CACHE": str(tmp_path / "cache")},
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + RUN_SECONDS
        while not any(path.stat().st_size for path in tmp_path.glob(".out.jsonl.*.tmp")):
            assert process.poll() is None and time.monotonic() < deadline, process.stderr.read()
            time.sleep(0.01)
        os.killpg(process.pid, signal.SIGINT)  # Ctrl-C, once lines are being written
        _, stderr = process.communicate(timeout=RUN_SECONDS)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert (process.returncode, stderr.strip()) == (130, "tag: interrupted")
    assert not out.exists() and list(tmp_path.glob(".out.jsonl*")) == []
    while group_alive(process.pid):  # the workers are gone with it
        assert time.monotonic() < deadline, "worker processes outlived bin/tag"
        time.sleep(0.1)


def group_alive(group: int) -> bool:
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    return True


def test_an_unreachable_scheduler_is_one_line(tag, monkeypatch):
    monkeypatch.setattr(distributed, "CONNECT_SECONDS", 1)
    started = time.monotonic()
    result = subprocess.CompletedProcess([], *tag("--scheduler", "tcp://127.0.0.1:9", "x.txt"))
    assert_one_line_error(result, "cannot reach the Dask scheduler at tcp://127.0.0.1:9")
    assert time.monotonic() - started < 30


def test_a_bad_model_on_the_workers_is_one_line(tag, cluster, tmp_path):
    result = subprocess.CompletedProcess([], *tag("--task", "nonexistent", "--scheduler",
                                                  cluster[0], write_text(tmp_path / "a.txt", 2)))
    assert_one_line_error(result, "no nonexistent/svm model")


def test_without_dask_the_error_says_what_to_install(tag, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed: ImportError
    result = subprocess.CompletedProcess([], *tag("--scheduler", "local:1", "x.txt"))
    assert_one_line_error(result, "pip install 'wsd-classic[dask]'")


@pytest.mark.parametrize("args, message", [
    (("--scheduler", "local:0"), "local:N needs at least one worker"),
    (("--scheduler", "local:two"), "expected local:N"),
    (("--scheduler", "local:2", "--jobs", "2"), "--jobs applies without --scheduler"),
    (("--scheduler", "local:2", "--senseval", "x.xml"), "--scheduler applies to plain text"),
])
def test_scheduler_options_that_make_no_sense(tag, args, message, capsys):
    with pytest.raises(SystemExit) as exit_status:
        tag(*args)
    assert exit_status.value.code == 2
    assert message in capsys.readouterr().err.splitlines()[-1]
