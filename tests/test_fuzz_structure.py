"""Structure-aware fuzzing of ``bin/train --train F --split 2:1``: generated lexical samples, valid
and near-valid, must end in success or a one-line ``WsdError``, never in another exception, and
never leave a half-written output.

The generator builds the element tree of a SENSEVAL lexical-sample file (both context shapes,
``<p>``/``<s>``, ``<compound>``, ``<sat>``, ``<wf>`` with and without lemma, attribute values with
spaces, tabs, Unicode, ``!!``, ``/`` or nothing), then a near-valid one applies one to three edits:
an element dropped, duplicated, moved under another parent, renamed or swapped with its
neighbour, an attribute removed or given an odd value, stray text. ``STRUCTURE_EXAMPLES`` corpora
(2,000 per run) go through what ``bin/train`` does before spaCy and after it, in-process: the
reader, the split and its checks, the id map, the split's key, answer files from a most-frequent-
sense stand-in for the systems, and scorer2, all written in a staging directory as ``bin/train``
does. ``END_TO_END_EXAMPLES`` valid ones run through ``bin/train`` itself. Inputs that once
failed are replayed from ``fuzz_regressions/lexsample/``. ``WSD_CLASSIC_FUZZ_SCALE`` multiplies
the counts.
"""
from __future__ import annotations

import csv
import html
import json
import os
import random
import re
import shutil
import subprocess
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from conftest import REPO, write_report_lines
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from wsd_classic.answers.senseval import read_answers, write_answers
from wsd_classic.corpora.ids import ID_MAP_NAME, write_id_map
from wsd_classic.corpora.keys import KeyEntry, read_key, write_key
from wsd_classic.corpora.lexsample import (check_annotated, check_split, read_lexical_sample,
                                           read_text_file)
from wsd_classic.errors import MAX_MESSAGE_CHARS, WsdError
from wsd_classic.scoring.lexsample import lexsample_scores
from wsd_classic.tasks.lexical_sample_run import stratified_split
from wsd_classic.tasks.staging import staged_directory

SCALE = float(os.environ.get("WSD_CLASSIC_FUZZ_SCALE", "1"))
STRUCTURE_EXAMPLES = int(2000 * SCALE)
END_TO_END_EXAMPLES = max(1, int(5 * SCALE))
MEMORY_FS = "/dev/shm"
# shared with the reader fuzzing of test_fuzz_readers.py, which replays them through the reader
REGRESSIONS = Path(__file__).resolve().parent / "fuzz_regressions" / "lexsample"
SPLIT = (2, 1)
OUTCOMES: Counter = Counter()


# --- the tree and its text ----------------------------------------------------------------------

@dataclass(eq=False)  # identity: a duplicated element is another element
class Element:
    name: str
    attributes: dict[str, str] = field(default_factory=dict)
    children: list[Element | str] = field(default_factory=list)

    def elements(self):
        """Every element below and including this one, with its parent (None for the root)."""
        stack = [(self, None)]
        while stack:
            element, parent = stack.pop()
            yield element, parent
            stack.extend((child, element) for child in reversed(element.children)
                         if isinstance(child, Element))


def _escaped(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _attribute(value: str) -> str:
    # Character references keep tabs and line breaks, which XML would turn into spaces.
    return _escaped(value).replace('"', "&quot;").replace("\t", "&#9;").replace(
        "\n", "&#10;").replace("\r", "&#13;")


def render(element: Element | str) -> str:
    if isinstance(element, str):
        return _escaped(element)
    attributes = "".join(f' {name}="{_attribute(value)}"'
                         for name, value in element.attributes.items())
    if not element.children:
        return f"<{element.name}{attributes}/>"
    inner = "".join(render(child) for child in element.children)
    return f"<{element.name}{attributes}>{inner}</{element.name}>"


# --- valid corpora ------------------------------------------------------------------------------
# A grammar driven by random.Random: Hypothesis only draws the seed, because drawing every choice
# through Hypothesis costs ~100 ms per corpus, and 2,000 corpora must take seconds.

LETTERS = "abcdefghijklmnopqrstuvwxyzAZéßçøΩжλ中字"
PUNCTUATION = [".", ",", "'s", "(", ")", "-", "&", "<", '"', "—"]
# Ids and sense ids as public corpora write them, and worse.
SEPARATORS = [" ", "  ", "\t", " \n ", "!!", "/", "/2", "%", ":", " !! "]
ODD_VALUES = ["", " ", "!!", "/", "/1", "a/0.5", "U", "P", "x%1:06:00::", "art%1:06:00::",
              "24/7%1:28:00::", "\u00a0", "\u2028", "e\u0301", "🙂", "a" * 80]


def word(rng: random.Random) -> str:
    return "".join(rng.choice(LETTERS) for _ in range(rng.randint(1, 7)))


def odd_value(rng: random.Random) -> str:
    kind = rng.randrange(3)
    if kind == 0:
        return word(rng)
    if kind == 1:
        return word(rng) + rng.choice(SEPARATORS) + word(rng)
    return rng.choice(ODD_VALUES)


def _token(rng: random.Random) -> Element:
    attributes = {"pos": rng.choice(["NN", "VB", "JJ", "", "n v"])}
    if rng.random() < 0.5:
        attributes["lemma"] = word(rng)
    return Element("wf", attributes, [word(rng) if rng.random() < 0.8 else rng.choice(PUNCTUATION)])


def _compound(rng: random.Random) -> Element:
    return Element("compound", {}, [_token(rng) for _ in range(rng.randint(2, 3))])


def _pieces(rng: random.Random, tokens: bool) -> list:
    """Words (running text, spaces between) or ``<wf>`` tokens, some grouped in ``<compound>``."""
    if not tokens:
        return [" ".join(word(rng) if rng.random() < 0.8 else rng.choice(PUNCTUATION)
                         for _ in range(rng.randint(0, 6)))]
    pieces = []
    for _ in range(rng.randint(0, 5)):
        pieces += [_compound(rng) if rng.random() < 0.15 else _token(rng), " "]
    return pieces


def _context(rng: random.Random) -> Element:
    tokens = rng.random() < 0.5
    if tokens:
        head = Element("head", {}, [_compound(rng) if rng.random() < 0.25 else _token(rng)])
    else:
        head = Element("head", {}, [word(rng)])
    sat = []
    if not tokens and rng.random() < 0.25:
        head.attributes["sats"] = sat_id = word(rng)
        sat = [" ", Element("sat", {"id": sat_id}, [word(rng)]), " "]
    body = [*_pieces(rng, tokens), " ", head, " ", *sat, *_pieces(rng, tokens)]
    layout = rng.choice(["plain", "p", "s", "p+s", "markers"])
    if layout == "p":
        body = [Element("p", {}, body), Element("p", {}, _pieces(rng, tokens))]
    elif layout == "s":
        body = [Element("s", {}, _pieces(rng, tokens)), Element("s", {}, body)]
    elif layout == "p+s":
        body = [Element("p", {}, [Element("s", {}, body), Element("s", {}, _pieces(rng, tokens))])]
    elif layout == "markers":
        body = [Element("s", {"snum": "1"}), *body, Element("s", {"snum": "2"})]
    return Element("context", {}, ["\n", *body, "\n"])


def valid_corpus(rng: random.Random) -> Element:
    senses = list(dict.fromkeys(odd_value(rng) for _ in range(rng.randint(1, 3))))
    lexelts = []
    for number in range(rng.randint(1, 3)):
        instances = []
        for position in range(rng.randint(1, 6)):
            # the suffix keeps ids distinct whatever the value before it
            instance_id = rng.choice(["", odd_value(rng)]) + f" {number}.{position}"
            answers = [Element("answer", {"instance": instance_id, "senseid": sense})
                       for sense in rng.sample(senses, rng.randint(0, min(2, len(senses))))]
            attributes = {"id": instance_id}
            if rng.random() < 0.5:
                attributes["docsrc"] = odd_value(rng)
            context = _context(rng)
            children = [context, *answers] if rng.random() < 0.2 else [*answers, context]
            instances.append(Element("instance", attributes, children))
        item = odd_value(rng) + f"#{number}" + rng.choice([".n", ".v", "-a", ""])
        lexelts.append(Element("lexelt", {"item": item}, instances))
    return Element("corpus", {"lang": "en"}, lexelts)


# --- near-valid ones ----------------------------------------------------------------------------

NAMES = ["corpus", "lexelt", "instance", "answer", "context", "head", "sat", "wf", "compound",
         "p", "s", "tag", "postag"]


def _edit(rng: random.Random, root: Element) -> None:
    """Change ``root`` in place, one structural edit."""
    nodes = list(root.elements())
    element, parent = rng.choice(nodes)
    kind = rng.choice(["drop", "duplicate", "move", "rename", "swap", "unattribute", "attribute",
                       "text"])
    if kind == "drop" and parent is not None:
        parent.children.remove(element)
    elif kind == "duplicate" and parent is not None:
        parent.children.insert(parent.children.index(element), _copy(element))
    elif kind == "move" and parent is not None:
        target, _ = rng.choice(nodes)
        if target not in [node for node, _ in element.elements()]:
            parent.children.remove(element)
            target.children.insert(rng.randint(0, len(target.children)), element)
    elif kind == "rename":
        element.name = rng.choice(NAMES)
    elif kind == "swap" and parent is not None:
        index = parent.children.index(element)
        if index + 1 < len(parent.children):
            children = parent.children
            children[index], children[index + 1] = children[index + 1], children[index]
    elif kind == "unattribute" and element.attributes:
        del element.attributes[rng.choice(sorted(element.attributes))]
    elif kind == "attribute":
        name = rng.choice(["id", "item", "instance", "senseid", "sats", "pos"])
        element.attributes[name] = odd_value(rng)
    elif kind == "text":
        element.children.insert(rng.randint(0, len(element.children)), word(rng))


def _copy(element: Element | str) -> Element | str:
    if isinstance(element, str):
        return element
    return Element(element.name, dict(element.attributes), [_copy(c) for c in element.children])


def near_valid_corpus(rng: random.Random) -> Element:
    root = valid_corpus(rng)
    for _ in range(rng.randint(1, 3)):
        _edit(rng, root)
    return root


def corpus_file(seed: int, near_valid: bool) -> bytes:
    rng = random.Random(seed)
    encoding = rng.choice(["utf-8", "iso-8859-1"])
    prolog = rng.choice([f'<?xml version="1.0" encoding="{encoding}"?>\n',
                         f'<?xml version="1.0" encoding="{encoding}"?>\n'
                         '<!DOCTYPE corpus SYSTEM "lexical-sample.dtd">\n', ""])
    if not prolog:
        encoding = "utf-8"
    tree = near_valid_corpus(rng) if near_valid else valid_corpus(rng)
    text = prolog + render(tree).replace("><lexelt", ">\n<lexelt").replace(
        "><instance", ">\n<instance") + "\n"
    return text.encode(encoding, "xmlcharrefreplace")


SEEDS = st.integers(0, 2 ** 32 - 1)


# --- bin/train's steps, in-process --------------------------------------------------------------

def train_split(path: Path, results: Path) -> None:
    """What ``bin/train --train PATH --split 2:1`` reads and writes, without spaCy or models."""
    sample = read_lexical_sample(path)
    check_annotated(sample)
    train, test = stratified_split(sample, SPLIT, seed=0)
    check_split(train, test)
    key = [KeyEntry(lexelt.item, instance.id, instance.answers)
           for lexelt in test.lexelts for instance in lexelt.instances]
    with staged_directory(results) as stage:
        write_id_map(stage / ID_MAP_NAME, [sample.renamed_ids])
        write_key(stage / "test.key", key)
        seen = {lexelt.item: Counter(sense for instance in lexelt.instances
                                     for sense in instance.answers) for lexelt in train.lexelts}
        rows = [(lexelt.item, instance.id, seen[lexelt.item])
                for lexelt in test.lexelts if seen[lexelt.item] for instance in lexelt.instances]
        write_answers(stage / "mfs.ans", rows)
        write_answers(stage / "mfs.top.ans", rows, top_only=True)
        scores = lexsample_scores(stage / "test.key", stage / "mfs.top.ans",
                                  weighted_answers=stage / "mfs.ans")
        (stage / "scores.json").write_text(json.dumps(scores))


def _snapshot(directory: Path) -> dict[str, bytes]:
    return {str(path.relative_to(directory)): path.read_bytes()
            for path in sorted(directory.rglob("*")) if path.is_file()} if directory.exists() else {}


def _original_instance_ids(path: Path) -> set[str]:
    text = read_text_file(path)
    return {html.unescape(value) for value in re.findall(r'<instance\b[^>]*?\bid="([^"]*)"', text)}


def check_outcome(data: bytes, workdir: Path) -> str:
    """Feed one corpus to ``train_split``: "trained" or "refused", else the test fails."""
    path, results = workdir / "corpus.xml", workdir / "results" / "corpus"
    path.write_bytes(data)
    before = _snapshot(results)
    try:
        train_split(path, results)
    except WsdError as error:
        assert "\n" not in str(error) and len(error.message) <= MAX_MESSAGE_CHARS + 40, str(error)
        assert error.path == str(path), error
        assert error.line is None or 1 <= error.line <= data.count(b"\n") + 1, error
        assert _snapshot(results) == before  # a refusal leaves the previous outputs alone
        outcome = "refused"
    else:
        key = read_key(results / "test.key")
        for name in ("mfs.ans", "mfs.top.ans"):
            assert {answer.instance for answer in read_answers(results / name)} <= set(key)
        json.loads((results / "scores.json").read_text())
        with open(results / ID_MAP_NAME, newline="", encoding="utf-8") as stream:
            rows = list(csv.reader(stream, dialect="excel-tab"))
        renamed = {safe: original for kind, safe, original in rows[1:] if kind == "instance"}
        # every answered instance leads back to an id of the corpus
        assert {renamed.get(instance, instance) for instance in key} <= _original_instance_ids(path)
        outcome = "trained"
    leftovers = [p.name for p in results.parent.rglob(".*")
                 if p.name.endswith((".tmp", ".old")) or ".staging-" in p.name]
    assert leftovers == []
    OUTCOMES[outcome] += 1
    return outcome


FUZZ_SETTINGS = dict(deadline=None, derandomize=True, database=None,
                     suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                            HealthCheck.filter_too_much,
                                            HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def workdir(tmp_path_factory, request):
    """In memory where the system offers it: on disk, fsync and unlink make up 90% of the time."""
    if os.access(MEMORY_FS, os.W_OK):
        directory = Path(tempfile.mkdtemp(prefix="wsd-structure-fuzz-", dir=MEMORY_FS))
    else:
        directory = tmp_path_factory.mktemp("structure")
    yield directory
    shutil.rmtree(directory, ignore_errors=True)
    if OUTCOMES:
        write_report_lines(request.config, [
            f"structure fuzz: {sum(OUTCOMES.values())} corpora through bin/train's steps "
            f"({OUTCOMES['trained']} trained, {OUTCOMES['refused']} refused)"])


def test_valid_and_near_valid_corpora_train_or_give_one_line(workdir):
    @settings(max_examples=STRUCTURE_EXAMPLES, **FUZZ_SETTINGS)
    @given(seed=SEEDS, near_valid=st.booleans())
    def check(seed, near_valid):
        check_outcome(corpus_file(seed, near_valid), workdir)

    before = sum(OUTCOMES.values())
    check()
    assert sum(OUTCOMES.values()) - before >= STRUCTURE_EXAMPLES
    assert OUTCOMES["trained"] and OUTCOMES["refused"]  # both kinds of ending were reached


def test_generated_valid_corpora_are_read_whole(workdir):
    """Without edits the generator's corpora are valid: every instance is read, and only a
    corpus too small for the split (or without any answer) is refused."""
    @settings(max_examples=int(200 * SCALE), **FUZZ_SETTINGS)
    @given(seed=SEEDS)
    def check(seed):
        data = corpus_file(seed, near_valid=False)
        path = workdir / "valid.xml"
        path.write_bytes(data)
        sample = read_lexical_sample(path)
        assert sample.lexelts and len(sample) == data.count(b"<instance ")
        try:
            train_split(path, workdir / "results" / "valid")
        except WsdError as error:
            assert error.message.startswith(("the split leaves", "no instance has an answer")), \
                error

    check()


@pytest.mark.parametrize("path", sorted(REGRESSIONS.glob("*")), ids=lambda path: path.name)
def test_structures_that_once_failed(path, workdir):
    check_outcome(path.read_bytes(), workdir)


def test_bin_train_on_generated_corpora(tmp_path):
    """A handful end to end: success, or one line and exit status 2, and no traceback."""
    runs = []

    @settings(max_examples=END_TO_END_EXAMPLES, phases=[Phase.generate], **FUZZ_SETTINGS)
    @given(seed=SEEDS)
    def check(seed):
        data = corpus_file(seed, near_valid=False)
        root = tmp_path / f"run{len(runs)}"
        root.mkdir()
        (root / "corpus.xml").write_bytes(data)
        result = subprocess.run(
            [str(REPO / "bin" / "train"), "--train", "corpus.xml", "--split", "2:1",
             "--systems", "commonest,lesk,dlist,svm", "--jobs", "1", "--models-dir", "m",
             "--out-dir", "r"], capture_output=True, text=True, timeout=600, cwd=root,
            env={**os.environ, "WSD_CLASSIC_CACHE": str(tmp_path / "cache")})
        runs.append(result.returncode)
        assert "Traceback" not in result.stderr, result.stderr
        assert result.returncode in (0, 2), result.stderr
        if result.returncode == 2:
            assert len(result.stderr.strip().splitlines()) == 1, result.stderr
            assert not (root / "r" / "corpus").exists()
        else:
            read_key(root / "r" / "corpus" / "test.key")
            read_answers(root / "r" / "corpus" / "svm.top.ans")

    check()
    assert len(runs) == END_TO_END_EXAMPLES and 0 in runs
