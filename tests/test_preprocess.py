"""spaCy preprocessing: target alignment, whitespace tokens, long contexts, the on-disk cache."""
import gzip
import os
import signal
import sys
import threading
from dataclasses import replace

import pytest

from conftest import head_text
from wsd_classic.corpora.model import Instance
from wsd_classic import workers
from wsd_classic.errors import WsdError
from wsd_classic.preprocess import cache, pipeline
from wsd_classic.preprocess.cache import processed
from wsd_classic.preprocess.document import ProcessedInstance
from wsd_classic.preprocess.pipeline import clip_context, process


def instance(text, head_word, sat_word=None, id_="call.1"):
    start = text.index(head_word)
    sats = ()
    if sat_word:
        sat_start = text.index(sat_word, start + len(head_word))
        sats = ((sat_start, sat_start + len(sat_word)),)
    return Instance(id_, "call.v", text, (start, start + len(head_word)), sats)


def test_target_and_satellite_are_aligned_to_their_tokens():
    doc = next(process([instance("Yesterday they  called\n the meeting off. It rained.", "called",
                                 "off")]))
    assert doc.words[doc.target] == "called"
    assert doc.lemmas[doc.target] == "call"
    assert doc.tags[doc.target] == "VBD"
    assert [doc.words[i] for i in doc.sats] == ["off"]
    assert all(word.strip() for word in doc.words)  # whitespace tokens dropped
    assert doc.sentences[doc.target] == 0 and doc.sentences[-1] == 1
    assert all(0 <= head < len(doc) for head in doc.heads)


def test_only_the_target_s_sentence_is_tagged_and_parsed():
    text = "The children were singing loudly. They called the meeting off. Banks rose."
    doc = next(process([instance(text, "called", "off")]))
    sentence = doc.target_sentence
    assert [doc.words[i] for i in sentence] == ["They", "called", "the", "meeting", "off", "."]
    assert all(doc.tags[i] for i in sentence)
    assert all(head in sentence for head in (doc.heads[i] for i in sentence))
    assert doc.deps[doc.sats[0]] == "prt"
    outside = [i for i in range(len(doc)) if i not in sentence]
    assert {doc.tags[i] for i in outside} == {""} and {doc.deps[i] for i in outside} == {""}
    assert all(doc.heads[i] == i for i in outside)
    # the bag of words' lemmas there come from the lookup table, which needs no tagger
    lemmas = dict(zip(doc.words, doc.lemmas))
    assert (lemmas["children"], lemmas["singing"], lemmas["Banks"], lemmas["rose"]) == (
        "child", "sing", "bank", "rise")
    assert [doc.sentences[i] for i in (0, doc.target, len(doc) - 1)] == [0, 1, 2]


def test_a_context_outside_the_target_s_sentence_takes_lookup_lemmas():
    doc = ProcessedInstance("x.1", "x.n", ("Geese", "flew", ".", "Banks", "rose", "."),
                            ("goose", "fly", ".", "bank", "rise", "."), ("",) * 6,
                            (0, 0, 0, 1, 1, 1), (0, 1, 2, 3, 4, 5), ("",) * 6, (False,) * 6,
                            target=3)
    assert pipeline.with_looked_up_context(doc).lemmas == ("goose", "fly", ".", "bank", "rise",
                                                           ".")
    analysed = replace(doc, lemmas=("geese", "flew", ".", "Banks-rule", "rose-rule", "."))
    assert pipeline.with_looked_up_context(analysed).lemmas == (
        "goose", "fly", ".", "Banks-rule", "rose-rule", ".")


def test_long_context_is_clipped_around_the_head():
    filler = "word " * 30_000
    long = instance(filler + "they called him " + filler, "called")
    clipped = clip_context(long, limit=1_000)
    assert len(clipped.text) == 1_000
    assert head_text(clipped) == "called"


def test_cache_is_reused_and_keyed_by_content(tmp_path, monkeypatch):
    items = [instance("They called the doctor.", "called"),
             instance("Nobody called back.", "called", id_="call.2")]
    first = processed(items, cache_root=tmp_path)
    files = list((tmp_path / "preprocess").glob("*.jsonl.gz"))
    assert len(files) == 1

    def fail(*args, **kwargs):
        raise AssertionError("spaCy ran although the cache holds the analyses")

    monkeypatch.setattr(cache.pipeline, "process", fail)
    assert processed(items, cache_root=tmp_path) == first
    changed = [items[0], instance("Nobody called again.", "called", id_="call.2")]
    monkeypatch.undo()
    processed(changed, cache_root=tmp_path)
    assert len(list((tmp_path / "preprocess").glob("*.jsonl.gz"))) == 2


def test_damaged_cache_entry_is_recomputed(tmp_path):
    items = [instance("They called the doctor.", "called")]
    first = processed(items, cache_root=tmp_path)
    (entry,) = (tmp_path / "preprocess").glob("*.jsonl.gz")
    entry.write_bytes(gzip.compress(b"not json\n"))
    assert processed(items, cache_root=tmp_path) == first
    assert not list((tmp_path / "preprocess").glob(".*.tmp"))


class _WorkersThatLeave:
    """An ``nlp`` whose multiprocess ``pipe`` finds its workers' pipe closed after one doc."""

    def __init__(self, then=None):
        self.then = then

    def pipe(self, texts, **options):
        yield next(iter(texts))
        if self.then:
            self.then()
        raise EOFError


def test_a_worker_that_leaves_is_a_one_line_error(monkeypatch):
    monkeypatch.setattr(workers, "WORKER_EXIT_GRACE_SECONDS", 0.01)
    docs = pipeline.pipe(_WorkersThatLeave(), ["a", "b"], n_process=2)
    assert next(docs) == "a"
    with pytest.raises(WsdError, match="a spaCy worker process ended unexpectedly"):
        next(docs)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_ctrl_c_arriving_after_the_workers_left_is_an_interrupt():
    """The group's Ctrl-C may end the workers a moment before it reaches this process."""
    late_ctrl_c = threading.Timer(0.05, os.kill, (os.getpid(), signal.SIGINT))
    docs = pipeline.pipe(_WorkersThatLeave(then=late_ctrl_c.start), ["a", "b"], n_process=2)
    assert next(docs) == "a"
    try:
        with pytest.raises(KeyboardInterrupt) as interrupt:
            next(docs)
    finally:
        late_ctrl_c.cancel()  # a pipe that gave up at once must not interrupt the test run
    assert isinstance(interrupt.value.__context__, EOFError)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


class _CtrlCInAFinalizer:
    """Ctrl-C while garbage collection runs this object's ``__del__``, which swallows the
    KeyboardInterrupt its handler raises."""

    def __del__(self):
        os.kill(os.getpid(), signal.SIGINT)
        for _ in range(1000):  # the handler runs between these bytecodes, inside __del__
            pass


def test_a_ctrl_c_swallowed_by_a_finalizer_is_still_an_interrupt(capsys):
    hook = sys.unraisablehook
    docs = pipeline.pipe(_WorkersThatLeave(then=lambda: _CtrlCInAFinalizer()), ["a", "b"],
                         n_process=2)
    assert next(docs) == "a"
    with pytest.raises(KeyboardInterrupt):
        next(docs)
    assert capsys.readouterr().err == ""  # no "Exception ignored in ... __del__" report
    assert sys.unraisablehook is hook


def test_workers_analyse_as_this_process_does_and_keep_the_order(monkeypatch):
    items = [instance(f"Call {n}: they called the meeting off. It rained {n} times.", "called",
                      "off", id_=f"call.{n}") for n in range(5)]
    alone = list(process(items, jobs=1))
    monkeypatch.setattr(pipeline, "PARALLEL_MIN_CONTEXTS", 0)
    monkeypatch.setattr(pipeline, "CHUNK_CONTEXTS", 2)
    assert list(process(items, jobs=2)) == alone
    assert [doc.id for doc in alone] == [item.id for item in items]
