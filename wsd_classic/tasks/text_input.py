"""Plain UTF-8 text read incrementally and cut into blocks for spaCy.

A block is a paragraph (text up to a blank line) or, when a paragraph runs past ``MAX_BLOCK_CHARS``
(a 10 MB file on one line, say), a piece of it cut at a sentence end or a space. Input is read in
fixed-size byte chunks, so memory stays bounded by the block size whatever the file or line
length. Blocks are contiguous slices of the document: ``offset`` + a position in the block is
the character position in the whole text. Bytes that are not UTF-8 text are refused with the file,
line and byte offset where they start.
"""
from __future__ import annotations

import codecs
import io
import os
import re
import sys
from dataclasses import dataclass, replace
from typing import BinaryIO, Callable, Iterator

from wsd_classic.errors import WsdError

READ_BYTES = 1 << 16
# About 1,000 tokens: far more than a target's context (``spacy_component``), and small enough
# that spaCy's memory, which grows with the tokens of a batch, stays low (see tagging.SPACY_BATCH).
MAX_BLOCK_CHARS = 5_000
STDIN_NAME = "stdin"
_PARAGRAPH_BREAK = re.compile(r"\n[^\S\n]*\n\s*")
_SENTENCE_END = re.compile(r"[.!?][\"')\]\u201d\u2019]*\s+")
_SPACE = re.compile(r"\s+")


@dataclass(frozen=True)
class TextBlock:
    """A slice of a document; ``pause``: the input had nothing more to give after it yet."""

    document: str
    text: str
    offset: int
    line: int
    pause: bool = False


def read_blocks(source: str, max_chars: int | None = None,
                on_bytes: Callable[[int], None] | None = None) -> Iterator[TextBlock]:
    """The blocks of a file (``-``: standard input) of at most ``max_chars`` characters
    (default ``MAX_BLOCK_CHARS``); ``on_bytes`` is told of every chunk read."""
    max_chars = max_chars or MAX_BLOCK_CHARS
    if source == "-":
        yield from _blocks(sys.stdin.buffer, STDIN_NAME, max_chars, on_bytes)
        return
    try:
        stream = open(source, "rb")
    except OSError as error:
        raise WsdError(f"cannot read: {error.strerror or error}", source) from None
    with stream:
        yield from _blocks(stream, source, max_chars, on_bytes)


def text_blocks(text: str, document: str) -> Iterator[TextBlock]:
    """The blocks of a text given as a string, cut as those of a file holding it."""
    try:
        encoded = text.encode("utf-8")
    except UnicodeEncodeError as error:
        raise WsdError(f"not text: character {error.start} is a lone surrogate "
                       f"({text[error.start]!r})", document) from None
    yield from _blocks(io.BytesIO(encoded), document, MAX_BLOCK_CHARS, None)


def _blocks(stream: BinaryIO, name: str, max_chars: int,
            on_bytes: Callable[[int], None] | None) -> Iterator[TextBlock]:
    decoder = codecs.getincrementaldecoder("utf-8")()
    pending, offset, line = "", 0, 1
    bytes_read, newlines_read = 0, 0
    first = True
    # what the stream has now, without waiting for a full chunk (a pipe's writer may pause)
    read = getattr(stream, "read1", stream.read)
    while True:
        try:
            raw = read(READ_BYTES)
        except OSError as error:
            raise WsdError(f"cannot read: {error.strerror or error}", name) from None
        if on_bytes is not None:
            on_bytes(len(raw))
        zero = raw.find(b"\0")
        if zero >= 0:
            raise WsdError(f"binary data, not text (NUL byte at byte offset {bytes_read + zero})",
                           name, newlines_read + raw.count(b"\n", 0, zero) + 1)
        buffered = decoder.getstate()[0]
        try:
            text = decoder.decode(raw, final=not raw)
        except UnicodeDecodeError as error:
            joined = buffered + raw
            position = bytes_read - len(buffered) + error.start
            raise WsdError(f"not UTF-8 text (byte 0x{joined[error.start]:02x} at byte offset "
                           f"{position})", name,
                           newlines_read + joined.count(b"\n", 0, error.start) + 1) from None
        bytes_read += len(raw)
        newlines_read += raw.count(b"\n")
        if first and text:
            text = text.removeprefix("\ufeff")
            first = False
        pending += text
        paused = len(raw) < READ_BYTES
        blocks = []
        while True:
            cut = _cut(pending, max_chars, final=not raw, paused=paused)
            if cut is None:
                break
            block, pending = pending[:cut], pending[cut:]
            if block.strip():
                blocks.append(TextBlock(name, block, offset, line))
            offset += len(block)
            line += block.count("\n")
        if blocks and paused:
            blocks[-1] = replace(blocks[-1], pause=True)
        yield from blocks
        if not raw:
            return


def _cut(text: str, max_chars: int, final: bool, paused: bool = False) -> int | None:
    """Where the first block of ``text`` ends, or None to wait for more input. A paragraph break
    at the end of the text read so far ends a block when the input has paused (else more blank
    lines may follow, which belong to the same break)."""
    if not text:
        return None
    paragraph = _PARAGRAPH_BREAK.search(text, 0, max_chars)
    if paragraph is not None and (paragraph.end() < len(text) or paused):
        return paragraph.end()
    if len(text) <= max_chars:
        return len(text) if final else None
    # A paragraph longer than a block: cut at the last sentence end in its second half, else at
    # the last space, else (no space at all) anywhere.
    for pattern in (_SENTENCE_END, _SPACE):
        ends = [match.end() for match in pattern.finditer(text, max_chars // 2, max_chars)]
        if ends:
            return ends[-1]
    return max_chars


def check_readable(sources: list[str]) -> None:
    """Refuse, before anything is read or written, a named file that cannot be read."""
    for source in sources:
        if source == "-":
            continue
        if os.path.isdir(source):
            raise WsdError("cannot read: Is a directory", source)
        if not os.access(source, os.R_OK):
            problem = "Permission denied" if os.path.exists(source) else "No such file or directory"
            raise WsdError(f"cannot read: {problem}", source)


def input_size(sources: list[str]) -> int | None:
    """Total bytes of the named files, None when one is standard input or not a regular file."""
    total = 0
    for source in sources:
        if source == "-" or not os.path.isfile(source):
            return None
        total += os.path.getsize(source)
    return total
