"""SENSEVAL key files: reading, atomic writing, and the errors malformed files give."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import assert_error_at

from wsd_classic import settings
from wsd_classic.atomic import write_atomically
from wsd_classic.corpora.keys import KeyEntry, read_key, write_key
from wsd_classic.errors import WsdError

SHARED_DATA = Path(os.environ.get(settings.DATA_ENV) or "/work/shared/data")
SENSEVAL2 = SHARED_DATA / "senseval2-ls"
needs_senseval2 = pytest.mark.skipif(not (SENSEVAL2 / "eng-lex-samp.evaluation.key").is_file(),
                                     reason=f"SENSEVAL-2 lexical sample not found in {SENSEVAL2}")


def _file(tmp_path: Path, text: str | bytes, name: str = "test.key") -> Path:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def test_reads_entries_by_instance_in_file_order(tmp_path):
    path = _file(tmp_path, "art art.30003\t P art%1:04:00:: art%1:06:00::\n"
                           "bar.n  bar.1  bar%1:14:00::\r\n"
                           "art art.30001 art%1:06:00::\n")
    key = read_key(path)
    assert list(key) == ["art.30003", "bar.1", "art.30001"]
    assert key["art.30003"] == KeyEntry("art", "art.30003", ("P", "art%1:04:00::", "art%1:06:00::"))
    assert key["bar.1"] == KeyEntry("bar.n", "bar.1", ("bar%1:14:00::",))


def test_repeated_tag_is_kept_once_in_first_position(tmp_path):
    key = read_key(_file(tmp_path, "art art.40246 art%1:06:00:: U art%1:06:00:: U\n"))
    assert key["art.40246"].tags == ("art%1:06:00::", "U")


def test_comments_and_blank_lines_are_skipped(tmp_path):
    key = read_key(_file(tmp_path, "!! the whole line is a comment\n\n"
                                   "art art.1 a b !! c is not a tag\n"))
    assert key["art.1"].tags == ("a", "b")


def test_write_then_read_gives_the_same_entries(tmp_path):
    entries = {"art.1": KeyEntry("art", "art.1", ("P", "art%1:04:00::")),
               "bar.7": KeyEntry("bar.n", "bar.7", ("U",))}
    path = tmp_path / "round.key"
    write_key(path, entries)
    assert read_key(path) == entries
    assert path.read_text() == "art art.1 P art%1:04:00::\nbar.n bar.7 U\n"


def test_write_accepts_any_iterable_of_entries(tmp_path):
    path = tmp_path / "list.key"
    write_key(path, [KeyEntry("art", "art.1", ("a",))])
    assert read_key(path) == {"art.1": KeyEntry("art", "art.1", ("a",))}


def test_write_replaces_the_old_file_and_leaves_no_temporary_file(tmp_path):
    path = _file(tmp_path, "old old.1 x\n", "out.key")
    write_key(path, [KeyEntry("new", "new.1", ("y",))])
    assert path.read_text() == "new new.1 y\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.key"]


def test_failed_write_keeps_the_old_file(tmp_path):
    path = _file(tmp_path, "old old.1 x\n", "out.key")
    with pytest.raises(ValueError, match="one field"):
        write_key(path, [KeyEntry("new", "new.1", ("y",)),
                         KeyEntry("new", "new.2", ("two words",))])
    assert path.read_text() == "old old.1 x\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.key"]


def test_write_into_a_missing_directory_is_a_user_error(tmp_path):
    with pytest.raises(WsdError, match="cannot write"):
        write_key(tmp_path / "missing" / "out.key", [KeyEntry("a", "a.1", ("x",))])


def test_atomic_bytes_are_written_as_given_and_a_failing_source_keeps_the_old_file(tmp_path):
    path = _file(tmp_path, b"old", "figure.png")
    write_atomically(path, [b"\x89PNG\r\n", b"\x00\x1a\n"])
    assert path.read_bytes() == b"\x89PNG\r\n\x00\x1a\n"

    def disk_fills_up():
        yield b"partial"
        raise OSError(28, "No space left on device")

    with pytest.raises(WsdError, match="cannot write the file: No space left") as caught:
        write_atomically(path, disk_fills_up())
    assert caught.value.path == str(path)
    assert path.read_bytes() == b"\x89PNG\r\n\x00\x1a\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["figure.png"]


@pytest.mark.parametrize("text, line, message", [
    ("art art.1 a\nart art.2\n", 2, "expected 'lemma instance tag"),   # truncated line
    ("", 1, "no key lines"),                                             # empty file
    ("!! only a comment\n\n", 2, "no key lines"),
    ("art art.1 a\nart art.1 b\n", 2, "already has a key at line 1"),
    (b"art art.1 a\n\x89PNG\r\n\x1a\n\x00\x00", 4, "not a text file"),  # first NUL byte's line
])
def test_malformed_key_names_file_and_line(tmp_path, text, line, message):
    assert_error_at(read_key, _file(tmp_path, text), line, message)


def test_missing_file_is_a_user_error(tmp_path):
    with pytest.raises(WsdError, match="cannot read the key file") as caught:
        read_key(tmp_path / "absent.key")
    assert caught.value.path == str(tmp_path / "absent.key")


def test_latin1_file_is_read(tmp_path):
    key = read_key(_file(tmp_path, "caf\xe9 caf\xe9.1 x\n".encode("iso-8859-1")))
    assert key["caf\xe9.1"].lexelt == "caf\xe9"


@needs_senseval2
def test_real_evaluation_key():
    key = read_key(SENSEVAL2 / "eng-lex-samp.evaluation.key")
    assert len(key) == 4328
    assert sum(len(entry.tags) > 1 for entry in key.values()) == 406
    assert key["art.30003"] == KeyEntry("art", "art.30003", ("P", "art%1:04:00::", "art%1:06:00::"))


@needs_senseval2
def test_real_training_key():
    key = read_key(SENSEVAL2 / "eng-lex-sample.training.key")
    assert len(key) == 8611
    assert key["art.40001"].tags == ("art%1:06:00::",)
