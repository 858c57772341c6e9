"""Reader for the SemCor 3.0 tag files (``semcor-3.0/brown1|brown2|brownv/tagfiles/br-*``).

The files are SGML, not XML: attribute values are mostly unquoted
(``<wf cmd=done pos=NN lemma=jury wnsn=1 lexsn=1:14:00::>jury</wf>``) and ``&`` stands for
itself, so they are tokenised with a regular expression rather than an XML parser. A token's
WordNet 3.0 sense key is ``lemma%lexsn``; ``wnsn`` and ``lexsn`` may hold several
``;``-separated values (the annotator could not choose), and ``wnsn=0`` marks a WordNet 1.6 sense
that has no WordNet 3.0 counterpart (its key is not in WordNet 3.0). The adjective-position marker
some satellite keys carry (``some(a)``) is removed, so that every other key is a WordNet 3.0 key.

``brown1`` and ``brown2`` tag every open-class word; ``brownv`` tags only the verbs: its nouns,
adjectives and adverbs carry ``cmd=tag`` and no sense, which says nothing about their senses.
"""
from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from wsd_classic.corpora.lexsample import read_text_file
from wsd_classic.errors import WsdError

PARTS = ("brown1", "brown2", "brownv")

# Possessive quantifiers: backtracking into the name or the attributes cannot find another match,
# and on a '<' that is never closed it would take time quadratic in the length of what follows.
_MARKUP = re.compile(r"<(/?)([A-Za-z]++)([^<>]*+)>")
# SemCor writes some satellite adjectives' head word with its syntactic marker
# (``several%5:00:00:some(a):00``); WordNet's sense keys never carry it.
_ADJECTIVE_MARKER = re.compile(r"\((?:a|p|ip)\)")

# Each element and the elements it may appear in (None: top level).
_PARENTS = {
    "contextfile": {None},
    "context": {None, "contextfile"},
    "p": {"context"},
    "s": {"context", "p"},
    "wf": {"s"},
    "punc": {"s"},
}


@dataclass(frozen=True)
class SemcorToken:
    """A word (``<wf>``) or punctuation mark (``<punc>``: ``pos`` and ``lemma`` None).

    ``text`` keeps SemCor's underscores in multiword units (``took_place``).
    """

    text: str
    pos: str | None = None  # Penn Treebank tag
    lemma: str | None = None
    wnsn: tuple[int, ...] = ()
    lexsn: tuple[str, ...] = ()

    @property
    def sense_keys(self) -> tuple[str, ...]:
        """The WordNet sense keys (``jury%1:14:00::``), empty for an untagged token."""
        return tuple(f"{self.lemma}%{lexsn}" for lexsn in self.lexsn)


@dataclass(frozen=True)
class SemcorSentence:
    """An ``<s>``: its Brown file (``br-a01``), SemCor part (``brown1``) and number (``snum``)."""

    document: str
    part: str | None
    number: str
    tokens: tuple[SemcorToken, ...]


def read_semcor(root: str | os.PathLike, parts: Iterable[str] = PARTS) -> Iterator[SemcorSentence]:
    """Every sentence of the given parts under ``root`` (a ``semcor-3.0`` directory).

    Parts come in the order given, the files of each in sorted name order, so two runs see the
    same sequence; files are read one at a time, as the iteration reaches them.
    """
    for part in parts:
        directory = Path(root) / part / "tagfiles"
        if not directory.is_dir():
            raise WsdError(f"not a SemCor part: no directory {part}/tagfiles", root)
        files = sorted(path for path in directory.iterdir() if path.name.startswith("br-"))
        if not files:
            raise WsdError("no br-* tag files in the directory", directory)
        for path in files:
            yield from read_semcor_file(path, part)


def read_semcor_file(path: str | os.PathLike, part: str | None = None) -> list[SemcorSentence]:
    """The sentences of one tag file; ``WsdError`` with the line of anything malformed."""
    return _TagFileParser(path, part).parse(read_text_file(path, "utf-8"))


class _TagFileParser:
    """Walks the markup of one file, checking nesting and building sentences."""

    def __init__(self, path: str | os.PathLike, part: str | None):
        self.path = path
        self.part = part
        self.document = Path(path).name
        self.text = ""
        self.open_elements: list[tuple[str, int]] = []  # name, offset of its start tag
        self.sentences: list[SemcorSentence] = []
        self.sentence_number: str | None = None
        self.tokens: list[SemcorToken] = []
        self.word_attributes: dict[str, str] | None = None  # of the open <wf> (empty for <punc>)
        self.word_text = ""

    def parse(self, text: str) -> list[SemcorSentence]:
        self.text = text
        position = 0
        for markup in _MARKUP.finditer(text):
            self._text_between(position, markup.start())
            closing, name, attributes = markup.groups()
            if closing and attributes.strip():
                raise self._error(f"end tag </{name}> with attributes", markup.start())
            if closing:
                self._end(name, markup.start())
            else:
                self._start(name, attributes, markup.start())
            position = markup.end()
        self._text_between(position, len(text))
        if self.open_elements:
            name, offset = self.open_elements[-1]
            raise self._error(f"<{name}> is never closed", offset)
        if not self.sentences:
            raise WsdError("no <s> sentences: not a SemCor tag file", self.path)
        return self.sentences

    def _error(self, message: str, offset: int) -> WsdError:
        return WsdError(message, self.path, self.text.count("\n", 0, offset) + 1)

    def _text_between(self, start: int, end: int) -> None:
        """Check the text between two tags; a word's text becomes the open token's."""
        between = self.text[start:end]
        if "<" in between or ">" in between:
            bracket = start + min(i for i in (between.find("<"), between.find(">")) if i >= 0)
            raise self._error("stray '<' or '>' (a tag not closed?)", bracket)
        if self.word_attributes is not None:
            self.word_text = between
        elif between.strip():
            offset = start + len(between) - len(between.lstrip())
            raise self._error(f"text outside <wf> and <punc>: {between.strip()[:40]!r}", offset)

    def _start(self, name: str, raw_attributes: str, offset: int) -> None:
        parent = self.open_elements[-1][0] if self.open_elements else None
        if parent not in _PARENTS.get(name, ()):
            where = f"inside <{parent}>" if parent else "at the top level"
            raise self._error(f"unexpected <{name}> {where}", offset)
        self.open_elements.append((name, offset))
        attributes = self._attributes(name, raw_attributes, offset)
        if name == "s":
            self.sentence_number = self._required(name, attributes, "snum", offset)
            self.tokens = []
        elif name in ("wf", "punc"):
            if name == "wf":
                self._required(name, attributes, "cmd", offset)
                self._required(name, attributes, "pos", offset)
            self.word_attributes = attributes
            self.word_text = ""

    def _end(self, name: str, offset: int) -> None:
        if not self.open_elements or self.open_elements[-1][0] != name:
            expected = f"</{self.open_elements[-1][0]}>" if self.open_elements else "no end tag"
            raise self._error(f"</{name}> where {expected} was expected", offset)
        start = self.open_elements.pop()[1]
        if name == "s":
            self.sentences.append(SemcorSentence(
                self.document, self.part, self.sentence_number, tuple(self.tokens)))
        elif name == "punc":
            self.tokens.append(SemcorToken(self._word_text(name, offset)))
            self.word_attributes = None
        elif name == "wf":
            self.tokens.append(self._word(self._word_text(name, offset), start))
            self.word_attributes = None

    def _word_text(self, name: str, offset: int) -> str:
        if not self.word_text.strip():
            raise self._error(f"empty <{name}>", offset)
        return self.word_text.strip()

    def _word(self, text: str, offset: int) -> SemcorToken:
        attributes = self.word_attributes
        lemma = attributes.get("lemma")
        lexsn = tuple(_ADJECTIVE_MARKER.sub("", value) for value in _values(attributes, "lexsn"))
        try:
            wnsn = tuple(int(number) for number in _values(attributes, "wnsn"))
        except ValueError:
            raise self._error(f"wnsn={attributes['wnsn']} is not a sense number", offset) from None
        if lexsn and not lemma:
            raise self._error("lexsn without a lemma to make a sense key with", offset)
        if "" in lexsn:
            raise self._error(f"lexsn={attributes['lexsn']} has an empty value", offset)
        if wnsn and lexsn and len(wnsn) != len(lexsn):
            raise self._error(f"wnsn={attributes['wnsn']} and lexsn={attributes['lexsn']} "
                              "disagree in number", offset)
        return SemcorToken(text, attributes["pos"], lemma, wnsn, lexsn)

    def _attributes(self, element: str, raw: str, offset: int) -> dict[str, str]:
        """``name=value`` pairs; values may be unquoted, as SGML allows."""
        attributes = {}
        for pair in raw.split():
            name, equals, value = pair.partition("=")
            if not equals or not name:
                raise self._error(f"<{element}> has a malformed attribute {pair!r}", offset)
            if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
                value = value[1:-1]
            attributes[name] = value
        return attributes

    def _required(self, element: str, attributes: dict[str, str], name: str, offset: int) -> str:
        if name not in attributes:
            raise self._error(f"<{element}> lacks the required attribute {name!r}", offset)
        return attributes[name]


def _values(attributes: dict[str, str], name: str) -> list[str]:
    """The ``;``-separated values of an attribute; none if it is absent."""
    return attributes[name].split(";") if name in attributes else []
