"""``wn1``: WordNet's first sense, and ``mfs``'s back-off for lemmas SemCor never tagged.

Both are back-offs (``systems.System.back_off``): a distribution over a target's candidates,
which are ``wordnet.wordnet_senses`` in WordNet's frequency order.
"""
from __future__ import annotations

from collections.abc import Sequence

from wsd_classic import wordnet


def first_sense(candidates: Sequence[str]) -> dict[str, float]:
    """The ``wn1`` distribution: all weight on WordNet's first sense."""
    return {candidates[0]: 1.0}


def database_first_sense(candidates: Sequence[str]) -> dict[str, float]:
    """All weight on the candidate whose synset comes first in WordNet's database (lowest offset).

    That order follows the lexicographer files, not frequency: the choice of a baseline that
    must not use WordNet's sense counts (``mfs`` on a lemma SemCor never tagged).
    """
    return {min(candidates, key=wordnet.sense_index().offset): 1.0}
