"""scorer2 sensemap files: the sense groupings behind coarse- and mixed-grained scoring.

Each line is ``sense [N1 parent [N2 grandparent ...]]``: the sense, then its chain of subsuming
senses, nearest first, each preceded by a count. scorer2 reads the counts as the number of senses
the following subsumer stands for, and gives an answer naming a subsumer of the gold sense the
credit ``1 / (N1 * N2 * ...)`` up to that subsumer. A sense with no line of its own is its own
group.

The organisers' SENSEVAL-2 map lists five senses twice, either identically or once bare and once
with a parent (``pull%2:35:01::``); a bare repetition adds nothing, so the line with the chain
wins. Two different chains for one sense would make the scores depend on line order, and are an
error.
"""
from __future__ import annotations

import os
from dataclasses import dataclass

from wsd_classic.corpora.keys import read_records
from wsd_classic.errors import WsdError


@dataclass(frozen=True)
class SenseMap:
    """Each listed sense's chain of ``(count, subsumer)`` pairs, nearest subsumer first."""

    chains: dict[str, tuple[tuple[int, str], ...]]

    def top(self, tag: str) -> str:
        """The tag's coarse group: the last sense on its line, or the tag itself if unlisted."""
        chain = self.chains.get(tag)
        return chain[-1][1] if chain else tag

    def ancestors(self, tag: str) -> tuple[str, ...]:
        """The senses subsuming ``tag``, nearest first (empty for an unlisted or top sense)."""
        return tuple(subsumer for _, subsumer in self.chains.get(tag, ()))

    def counts(self, tag: str) -> tuple[int, ...]:
        """The counts written before each of ``ancestors(tag)``: ``N1, N2, ...``."""
        return tuple(count for count, _ in self.chains.get(tag, ()))

    def __len__(self) -> int:
        return len(self.chains)


def read_sensemap(path: str | os.PathLike) -> SenseMap:
    """Parse a sensemap file; malformed lines raise ``WsdError`` at their line."""
    chains: dict[str, tuple[tuple[int, str], ...]] = {}
    chain_line: dict[str, int] = {}
    for number, fields in read_records(path, "sensemap"):
        if len(fields) % 2 == 0:
            raise WsdError("expected 'sense [count parent [count grandparent ...]]', "
                           f"got {' '.join(fields)!r}", path, number)
        sense, rest = fields[0], fields[1:]
        chain = tuple((_count(text, path, number), subsumer)
                      for text, subsumer in zip(rest[0::2], rest[1::2]))
        if sense in (subsumer for _, subsumer in chain):
            raise WsdError(f"{sense} is listed among its own subsumers", path, number)
        known = chains.get(sense)
        if not known:
            chains[sense] = chain
            chain_line[sense] = number
        elif chain and chain != known:
            raise WsdError(
                f"{sense} already has a different chain at line {chain_line[sense]}", path, number)
    return SenseMap(chains)


# A count is a number of senses; more digits than this is damage, and Python's int() refuses
# strings of over 4,300 digits anyway.
MAX_COUNT_DIGITS = 9


def _count(text: str, path: str | os.PathLike, number: int) -> int:
    significant = text.lstrip("0") if text.isascii() and text.isdigit() else ""
    if not significant or len(significant) > MAX_COUNT_DIGITS:
        shown = text if len(text) <= 20 else text[:20] + "..."
        raise WsdError(f"expected a positive whole count (at most {MAX_COUNT_DIGITS} digits) "
                       f"before a subsumer, got {shown!r}", path, number)
    return int(significant)
