"""SENSEVAL answer files: reading weights and comments, writing normalised, atomic answers."""
from __future__ import annotations

import pytest
from conftest import assert_error_at

from wsd_classic.answers.senseval import Answer, read_answers, write_answers


def _file(tmp_path, text: str | bytes):
    path = tmp_path / "test.answers"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    return path


def test_reads_senses_with_and_without_weights_in_file_order(tmp_path):
    answers = read_answers(_file(tmp_path, "art.n art.1 a/0.7 b/0.3\n"
                                           "art.n art.2\tU\n"
                                           "art.n art.3 a/1 b\n"))
    assert answers == [
        Answer("art.n", "art.1", (("a", 0.7), ("b", 0.3)), 1),
        Answer("art.n", "art.2", (("U", None),), 2),
        Answer("art.n", "art.3", (("a", 1.0), ("b", None)), 3),
    ]


def test_comments_whole_line_or_trailing_are_skipped(tmp_path):
    answers = read_answers(_file(tmp_path, "!! system X, run 2\n"
                                           "art.n art.1 a/0.5 !! b/0.5 was dropped\n"
                                           "art.n art.2 b!!no space needed\n"))
    assert [(a.senses, a.line) for a in answers] == [((("a", 0.5),), 2), ((("b", None),), 3)]


def test_duplicate_answers_are_kept_for_the_scorer(tmp_path):
    answers = read_answers(_file(tmp_path, "art.n art.1 a\nart.n art.1 b\n"))
    assert [(a.instance, a.line) for a in answers] == [("art.1", 1), ("art.1", 2)]


def test_a_slash_inside_a_wordnet_key_is_not_a_weight(tmp_path):
    answers = read_answers(_file(tmp_path, "x x.1 24/7%1:28:00:: km/h%1:28:00::/0.25\n"))
    assert answers[0].senses == (("24/7%1:28:00::", None), ("km/h%1:28:00::", 0.25))


@pytest.mark.parametrize("text, line, message", [
    ("art.n art.1 a\nart.n art.2 x/abc\n", 2, "bad weight 'abc'"),
    ("art.n art.1 a/-0.5\n", 1, "must be a finite number >= 0"),
    ("art.n art.1 a/nan\n", 1, "must be a finite number >= 0"),
    ("art.n art.1 a/\n", 1, "bad weight ''"),
    ("art.n art.1 /0.5\n", 1, "weight without a sense"),
    ("art.n art.1 a\nart.n art.2\n", 2, "expected 'lexelt instance sense"),   # truncated line
    ("art.n art.1 !! a\n", 1, "expected 'lexelt instance sense"),
    ("", 1, "no answer lines"),
    (b"\x7fELF\x02\x01\x01\x00\x00", 1, "not a text file"),
])
def test_malformed_answers_name_file_and_line(tmp_path, text, line, message):
    assert_error_at(read_answers, _file(tmp_path, text), line, message)


def test_writes_best_first_normalised_to_one(tmp_path):
    path = tmp_path / "out.answers"
    write_answers(path, [("art.n", "art.1", {"b": 1.0, "a": 3.0}),
                         ("art.n", "art.2", [("c", 2.0), ("d", 0.0), ("c", 2.0)])])
    # 3/4 and 1/4; repeated c summed (4.0 of 4.0), d's zero weight dropped.
    assert path.read_text() == "art.n art.1 a/0.7500 b/0.2500\nart.n art.2 c/1.0000\n"


def test_rounding_remainder_goes_where_the_sum_stays_exactly_one(tmp_path):
    path = tmp_path / "out.answers"
    write_answers(path, [("x", "x.1", {"a": 1, "b": 1, "c": 1}),
                         ("x", "x.2", {"a": 2, "b": 1, "c": 1e-9})])
    # Thirds: 3333 units each, the spare unit to the first (ties keep the given order).
    # 2/3 and 1/3 -> 6667 + 3333; c's share rounds to 0 units and is dropped.
    assert path.read_text() == "x x.1 a/0.3334 b/0.3333 c/0.3333\nx x.2 a/0.6667 b/0.3333\n"


def test_many_small_weights_still_sum_to_one(tmp_path):
    path = tmp_path / "out.answers"
    write_answers(path, [("x", "x.1", {f"s{i}": 1.0 for i in range(300)})])
    units = [round(weight * 10_000) for _, weight in read_answers(path)[0].senses]
    assert sum(units) == 10_000 and min(units) > 0


def test_top_only_writes_the_best_sense_without_weight(tmp_path):
    path = tmp_path / "out.answers"
    write_answers(path, [("art.n", "art.1", {"b": 0.2, "a": 0.8}),
                         ("art.n", "art.2", [("c", 0.5), ("d", 0.5)])], top_only=True)
    assert path.read_text() == "art.n art.1 a\nart.n art.2 c\n"


def test_written_answers_read_back(tmp_path):
    path = tmp_path / "out.answers"
    write_answers(path, [("art.n", "art.1", {"art%1:04:00::": 0.5, "24/7%1:28:00::": 1.5})])
    assert read_answers(path) == [
        Answer("art.n", "art.1", (("24/7%1:28:00::", 0.75), ("art%1:04:00::", 0.25)), 1)]


@pytest.mark.parametrize("senses, message", [
    ({"a": -1.0}, "must be finite and >= 0"),
    ({"a": float("inf")}, "must be finite and >= 0"),
    ({"a": 0.0}, "no sense with a positive weight"),
    ({}, "no sense with a positive weight"),
    ({"two words": 1.0}, "one field"),
])
def test_invalid_rows_write_nothing_and_keep_the_old_file(tmp_path, senses, message):
    path = tmp_path / "out.answers"
    path.write_text("x x.0 old\n")
    with pytest.raises(ValueError, match=message):
        write_answers(path, [("x", "x.1", {"a": 1.0}), ("x", "x.2", senses)])
    assert path.read_text() == "x x.0 old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.answers"]


def test_a_slash_in_a_sense_survives_only_where_a_weight_follows(tmp_path):
    path = tmp_path / "out.answers"
    write_answers(path, [("x", "x.1", {"a/b": 1.0})])
    assert read_answers(path)[0].senses == (("a/b", 1.0),)
    # Written bare, "a/b" would read back as sense "a" with the malformed weight "b".
    with pytest.raises(ValueError, match="would read as a weight"):
        write_answers(path, [("x", "x.1", {"a/b": 1.0})], top_only=True)
