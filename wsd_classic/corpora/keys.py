"""SENSEVAL key files, and the line format they share with answer and sensemap files.

A key line is ``lemma instance tag [tag ...]``: the first field is the bare lemma (``art``) in
the SENSEVAL-2 distribution, or a lexelt (``art.n``) in others; the fields are separated by any
run of spaces and tabs; text from ``!!`` to the end of the line is a comment. The real SENSEVAL-2
key repeats a tag on some lines (``art art.40022 art%1:04:00:: art%1:04:00::``): the repetition
carries no meaning, so the reader keeps each tag once.

``read_records`` and ``write_lines_atomically`` are the shared plumbing of the three scorer2
formats (keys here, ``answers.senseval`` and ``corpora.sensemap``): one place decides how a file
is decoded, how binary input is refused and how a file is replaced without ever leaving a
half-written one under its final name (``write_atomically``, which ``bin/report`` uses too).
``parse_tag`` and ``is_writable_sense`` say where a tag's ``/weight`` starts, as answer files
write it and as safe ids (``corpora.ids``) must avoid.
"""
from __future__ import annotations

import math
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from wsd_classic.atomic import write_lines_atomically
from wsd_classic.errors import WsdError

COMMENT = "!!"
# In answer files, ``sense/weight``: see ``parse_tag``.
WEIGHT_DELIMITER = "/"


@dataclass(frozen=True)
class KeyEntry:
    """The gold tags of one instance, distinct and in file order."""

    lexelt: str
    instance: str
    tags: tuple[str, ...]
    line: int | None = field(default=None, compare=False)  # in the file read, for errors


def read_key(path: str | os.PathLike) -> dict[str, KeyEntry]:
    """The key's entries by instance id, in file order.

    An instance listed twice is an error rather than a merge: the two lines would disagree on
    what the gold answer is, and silently picking one would change the scores.
    """
    entries: dict[str, KeyEntry] = {}
    for number, fields in read_records(path, "key"):
        if len(fields) < 3:
            raise WsdError(
                f"expected 'lemma instance tag [tag ...]', got {' '.join(fields)!r}", path, number)
        lexelt, instance, *tags = fields
        if instance in entries:
            raise WsdError(
                f"instance {instance} already has a key at line {entries[instance].line}",
                path, number)
        entries[instance] = KeyEntry(lexelt, instance, tuple(dict.fromkeys(tags)), number)
    return entries


def write_key(path: str | os.PathLike,
              entries: Iterable[KeyEntry] | Mapping[str, KeyEntry]) -> None:
    """Write ``entries`` (a ``read_key`` result or any iterable of them), one line each."""
    if isinstance(entries, Mapping):
        entries = entries.values()
    lines = []
    for entry in entries:
        if not entry.tags:
            raise ValueError(f"key entry for {entry.instance} has no tag")
        fields = (entry.lexelt, entry.instance, *entry.tags)
        for value in fields:
            check_field(value)
        lines.append(" ".join(fields))
    write_lines_atomically(path, lines)


def read_records(path: str | os.PathLike, what: str) -> list[tuple[int, list[str]]]:
    """The ``(line number, fields)`` of every line that holds more than a comment.

    Files are UTF-8 when they decode as such, else ISO-8859-1 (the SENSEVAL distributions'
    encoding), so both the original files and ones written here read back. A NUL byte means the
    file is not text at all; a file with no record is an error too, because scoring against an
    empty key or answer file always means a wrong path or a failed earlier step. ``what`` names
    the expected content in that error.
    """
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise WsdError(f"cannot read the {what} file: {error.strerror or error}", path) from None
    nul = data.find(b"\0")
    if nul >= 0:
        raise WsdError(f"not a text file (NUL byte); expected a {what} file",
                       path, data.count(b"\n", 0, nul) + 1)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("iso-8859-1")
    # Split on "\n" only: str.splitlines() also breaks at form feeds and other separators,
    # which would shift every later line number away from what an editor shows.
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    records = []
    for number, line in enumerate(lines, 1):
        fields = line.split(COMMENT, 1)[0].split()
        if fields:
            records.append((number, fields))
    if not records:
        raise WsdError(f"no {what} lines (the file is empty or holds only comments)",
                       path, max(1, len(lines)))
    return records


def check_field(value: str) -> None:
    """Refuse a value that would not read back as the same single field."""
    if not value or value != "".join(value.split()) or COMMENT in value:
        raise ValueError(f"{value!r} cannot be written as one field (empty, whitespace or '!!')")


def parse_tag(tag: str) -> tuple[str, float | None]:
    """Split ``sense/weight`` into the sense and its weight (``None`` when there is none)."""
    sense, delimiter, weight_text = tag.rpartition(WEIGHT_DELIMITER)
    if not delimiter or "%" in weight_text:
        return tag, None
    try:
        weight = float(weight_text)
    except ValueError:
        raise ValueError(f"bad weight {weight_text!r} in {tag!r}: expected a number") from None
    if not math.isfinite(weight) or weight < 0:
        raise ValueError(f"bad weight {weight_text!r} in {tag!r}: must be a finite number >= 0")
    if not sense:
        raise ValueError(f"weight without a sense in {tag!r}")
    return sense, weight


def is_writable_sense(sense: str) -> bool:
    """Whether ``sense``, written without a weight, reads back as itself (a weight written
    after it always leaves the sense intact: the reader splits at the last ``/``)."""
    try:
        return parse_tag(sense) == (sense, None)
    except ValueError:
        return False
