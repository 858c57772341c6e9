"""Work shared out to forked worker processes, results in order.

Forked, the workers start at once with everything this process has loaded (spaCy's pipelines,
scikit-learn), where freshly started interpreters would each import and load it all again.
"""
from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from wsd_classic.errors import WsdError

# How long a broken pool waits for this process's own Ctrl-C before it is an error.
WORKER_EXIT_GRACE_SECONDS = 1.0
# Items go to the workers in this many batches per process at most: a round trip per item costs
# more than the work of SemCor's many small lexelts (docs/speed.md), and batches this small
# still even out lexelts of very different sizes.
BATCHES_PER_PROCESS = 64
# How many ``ctrl_c_held`` blocks are open: a Ctrl-C within waits for their end.
_held = 0
PR_SET_PDEATHSIG = 1  # prctl(2): the signal a process gets when its parent ends


def in_workers(function: Callable, items: Sequence, processes: int) -> Iterator:
    """``function(item)`` for each of ``items``, in order, computed on ``processes`` forked
    worker processes (here, for 1), quiet on Ctrl-C (``quiet_on_ctrl_c``)."""
    if processes == 1:
        yield from map(function, items)
        return
    with quiet_on_ctrl_c() as ctrl_c:
        pool = ProcessPoolExecutor(processes, mp_context=multiprocessing.get_context("fork"),
                                   initializer=_start_worker, initargs=(os.getpid(),))
        try:
            with ctrl_c_held(ctrl_c):  # the pool forks its workers as the items are submitted
                results = pool.map(function, items, chunksize=max(
                    1, len(items) // (processes * BATCHES_PER_PROCESS)))
            yield from results
        except BrokenProcessPool as error:
            raise worker_loss(ctrl_c, "a worker process ended unexpectedly") from error
        finally:
            pool.shutdown(wait=True, cancel_futures=True)


@contextlib.contextmanager
def quiet_on_ctrl_c() -> Iterator[threading.Event]:
    """Within, a Ctrl-C ends every worker process forked here at once and silently, and this
    process raises KeyboardInterrupt as usual and reports it. Yields the event a Ctrl-C here
    sets (outside the main thread, where no handler can be installed, one never set).

    A Ctrl-C at the terminal reaches every process of the group, and each worker would print its
    own KeyboardInterrupt traceback. Forked, the workers inherit the handler installed here
    from their first instruction. A KeyboardInterrupt raised inside a finalizer or an at-fork
    hook (``__del__``, logging's lock release) is swallowed there with an "Exception ignored"
    report: that report is kept quiet, and the event still says the Ctrl-C came.
    """
    ctrl_c = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield ctrl_c
        return
    parent = os.getpid()

    def interrupted(signal_number, _frame):
        if os.getpid() != parent:
            os._exit(0)  # any other status makes spaCy warn; the parent reports the interrupt
        ctrl_c.set()
        if not _held:
            raise KeyboardInterrupt

    unraisable_hook = sys.unraisablehook

    def quiet_ctrl_c(report):
        if not (ctrl_c.is_set() and issubclass(report.exc_type, KeyboardInterrupt)):
            unraisable_hook(report)

    previous = signal.signal(signal.SIGINT, interrupted)
    sys.unraisablehook = quiet_ctrl_c
    try:
        yield ctrl_c
    finally:
        signal.signal(signal.SIGINT, previous)
        sys.unraisablehook = unraisable_hook


@contextlib.contextmanager
def ctrl_c_held(ctrl_c: threading.Event) -> Iterator[None]:
    """Within (and within ``quiet_on_ctrl_c``, whose event ``ctrl_c`` is), a Ctrl-C only sets
    ``ctrl_c``; KeyboardInterrupt is raised on the way out. A pool forks its workers within: a
    KeyboardInterrupt between a fork and the pool's record of the child (forked after the
    signal, the child never sees it) would leave a worker the pool never stops, which the
    interpreter's exit then waits for, for ever."""
    global _held
    _held += 1
    try:
        yield
    finally:
        _held -= 1
    if ctrl_c.is_set():
        raise KeyboardInterrupt


def worker_loss(ctrl_c: threading.Event, message: str) -> BaseException:
    """What a worker that left means: this process's own Ctrl-C (the group's Ctrl-C may end
    the workers a moment before it reaches this process), else an error."""
    if not ctrl_c.is_set():
        time.sleep(WORKER_EXIT_GRACE_SECONDS)
    return KeyboardInterrupt() if ctrl_c.is_set() else WsdError(message)


def _start_worker(parent: int) -> None:
    _end_with_parent(parent)
    _one_blas_thread()


def _end_with_parent(parent: int) -> None:
    """A worker ends when the process that forked it does. A parent killed outright (its pool
    given no chance to send the workers away) would otherwise leave them waiting for work for
    ever, holding the run's locks and its caller's output pipes."""
    if sys.platform.startswith("linux"):
        import ctypes

        ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the parent ended before the line above
        os._exit(0)


def _one_blas_thread():
    """The workers are the parallelism: BLAS threads of their own would only contend for the
    same cores (a third more CPU time to train the svm), as joblib's workers also avoid."""
    from threadpoolctl import threadpool_limits

    threadpool_limits(1)
