"""Reader for SENSEVAL lexical-sample XML (training and test files).

The files declare ``<!DOCTYPE corpus SYSTEM "lexical-sample.dtd">`` and use SGML entities that
only the DTD declares, so they cannot be handed to an XML parser as they are. The reader decodes
the bytes itself (honouring the XML declaration's encoding), replaces every ``&name;`` that is not
one of XML's five by the character(s) ``ENTITIES`` names, and only then runs expat, which never
fetches the DTD. Replacements never contain a newline, so expat's line numbers stay those of the
file.

Two shapes of ``<context>`` are accepted:

* running text with one ``<head>`` and any ``<sat>`` elements (the SENSEVAL files);
* a sequence of ``<wf pos=...>`` tokens (with or without ``lemma``), ``<head>`` wrapping one of
  them (NLTK's SENSEVAL corpora) or a ``<compound>`` of several, which the head then spans; the
  tokens are joined with single spaces. The POS tags and lemmas are not kept: ``Instance`` has
  no place for them.

Either shape may be divided into ``<p>`` paragraphs and ``<s>`` sentences, empty
(``<s snum="1"/>``) or holding their text; their edges separate words. Answers may come in
``<answer>`` elements or in a separate key file. Instance ids, lexelt names and sense ids that a
key or answer file cannot hold are replaced by safe ones (``corpora.ids``).
"""
from __future__ import annotations

import os
import re
from abc import ABC, abstractmethod
from dataclasses import dataclass, field, replace
from pathlib import Path
from xml.parsers import expat

from wsd_classic.corpora.entities import ENTITIES, XML_PREDEFINED
from wsd_classic.corpora.ids import renamed, safe_ids
from wsd_classic.corpora.keys import read_key
from wsd_classic.corpora.model import Instance, LexicalSample, Lexelt
from wsd_classic.errors import WsdError

_XML_ENCODING = re.compile(
    rb"""\A(?:\xef\xbb\xbf)?\s*<\?xml[^>]*?\bencoding\s*=\s*["']([^"']+)["']""")
_ENTITY_REFERENCE = re.compile(r"&([A-Za-z_][\w.-]*);")

# The whitespace-cleaned SENSEVAL-2 files lost the space after </head> in most noun and adjective
# instances (``<head>art</head>gallery``, ``<head>dress</head><sat>up</sat>``), so a space is put
# back at either edge of the head unless the characters on either side attach to each other: an
# opening bracket or quote before, closing punctuation (``'s``, ``,``, ``)``, ...) after, or a
# hyphen or slash on either side. Satellites kept their spaces: the only ones glued to a letter
# are parts of a word (``<sat>in</sat>to``, ``<sat>chord</sat>s``) and stay glued.
_ATTACHES_TO_NEXT = "([{\u201c\u2018`\"'-/"
_ATTACHES_TO_PREVIOUS = ")]}\u201d\u2019\"'.,;:!?\u2026%-/"

_TEXT, _TOKEN, _OPEN, _CLOSE = range(4)


def read_lexical_sample(path: str | os.PathLike,
                        answer_key: str | os.PathLike | None = None) -> LexicalSample:
    """Read a SENSEVAL lexical-sample XML file, training (with ``<answer>``s) or test.

    ``answer_key`` names a key file holding the answers, for corpora that give them apart from
    the XML; its lines name instances by the file's ids (or their safe stand-ins).
    Raises ``WsdError`` with the file and line for anything malformed: broken XML, an entity the
    DTD does not declare, an instance without exactly one ``<head>``, a missing attribute.
    """
    text = read_text_file(path)
    if not text.strip():
        raise WsdError("empty file: expected SENSEVAL lexical-sample XML", path)
    sample = _Parser(path).parse(_replace_entities(text, path))
    if answer_key is not None:
        sample = _with_key_answers(sample, answer_key)
    return _with_safe_ids(sample)


def check_annotated(sample: LexicalSample) -> None:
    """Refuse training data without a single answer, naming the ways to give them."""
    if not any(instance.answers for instance in sample.instances()):
        raise WsdError("no instance has an answer: training needs the senses, in <answer "
                       "instance=... senseid=...> elements or in a key file given beside it "
                       "(bin/train --train-key FILE)", sample.source)


def check_split(train: LexicalSample, test: LexicalSample) -> None:
    """Refuse a split of the annotated instances that leaves nothing to score: no training
    instance, or no test instance of a lexelt with training instances (only those can be
    answered)."""
    trained = {lexelt.item for lexelt in train.lexelts if lexelt.instances}
    answerable = sum(len(lexelt.instances) for lexelt in test.lexelts if lexelt.item in trained)
    for count, what in ((len(train), "training instance"),
                        (answerable, "test instance in a lexelt it trains on")):
        if not count:
            raise WsdError(f"the split leaves no {what}: the file has "
                           f"{len(train) + len(test)} annotated instance(s); annotate more or "
                           "change --split", train.source)


def _with_key_answers(sample: LexicalSample, key_path: str | os.PathLike) -> LexicalSample:
    """``sample`` with the answers of the key file; an instance answered in both must agree."""
    instances = list(sample.instances())
    safe = safe_ids((instance.id for instance in instances), "instance")
    by_id = {safe[instance.id]: instance for instance in instances}
    by_id.update((instance.id, instance) for instance in instances)
    answers = {}
    for entry in read_key(key_path).values():
        instance = by_id.get(entry.instance)
        if instance is None:
            raise WsdError(f"instance {entry.instance} is not in {sample.source}: is this the "
                           "key of another file?", key_path, entry.line)
        if instance.answers and set(instance.answers) != set(entry.tags):
            raise WsdError(f"instance {entry.instance}: the key gives {' '.join(entry.tags)}, "
                           f"the XML file {' '.join(instance.answers)}; remove the <answer> "
                           "elements or correct the key", key_path, entry.line)
        answers[instance.id] = entry.tags
    return LexicalSample(
        [Lexelt(lexelt.item, [replace(instance, answers=answers.get(instance.id, instance.answers))
                              for instance in lexelt.instances]) for lexelt in sample.lexelts],
        sample.source)


def _with_safe_ids(sample: LexicalSample) -> LexicalSample:
    """``sample`` with every id a key or answer file could not hold replaced (``corpora.ids``)."""
    instances = list(sample.instances())
    maps = {"lexelt": safe_ids((lexelt.item for lexelt in sample.lexelts), "lexelt"),
            "instance": safe_ids((instance.id for instance in instances), "instance"),
            "sense": safe_ids((sense for instance in instances for sense in instance.answers),
                              "sense")}
    renamed_ids = {kind: renamed(mapping) for kind, mapping in maps.items()}
    if not any(renamed_ids.values()):
        return sample
    items, ids, senses = maps["lexelt"], maps["instance"], maps["sense"]
    return LexicalSample(
        [Lexelt(items[lexelt.item],
                [replace(instance, id=ids[instance.id], lexelt=items[lexelt.item],
                         answers=tuple(senses[sense] for sense in instance.answers))
                 for instance in lexelt.instances]) for lexelt in sample.lexelts],
        sample.source, renamed_ids)


def read_text_file(path: str | os.PathLike, encoding: str | None = None) -> str:
    """A whole text file, decoded; ``WsdError`` if unreadable, binary or not in the encoding.

    ``encoding=None`` means the one an XML declaration names, else UTF-8. The other corpus
    readers use this too, so every reader reports an undecodable byte by its line.
    """
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise WsdError(f"cannot read the file: {error.strerror}", path) from None
    if b"\0" in data:
        raise WsdError("binary file (NUL byte), not text", path,
                       data.count(b"\n", 0, data.index(b"\0")) + 1)
    if encoding is None:
        declared = _XML_ENCODING.match(data)
        encoding = declared.group(1).decode("ascii", "replace") if declared else "utf-8"
    try:
        return data.decode(encoding)
    except LookupError:
        raise WsdError(f"unknown encoding {encoding!r} in the XML declaration", path, 1) from None
    except UnicodeDecodeError as error:
        raise WsdError(f"bytes that are not {encoding}: {error.reason}", path,
                       data.count(b"\n", 0, error.start) + 1) from None
    except UnicodeError as error:
        # Codecs such as 'undefined', 'idna' and 'punycode' fail without saying where.
        raise WsdError(f"cannot decode the file as {encoding!r} (the XML declaration's "
                       f"encoding): {error}", path, 1) from None


def _replace_entities(text: str, path: str | os.PathLike) -> str:
    """Replace ``&name;`` by its character(s); XML's own five are left to the parser."""
    def replacement(match: re.Match) -> str:
        name = match.group(1)
        if name in XML_PREDEFINED:
            return match.group(0)
        if name not in ENTITIES:
            raise WsdError(f"unknown entity &{name}; (not declared by the lexical-sample DTD)",
                           path, text.count("\n", 0, match.start()) + 1)
        return ENTITIES[name]

    return _ENTITY_REFERENCE.sub(replacement, text)


class ExpatReader(ABC):
    """Expat plumbing shared by the XML corpus readers (this one and ``corpora.raganato``).

    It checks that every element stands where ``PARENTS`` allows (element -> the elements it may
    appear in, None for the root), locates every error at the current line, and hands elements
    and text to the subclass's ``start``, ``end`` and ``characters``.
    """

    PARENTS: dict[str, set[str | None]] = {}

    def __init__(self, path: str | os.PathLike):
        self.path = path
        self.expat = expat.ParserCreate()
        self.expat.buffer_text = True
        self.expat.StartElementHandler = self._enter
        self.expat.EndElementHandler = self._leave
        self.expat.CharacterDataHandler = self.characters
        self.open_elements: list[str] = []

    def feed(self, data: str | bytes, final: bool = True) -> None:
        try:
            self.expat.Parse(data, final)
        except expat.ExpatError as error:
            raise WsdError(f"malformed XML: {expat.ErrorString(error.code)}", self.path,
                           error.lineno) from None
        except (LookupError, ValueError) as error:
            # From bytes, expat decodes per the XML declaration: it may name an unknown codec,
            # or one with multi-byte characters, which expat cannot use.
            raise WsdError(f"encoding of the XML declaration not supported: {error}", self.path,
                           self.expat.CurrentLineNumber) from None

    def _placement(self, name: str) -> str:
        """What to change about a misplaced element: where it may stand, if anywhere."""
        if name not in self.PARENTS:
            return (f"the format has no <{name}>: remove it (known elements: "
                    f"{', '.join(f'<{known}>' for known in self.PARENTS)})")
        if None in self.PARENTS[name]:
            return f"<{name}> may only be the root element"
        places = " or ".join(f"<{parent}>" for parent in sorted(self.PARENTS[name]))
        return f"<{name}> may stand only inside {places}"

    def error(self, message: str) -> WsdError:
        return WsdError(message, self.path, self.expat.CurrentLineNumber)

    def stray_text_error(self, data: str, allowed_in: str) -> WsdError:
        """Text where only markup may stand, located at its first visible character.

        Expat hands buffered text over when the next markup starts, so the line is counted
        back from there.
        """
        leading_space = data[:len(data) - len(data.lstrip())]
        line = self.expat.CurrentLineNumber - data.count("\n") + leading_space.count("\n")
        return WsdError(f"text outside {allowed_in}: {data.strip()[:40]!r}", self.path, line)

    def required(self, element: str, attributes: dict[str, str], name: str) -> str:
        if name not in attributes:
            raise self.error(f"<{element}> lacks the required attribute {name!r}")
        return attributes[name]

    def _enter(self, name: str, attributes: dict[str, str]) -> None:
        parent = self.open_elements[-1] if self.open_elements else None
        if parent not in self.PARENTS.get(name, ()):
            where = f"inside <{parent}>" if parent else "as the root element"
            raise self.error(f"unexpected <{name}> {where}; {self._placement(name)}")
        self.open_elements.append(name)
        self.start(name, attributes)

    def _leave(self, name: str) -> None:
        self.open_elements.pop()
        self.end(name)

    @abstractmethod
    def start(self, name: str, attributes: dict[str, str]) -> None:
        """An element begins; its place is already checked."""

    @abstractmethod
    def end(self, name: str) -> None:
        """An element ends."""

    @abstractmethod
    def characters(self, data: str) -> None:
        """Text, possibly in several pieces for one run."""


@dataclass
class _OpenInstance:
    """What is known of an ``<instance>`` before its end tag."""

    id: str
    docsrc: str | None
    answers: list[str] = field(default_factory=list)
    context: tuple[str, tuple[int, int], tuple[tuple[int, int], ...]] | None = None


class _Parser(ExpatReader):
    """Builds the corpus, checking the structure the DTD prescribes."""

    PARENTS = {
        "corpus": {None},
        "lexelt": {"corpus"},
        "instance": {"lexelt"},
        "answer": {"instance"},
        "context": {"instance"},
        "p": {"context"},
        "s": {"context", "p"},
        "head": {"context", "p", "s"},
        "sat": {"context", "p", "s"},
        "compound": {"context", "p", "s", "head", "sat"},
        "wf": {"context", "p", "s", "head", "sat", "compound"},
    }

    def __init__(self, path: str | os.PathLike):
        super().__init__(path)
        self.lexelts: list[Lexelt] = []
        self.instance_ids: set[str] = set()
        self.instance: _OpenInstance | None = None
        self.context: _ContextBuilder | None = None
        self.token: list[str] | None = None  # text of the open <wf>

    def parse(self, text: str) -> LexicalSample:
        self.feed(text)
        if not self.lexelts:
            raise WsdError("no <lexelt> in the file", self.path)
        return LexicalSample(self.lexelts, source=os.fspath(self.path))

    def start(self, name: str, attributes: dict[str, str]) -> None:
        if name == "lexelt":
            item = self.required(name, attributes, "item")
            if any(lexelt.item == item for lexelt in self.lexelts):
                raise self.error(f"second <lexelt item={item!r}>")
            self.lexelts.append(Lexelt(item))
        elif name == "instance":
            instance_id = self.required(name, attributes, "id")
            if instance_id in self.instance_ids:
                raise self.error(f"second instance with id {instance_id!r}")
            self.instance_ids.add(instance_id)
            self.instance = _OpenInstance(instance_id, attributes.get("docsrc"))
        elif name == "answer":
            answered = self.required(name, attributes, "instance")
            if answered != self.instance.id:
                raise self.error(f"<answer instance={answered!r}> inside instance "
                                 f"{self.instance.id!r}")
            sense = self.required(name, attributes, "senseid")
            if sense not in self.instance.answers:
                self.instance.answers.append(sense)
        elif name == "context":
            if self.instance.context is not None:
                raise self.error(f"second <context> in instance {self.instance.id!r}")
            self.context = _ContextBuilder()
        elif name == "head":
            if self.context.head_seen:
                raise self.error(f"second <head> in instance {self.instance.id!r}: an instance "
                                 "marks one target; make one instance per <head>, or wrap a "
                                 "multi-word target's words in one <head>")
            self.context.open_head(tuple(attributes.get("sats", "").split()))
        elif name == "sat":
            sat_id = self.required(name, attributes, "id")
            if sat_id in self.context.sat_ids:
                raise self.error(f"second <sat id={sat_id!r}> in instance {self.instance.id!r}")
            self.context.open_sat(sat_id)
        elif name == "wf":
            self.token = []
        elif name in ("p", "s"):
            self.context.add(_TEXT, " ")

    def end(self, name: str) -> None:
        if name == "wf":
            token = " ".join("".join(self.token).split())
            if not token:
                raise self.error(f"empty <wf> in instance {self.instance.id!r}")
            self.context.add(_TOKEN, token)
            self.token = None
        elif name in ("p", "s"):
            self.context.add(_TEXT, " ")
        elif name in ("head", "sat"):
            if not self.context.close():
                raise self.error(f"empty <{name}> in instance {self.instance.id!r}")
        elif name == "context":
            self.instance.context = self._build_context()
            self.context = None
        elif name == "instance":
            if self.instance.context is None:
                raise self.error(f"instance {self.instance.id!r} has no <context>: give it one, "
                                 "with the target word in <head>...</head>")
            text, head, sats = self.instance.context
            self.lexelts[-1].instances.append(Instance(
                id=self.instance.id, lexelt=self.lexelts[-1].item, text=text, head=head,
                sats=sats, answers=tuple(self.instance.answers), docsrc=self.instance.docsrc))
            self.instance = None

    def _build_context(self) -> tuple[str, tuple[int, int], tuple[tuple[int, int], ...]]:
        instance_id = self.instance.id
        if not self.context.head_seen:
            raise self.error(f"instance {instance_id!r} has no <head>: mark its target word "
                             "as <head>word</head>")
        text, head, sat_spans = self.context.build()
        referenced = self.context.head_sats
        for sat_id in referenced:
            if sat_id not in sat_spans:
                raise self.error(f"the <head> of instance {instance_id!r} names satellite "
                                 f"{sat_id!r}, which is not in its context")
        for sat_id in sat_spans:
            if sat_id not in referenced:
                raise self.error(f"<sat id={sat_id!r}> in instance {instance_id!r} is not named "
                                 "by its <head sats=...>")
        return text, head, tuple(sat_spans[sat_id] for sat_id in referenced)

    def characters(self, data: str) -> None:
        if self.token is not None:
            self.token.append(data)
        elif self.context is not None:
            self.context.add(_TEXT, data)
        elif data.strip():
            raise self.stray_text_error(data, "<context>")


class _ContextBuilder:
    """Collects one ``<context>`` as a list of events and renders it as text plus spans.

    Rendering waits until ``</context>`` because the shape (running text or ``<wf>`` tokens) is
    known only once the whole context has been seen.
    """

    def __init__(self):
        self.events: list[tuple[int, object]] = []
        self.head_seen = False
        self.head_sats: tuple[str, ...] = ()
        self.sat_ids: list[str] = []
        self.open_has_text = False

    def add(self, kind: int, text: str) -> None:
        if kind == _TEXT and self.events and self.events[-1][0] == _TEXT:
            # Expat may hand one run of text over in pieces; a word must not be split.
            text = self.events.pop()[1] + text
        self.events.append((kind, text))
        if text and not text.isspace():
            self.open_has_text = True

    def open_head(self, sat_ids: tuple[str, ...]) -> None:
        """Start the head, which names the ids of its satellites."""
        self.head_seen = True
        self.head_sats = sat_ids
        self.events.append((_OPEN, None))
        self.open_has_text = False

    def open_sat(self, sat_id: str) -> None:
        self.sat_ids.append(sat_id)
        self.events.append((_OPEN, sat_id))
        self.open_has_text = False

    def close(self) -> bool:
        """End the open ``head`` or ``sat``; False if it held no text."""
        self.events.append((_CLOSE, None))
        return self.open_has_text

    def build(self) -> tuple[str, tuple[int, int], dict[str, tuple[int, int]]]:
        """The context's text, the head's span and each satellite's span by id."""
        if any(kind == _TOKEN for kind, _ in self.events):
            text, spans = _render_tokens(self.events)
        else:
            text, spans = _render_running_text(self.events)
        stripped = text.strip()
        lead = len(text) - len(text.lstrip())
        head = None
        sats = {}
        for sat_id, start, end in spans:
            span = _trimmed(text, start, end)
            span = (span[0] - lead, span[1] - lead)
            if sat_id is None:
                head = span
            else:
                sats[sat_id] = span
        return stripped, head, sats


def _render_running_text(events) -> tuple[str, list[tuple[str | None, int, int]]]:
    """Concatenate the text, restoring the space the source lost at the edges of the head."""
    pieces: list[str] = []
    length = 0
    at_head_edge = False
    spans = []
    for kind, value in events:
        if kind == _TEXT:
            if not value:
                continue
            if at_head_edge and pieces and _needs_space(pieces[-1][-1], value[0]):
                pieces.append(" ")
                length += 1
            pieces.append(value)
            length += len(value)
            at_head_edge = False
        elif kind == _OPEN:
            open_id, start = value, length
            at_head_edge = at_head_edge or open_id is None
        else:
            spans.append((open_id, start, length))
            at_head_edge = at_head_edge or open_id is None
    return "".join(pieces), spans


def _render_tokens(events) -> tuple[str, list[tuple[str | None, int, int]]]:
    """Join ``<wf>`` tokens (and any words between them) with single spaces."""
    tokens: list[str] = []
    spans_in_tokens = []
    for kind, value in events:
        if kind == _TEXT:
            tokens.extend(value.split())
        elif kind == _TOKEN:
            tokens.append(value)
        elif kind == _OPEN:
            open_id, first = value, len(tokens)
        else:
            spans_in_tokens.append((open_id, first, len(tokens)))
    starts = []
    offset = 0
    for token in tokens:
        starts.append(offset)
        offset += len(token) + 1
    starts.append(offset)
    return " ".join(tokens), [(open_id, starts[first], starts[last] - 1)
                              for open_id, first, last in spans_in_tokens]


def _needs_space(before: str, after: str) -> bool:
    return not (before.isspace() or after.isspace()
                or before in _ATTACHES_TO_NEXT or after in _ATTACHES_TO_PREVIOUS)


def _trimmed(text: str, start: int, end: int) -> tuple[int, int]:
    """The span without the whitespace at its edges."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end
