"""The project's one user-facing error type.

Every problem a user can cause (bad input file, missing data, unknown option value) is raised as
``WsdError``; the command-line layer prints it as one line and exits non-zero, never a traceback.
"""
from __future__ import annotations

import os

# Messages quote the input they complain about; a damaged file can make that a megabyte-long
# field, so longer messages keep their start and end, which say what is wrong and where.
MAX_MESSAGE_CHARS = 1000


class WsdError(Exception):
    """A human-readable, one-line error, optionally located at ``path:line``."""

    def __init__(self, message: str, path: str | os.PathLike | None = None, line: int | None = None):
        self.message = _shortened(" ".join(str(message).split()))
        self.path = os.fspath(path) if path is not None else None
        self.line = line
        super().__init__(str(self))

    def __str__(self) -> str:
        where = ""
        if self.path is not None:
            where = f"{self.path}:{self.line}: " if self.line is not None else f"{self.path}: "
        return where + self.message


def _shortened(message: str) -> str:
    if len(message) <= MAX_MESSAGE_CHARS:
        return message
    tail = MAX_MESSAGE_CHARS // 4
    head = MAX_MESSAGE_CHARS - tail
    return f"{message[:head]}[... {len(message) - head - tail:,} characters ...]{message[-tail:]}"
