"""SENSEVAL lexical-sample reader and the SGML entity table, on fixtures and the real files."""
from __future__ import annotations

import re
import time
import unicodedata

import pytest
from conftest import FIXTURES, assert_error_at, head_text, shared_data
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wsd_classic.corpora.entities import ENTITIES, XML_PREDEFINED
from wsd_classic.corpora.lexsample import read_lexical_sample
from wsd_classic.corpora.model import LexicalSample
from wsd_classic.errors import WsdError

SENSEVAL2 = shared_data() / "senseval2-ls"
needs_senseval2 = pytest.mark.skipif(
    not SENSEVAL2.is_dir(), reason=f"SENSEVAL-2 data not found at {SENSEVAL2} (set WSD_CLASSIC_DATA)")


# --- the entity table -------------------------------------------------------------------------

@needs_senseval2
def test_every_entity_the_dtd_declares_is_mapped():
    dtd = (SENSEVAL2 / "lexical-sample.dtd").read_text(encoding="iso-8859-1")
    declared = re.findall(r"<!ENTITY\s+(\w+)", re.sub(r"<!--.*?-->", "", dtd, flags=re.S))
    assert len(declared) == 235  # the 236th <!ENTITY is commented out in the DTD
    assert sorted(set(declared) - ENTITIES.keys()) == []


@pytest.mark.parametrize("name, character", [
    ("bquo", "\u201c"), ("equo", "\u201d"), ("mdash", "\u2014"), ("pound", "\u00a3"),
    ("eacute", "\u00e9"), ("Scaron", "\u0160"), ("hellip", "\u2026"), ("frac12", "\u00bd"),
    ("rehy", "-"), ("ins", "\u2033"), ("ft", "\u2032"), ("formula", "[formula]"),
    ("agr", "\u03b1"), ("OHgr", "\u03a9"), ("khgr", "\u03c7"), ("eegr", "\u03b7"),
    ("flat", "\u266d"), ("sharp", "\u266f"), ("natur", "\u266e"),
    ("amp", "&"), ("lt", "<"), ("quot", '"'),
])
def test_entity_characters(name, character):
    assert ENTITIES[name] == character


def test_greek_entities_are_greek_letters_of_the_named_case():
    greek = {name: value for name, value in ENTITIES.items() if name.endswith("gr")}
    assert len(greek) == 38
    for name, letter in greek.items():
        letter_name = unicodedata.name(letter)
        assert letter_name.startswith("GREEK"), name
        assert ("CAPITAL" in letter_name) == name[0].isupper(), name


def test_no_substituted_entity_can_create_markup_or_end_an_attribute():
    for name, value in ENTITIES.items():
        if name not in XML_PREDEFINED:
            assert value and not set(value) & set("<>&\"'\n"), name


# --- fixtures ---------------------------------------------------------------------------------

def test_training_fixture_structure():
    sample = read_lexical_sample(FIXTURES / "lexsample_training.xml")
    assert [lexelt.item for lexelt in sample.lexelts] == ["art.n", "draw.v"]
    assert [instance.id for instance in sample.instances()] == [
        "art.f01", "art.f02", "art.f03", "art.f04", "draw.f05", "draw.f06"]
    assert sample.lexelt("draw.v").instances[0].lexelt == "draw.v"
    assert sample.source.endswith("lexsample_training.xml")


def test_training_fixture_answers_and_docsrc():
    instances = {i.id: i for i in read_lexical_sample(FIXTURES / "lexsample_training.xml").instances()}
    assert instances["art.f02"].answers == ("art_gallery%1:06:00::", "P")
    assert instances["art.f03"].answers == ("U",)
    assert instances["art.f04"].answers == ("art%1:04:00::", "art%1:09:00::")
    assert instances["art.f01"].docsrc == "fixture_doc_1"
    assert instances["draw.f06"].docsrc is None


def test_context_text_decodes_entities_and_restores_spaces_after_the_head():
    instances = {i.id: i for i in read_lexical_sample(FIXTURES / "lexsample_training.xml").instances()}
    assert instances["art.f01"].text == (
        "\u201cWe hung the prints before noon.\u201d\n"
        " Jo Reed   Lark Press opens at nine on Sundays.     \n"
        "Art you can carry home \u2014 from Lark")
    assert instances["art.f02"].text == (
        "Entry costs \u00a33 at the caf\u00e9 & shop.\n"
        "Wait by the art gallery near the bus stop.")
    assert instances["art.f03"].text == "She called it an \u201cArt\u201d in itself."
    assert instances["art.f04"].text == "The art's quiet rules (p. 42)."
    assert instances["draw.f06"].text == "The ropes were drawn into the hut (4\u2033 \u00d7 2\u2033)."


def test_head_and_satellite_spans():
    instances = {i.id: i for i in read_lexical_sample(FIXTURES / "lexsample_training.xml").instances()}
    art = instances["art.f02"]
    assert art.head == (47, 50) and head_text(art) == "art"
    assert art.sats == ()
    draw = instances["draw.f05"]
    assert draw.text == "She firmly draws the line at rudeness ."
    assert draw.head == (11, 16)
    assert draw.sats == ((17, 20), (21, 25))
    drawn_in = instances["draw.f06"]
    assert head_text(drawn_in) == "drawn"
    assert [drawn_in.text[start:end] for start, end in drawn_in.sats] == ["in"]
    assert drawn_in.sats == ((21, 23),)


def test_test_fixture_has_no_answers_and_a_space_before_a_glued_bracket():
    sample = read_lexical_sample(FIXTURES / "lexsample_test.xml")
    assert len(sample) == 2
    assert all(instance.answers == () for instance in sample.instances())
    free = sample.lexelt("free.a").instances[0]
    assert free.text == "Maps are handed out free (ask at the desk) from the caf\u00e9."
    assert head_text(free) == "free"


def test_wf_variant_joins_tokens_with_single_spaces():
    sample = read_lexical_sample(FIXTURES / "lexsample_wf.xml")
    (instance,) = sample.instances()
    assert instance.text == "`` he may lose it , but that 's hard to do . ''"
    assert instance.head == (32, 36) and head_text(instance) == "hard"
    assert instance.answers == ("HARD1",)
    assert (sample.lexelts[0].lemma, sample.lexelts[0].pos) == ("hard", "a")  # NLTK's "-a"


# --- encodings --------------------------------------------------------------------------------

def _corpus(context: str, declaration: str = '<?xml version="1.0" encoding="utf-8"?>') -> str:
    return (f'{declaration}\n<corpus lang="en">\n<lexelt item="x.n">\n<instance id="x.1">\n'
            f"<context>\n{context}\n</context>\n</instance>\n</lexelt>\n</corpus>\n")


def test_the_declared_latin1_encoding_is_honoured(tmp_path):
    path = tmp_path / "latin1.xml"
    xml = _corpus("Un <head>caf\u00e9</head> cr\u00e8me", '<?xml version="1.0" encoding="ISO-8859-1"?>')
    path.write_bytes(xml.encode("iso-8859-1"))
    (instance,) = read_lexical_sample(path).instances()
    assert instance.text == "Un caf\u00e9 cr\u00e8me"
    assert head_text(instance) == "caf\u00e9"


def test_utf8_is_the_default_without_a_declaration(tmp_path):
    path = tmp_path / "utf8.xml"
    path.write_bytes(_corpus("\u00a3 <head>\u03b1</head>", declaration="").encode("utf-8"))
    (instance,) = read_lexical_sample(path).instances()
    assert instance.text == "\u00a3 \u03b1"


# --- malformed input --------------------------------------------------------------------------

# Each case: the file's bytes, the line the error must name, a fragment of its message.
# Bad <context> content goes on line 6 of an otherwise valid file.
MALFORMED = [(_corpus(context).encode(), line, fragment) for context, line, fragment in [
    ("a <head>b</head> &nosuch; c", 6, "unknown entity &nosuch;"),
    ("a <head>b</head> c &amp d", 6, "malformed XML"),
    ("a <head>b</head>\nc <head>d</head>", 7, "second <head>"),
    ("a b c", 7, "has no <head>"),
    ("a <head> </head> c", 6, "empty <head>"),
    ("a <head>b</head> <sat>c</sat>", 6, "lacks the required attribute 'id'"),
    ('a <head sats="s1">b</head> c', 7, "names satellite 's1'"),
    ('a <head>b</head> <sat id="s1">c</sat>', 7, "is not named by its <head"),
    ('a <head sats="s1 s1">b</head> <sat id="s1">c</sat> <sat id="s1">d</sat>', 6, "second <sat"),
    ("a <head>b</head> <foo>c</foo>", 6, "unexpected <foo> inside <context>"),
    ("a <head><wf pos='X'><wf pos='Y'>b</wf></wf></head>", 6, "unexpected <wf> inside <wf>"),
    ("<wf pos='X'>a</wf> <wf pos='X'> </wf> <head><wf pos='Y'>b</wf></head>", 6, "empty <wf>"),
]] + [
    (b'<corpus>\n<lexelt>\n', 2, "<lexelt> lacks the required attribute 'item'"),
    (b'<corpus>\n<lexelt item="a.n">\n<instance docsrc="x">\n', 3, "attribute 'id'"),
    (b'<corpus>\n<lexelt item="a.n">\n<instance id="a.1">\n<answer instance="a.1"/>\n', 4,
     "attribute 'senseid'"),
    (b'<corpus>\n<lexelt item="a.n">\n<instance id="a.1">\n<answer instance="a.2" senseid="s"/>\n',
     4, "<answer instance='a.2'> inside instance 'a.1'"),
    (b'<corpus>\n<lexelt item="a.n">\n<instance id="a.1">\n</instance>\n', 4, "has no <context>"),
    (b'<corpus>\n<lexelt item="a.n">\n<instance id="a.1"><context><head>a</head></context>'
     b'</instance>\n<instance id="a.1">\n', 4, "second instance with id 'a.1'"),
    (b'<corpus>\n<lexelt item="a.n">\n</lexelt>\n<lexelt item="a.n">\n', 4, "second <lexelt"),
    (b'<corpus>\n<lexelt item="a.n">\n\n  stray words\n\n<instance id="a.1">\n', 4,
     "text outside <context>"),
    (b'<senseval>\n', 1, "unexpected <senseval> as the root element"),
    (b'<corpus>\n<lexelt item="a.n">\n<instance id="a.1">\n<context>\n', 5, "malformed XML"),
    (b'<corpus lang="en">\n</corpus>\n', None, "no <lexelt>"),
    (b'<?xml version="1.0" encoding="klingon"?>\n<corpus/>\n', 1, "unknown encoding 'klingon'"),
    (b"", None, "empty file"),
    (b"  \n\n", None, "empty file"),
    (b"<corpus>\n\x00\x01\x02\xff", 2, "binary file"),
    (b"<corpus>\n<lexelt item='caf\xe9'>", 2, "not utf-8"),
]


@pytest.mark.parametrize("data, line, fragment", MALFORMED)
def test_malformed_input_is_reported_with_its_line(tmp_path, data, line, fragment):
    path = tmp_path / "bad.xml"
    path.write_bytes(data)
    assert_error_at(read_lexical_sample, path, line, fragment)


def test_missing_file_is_a_wsd_error(tmp_path):
    with pytest.raises(WsdError, match="cannot read"):
        read_lexical_sample(tmp_path / "absent.xml")


FIXTURE_FILES = [(FIXTURES / name).read_bytes() for name in ("lexsample_training.xml", "lexsample_wf.xml")]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(original=st.sampled_from(FIXTURE_FILES), position=st.integers(0, 2000),
       length=st.integers(0, 40), insert=st.binary(max_size=8))
def test_any_corruption_gives_a_corpus_or_a_wsd_error(tmp_path, original, position, length, insert):
    path = tmp_path / "corrupt.xml"
    path.write_bytes(original[:position] + insert + original[position + length:])
    try:
        assert isinstance(read_lexical_sample(path), LexicalSample)
    except WsdError as error:
        assert error.path == str(path)


# --- the real SENSEVAL-2 files ----------------------------------------------------------------

@pytest.fixture(scope="module")
def training() -> LexicalSample:
    return read_lexical_sample(SENSEVAL2 / "eng-lex-sample.training.xml")


@pytest.fixture(scope="module")
def test_data() -> LexicalSample:
    return read_lexical_sample(SENSEVAL2 / "eng-lex-samp.evaluation.xml")


@needs_senseval2
def test_real_training_counts(training):
    assert len(training.lexelts) == 73
    assert len(training) == 8611
    assert sum(len(instance.answers) for instance in training.instances()) == 9430
    assert sum(1 for instance in training.instances() if instance.sats) == 344


@needs_senseval2
def test_real_test_counts(test_data):
    assert len(test_data.lexelts) == 73
    assert len(test_data) == 4328
    assert all(instance.answers == () for instance in test_data.instances())
    assert sum(1 for instance in test_data.instances() if instance.sats) == 177


@needs_senseval2
@pytest.mark.parametrize("sample_name", ["training", "test_data"])
def test_real_heads_and_satellites_point_at_words(request, sample_name):
    for instance in request.getfixturevalue(sample_name).instances():
        start, end = instance.head
        assert head_text(instance).strip() == head_text(instance) != "", instance.id
        # The head is a whole word: no letter or digit glued to either side.
        assert start == 0 or not instance.text[start - 1].isalnum(), instance.id
        assert end == len(instance.text) or not instance.text[end].isalnum(), instance.id
        for sat_start, sat_end in instance.sats:
            assert instance.text[sat_start:sat_end].strip() != "", instance.id
        # Entities are all decoded, except where the source escaped one twice (&amp;sharp;).
        leftovers = set(re.findall(r"&\w+;", instance.text))
        assert leftovers <= {"&sharp;"} and (not leftovers or instance.lexelt == "bar.n"), instance.id


@needs_senseval2
def test_real_instance_known_from_the_source(training):
    gallery = training.lexelt("art.n").instances[1]
    assert gallery.id == "art.40002" and gallery.docsrc == "bnc_A70_2636"
    assert gallery.answers == ("art_gallery%1:06:00::",)
    assert gallery.text[gallery.head[0]:gallery.head[0] + 11] == "art gallery"


@needs_senseval2
def test_real_training_file_parses_in_a_few_seconds():
    started = time.perf_counter()
    read_lexical_sample(SENSEVAL2 / "eng-lex-sample.training.xml")
    assert time.perf_counter() - started < 5
