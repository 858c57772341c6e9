"""Work shared out to forked worker processes: order, errors, a worker that dies."""
import os
import subprocess
import sys
import time

import pytest

from wsd_classic import workers
from wsd_classic.errors import WsdError


def _checked(number):
    if number < 0:
        raise WsdError(f"negative: {number}")
    return number * number


def test_results_come_in_the_order_of_the_items():
    assert list(workers.in_workers(_checked, range(20), processes=2)) == [
        number * number for number in range(20)]


def _in_process(item):
    return item, os.getpid()


def test_many_items_go_in_batches_and_come_back_in_order():
    items = range(2 * workers.BATCHES_PER_PROCESS * 5)  # batches of 5
    results = list(workers.in_workers(_in_process, items, processes=2))
    assert [item for item, _ in results] == list(items)
    batches = [{pid for _, pid in results[start:start + 5]}
               for start in range(0, len(results), 5)]
    assert all(len(pids) == 1 for pids in batches)  # each batch is one worker's


def test_an_error_in_a_worker_reaches_this_process():
    with pytest.raises(WsdError, match="negative: -1"):
        list(workers.in_workers(_checked, [1, -1, 2], processes=2))


def _crash(item):
    os._exit(3)


def test_a_worker_that_dies_is_a_one_line_error(monkeypatch):
    monkeypatch.setattr(workers, "WORKER_EXIT_GRACE_SECONDS", 0.01)
    with pytest.raises(WsdError, match="a worker process ended unexpectedly"):
        list(workers.in_workers(_crash, [1, 2], processes=2))


def _blas_threads(item):
    from threadpoolctl import threadpool_info

    return {pool["num_threads"] for pool in threadpool_info()}


def test_a_worker_runs_one_blas_thread():
    import scipy.linalg  # noqa: F401  (loads the BLAS libraries)

    if _blas_threads(None) in ({1}, set()):
        pytest.skip("this process runs one BLAS thread already")
    assert list(workers.in_workers(_blas_threads, [0], processes=2)) == [{1}]


def test_the_ctrl_c_handler_is_given_back():
    import signal

    before = signal.getsignal(signal.SIGINT)
    assert list(workers.in_workers(_checked, [1, 2], processes=2)) == [1, 4]
    assert signal.getsignal(signal.SIGINT) is before


def _wordnet_files_open(item):
    from wsd_classic import wordnet

    reader = wordnet.wordnet()
    return (id(reader), len(reader._data_file_map), reader._key_synset_file is not None,
            reader._key_count_file is not None)


def test_a_worker_opens_wordnet_files_itself_rather_than_sharing_its_parents():
    # NLTK reads WordNet by seek and readline: workers sharing the parent's open files (one
    # offset) read each other's lines, which once gave Lesk different glosses run to run. The
    # reader itself, seconds to build, is the parent's.
    from wsd_classic import wordnet

    reader = wordnet.wordnet()
    assert reader.lemma_from_key("chair%1:06:00::").count() > 0  # opens all three kinds
    opened_here = _wordnet_files_open(0)
    assert opened_here[1] > 0 and opened_here[2:] == (True, True)
    assert list(workers.in_workers(_wordnet_files_open, [0, 1], processes=2)) == [
        (id(reader), 0, False, False)] * 2
    assert _wordnet_files_open(0) == opened_here
    lesk_keys = ["chair%1:06:00::", "easy_chair%1:06:00::", "chair%1:04:00::"] * 20
    from_workers = list(workers.in_workers(_gloss_words, lesk_keys, processes=2))
    assert from_workers == [_gloss_words(key) for key in lesk_keys]


def _gloss_words(key):
    from wsd_classic.systems.lesk import gloss_lemmas

    return sorted(gloss_lemmas(key))


# A parent that starts two workers, each noting its pid and then waiting, and ends abruptly, as
# a run does when Ctrl-C reaches it just after a fork the pool has not yet recorded.
PARENT_ENDS_UNDER_ITS_WORKERS = """
import os, sys, threading, time
from wsd_classic import workers

def note_and_wait(path):
    with open(path, "a") as note:
        note.write(f"{os.getpid()}\\n")
    time.sleep(120)

notes = sys.argv[1]
threading.Thread(target=lambda: list(workers.in_workers(note_and_wait, [notes] * 2, 2)),
                 daemon=True).start()
while len(open(notes).read().split()) < 2 if os.path.exists(notes) else True:
    time.sleep(0.01)
os._exit(1)
"""


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/status") as status:
            return "\tZ" not in next(line for line in status if line.startswith("State:"))
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl is Linux's")
def test_workers_end_with_the_process_that_forked_them(tmp_path):
    notes = tmp_path / "workers"
    subprocess.run([sys.executable, "-c", PARENT_ENDS_UNDER_ITS_WORKERS, notes], timeout=60)
    pids = [int(pid) for pid in notes.read_text().split()]
    deadline = time.monotonic() + 10
    while any(map(_alive, pids)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(map(_alive, pids))


def test_a_ctrl_c_held_while_workers_start_comes_when_they_have():
    import signal

    went_on = False
    with pytest.raises(KeyboardInterrupt):
        with workers.quiet_on_ctrl_c() as ctrl_c, workers.ctrl_c_held(ctrl_c):
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.1)  # the handler has run by now
            went_on = ctrl_c.is_set()
    assert went_on
