"""The project's one user-facing error type.

Every problem a user can cause (bad input file, missing data, unknown option value) is raised as
``WsdError``; the command-line layer prints it as one line and exits non-zero, never a traceback.
"""
from __future__ import annotations

import os


class WsdError(Exception):
    """A human-readable, one-line error, optionally located at ``path:line``."""

    def __init__(self, message: str, path: str | os.PathLike | None = None, line: int | None = None):
        self.message = " ".join(str(message).split())
        self.path = os.fspath(path) if path is not None else None
        self.line = line
        super().__init__(str(self))

    def __str__(self) -> str:
        where = ""
        if self.path is not None:
            where = f"{self.path}:{self.line}: " if self.line is not None else f"{self.path}: "
        return where + self.message
