"""``bin/tag`` as a stream: answers written as the input comes, in document order, and the
bounded memory under it (the model's estimators kept up to a budget, the model file read member
by member).

Models are the tiny ones ``conftest.tiny_models`` trains (art.n, bank.n, bright.a, call.v).
"""
from __future__ import annotations

import hashlib
import io
import json
import os
import queue
import subprocess
import sys
import threading

import numpy as np

from wsd_classic import modelstore, systems
from wsd_classic.tasks import tagging
from wsd_classic.tasks.text_input import TextBlock, read_blocks

from conftest import REPO

FIRST = "Our bank raised its rates again.\n\n"
SECOND = "Modern art filled the museum.\n\nThe bank of the river was bright.\n"
# Long enough for a reply to come from a loaded machine, short enough to fail a test that waits
# for the end of the input.
REPLY_SECONDS = 120


def _lines_of(stream) -> queue.Queue:
    """The lines ``stream`` gives, put in a queue by a thread as they come (None at the end)."""
    lines: queue.Queue = queue.Queue()

    def read():
        for line in stream:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=read, daemon=True).start()
    return lines


def test_answers_come_before_the_input_ends_and_in_document_order(tiny_models, tmp_path):
    root, task, _ = tiny_models
    process = subprocess.Popen(
        [str(REPO / "bin" / "tag"), "--task", task, "--models-dir", str(root), "--format",
         "jsonl", "-q"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=tmp_path,
        env={**os.environ, "WSD_CLASSIC_CACHE": str(tmp_path / "cache")})
    try:
        answers = _lines_of(process.stdout)
        process.stdin.write(FIRST)
        process.stdin.flush()
        first = json.loads(answers.get(timeout=REPLY_SECONDS))  # the input is still open
        assert (first["text"], first["start"]) == ("bank", FIRST.index("bank"))
        process.stdin.write(SECOND)
        process.stdin.close()
        rest = [json.loads(line) for line in iter(lambda: answers.get(timeout=REPLY_SECONDS),
                                                  None)]
        assert process.wait(timeout=REPLY_SECONDS) == 0
    finally:
        process.kill()
    text = FIRST + SECOND
    assert [(record["text"], record["line"]) for record in rest] == [
        ("art", 3), ("bank", 5), ("bright", 5)]
    for record in [first, *rest]:
        assert text[record["start"]:record["end"]] == record["text"]


def test_a_paragraph_is_given_out_when_the_input_pauses_after_it(monkeypatch):
    reading, writing = os.pipe()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(os.fdopen(reading, "rb")))
    blocks = read_blocks("-")
    os.write(writing, b"One paragraph.\n\nThe next one is not")
    first = next(blocks)  # the pipe is still open: a read that waited would hang here
    assert (first.text, first.pause) == ("One paragraph.\n\n", True)
    os.write(writing, b" finished yet.\n\nLast.\n")
    os.close(writing)
    rest = list(blocks)
    assert [block.text for block in rest] == ["The next one is not finished yet.\n\n", "Last.\n"]
    text = "One paragraph.\n\nThe next one is not finished yet.\n\nLast.\n"
    for block in [first, *rest]:
        assert text[block.offset:block.offset + len(block.text)] == block.text


def test_a_file_is_cut_into_the_same_blocks_however_it_is_read(tmp_path, monkeypatch):
    path = tmp_path / "t.txt"
    path.write_text("First one.\n\n\n\nSecond one.\n\nThird one.\n")
    whole = [(block.text, block.offset) for block in read_blocks(str(path))]
    monkeypatch.setattr("wsd_classic.tasks.text_input.READ_BYTES", 4)
    assert [(block.text, block.offset) for block in read_blocks(str(path))] == whole
    assert whole[0] == ("First one.\n\n\n\n", 0)


def test_batches_end_where_the_input_paused_or_at_their_size(monkeypatch):
    monkeypatch.setattr(tagging, "BATCH_CHARS", 10)
    blocks = [TextBlock("d", text, 0, 1, pause) for text, pause in [
        ("aaaa", False), ("bb", True), ("cccccc", False), ("dddddd", False), ("e", False)]]
    assert [[block.text for block in batch] for batch in tagging._batches(blocks)] == [
        ["aaaa", "bb"], ["cccccc", "dddddd"], ["e"]]


def test_estimators_past_the_budget_are_dropped_and_built_again_alike(tiny_models,
                                                                      monkeypatch):
    root, task, corpus = tiny_models
    items = sorted(modelstore.load(root, task, "svm").models)
    unbounded = modelstore.load(root, task, "svm").models
    largest = max(modelstore.footprint(unbounded[item]) for item in items)
    monkeypatch.setattr(modelstore, "BUILT_BYTES", largest)
    models = modelstore.load(root, task, "svm").models
    first = models[items[0]]
    for item in items[1:]:
        models[item]
    assert items[0] not in models.built  # the least recently used goes first
    assert 0 < models.built.currsize <= largest
    rebuilt = models[items[0]]
    lexelt = next(lexelt for lexelt in corpus.sample.lexelts if lexelt.item == items[0])
    rows = corpus.rows(lexelt.instances, systems.get("svm").feature_groups)
    assert rebuilt is not first
    assert np.array_equal(rebuilt.predict_proba(rows), first.predict_proba(rows))


def test_an_estimator_larger_than_the_budget_is_built_and_not_kept(tiny_models, monkeypatch):
    root, task, _ = tiny_models
    monkeypatch.setattr(modelstore, "BUILT_BYTES", 1)
    models = modelstore.load(root, task, "svm").models
    assert models[sorted(models)[0]].classes_.size > 1
    assert len(models.built) == 0


def test_a_model_replaced_while_it_is_read_is_still_read_from_the_file_it_opened(tiny_models,
                                                                                tmp_path):
    root, task, _ = tiny_models
    copy = tmp_path / "model.npz"
    copy.write_bytes(modelstore.model_path(root, task, "svm").read_bytes())
    header, archive = modelstore.read_header(copy)
    other = tmp_path / "other.npz"
    other.write_bytes(modelstore.model_path(root, task, "dlist").read_bytes())
    os.replace(other, copy)
    for entry in header["lexelts"].values():
        blob = archive[entry["member"]]
        assert hashlib.sha256(blob.tobytes()).hexdigest() == entry["sha256"]
