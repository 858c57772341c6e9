"""Atomic file writes: every file the project writes appears whole under its name, or not at all.

The content goes to a temporary file in the same directory, is synced to disk and then
``os.replace``d over the target: readers see either the old file or the complete new one, across
a crash too, and an exception on the way (a failed producer, Ctrl-C) removes the temporary file.
It is created with ``open(..., "x")`` rather than ``tempfile.mkstemp`` so that the final file gets
the usual umask-based permissions, not mkstemp's owner-only ones.
"""
from __future__ import annotations

import contextlib
import json
import os
import secrets
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import BinaryIO

from wsd_classic.errors import WsdError


@contextlib.contextmanager
def atomic_file(path: str | os.PathLike) -> Iterator[BinaryIO]:
    """A binary stream whose content replaces ``path`` when the block ends without an error."""
    target = Path(path)
    temporary = target.with_name(f".{target.name}.{secrets.token_hex(8)}.tmp")
    try:
        with open(temporary, "xb") as stream:
            yield stream
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, target)
    except BaseException as error:
        temporary.unlink(missing_ok=True)
        if isinstance(error, OSError):
            raise WsdError(f"cannot write the file: {error.strerror or error}", path) from None
        raise


def write_atomically(path: str | os.PathLike, chunks: Iterable[bytes]) -> None:
    """Write ``chunks`` one after another as the new content of ``path``."""
    with atomic_file(path) as stream:
        for chunk in chunks:
            stream.write(chunk)


def write_lines_atomically(path: str | os.PathLike, lines: Iterable[str]) -> None:
    """Write ``lines`` as UTF-8 text, each ended by a newline."""
    write_atomically(path, ((line + "\n").encode("utf-8") for line in lines))


def write_json_atomically(path: str | os.PathLike, value) -> None:
    write_atomically(path, [(json.dumps(value, indent=2, sort_keys=True) + "\n").encode()])
