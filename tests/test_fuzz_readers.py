"""Hypothesis fuzzing of every reader: any input ends in a parse or a ``WsdError``, never a hang,
and a reader both parses and refuses its share of the fuzzed inputs.

Each reader (lexical-sample XML, keys, sensemaps, answer files, Raganato data and keys, SemCor tag
files, plain text for ``bin/tag``) gets three kinds of input:

* **mutated** real-format seeds (the fixtures): bit flips, byte changes, truncation, deleted and
  duplicated ranges, and insertions of random bytes or of the format's hostile tokens (entities,
  markup, NUL bytes, invalid UTF-8, BOMs, encoding declarations, huge numbers);
* **soup**: random sequences of the format's own tokens, which reach deeper than mutations of a
  seed;
* **valid** files built from random parts, which must parse and give back what was put in.

Every input runs under an alarm (``HANG_SECONDS``), so a quadratic regex or an endless loop fails
the test instead of stalling CI. Examples are derandomized (the same on every run) and bounded
by ``max_examples``; ``WSD_CLASSIC_FUZZ_SCALE`` multiplies the counts for a longer local hunt,
and ``WSD_CLASSIC_FUZZ_COUNTS`` names a JSON file the per-reader counts are written to
(``bench/reliability.py`` uses it). Inputs that once failed are kept in ``fuzz_regressions/``
(``<reader>/<name>``, gzip'd when the name ends in ``.gz``) and replayed on every run.
"""
from __future__ import annotations

import contextlib
import gzip
import json
import os
import signal
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pytest
from conftest import FIXTURES, head_text, write_report_lines
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wsd_classic.answers.senseval import read_answers
from wsd_classic.corpora.entities import ENTITIES, XML_PREDEFINED
from wsd_classic.corpora.keys import read_key
from wsd_classic.corpora.lexsample import read_lexical_sample
from wsd_classic.corpora.raganato import iter_raganato, read_raganato_key
from wsd_classic.corpora.semcor import read_semcor_file
from wsd_classic.corpora.sensemap import read_sensemap
from wsd_classic.errors import WsdError
from wsd_classic.tasks.text_input import read_blocks
from wsd_classic.errors import MAX_MESSAGE_CHARS

# An XML declaration may name Python's unicode_escape codec, which warns of backslash sequences
# it does not know while it decodes; the readers still parse or refuse such a file.
pytestmark = pytest.mark.filterwarnings("ignore:invalid escape sequence:DeprecationWarning")

REGRESSIONS = Path(__file__).resolve().parent / "fuzz_regressions"
HANG_SECONDS = 10
# An error is one line a person reads: it may quote the input, but not a megabyte of it
# (the cut-off marker "[... N characters ...]" may come on top of the limit).
MAX_ERROR_CHARS = MAX_MESSAGE_CHARS + 40
SCALE = float(os.environ.get("WSD_CLASSIC_FUZZ_SCALE", "1"))
# Per reader: mutated seeds, token soup, valid generated files.
EXAMPLES = {"mutated": int(1500 * SCALE), "soup": int(400 * SCALE), "valid": int(300 * SCALE)}
# Small blocks, so that the text reader's cutting runs on every input, not only on huge ones.
TEXT_BLOCK_CHARS = 64

# Tried inputs per reader and how each ended ("parsed" or "refused").
OUTCOMES: dict[str, Counter] = defaultdict(Counter)


class Hang(Exception):
    """Raised by the alarm: a failure Hypothesis reports with its input (readers catch only
    narrower exceptions, so none swallows it)."""


@contextlib.contextmanager
def hang_guard(seconds: float = HANG_SECONDS):
    def alarm(signum, frame):
        raise Hang(f"no answer within {seconds} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# --- the readers and what a parse must satisfy --------------------------------------------------

def _lexical_sample(path: Path):
    sample = read_lexical_sample(path)
    for instance in sample.instances():
        for start, end in (instance.head, *instance.sats):
            span = instance.text[start:end]
            # preprocess relies on this: the span is a non-empty, trimmed piece of the text
            assert 0 <= start < end <= len(instance.text) and span.strip() == span, instance
    return sample


def _keys(path: Path):
    key = read_key(path)
    assert all(entry.tags and len(set(entry.tags)) == len(entry.tags) for entry in key.values())
    return key


def _answers(path: Path):
    answers = read_answers(path)
    for answer in answers:
        assert answer.senses and all(sense for sense, _ in answer.senses)
        assert all(weight is None or weight >= 0 for _, weight in answer.senses)
    return answers


def _sensemap(path: Path):
    sensemap = read_sensemap(path)
    assert all(count > 0 for chain in sensemap.chains.values() for count, _ in chain)
    return sensemap


def _raganato(path: Path):
    sentences = list(iter_raganato(path))
    assert all(token.text and token.text == token.text.strip()
               for sentence in sentences for token in sentence.tokens)
    return sentences


def _semcor(path: Path):
    sentences = read_semcor_file(path, "brown1")
    assert all(token.text for sentence in sentences for token in sentence.tokens)
    return sentences


def _text(path: Path):
    """The blocks ``bin/tag`` reads; valid UTF-8 must come back as contiguous slices."""
    blocks = list(read_blocks(str(path), max_chars=TEXT_BLOCK_CHARS))
    whole = path.read_bytes().decode("utf-8").removeprefix("\ufeff")
    line, counted_to = 1, 0
    for block in blocks:
        assert 0 < len(block.text) <= TEXT_BLOCK_CHARS and block.text.strip()
        assert whole[block.offset:block.offset + len(block.text)] == block.text
        line, counted_to = line + whole.count("\n", counted_to, block.offset), block.offset
        assert block.line == line
    covered = "".join(block.text for block in blocks)
    assert "".join(covered.split()) == "".join(whole.split())  # only blank text is skipped
    return blocks


@dataclass
class Reader:
    read: Callable[[Path], object]
    seeds: list[bytes]
    tokens: list[bytes]  # the format's own pieces, for insertions and soup


def _fixture(*names: str) -> list[bytes]:
    return [(FIXTURES / name).read_bytes() for name in names]


# Hostile pieces for any format: control and NUL bytes, invalid UTF-8 (lone continuation, a
# truncated sequence, an encoded surrogate, an overlong form), BOMs, odd line breaks, huge and
# special numbers.
COMMON_TOKENS = [
    b"\x00", b"\x01", b"\x7f", b"\xff", b"\x80", b"\xc3", b"\xe2\x82", b"\xed\xa0\x80", b"\xc0\xaf",
    b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff", b"\r", b"\r\n", b"\n", b"\n\n", b"\x0c", b"\x0b",
    b"\xe2\x80\xa8", b"\xc2\x85", b"\t", b" ", b"9" * 5000, b"1" + b"0" * 400, b"1e999", b"-1",
    b"0", b"nan", b"inf", b"-0.0", b"\xd9\xa3", b"\xef\xbc\x91",
]
XML_TOKENS = [
    b"<", b">", b"</", b"/>", b"&", b";", b"=", b'"', b"'", b"&amp;", b"&lt;", b"&bquo;",
    b"&nosuch;", b"&#0;", b"&#x110000;", b"&#xD800;", b"&#65;", b"&#x" + b"f" * 300 + b";",
    b"<![CDATA[x]]>", b"<![CDATA[", b"<!-- c -->", b"<!--", b"<?pi x?>",
    b'<!DOCTYPE corpus [<!ENTITY e "<head>x</head>">]>', b'<!DOCTYPE corpus SYSTEM "x.dtd">',
    b'<!DOCTYPE r [<!ENTITY % p "x"> %p;]>', b'<?xml version="1.0"?>',
    b'<?xml version="1.0" encoding="undefined"?>', b'<?xml version="1.0" encoding="punycode"?>',
    b'<?xml version="1.0" encoding="utf-16"?>', b'<?xml version="1.0" encoding="idna"?>',
    b'<?xml version="1.0" encoding="unicode_escape"?>', b'<?xml version="1.0" encoding="rot13"?>',
    b'<?xml version="1.0" encoding="klingon"?>', b'<?xml version="1.0" encoding="cp037"?>',
]
LEXSAMPLE_TOKENS = XML_TOKENS + [
    b"<corpus lang='en'>", b"</corpus>", b'<lexelt item="a.n">', b"<lexelt>", b"</lexelt>",
    b'<instance id="a.1">', b'<instance id="a.2" docsrc="d">', b"</instance>",
    b'<answer instance="a.1" senseid="s"/>', b'<answer instance="a.9" senseid="t"/>',
    b"<context>", b"</context>", b"<head>", b"</head>", b'<head sats="s1">', b'<head sats="s1 s1">',
    b'<sat id="s1">', b"<sat>", b"</sat>", b'<wf pos="NN">', b"<wf>", b"</wf>", b'<s snum="1"/>',
    b"<s>", b"</s>", b"word", b"(", b")", b"-", b"'s", b"\xc3\xa9", b"&eacute;", b"&mdash;",
    b"&ins;", b"&frac47;",
]
RAGANATO_TOKENS = XML_TOKENS + [
    b'<corpus lang="en">', b"</corpus>", b'<text id="d0">', b"<text>", b"</text>",
    b'<sentence id="d0.s0">', b"<sentence>", b"</sentence>", b'<wf lemma="a" pos="NOUN">',
    b'<wf lemma="a">', b"</wf>", b'<instance id="d0.s0.t0" lemma="a" pos="NOUN">',
    b'<instance id="d0.s0.t0">', b"</instance>", b"word", b"caf\xc3\xa9",
]
SEMCOR_TOKENS = [
    b"<", b">", b"</", b"&", b"=", b'"', b"'", b"<contextfile concordance=brown>",
    b"</contextfile>", b"<context filename=br-z11 paras=yes>", b"<context>", b"</context>",
    b"<p pnum=1>", b"</p>", b"<s snum=1>", b"<s>", b"</s>",
    b"<wf cmd=done pos=NN lemma=jury wnsn=1 lexsn=1:14:00::>", b"<wf cmd=done pos=NN>",
    b"<wf cmd=done pos=JJ lemma=several wnsn=1;2 lexsn=5:00:00:some(a):00>",
    b"<wf cmd=done pos=NN lemma=x wnsn=" + b"9" * 5000 + b" lexsn=1:01:00::>",
    b"<wf cmd=done pos=NN lemma=x wnsn=1;2 lexsn=1:01:00::>", b"<wf cmd=done pos=NN lexsn=1>",
    b"<wf cmd=done pos=NN lemma=x wnsn=x lexsn=;>", b"<wf pos=NN>", b"<wf>", b"</wf>", b"<punc>",
    b"</punc>", b"<wf cmd=tag pos=NN ot=notag>", b"</wf x=1>", b"<wf a>", b"<wf =b>", b"word",
    b"took_place",
]
LINE_TOKENS = [b" ", b"\t", b"  ", b"!!", b"!! comment", b"!", b"%", b"/", b"/0.5", b"/1e999",
               b"/nan", b"/-1", b"/x", b"/", b"art", b"art.n", b"art.40001", b"art%1:06:00::",
               b"24/7%1:28:00::", b"24/7%1:28:00::/0.5", b"U", b"P", b"d000.s000.t000", b"2",
               b"0", b"00", b"-2", b"bank%1:14:00::", b"caf\xe9", b"caf\xc3\xa9"]
TEXT_TOKENS = [b"word", b"The", b" ", b"  ", b"\n", b"\n\n", b"\n \n", b"\r\n\r\n", b".", b"!",
               b"? ", b". ", b'." ', b"\xe2\x80\x9d ", b"\t", b"\xc3\xa9", b"\xf0\x9f\x98\x80",
               b"\xe2\x80\xa8", b"\xc2\xa0", b"a" * 200, b" " * 100]

READERS: dict[str, Reader] = {
    "lexsample": Reader(_lexical_sample,
                        _fixture("lexsample_training.xml", "lexsample_wf.xml", "lexsample_test.xml",
                                 "tag_test.xml"), LEXSAMPLE_TOKENS),
    "keys": Reader(_keys, _fixture("score_key.txt", "test_small.key"), LINE_TOKENS),
    "answers": Reader(_answers, _fixture("score_answers.txt"), LINE_TOKENS),
    "sensemap": Reader(_sensemap, _fixture("score_sensemap.txt"), LINE_TOKENS),
    "raganato": Reader(_raganato, _fixture("raganato_sample.data.xml", "allwords_sample.data.xml"),
                       RAGANATO_TOKENS),
    "raganato-key": Reader(read_raganato_key,
                           _fixture("raganato_sample.gold.key.txt", "score_gold.key.txt"),
                           LINE_TOKENS),
    "semcor": Reader(_semcor, _fixture("semcor_corpus/brown1/tagfiles/br-z11",
                                       "allwords_semcor/brown2/tagfiles/br-z02"), SEMCOR_TOKENS),
    "text": Reader(_text, [b"The bank of the river.\n\nHe sat on the bank. Then he left!\n"
                           b"A second line\xe2\x80\x94of the paragraph.\n"], TEXT_TOKENS),
}


@pytest.fixture(scope="module")
def workdir(tmp_path_factory, request):
    yield tmp_path_factory.mktemp("fuzz")
    _report_counts(request.config)


def _report_counts(config) -> None:
    if not OUTCOMES:
        return
    lines = [f"fuzz inputs per reader: {name} {sum(outcome.values())} "
             f"({outcome['parsed']} parsed, {outcome['refused']} refused)"
             for name, outcome in sorted(OUTCOMES.items())]
    write_report_lines(config, lines)
    if os.environ.get("WSD_CLASSIC_FUZZ_COUNTS"):
        Path(os.environ["WSD_CLASSIC_FUZZ_COUNTS"]).write_text(json.dumps(
            {name: dict(outcome) for name, outcome in OUTCOMES.items()}, indent=2) + "\n")


def feed(name: str, data: bytes, directory: Path) -> str:
    """Give ``data`` to the reader: "parsed" or "refused" (a located WsdError), else it fails."""
    path = directory / f"input-{name}"
    path.write_bytes(data)
    try:
        with hang_guard():
            READERS[name].read(path)
    except WsdError as error:
        assert error.path == str(path), error  # every refusal names the file
        assert "\n" not in str(error) and len(error.message) <= MAX_ERROR_CHARS, str(error)[:300]
        outcome = "refused"
    else:
        outcome = "parsed"
    OUTCOMES[name][outcome] += 1
    return outcome


# --- input strategies ---------------------------------------------------------------------------

def _mutation(tokens: list[bytes]):
    """One edit: ``(kind, position, argument)``; positions wrap around the current length."""
    position = st.integers(0, 1 << 16)
    return st.one_of(
        st.tuples(st.just("flip"), position, st.integers(0, 7)),
        st.tuples(st.just("byte"), position, st.integers(0, 255)),
        st.tuples(st.just("truncate"), position, st.none()),
        st.tuples(st.just("delete"), position, st.integers(1, 64)),
        st.tuples(st.just("duplicate"), position, st.integers(1, 200)),
        st.tuples(st.just("insert"), position, st.sampled_from(tokens + COMMON_TOKENS)),
        st.tuples(st.just("insert"), position, st.binary(min_size=1, max_size=8)),
    )


def mutate(data: bytes, edits) -> bytes:
    for kind, position, argument in edits:
        at = position % (len(data) + 1)
        if kind == "flip" and at < len(data):
            data = data[:at] + bytes([data[at] ^ (1 << argument)]) + data[at + 1:]
        elif kind == "byte" and at < len(data):
            data = data[:at] + bytes([argument]) + data[at + 1:]
        elif kind == "truncate":
            data = data[:at]
        elif kind == "delete":
            data = data[:at] + data[at + argument:]
        elif kind == "duplicate":
            data = data[:at] + data[at:at + argument] + data[at:]
        elif kind == "insert":
            data = data[:at] + argument + data[at:]
    return data


def soup(tokens: list[bytes]):
    return st.lists(st.one_of(st.sampled_from(tokens + COMMON_TOKENS), st.binary(max_size=4)),
                    max_size=80).map(b"".join)


# Printable text, no whitespace: XML allows it, and a field of a line format stays one field.
WORD = st.text(st.characters(exclude_categories=("Cs", "Cc", "Cn", "Co", "Zs", "Zl", "Zp"),
                             exclude_characters="\ufeff\x85\u180e\u200b"),
               min_size=1, max_size=6).filter(lambda word: not any(c.isspace() for c in word))
SPACE = st.sampled_from([" ", "\t", "  ", " \t "])
ENTITY_NAMES = sorted(set(ENTITIES) - set(XML_PREDEFINED))


def _xml_escaped(word: str) -> str:
    return word.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _attribute(value: str) -> str:
    return _xml_escaped(value).replace('"', "&quot;")


@st.composite
def _context_piece(draw) -> tuple[str, str]:
    """Markup for a piece of running text, and the text it must decode to."""
    if draw(st.booleans()):
        name = draw(st.sampled_from(ENTITY_NAMES))
        return f"&{name};", ENTITIES[name]
    word = draw(WORD)
    return _xml_escaped(word), word


@st.composite
def valid_lexical_sample(draw) -> tuple[bytes, dict]:
    """A lexical-sample file and, per instance id, its (head text, answers)."""
    expected, lexelts = {}, []
    for number in range(draw(st.integers(1, 3))):
        instances = []
        for _ in range(draw(st.integers(1, 3))):
            instance_id = f"i{len(expected)}"
            before = draw(st.lists(_context_piece(), max_size=5))
            head_markup, target_text = draw(_context_piece())
            after = draw(st.lists(_context_piece(), max_size=5))
            answers = draw(st.lists(WORD, max_size=2, unique=True))
            expected[instance_id] = (target_text, tuple(answers))
            answer_markup = "".join(
                f'<answer instance="{instance_id}" senseid="{_attribute(answer)}"/>\n'
                for answer in answers)
            body = " ".join(m for m, _ in before) + f" <head>{head_markup}</head> " + " ".join(
                m for m, _ in after)
            instances.append(f'<instance id="{instance_id}">\n{answer_markup}<context>\n{body}\n'
                             "</context>\n</instance>\n")
        lexelts.append(f'<lexelt item="w{number}.n">\n{"".join(instances)}</lexelt>\n')
    encoding = draw(st.sampled_from(["utf-8", "iso-8859-1"]))
    text = (f'<?xml version="1.0" encoding="{encoding}"?>\n'
            f'<!DOCTYPE corpus SYSTEM "lexical-sample.dtd">\n<corpus lang="en">\n'
            f'{"".join(lexelts)}</corpus>\n')
    return text.encode(encoding, "xmlcharrefreplace"), expected


@st.composite
def valid_raganato(draw) -> tuple[bytes, list]:
    """A Raganato data file and its sentences as (id, [(text, lemma, pos, instance id)])."""
    sentences, lines = [], ['<?xml version="1.0" encoding="UTF-8" ?>', '<corpus lang="en">']
    for document in range(draw(st.integers(1, 2))):
        lines.append(f'<text id="d{document}">')
        for number in range(draw(st.integers(1, 3))):
            sentence_id = f"d{document}.s{number}"
            lines.append(f'<sentence id="{sentence_id}">')
            tokens = []
            for position in range(draw(st.integers(0, 4))):
                text, lemma = draw(WORD), draw(WORD)
                instance_id = f"{sentence_id}.t{position}" if draw(st.booleans()) else None
                tokens.append((text, lemma, "NOUN", instance_id))
                element = "instance" if instance_id else "wf"
                identity = f' id="{instance_id}"' if instance_id else ""
                lines.append(f'<{element}{identity} lemma="{_attribute(lemma)}" pos="NOUN">'
                             f'{_xml_escaped(text)}</{element}>')
            lines.append("</sentence>")
            sentences.append((sentence_id, tokens))
        lines.append("</text>")
    lines.append("</corpus>")
    return "\n".join(lines).encode(), sentences


SEMCOR_WORD = WORD.filter(lambda word: not set(word) & set("<>"))
SEMCOR_VALUE = st.text("abcdefghijklmnopqrstuvwxyz_0123456789:", min_size=1, max_size=8)


@st.composite
def valid_semcor(draw) -> tuple[bytes, list]:
    """A SemCor tag file and its sentences' tokens as (text, lemma, sense keys)."""
    sentences = []
    lines = ["<contextfile concordance=brown>", "<context filename=br-x01 paras=yes>"]
    for number in range(1, draw(st.integers(1, 3)) + 1):
        lines.append(f"<p pnum={number}>\n<s snum={number}>")
        tokens = []
        for _ in range(draw(st.integers(0, 4))):
            text = draw(SEMCOR_WORD)
            if draw(st.booleans()):
                lines.append(f"<punc>{text}</punc>")
                tokens.append((text, None, ()))
                continue
            lemma = draw(SEMCOR_VALUE)
            lexsn = draw(st.lists(SEMCOR_VALUE, max_size=2))
            sense = (f" lemma={lemma} wnsn={';'.join(str(i + 1) for i in range(len(lexsn)))} "
                     f"lexsn={';'.join(lexsn)}" if lexsn else f" lemma={lemma}")
            lines.append(f"<wf cmd=done pos=NN{sense}>{text}</wf>")
            tokens.append((text, lemma, tuple(f"{lemma}%{value}" for value in lexsn)))
        lines.append("</s>\n</p>")
        sentences.append(tokens)
    lines += ["</context>", "</contextfile>"]
    return "\n".join(lines).encode(), sentences


# A field of a line format: no whitespace, no comment marker.
FIELD = WORD.filter(lambda word: "!!" not in word and "!" not in word[-1:])


@st.composite
def valid_lines(draw, records: st.SearchStrategy) -> tuple[bytes, list]:
    """Records (lists of fields) joined by mixed separators, with comments, blank lines, CRLFs
    and a BOM."""
    records = draw(records)
    lines = []
    for record in records:
        if draw(st.booleans()):
            lines.append(draw(st.sampled_from(["", "!! a comment", "   ", "!!"])))
        line = draw(SPACE).join(record)
        if draw(st.booleans()):
            line += draw(SPACE) + "!! " + draw(WORD)
        lines.append(line)
    ending = draw(st.sampled_from(["\n", "\r\n"]))
    text = ending.join(lines) + draw(st.sampled_from(["", ending]))
    bom = draw(st.sampled_from([b"", b"\xef\xbb\xbf"]))
    return bom + text.encode(), records


def _unique_records(records: st.SearchStrategy, key) -> st.SearchStrategy:
    return st.lists(records, min_size=1, max_size=8, unique_by=key)


SENSE = FIELD.filter(lambda word: "/" not in word)
COUNT = st.integers(1, 10 ** 6).map(str)


# --- the tests ----------------------------------------------------------------------------------

# The least share of each outcome among a reader's mutated or soup inputs. Measured at the
# default scale: mutated seeds parse in 4 % (raganato) to 66 % (sensemap) of the inputs and are
# refused in the rest; soup is refused in 46 % (sensemap) to 100 % of the inputs, and the XML
# readers parse none (a soup of tags is never a whole document), so only refusals have a floor.
LEAST_SHARE = {"mutated": {"parsed": 0.02, "refused": 0.2},
               "soup": {"parsed": 0.0, "refused": 0.25}}
FUZZ_SETTINGS = dict(deadline=None, derandomize=True, database=None,
                     suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                            HealthCheck.filter_too_much])


def assert_outcome_shares(name: str, kind: str, outcomes: Counter) -> None:
    """Each outcome of a reader's fuzzed inputs of one kind must come in at least its share
    (``LEAST_SHARE``): a reader that refuses every input, or accepts every one, fails."""
    tried = sum(outcomes.values())
    for outcome in ("parsed", "refused"):
        least = LEAST_SHARE[kind][outcome]
        assert outcomes[outcome] >= least * tried, (
            f"{name}, {kind} inputs: {outcome} {outcomes[outcome]} of {tried}, "
            f"fewer than {least:.0%}: {dict(outcomes)}")


@pytest.mark.parametrize("name", sorted(READERS))
def test_mutated_seeds_parse_or_give_a_wsd_error(name, workdir):
    reader = READERS[name]

    @settings(max_examples=EXAMPLES["mutated"], **FUZZ_SETTINGS)
    @given(seed=st.sampled_from(reader.seeds), edits=st.lists(_mutation(reader.tokens),
                                                               min_size=1, max_size=4))
    def check(seed, edits):
        outcomes[feed(name, mutate(seed, edits), workdir)] += 1

    outcomes = Counter()
    check()
    assert_outcome_shares(name, "mutated", outcomes)


@pytest.mark.parametrize("name", sorted(READERS))
def test_token_soup_parses_or_gives_a_wsd_error(name, workdir):
    @settings(max_examples=EXAMPLES["soup"], **FUZZ_SETTINGS)
    @given(data=soup(READERS[name].tokens))
    def check(data):
        outcomes[feed(name, data, workdir)] += 1

    outcomes = Counter()
    check()
    assert_outcome_shares(name, "soup", outcomes)


def _valid(strategy):
    """Hypothesis's settings go on the test ``given`` made, or they are not its settings (its
    default deadline then fails a slow example on a loaded machine)."""
    def decorate(test):
        return settings(max_examples=EXAMPLES["valid"], **FUZZ_SETTINGS)(given(case=strategy)(test))
    return decorate


@_valid(valid_lexical_sample())
def test_generated_lexical_samples_read_back(workdir, case):
    data, expected = case
    assert feed("lexsample", data, workdir) == "parsed"
    sample = read_lexical_sample(workdir / "input-lexsample")
    original = sample.renamed_ids.get("sense", {})  # ids an answer line cannot hold, mapped back
    assert {i.id: (head_text(i), tuple(original.get(sense, sense) for sense in i.answers))
            for i in sample.instances()} == expected


@_valid(valid_raganato())
def test_generated_raganato_files_read_back(workdir, case):
    data, expected = case
    assert feed("raganato", data, workdir) == "parsed"
    sentences = list(iter_raganato(workdir / "input-raganato"))
    assert [(s.id, [(t.text, t.lemma, t.pos, t.instance_id) for t in s.tokens])
            for s in sentences] == expected


@_valid(valid_semcor())
def test_generated_semcor_files_read_back(workdir, case):
    data, expected = case
    assert feed("semcor", data, workdir) == "parsed"
    sentences = read_semcor_file(workdir / "input-semcor")
    assert [[(t.text, t.lemma, t.sense_keys) for t in s.tokens] for s in sentences] == expected


@_valid(valid_lines(_unique_records(st.tuples(FIELD, FIELD, SENSE).map(list), lambda r: r[1])))
def test_generated_keys_read_back(workdir, case):
    data, records = case
    assert feed("keys", data, workdir) == "parsed"
    key = read_key(workdir / "input-keys")
    assert [(e.lexelt, e.instance, e.tags) for e in key.values()] == [
        (lexelt, instance, (tag,)) for lexelt, instance, tag in records]


@_valid(valid_lines(st.lists(st.tuples(FIELD, FIELD, SENSE, st.floats(0, 1e6).map(repr)).map(
    lambda r: [r[0], r[1], f"{r[2]}/{r[3]}"]), min_size=1, max_size=8)))
def test_generated_answers_read_back(workdir, case):
    data, records = case
    assert feed("answers", data, workdir) == "parsed"
    answers = read_answers(workdir / "input-answers")
    assert [(a.lexelt, a.instance, a.senses) for a in answers] == [
        (lexelt, instance, ((tag.rsplit("/", 1)[0], float(tag.rsplit("/", 1)[1])),))
        for lexelt, instance, tag in records]


@_valid(valid_lines(_unique_records(st.tuples(SENSE, COUNT, SENSE).filter(
    lambda r: r[0] != r[2]).map(list), lambda r: r[0])))
def test_generated_sensemaps_read_back(workdir, case):
    data, records = case
    assert feed("sensemap", data, workdir) == "parsed"
    sensemap = read_sensemap(workdir / "input-sensemap")
    assert {sense: sensemap.chains[sense] for sense, _, _ in records} == {
        sense: ((int(count), parent),) for sense, count, parent in records}


@_valid(valid_lines(_unique_records(st.lists(FIELD, min_size=2, max_size=4), lambda r: r[0])))
def test_generated_raganato_keys_read_back(workdir, case):
    data, records = case
    assert feed("raganato-key", data, workdir) == "parsed"
    assert read_raganato_key(workdir / "input-raganato-key") == {
        record[0]: tuple(record[1:]) for record in records}


@_valid(st.lists(st.one_of(st.sampled_from(TEXT_TOKENS), st.text(max_size=30).map(
    lambda text: text.encode("utf-8", "surrogatepass").replace(b"\0", b""))), max_size=60).map(
    b"".join).filter(lambda data: _is_utf8(data)))
def test_generated_text_comes_back_in_contiguous_blocks(workdir, case):
    assert feed("text", case, workdir) == "parsed"


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


# --- hostile shapes too big for the generators --------------------------------------------------

MEGABYTE = 1 << 20
HOSTILE_SHAPES = {
    "one 1 MB line": b"a" * MEGABYTE,
    "an open tag 1 MB long": b"<contextfile>\n<" + b"a" * MEGABYTE,
    "an attribute list 1 MB long": b"<contextfile>\n<wf " + b"x=1 " * (MEGABYTE // 4),
    "an entity name 1 MB long": b"<corpus>&" + b"a" * MEGABYTE,
    "1 MB of ampersands": b"&" * MEGABYTE,
    "1 MB of '<'": b"<" * MEGABYTE,
    "a field 1 MB long": b"a b " + b"c" * MEGABYTE + b"\n",
    "a number of 1 MB digits": b"a 1 b " + b"9" * MEGABYTE + b" c\n",
    "100,000 records": b"".join(b"w w.%d s 2 t\n" % i for i in range(100_000)),
    "a paragraph of 1 MB without space": b"x" * MEGABYTE,
    "200,000 one-word paragraphs": b"word\n\n" * 200_000,
    "1 MB of blank lines": b"\n" * MEGABYTE,
    "sentence ends 1 MB long": b". " * (MEGABYTE // 2),
    "a deep nest": b"<corpus><lexelt item='a'>" + b"<s>" * 100_000,
}


@pytest.mark.parametrize("shape", sorted(HOSTILE_SHAPES))
@pytest.mark.parametrize("name", sorted(READERS))
def test_hostile_shapes_finish_quickly(name, shape, workdir):
    feed(name, HOSTILE_SHAPES[shape], workdir)


# --- inputs that once failed --------------------------------------------------------------------

def _regressions() -> list[Path]:
    return sorted(path for path in REGRESSIONS.glob("*/*") if path.is_file())


@pytest.mark.parametrize("path", _regressions(), ids=lambda path: f"{path.parent.name}/{path.name}")
def test_inputs_that_once_failed(path, workdir):
    data = path.read_bytes()
    if path.suffix == ".gz":
        data = gzip.decompress(data)
    feed(path.parent.name, data, workdir)
