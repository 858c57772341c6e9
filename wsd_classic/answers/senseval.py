"""SENSEVAL answer files: what a system submits to scorer2.

A line is ``lexelt instance sense[/weight] sense[/weight] ...``; ``!!`` starts a comment, on a
line of its own or after the answer. A weight is a non-negative number; scorer2 gives every tag
weight 1 when any tag of the line has none, so the reader keeps "no weight" (``None``) distinct
from an explicit one.

WordNet 3.0 has sense keys containing ``/`` (``24/7%1:28:00::``), so a ``/`` only starts a weight
when it is the last one in the tag and no ``%`` follows it: ``24/7%1:28:00::/0.5`` is that key
with weight 0.5, while ``x/abc`` is a malformed weight.
"""
from __future__ import annotations

import math
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from wsd_classic.atomic import write_lines_atomically
from wsd_classic.corpora.keys import (WEIGHT_DELIMITER, check_field, is_writable_sense, parse_tag,
                                      read_records)
from wsd_classic.errors import WsdError

# Written weights are whole multiples of 1 / WEIGHT_UNITS (4 decimals).
WEIGHT_UNITS = 10_000

SenseWeights = Mapping[str, float] | Sequence[tuple[str, float]]


@dataclass(frozen=True)
class Answer:
    """One answer line; ``senses`` keeps file order, with ``None`` for a tag without weight."""

    lexelt: str
    instance: str
    senses: tuple[tuple[str, float | None], ...]
    line: int


def read_answers(path: str | os.PathLike) -> list[Answer]:
    """Every answer line in file order; duplicates are kept, for the scorer to report."""
    answers = []
    for number, fields in read_records(path, "answer"):
        if len(fields) < 3:
            raise WsdError(
                f"expected 'lexelt instance sense[/weight] ...', got {' '.join(fields)!r}",
                path, number)
        lexelt, instance, *tags = fields
        try:
            senses = tuple(parse_tag(tag) for tag in tags)
        except ValueError as error:
            raise WsdError(str(error), path, number) from None
        answers.append(Answer(lexelt, instance, senses, number))
    return answers


def write_answers(path: str | os.PathLike, rows: Iterable[tuple[str, str, SenseWeights]],
                  *, top_only: bool = False) -> None:
    """Write one answer line per ``(lexelt, instance, senses)`` row, atomically.

    ``senses`` maps each sense to a non-negative score (a mapping, or ``(sense, score)`` pairs
    whose repeats are summed). Senses are written best first with weights normalised to sum to
    exactly 1 in the written text, so scorer2 neither rescales them nor counts part of the
    instance as unattempted; a sense whose weight rounds to zero is dropped. With ``top_only``
    only the best sense is written, without weight (ties go to the sense given first).
    Nothing is written unless every row is valid.
    """
    lines = [answer_line(lexelt, instance, senses, top_only=top_only)
             for lexelt, instance, senses in rows]
    write_lines_atomically(path, lines)


def answer_line(lexelt: str, instance: str, senses: SenseWeights, *, top_only: bool = False) -> str:
    """One answer line, without its newline, as ``write_answers`` writes it."""
    check_field(lexelt)
    check_field(instance)
    ranked = _ranked(instance, senses)
    if top_only:
        tokens = [_token(ranked[0][0], None)]
    else:
        tokens = [_token(sense, units) for sense, units in _apportioned(ranked) if units]
    return " ".join((lexelt, instance, *tokens))


def _ranked(instance: str, senses: SenseWeights) -> list[tuple[str, float]]:
    """Senses with positive weight, best first (stable, so ties keep the caller's order)."""
    totals: dict[str, float] = {}
    for sense, weight in senses.items() if isinstance(senses, Mapping) else senses:
        if not math.isfinite(weight) or weight < 0:
            raise ValueError(
                f"weight {weight!r} of {sense!r} for {instance}: must be finite and >= 0")
        totals[sense] = totals.get(sense, 0.0) + weight
    ranked = sorted(((sense, weight) for sense, weight in totals.items() if weight > 0),
                    key=lambda pair: -pair[1])
    if not ranked:
        raise ValueError(f"no sense with a positive weight for {instance}")
    return ranked


def _apportioned(ranked: list[tuple[str, float]]) -> list[tuple[str, int]]:
    """Each sense's share of ``WEIGHT_UNITS``, the shares summing to it exactly.

    Largest-remainder rounding: every share is rounded down, then the units still missing go to
    the largest fractions. Unlike adding the whole remainder to the best sense, no share can end
    up negative, and the shares keep the best-first order.
    """
    total = math.fsum(weight for _, weight in ranked)
    exact = [weight / total * WEIGHT_UNITS for _, weight in ranked]
    units = [math.floor(share) for share in exact]
    by_fraction = sorted(range(len(exact)), key=lambda index: units[index] - exact[index])
    for index in by_fraction[:WEIGHT_UNITS - sum(units)]:
        units[index] += 1
    return [(sense, share) for (sense, _), share in zip(ranked, units)]


def _token(sense: str, units: int | None) -> str:
    """``sense`` with its weight (``None``: none), refused unless it reads back as ``sense``."""
    check_field(sense)
    if units is None and not is_writable_sense(sense):
        raise ValueError(f"sense {sense!r} cannot be written: its '/' would read as a weight")
    return sense if units is None else (
        f"{sense}{WEIGHT_DELIMITER}{units // WEIGHT_UNITS}.{units % WEIGHT_UNITS:04d}")
