"""``bin/tag --scheduler``: plain text tagged on the workers of a Dask cluster.

The client reads the input and cuts the stream of ``TextBlock``s into chunks of
``CHUNK_BLOCKS`` consecutive blocks, whole multiples of spaCy's batch, so every batch holds
exactly the blocks it holds in a single-process run and every number comes out the same. A worker
runs ``tagging.tag_blocks`` on a chunk with a pipeline (spaCy and the model) it loads once per
process and keeps (``_pipeline``); the client numbers the targets per document
(``tagging.number_by_document``) as the chunks come back in input order.

Back-pressure: at most ``CHUNKS_PER_THREAD`` chunks per worker thread are submitted and not yet
written, and the next is read and submitted only when the oldest has been collected, so memory
stays bounded whatever the input size and the output is written in input order. A worker that
dies is replaced (a ``LocalCluster``'s nanny restarts it) and Dask recomputes the chunks it held.

The ``dask[distributed]`` package is an optional extra (``pip install wsd-classic[dask]``),
imported only when ``--scheduler`` is given.
"""
from __future__ import annotations

import argparse
import contextlib
import functools
import logging
import re
import signal
import sys
import threading
from collections import deque
from itertools import islice
from pathlib import Path
from typing import Callable, Iterable, Iterator, NamedTuple

from wsd_classic.errors import WsdError
from wsd_classic.tasks import tagging
from wsd_classic.tasks.text_input import TextBlock

# 8 spaCy batches, about 40,000 tokens at most: a second or so of a worker's time, long beside
# Dask's few milliseconds per task, short enough for a fair share between workers.
CHUNK_BLOCKS = 8 * tagging.SPACY_BATCH
# Enough to keep a worker busy while its last result travels and the next chunk arrives.
CHUNKS_PER_THREAD = 3
CONNECT_SECONDS = 10
WORKERS_WAIT_SECONDS = 60
LOCAL = re.compile(r"local:(\d+)")
INSTALL_HINT = "pip install 'wsd-classic[dask]' (or: pip install 'dask[distributed]')"


class PipelineSpec(NamedTuple):
    """What a worker's pipeline is made of (``tagging.tagging_pipeline``'s arguments)."""

    task: str
    system: str
    models_root: str
    explain: bool


def check_scheduler(value: str) -> str:
    """``--scheduler``'s value: ``local:N`` with N >= 1, or a scheduler address."""
    local = LOCAL.fullmatch(value)
    if local is not None and int(local.group(1)) < 1:
        raise argparse.ArgumentTypeError("local:N needs at least one worker")
    if value.startswith("local:") and local is None:
        raise argparse.ArgumentTypeError(f"expected local:N (N worker processes), got {value!r}")
    return value


def _dask():
    try:
        import distributed
    except ImportError as error:
        if error.name not in ("dask", "distributed"):
            raise
        raise WsdError(f"--scheduler needs Dask, which is not installed: {INSTALL_HINT}") from None
    return distributed


@contextlib.contextmanager
def connected(scheduler: str) -> Iterator:
    """A Dask client of the scheduler at ``scheduler``, or of a new ``LocalCluster`` of N
    single-threaded worker processes on 127.0.0.1 for ``local:N``; both closed afterwards."""
    dask_distributed = _dask()
    local = LOCAL.fullmatch(scheduler)
    with contextlib.ExitStack() as stack:
        if local is not None:
            with _ctrl_c_ignored():
                address = stack.enter_context(dask_distributed.LocalCluster(
                    n_workers=int(local.group(1)), threads_per_worker=1, processes=True,
                    # CRITICAL, not ERROR: closing the cluster can race a worker's heartbeat,
                    # which logs a traceback; a run's real failures reach the client's futures.
                    host="127.0.0.1", dashboard_address="127.0.0.1:0",
                    silence_logs=logging.CRITICAL,
                    preload=[__name__]))
        else:
            address = scheduler
        try:
            client = dask_distributed.Client(address, timeout=CONNECT_SECONDS,
                                             set_as_default=False)
        except (OSError, ValueError, TypeError) as error:
            raise WsdError(f"cannot reach the Dask scheduler at {scheduler}: {error}") from None
        stack.enter_context(client)
        try:
            yield client
        except KeyboardInterrupt:
            # The client's own wait for a result, interrupted, leaves an asyncio task that
            # logs an AllExit traceback as it is collected: entry_point's line says it all.
            logging.getLogger("asyncio").setLevel(logging.CRITICAL)
            raise


@contextlib.contextmanager
def _ctrl_c_ignored() -> Iterator[None]:
    """Meanwhile Ctrl-C is ignored, and so it is by the worker processes a LocalCluster starts
    (an ignored signal stays ignored in a new program, and Python keeps it so). Interrupted as
    they start, they would print tracebacks and the cluster would fail with one of its own; a
    Ctrl-C during those seconds is lost, one afterwards stops the run."""
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def dask_setup(worker) -> None:
    """Dask's hook for a worker that preloads this module, as a ``local:N`` worker does, the
    ones its nanny restarts too: a Ctrl-C at the terminal reaches every process of the group,
    and each worker would print its own KeyboardInterrupt traceback; the client alone answers
    it, and stops the cluster."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def cluster_tagger(client, spec: PipelineSpec):
    """``tagging.tag_blocks`` run on the cluster's workers, for ``tagging.tag_sources``.

    Every worker connected now loads its pipeline first (a bad model or system is reported
    before any input is read), and the window of chunks out at a time is sized on them; one
    that joins later loads it with its first chunk.
    """
    dask_distributed = _dask()
    try:
        client.wait_for_workers(1, timeout=WORKERS_WAIT_SECONDS)
    except TimeoutError:
        raise WsdError(f"the Dask scheduler has no worker after {WORKERS_WAIT_SECONDS} s") from None
    threads = client.nthreads()
    client.gather([client.submit(tag_chunk, spec, [], workers=[address], pure=False)
                   for address in threads])
    window = CHUNKS_PER_THREAD * sum(threads.values())

    def cancel(futures: list) -> None:
        # A client closed already has released its futures with itself, and cannot be asked.
        if client.status == "running":
            client.cancel(futures)

    def tag(blocks: Iterable[TextBlock]) -> Iterator[tagging.TaggedBlock]:
        blocks = iter(blocks)
        chunks = iter(lambda: list(islice(blocks, CHUNK_BLOCKS)), [])
        futures = (client.submit(tag_chunk, spec, chunk, pure=False) for chunk in chunks)
        try:
            # closed here, not when an exception's traceback lets go of it (the client is
            # closed by then, and the futures it cancels are gone with it)
            with _ctrl_c_remembered() as ctrl_c, contextlib.closing(
                    in_order(futures, window, cancel)) as results:
                for tagged_chunk in results:
                    if ctrl_c.is_set():
                        raise KeyboardInterrupt
                    yield from tagged_chunk
        except dask_distributed.KilledWorker as error:
            raise WsdError(f"Dask gave up on a chunk whose workers kept dying: {error}") from None
        except dask_distributed.CancelledError as error:
            raise WsdError(f"lost the Dask scheduler: {error}") from None

    return tag


@contextlib.contextmanager
def _ctrl_c_remembered() -> Iterator[threading.Event]:
    """Meanwhile Ctrl-C raises KeyboardInterrupt and sets the event it yields.

    The scheduler of a LocalCluster runs in this process, with a garbage-collection callback:
    a KeyboardInterrupt raised inside it is swallowed there, so the event is checked again as
    each chunk comes back, and Python's "Exception ignored" report of it is kept off stderr
    (the run ends with its one line, "interrupted").
    """
    pressed = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield pressed
        return

    def interrupted(signal_number, _frame):
        pressed.set()
        raise KeyboardInterrupt

    def unraisable(report):
        if not (pressed.is_set() and isinstance(report.exc_value, KeyboardInterrupt)):
            previous_hook(report)

    previous, previous_hook = signal.signal(signal.SIGINT, interrupted), sys.unraisablehook
    sys.unraisablehook = unraisable
    try:
        yield pressed
    finally:
        signal.signal(signal.SIGINT, previous)
        sys.unraisablehook = previous_hook


def in_order(futures: Iterator, window: int, cancel: Callable[[list], None]) -> Iterator:
    """The results of ``futures`` in their order, with at most ``window`` of them submitted and
    not yet yielded; those still pending go to ``cancel`` if this ends early (Ctrl-C, an error)."""
    pending = deque(islice(futures, window))
    try:
        while pending:
            result = pending[0].result()
            pending.popleft()
            pending.extend(islice(futures, 1))
            yield result
    finally:
        if pending:
            cancel(list(pending))


_PIPELINE_LOCK = threading.Lock()


@functools.lru_cache(maxsize=1)
def _pipeline(spec: PipelineSpec):
    # One pipeline per worker process: spaCy and the model take seconds to load and hundreds of
    # megabytes, so they are kept for every later chunk, and only the one in use is.
    return tagging.tagging_pipeline(spec.task, spec.system, Path(spec.models_root), spec.explain)


def tag_chunk(spec: PipelineSpec, blocks: list[TextBlock]) -> list[tagging.TaggedBlock]:
    """On a worker: the blocks tagged by the process's pipeline (``[]``: just load it)."""
    # A worker with several threads would otherwise load the pipeline twice, and spaCy's
    # pipelines are not made to run in two threads at once.
    with _PIPELINE_LOCK:
        return list(tagging.tag_blocks(_pipeline(spec), blocks))
