"""Command-line entry points; ``bin/*`` are thin shells over these."""
from __future__ import annotations

import contextlib
import functools
import os
import sys
import tempfile
import traceback
import warnings
from pathlib import Path
from typing import Callable

from wsd_classic import settings
from wsd_classic.errors import WsdError

# sysexits.h's EX_SOFTWARE: the program failed, not the input or the usage.
INTERNAL_ERROR_STATUS = 70
INTERNAL_ERROR_DIR = "internal-errors"  # under the cache directory
MAX_SUMMARY_CHARS = 300


def entry_point(main: Callable[[list[str] | None], int | None]) -> Callable[[list[str] | None], int]:
    """Run ``main`` so that user errors become one line on stderr and a non-zero exit, and the
    project's own warnings one line on stderr.

    Any other exception is a bug: it becomes ``PROGRAM: internal error: SUMMARY (details: FILE)``
    and exit status 70, the traceback going to FILE (``internal_error_report``). Outputs are
    built in staging directories and temporary files that an exception removes, so none is
    left half-written.
    """

    @functools.wraps(main)
    def run(argv: list[str] | None = None) -> int:
        try:
            with _one_line_warnings():
                return main(argv) or 0
        except WsdError as error:
            print(f"{_program_name()}: error: {error}", file=sys.stderr)
            return 2
        except KeyboardInterrupt:
            print(f"{_program_name()}: interrupted", file=sys.stderr)
            return 130
        except BrokenPipeError:
            # Output piped into `head` and closed early: not an error for the user.
            sys.stderr.close()
            return 0
        except Exception as error:
            # Ctrl-C inside a library's clean-up (numpy closing a half-written zip, say) surfaces
            # as that library's error with the KeyboardInterrupt as its context.
            if not _caused_by_interrupt(error):
                return _internal_error(error)
            print(f"{_program_name()}: interrupted", file=sys.stderr)
            return 130

    return run


@contextlib.contextmanager
def _one_line_warnings():
    """Warnings of this package's own classes print as ``PROGRAM: warning: MESSAGE``, without
    Python's file and source line, which only tell a user where in our code it was raised."""
    shown = warnings.showwarning

    def show(message, category, filename, lineno, file=None, line=None):
        if not category.__module__.startswith("wsd_classic."):
            return shown(message, category, filename, lineno, file, line)
        print(f"{_program_name()}: warning: {message}", file=file or sys.stderr)

    warnings.showwarning = show
    try:
        yield
    finally:
        warnings.showwarning = shown


def _internal_error(error: Exception) -> int:
    summary = " ".join(f"{type(error).__name__}: {error}".split())
    if len(summary) > MAX_SUMMARY_CHARS:
        summary = summary[:MAX_SUMMARY_CHARS] + "..."
    report = internal_error_report(error)
    details = f"details: {report}" if report else "no file for the details could be written"
    print(f"{_program_name()}: internal error: {summary} ({details})", file=sys.stderr)
    return INTERNAL_ERROR_STATUS


def internal_error_report(error: BaseException) -> Path | None:
    """Write the traceback of ``error`` to a new file under the cache directory's
    ``internal-errors/`` (the system's temporary directory if that cannot be written); its path,
    None if neither can be written.
    """
    text = "".join(traceback.format_exception(error))
    prefix = f"{_program_name()}-{os.getpid()}-"
    for directory in (settings.cache_dir() / INTERNAL_ERROR_DIR, Path(tempfile.gettempdir())):
        try:
            directory.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile("w", encoding="utf-8", prefix=prefix,
                                             suffix=".txt", dir=directory,
                                             delete=False) as stream:
                stream.write(text)
            return Path(stream.name)
        except OSError:
            continue
    return None


def _caused_by_interrupt(error: BaseException) -> bool:
    seen = set()
    while error is not None and id(error) not in seen:
        if isinstance(error, KeyboardInterrupt):
            return True
        seen.add(id(error))
        error = error.__cause__ or error.__context__
    return False


def _program_name() -> str:
    return os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else "wsd-classic"
