"""Raganato et al.'s all-words format: ``*.data.xml`` and ``*.gold.key.txt``.

The unified evaluation framework (EACL 2017) and benchmarks derived from it (lexEN, ...) share
the format, so every dataset in it is read by path. ``iter_raganato`` streams: it feeds the file
to expat in blocks and yields each sentence as soon as it is complete, so a large corpus is never
held in memory whole. (Expat rather than ``ElementTree.iterparse``: only expat tells the line of
an element, which every error must name.)
"""
from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from wsd_classic.atomic import write_lines_atomically
from wsd_classic.corpora.keys import check_field, read_records
from wsd_classic.corpora.lexsample import ExpatReader
from wsd_classic.errors import WsdError

_BLOCK_SIZE = 1 << 16


@dataclass(frozen=True)
class RaganatoToken:
    """A word of a sentence; ``instance_id`` is set for the words to disambiguate."""

    text: str
    lemma: str
    pos: str  # universal POS tag (NOUN, VERB, ADJ, ADV, ...)
    instance_id: str | None = None
    line: int | None = None  # where the element starts, for instances


@dataclass(frozen=True)
class RaganatoSentence:
    """A ``<sentence>`` with the id of the ``<text>`` (document) that holds it."""

    id: str
    document_id: str
    tokens: tuple[RaganatoToken, ...]

    @property
    def instances(self) -> tuple[RaganatoToken, ...]:
        return tuple(token for token in self.tokens if token.instance_id is not None)


def iter_raganato(path: str | os.PathLike) -> Iterator[RaganatoSentence]:
    """The sentences of a ``*.data.xml`` file, in file order, read as they are needed.

    Raises ``WsdError`` with the file and line for broken XML, misplaced elements, missing
    attributes, empty words and repeated instance ids, when the reading reaches them.
    """
    reader = _Reader(path)
    try:
        with open(path, "rb") as stream:
            while block := stream.read(_BLOCK_SIZE):
                reader.feed(block, final=False)
                yield from reader.take_sentences()
            reader.feed(b"", final=True)
    except OSError as error:
        raise WsdError(f"cannot read the file: {error.strerror}", path) from None
    yield from reader.take_sentences()


class _Reader(ExpatReader):
    """Turns elements into finished sentences."""

    PARENTS = {"corpus": {None}, "text": {"corpus"}, "sentence": {"text"}, "wf": {"sentence"},
               "instance": {"sentence"}}

    def __init__(self, path: str | os.PathLike):
        super().__init__(path)
        self.document_id: str | None = None
        self.sentence_id: str | None = None
        self.tokens: list[RaganatoToken] = []
        self.word: dict[str, str] | None = None  # attributes of the open <wf> or <instance>
        self.word_line = 0
        self.word_text: list[str] = []
        self.instance_ids: set[str] = set()
        self.finished: list[RaganatoSentence] = []

    def take_sentences(self) -> list[RaganatoSentence]:
        finished, self.finished = self.finished, []
        return finished

    def start(self, name: str, attributes: dict[str, str]) -> None:
        if name == "text":
            self.document_id = self.required(name, attributes, "id")
        elif name == "sentence":
            self.sentence_id = self.required(name, attributes, "id")
            self.tokens = []
        elif name in ("wf", "instance"):
            for required in ("lemma", "pos", "id") if name == "instance" else ("lemma", "pos"):
                self.required(name, attributes, required)
            if name == "instance":
                if attributes["id"] in self.instance_ids:
                    raise self.error(f"second instance with id {attributes['id']!r}")
                self.instance_ids.add(attributes["id"])
            self.word = attributes
            self.word_line = self.expat.CurrentLineNumber
            self.word_text = []

    def end(self, name: str) -> None:
        if name in ("wf", "instance"):
            text = "".join(self.word_text).strip()
            if not text:
                raise self.error(f"empty <{name}>")
            instance = name == "instance"
            self.tokens.append(RaganatoToken(
                text, self.word["lemma"], self.word["pos"],
                self.word["id"] if instance else None, self.word_line if instance else None))
            self.word = None
        elif name == "sentence":
            self.finished.append(RaganatoSentence(
                self.sentence_id, self.document_id, tuple(self.tokens)))

    def characters(self, data: str) -> None:
        if self.word is not None:
            self.word_text.append(data)
        elif data.strip():
            raise self.stray_text_error(data, "<wf> and <instance>")


def read_raganato_key(path: str | os.PathLike) -> dict[str, tuple[str, ...]]:
    """A ``*.gold.key.txt`` file: instance id -> its sense keys, in file order.

    Each line is ``instance_id key [key ...]``, fields separated by any whitespace; decoding,
    blank lines and the refusal of binary or empty files are those of every key file
    (``corpora.keys.read_records``). A line without a key, or an instance listed twice, is a
    ``WsdError`` at that line.
    """
    keys: dict[str, tuple[str, ...]] = {}
    for number, (instance_id, *senses) in read_records(path, "gold key"):
        if not senses:
            raise WsdError(f"instance {instance_id!r} has no sense key", path, number)
        if instance_id in keys:
            raise WsdError(f"instance {instance_id!r} is listed a second time", path, number)
        keys[instance_id] = tuple(senses)
    return keys


def write_raganato_key(path: str | os.PathLike,
                       items: Mapping[str, Sequence[str]] | Iterable[tuple[str, Sequence[str]]],
                       ) -> None:
    """Write ``instance_id key [key ...]`` lines through a temporary file, replacing ``path``.

    An instance without keys, or an id or key that would not read back as one field, is a
    ``ValueError`` (a caller's bug, not a user's), and nothing is written.
    """
    pairs = items.items() if isinstance(items, Mapping) else items
    lines = []
    for instance_id, senses in pairs:
        if not senses:
            raise ValueError(f"instance {instance_id!r} has no sense key to write")
        for field in (instance_id, *senses):
            check_field(field)
        lines.append(" ".join((instance_id, *senses)))
    write_lines_atomically(path, lines)
