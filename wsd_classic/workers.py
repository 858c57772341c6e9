"""Work shared out to forked worker processes, results in order.

Forked, the workers start at once with everything this process has loaded (spaCy's pipelines,
scikit-learn), where freshly started interpreters would each import and load it all again.
"""
from __future__ import annotations

import multiprocessing
import os
import signal
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from wsd_classic.errors import WsdError

# How long a broken pool waits for this process's own Ctrl-C before it is an error.
WORKER_EXIT_GRACE_SECONDS = 1.0


def in_workers(function: Callable, items: Sequence, processes: int) -> Iterator:
    """``function(item)`` for each of ``items``, in order, computed on ``processes`` forked
    worker processes (here, for 1).

    A Ctrl-C at the terminal reaches the workers too: each leaves at once and silently, and
    this process raises KeyboardInterrupt as usual and reports it.
    """
    if processes == 1:
        yield from map(function, items)
        return
    pool = ProcessPoolExecutor(processes, mp_context=multiprocessing.get_context("fork"),
                               initializer=_start_worker)
    try:
        yield from pool.map(function, items)
    except BrokenProcessPool as error:
        # The group's Ctrl-C may end the workers a moment before it reaches this process,
        # whose own then interrupts the wait, as KeyboardInterrupt.
        time.sleep(WORKER_EXIT_GRACE_SECONDS)
        raise WsdError("a worker process ended unexpectedly") from error
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _start_worker():
    from threadpoolctl import threadpool_limits

    # The workers are the parallelism: BLAS threads of their own would only contend for the
    # same cores (a third more CPU time to train the svm), as joblib's workers also avoid.
    threadpool_limits(1)
    # Ctrl-C: leave silently, this process reports the interrupt.
    signal.signal(signal.SIGINT, lambda signal_number, frame: os._exit(0))
