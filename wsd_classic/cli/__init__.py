"""Command-line entry points; ``bin/*`` are thin shells over these."""
from __future__ import annotations

import contextlib
import functools
import sys
import warnings
from typing import Callable

from wsd_classic.errors import WsdError


def entry_point(main: Callable[[list[str] | None], int | None]) -> Callable[[list[str] | None], int]:
    """Run ``main`` so that user errors become one line on stderr and a non-zero exit, and the
    project's own warnings one line on stderr."""

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
                raise
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


def _caused_by_interrupt(error: BaseException) -> bool:
    seen = set()
    while error is not None and id(error) not in seen:
        if isinstance(error, KeyboardInterrupt):
            return True
        seen.add(id(error))
        error = error.__cause__ or error.__context__
    return False


def _program_name() -> str:
    import os

    return os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else "wsd-classic"
