"""Pathological but valid input finishes with bounded memory, or stops with a clear message.

* one instance with a 1 MB context (spaCy sees at most ``MAX_CONTEXT_CHARS`` around the head);
* a lexelt with 5,000 senses (the dense senses x features arrays of svm and dlist would take
  gigabytes: they refuse it, naming the lexelt; the other systems train on it);
* a 100 MB text for ``bin/tag`` (read in blocks: memory does not grow with the file).

Memory is the peak resident set of the command and every process it started, measured by a
parent that does nothing else (``RUSAGE_CHILDREN``).
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import assert_one_line_error, head_text

from bench.runs import measured

from wsd_classic.answers.senseval import read_answers
from wsd_classic.corpora.model import Instance
from wsd_classic.errors import WsdError
from wsd_classic.preprocess.pipeline import MAX_CONTEXT_CHARS, clip_context
from wsd_classic.systems import make
from wsd_classic.systems.base import MAX_DENSE_ENTRIES

MEGABYTE = 1 << 20
# A bin/train run on a small corpus peaks near 250 MB; these inputs must stay in the same range.
TRAIN_PEAK_MB = 1000


def lexical_sample_file(path: Path, item: str, instances) -> None:
    """Write ``(id, context markup, senses)`` instances as a one-lexelt SENSEVAL file."""
    with open(path, "w", encoding="utf-8") as out:
        out.write(f'<corpus lang="en">\n<lexelt item="{item}">\n')
        for instance_id, context, senses in instances:
            answers = "".join(f'<answer instance="{instance_id}" senseid="{sense}"/>\n'
                              for sense in senses)
            out.write(f'<instance id="{instance_id}">\n{answers}<context>\n{context}\n'
                      "</context>\n</instance>\n")
        out.write("</lexelt>\n</corpus>\n")


# --- a 1 MB context -----------------------------------------------------------------------------

RIVER, MONEY = "bank%1:17:01::", "bank%1:14:00::"


def _context(words: str, filler: str = "") -> str:
    return f"{filler}{words.replace('bank', '<head>bank</head>', 1)}{filler}"


def test_an_instance_with_a_1mb_context_trains_and_tags(tmp_path):
    sentence = "The water was cold and the day was long. "
    filler = sentence * (MEGABYTE // (2 * len(sentence)) + 1)  # on either side of the head
    training = [(f"bank.{n}", _context(text, filler if n == 0 else ""), [sense])
                for n, (text, sense) in enumerate(
                    [("the muddy bank of the river", RIVER), ("fish by the river bank", RIVER),
                     ("a grassy bank near the water", RIVER), ("the bank raised its rates", MONEY),
                     ("money from the bank loan", MONEY), ("the bank account and cash", MONEY)])]
    lexical_sample_file(tmp_path / "train.xml", "bank.n", training)
    lexical_sample_file(tmp_path / "test.xml", "bank.n", [
        ("bank.t1", _context("he sat on the river bank", filler), []),
        ("bank.t2", _context("a loan from the bank"), [])])
    (tmp_path / "test.key").write_text(f"bank bank.t1 {RIVER}\nbank bank.t2 {MONEY}\n")
    assert len(training[0][1]) > MEGABYTE
    result, peak = measured(tmp_path, "train", "--train", tmp_path / "train.xml",
                            "--test", tmp_path / "test.xml", "--key", tmp_path / "test.key",
                            "--systems", "commonest,svm", "--jobs", "1",
                            "--models-dir", tmp_path / "models", "--out-dir", tmp_path / "results")
    assert result.returncode == 0, result.stderr
    answers = read_answers(tmp_path / "results" / "train" / "svm.ans")
    assert sorted(answer.instance for answer in answers) == ["bank.t1", "bank.t2"]
    assert peak < TRAIN_PEAK_MB, f"peak {peak:.0f} MB"


def test_clipping_never_leaves_more_than_the_limit():
    """Far satellites are dropped and an overlong head is cut, so spaCy's own limit (1,000,000
    characters) is never reached."""
    text = "The bank of the river. " * 50_000
    end = len(text)
    far_satellite = Instance("a", "call.v", text, (4, 8), ((end - 10, end - 5),))
    whole_text_head = Instance("b", "bank.n", text, (0, end))
    near_satellite = Instance("c", "call.v", text, (500_000, 500_004), ((500_010, 500_014),))
    for instance in (far_satellite, whole_text_head, near_satellite):
        clipped = clip_context(instance)
        assert len(clipped.text) == MAX_CONTEXT_CHARS
        assert head_text(clipped) and head_text(instance).startswith(head_text(clipped))
    assert clip_context(far_satellite).sats == ()
    kept = clip_context(near_satellite)
    assert [kept.text[start:end] for start, end in kept.sats] == [
        text[start:end] for start, end in near_satellite.sats]


# --- a lexelt with 5,000 senses -----------------------------------------------------------------

SENSES = 5000


@pytest.mark.parametrize("system", ["svm", "dlist"])
def test_dense_systems_refuse_a_lexelt_over_the_limit_before_allocating(system):
    senses = 4000
    features = MAX_DENSE_ENTRIES // senses + 1
    X = [[f"f{index}" for index in range(row, features, senses)] for row in range(senses)]
    with pytest.raises(WsdError, match=f"{senses:,} senses x {features:,} features"):
        make(system).fit(X, [f"s{row}" for row in range(senses)])


@pytest.fixture(scope="module")
def many_senses(tmp_path_factory):
    """A training file whose one lexelt has 5,000 senses (one instance each), a small test set."""
    root = tmp_path_factory.mktemp("senses")
    lexical_sample_file(root / "train.xml", "big.n", [
        (f"big.{n}", f"w{n} <head>big</head> v{n} .", [f"big%1:{n:05d}::"]) for n in range(SENSES)])
    lexical_sample_file(root / "test.xml", "big.n", [
        (f"big.t{n}", f"w{n} <head>big</head> v{n} .", []) for n in range(20)])
    (root / "test.key").write_text("".join(f"big big.t{n} big%1:{n:05d}::\n" for n in range(20)))
    return root


def _train_many_senses(root: Path, tmp_path: Path, systems: str):
    return measured(tmp_path, "train", "--train", root / "train.xml", "--test", root / "test.xml",
                    "--key", root / "test.key", "--systems", systems, "--jobs", "1",
                    "--models-dir", tmp_path / "models", "--out-dir", tmp_path / "results",
                    cache=root / "cache")


def test_5000_senses_stop_the_svm_with_a_message_naming_the_lexelt(many_senses, tmp_path):
    result, peak = _train_many_senses(many_senses, tmp_path, "commonest,svm")
    assert_one_line_error(result, "lexelt big.n: svm: 5,000 senses x", "choose other --systems")
    assert peak < TRAIN_PEAK_MB, f"peak {peak:.0f} MB"
    assert not (tmp_path / "models" / "train").exists()  # nothing half-written
    assert not (tmp_path / "results" / "train").exists()


def test_5000_senses_train_the_other_systems_in_bounded_memory(many_senses, tmp_path):
    result, peak = _train_many_senses(many_senses, tmp_path, "commonest")
    assert result.returncode == 0, result.stderr
    assert len(read_answers(tmp_path / "results" / "train" / "commonest.ans")) == 20
    assert peak < TRAIN_PEAK_MB, f"peak {peak:.0f} MB"


# --- a 100 MB text for bin/tag ------------------------------------------------------------------

PARAGRAPH = ("Our bank raised its rates again. The union called off the strike, and modern art "
             "filled the museum.\n\n")


def _text_file(path: Path, megabytes: int) -> None:
    """``megabytes`` of text: a paragraph with three targets, then blank lines, per megabyte."""
    blank_lines = (" " * 79 + "\n") * ((MEGABYTE - len(PARAGRAPH)) // 80)
    with open(path, "w", encoding="utf-8") as out:
        for _ in range(megabytes):
            out.write(PARAGRAPH + blank_lines)


def test_a_100mb_text_is_tagged_in_bounded_memory(tiny_models, tmp_path):
    models_root, task, _ = tiny_models
    peaks = {}
    for megabytes in (1, 100):
        _text_file(tmp_path / f"{megabytes}.txt", megabytes)
        result, peaks[megabytes] = measured(
            tmp_path, "tag", "--task", task, "--models-dir", models_root, "--format", "jsonl",
            "--output", tmp_path / f"{megabytes}.jsonl", tmp_path / f"{megabytes}.txt")
        assert result.returncode == 0, result.stderr
        targets = [json.loads(line) for line in open(tmp_path / f"{megabytes}.jsonl")]
        assert len(targets) == 3 * megabytes
    assert os.path.getsize(tmp_path / "100.txt") > 99 * MEGABYTE
    # Holding the file would add at least its 100 MB; blocks and reads add next to nothing.
    assert peaks[100] < peaks[1] + 40, peaks
