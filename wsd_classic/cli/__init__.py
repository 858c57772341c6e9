"""Command-line entry points; ``bin/*`` are thin shells over these."""
from __future__ import annotations

import functools
import sys
from typing import Callable

from wsd_classic.errors import WsdError


def entry_point(main: Callable[[list[str] | None], int | None]) -> Callable[[list[str] | None], int]:
    """Run ``main`` so that user errors become one line on stderr and a non-zero exit."""

    @functools.wraps(main)
    def run(argv: list[str] | None = None) -> int:
        try:
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
