"""Raganato all-words data and key files, on fixtures and the three real datasets."""
from __future__ import annotations

import pytest
from conftest import FIXTURES, assert_error_at, shared_data
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wsd_classic.corpora.raganato import (
    RaganatoToken, iter_raganato, read_raganato_key, write_raganato_key)
from wsd_classic.errors import WsdError

RAGANATO = shared_data() / "raganato"
needs_raganato = pytest.mark.skipif(
    not RAGANATO.is_dir(), reason=f"Raganato datasets not found at {RAGANATO} (set WSD_CLASSIC_DATA)")


# --- data files -------------------------------------------------------------------------------

def test_fixture_sentences_and_documents():
    sentences = list(iter_raganato(FIXTURES / "raganato_sample.data.xml"))
    assert [(s.document_id, s.id) for s in sentences] == [
        ("d000", "d000.s000"), ("d000", "d000.s001"), ("d001", "d001.s000")]
    assert [len(s.tokens) for s in sentences] == [7, 5, 2]


def test_fixture_tokens():
    first, second, _ = iter_raganato(FIXTURES / "raganato_sample.data.xml")
    assert first.tokens[:4] == (
        RaganatoToken("A", "a", "DET"),
        RaganatoToken("hobby", "hobby", "NOUN", "d000.s000.t000", line=6),
        RaganatoToken("like", "like", "ADP"),
        RaganatoToken("bell ringing", "bell_ringing", "NOUN", "d000.s000.t001", line=8))
    assert [token.text for token in second.tokens] == ["That", "'s", "caf\u00e9", "&", "quickly"]
    assert second.tokens[1].lemma == "'"
    assert [token.instance_id for token in second.instances] == ["d000.s001.t000", "d000.s001.t001"]


def test_sentences_are_yielded_before_the_rest_of_the_file_is_read(tmp_path):
    sentence = ('<sentence id="d.s{0}"><wf lemma="a" pos="DET">a</wf>'
                '<instance id="d.s{0}.t0" lemma="b" pos="NOUN">b</instance></sentence>\n')
    path = tmp_path / "long.data.xml"
    # Far more than one read block, and broken at the very end.
    path.write_text('<corpus lang="en">\n<text id="d">\n'
                    + "".join(sentence.format(n) for n in range(5000)) + "</text>\n<oops>\n")
    sentences = iter_raganato(path)
    assert next(sentences).id == "d.s0"
    with pytest.raises(WsdError) as raised:
        list(sentences)
    assert raised.value.line == 5004


def _data(body: str) -> str:
    return f'<?xml version="1.0" encoding="UTF-8" ?>\n<corpus lang="en">\n<text id="d0">\n{body}\n</text>\n</corpus>\n'


# Each case: the file's bytes, the line the error must name, a fragment of its message.
MALFORMED_DATA = [(_data(body).encode(), line, fragment) for body, line, fragment in [
    ('<sentence id="s0">\n<wf lemma="a">a</wf>\n</sentence>', 5, "<wf> lacks the required attribute 'pos'"),
    ('<sentence id="s0">\n<instance lemma="a" pos="X">a</instance>\n</sentence>', 5,
     "<instance> lacks the required attribute 'id'"),
    ('<sentence>\n</sentence>', 4, "<sentence> lacks the required attribute 'id'"),
    ('<sentence id="s0">\n<wf lemma="a" pos="X"> </wf>\n</sentence>', 5, "empty <wf>"),
    ('<sentence id="s0">\n<instance id="i" lemma="a" pos="X">a</instance>\n'
     '<instance id="i" lemma="a" pos="X">a</instance>\n</sentence>', 6, "second instance with id 'i'"),
    ('<sentence id="s0">\n<wf lemma="a" pos="X">a</wf>\n</sentence>\n<wf lemma="a" pos="X">a</wf>',
     7, "unexpected <wf> inside <text>"),
    ('<sentence id="s0">\nloose words\n<wf lemma="a" pos="X">a</wf>\n</sentence>', 5,
     "text outside <wf> and <instance>"),
    ('<sentence id="s0">\n<wf lemma="a" pos="X">a</wf>\n', 7, "malformed XML: mismatched tag"),
]] + [
    (b"", 1, "malformed XML: no element found"),
    (b"\x00\x01\x02binary", 1, "malformed XML"),
    (b"<text id='d0'/>", 1, "unexpected <text> as the root element"),
    (b'<?xml version="1.0" encoding="UTF-9"?>\n<corpus/>', 1, "encoding of the XML declaration"),
    (b'<?xml version="1.0" encoding="shift_jis"?>\n<corpus/>', 1, "encoding of the XML declaration"),
]


@pytest.mark.parametrize("data, line, fragment", MALFORMED_DATA)
def test_malformed_data_is_reported_with_its_line(tmp_path, data, line, fragment):
    path = tmp_path / "bad.data.xml"
    path.write_bytes(data)
    assert_error_at(lambda data_file: list(iter_raganato(data_file)), path, line, fragment)


def test_missing_data_file(tmp_path):
    with pytest.raises(WsdError, match="cannot read"):
        list(iter_raganato(tmp_path / "absent.data.xml"))


FIXTURE_BYTES = (FIXTURES / "raganato_sample.data.xml").read_bytes()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(position=st.integers(0, len(FIXTURE_BYTES)), length=st.integers(0, 40),
       insert=st.binary(max_size=8))
def test_any_corruption_gives_sentences_or_a_wsd_error(tmp_path, position, length, insert):
    path = tmp_path / "corrupt.data.xml"
    path.write_bytes(FIXTURE_BYTES[:position] + insert + FIXTURE_BYTES[position + length:])
    try:
        list(iter_raganato(path))
    except WsdError as error:
        assert error.path == str(path)


# --- key files --------------------------------------------------------------------------------

def test_fixture_key():
    keys = read_raganato_key(FIXTURES / "raganato_sample.gold.key.txt")
    assert len(keys) == 6
    assert keys["d000.s000.t000"] == ("hobby%1:04:00::",)
    assert keys["d000.s000.t002"] == ("odd%5:00:00:strange:00", "odd%5:00:00:unusual:00")


def test_key_fields_may_be_separated_by_any_whitespace(tmp_path):
    path = tmp_path / "mixed.key.txt"
    path.write_text("a.1\tk%1:00:00::  k%2:00:00::\r\n\n   \nb.1 k%3:00:00::", encoding="utf-8")
    assert read_raganato_key(path) == {"a.1": ("k%1:00:00::", "k%2:00:00::"),
                                       "b.1": ("k%3:00:00::",)}


@pytest.mark.parametrize("content, line, fragment", [
    (b"a.1 k%1:00:00::\nb.1\n", 2, "instance 'b.1' has no sense key"),
    (b"a.1 k%1:00:00::\n\na.1 k%2:00:00::\n", 3, "listed a second time"),
    (b"a.1 k%1:00:00::\n\x00\x00", 2, "not a text file"),
    (b"\n  \n", 2, "no gold key lines"),
])
def test_malformed_key_is_reported_with_its_line(tmp_path, content, line, fragment):
    path = tmp_path / "bad.key.txt"
    path.write_bytes(content)
    assert_error_at(read_raganato_key, path, line, fragment)


def test_written_key_reads_back(tmp_path):
    path = tmp_path / "out.key.txt"
    keys = {"d0.s0.t0": ("art%1:09:00::",), "d0.s0.t1": ("a%1:00:00::", "b%2:00:00::")}
    write_raganato_key(path, keys)
    assert path.read_text(encoding="utf-8") == (
        "d0.s0.t0 art%1:09:00::\nd0.s0.t1 a%1:00:00:: b%2:00:00::\n")
    write_raganato_key(path, [("x.1", ["k%1:00:00::"])])
    assert read_raganato_key(path) == {"x.1": ("k%1:00:00::",)}
    assert [p.name for p in tmp_path.iterdir()] == ["out.key.txt"]


@pytest.mark.parametrize("items", [
    {"a b": ("k%1:00:00::",)}, {"a": ("k%1:00:00:: x",)}, {"a": ()}, {"": ("k",)},
])
def test_an_unwritable_key_leaves_the_old_file_untouched(tmp_path, items):
    path = tmp_path / "out.key.txt"
    path.write_text("old 1\n")
    with pytest.raises(ValueError):
        write_raganato_key(path, items)
    assert path.read_text() == "old 1\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.key.txt"]


def test_writing_into_a_missing_directory_is_a_wsd_error(tmp_path):
    with pytest.raises(WsdError, match="cannot write"):
        write_raganato_key(tmp_path / "absent" / "out.key.txt", {"a": ("k",)})


# --- the real datasets ------------------------------------------------------------------------

@needs_raganato
@pytest.mark.parametrize("name, instances", [
    ("senseval2", 2282), ("senseval3", 1850), ("semeval2007", 455)])
def test_real_dataset_instances_all_have_gold_keys(name, instances):
    sentences = list(iter_raganato(RAGANATO / name / f"{name}.data.xml"))
    keys = read_raganato_key(RAGANATO / name / f"{name}.gold.key.txt")
    instance_ids = [token.instance_id for sentence in sentences for token in sentence.instances]
    assert len(instance_ids) == instances
    assert set(instance_ids) == set(keys)
    assert all(instance_id.startswith(sentence.id + ".")
               for sentence in sentences for instance_id in
               (token.instance_id for token in sentence.instances))
    assert all(key.count("%") == 1 for senses in keys.values() for key in senses)
