"""The official scorers, reimplemented: SENSEVAL's scorer2 and Raganato et al.'s Java scorer.

Both skip predictions the gold standard cannot judge rather than fail, as the originals do, but
say so: ``report_ignored`` is their shared way of telling the user on stderr.
"""
from __future__ import annotations

import sys

# At most this many ignored answers are reported one per line; the rest are summed up.
MAX_WARNINGS = 10


def ratio(numerator: float, denominator: float) -> float:
    """``numerator / denominator``, 0.0 when nothing was there to divide by."""
    return numerator / denominator if denominator else 0.0


def report_ignored(messages: list[str]) -> None:
    """One stderr line per ignored answer, up to ``MAX_WARNINGS``, then a count of the rest."""
    for message in messages[:MAX_WARNINGS]:
        print(f"warning: answer ignored: {message}", file=sys.stderr)
    if len(messages) > MAX_WARNINGS:
        print(f"warning: {len(messages) - MAX_WARNINGS} more answers ignored", file=sys.stderr)
