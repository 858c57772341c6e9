"""``wn1``: WordNet's first sense, and the candidate senses every all-words system chooses from.

WordNet lists a lemma's senses for a part of speech by decreasing frequency in its sense-tagged
corpora, so its first sense is the classic baseline and the back-off of every supervised system
for words it never saw in training. The candidates of a word are the sense keys of its lemma for
its part of speech, in that order; ``rank`` numbers a key within them as LLM prompts number
candidate senses.
"""
from __future__ import annotations

import functools
from collections.abc import Sequence

from wsd_classic import wordnet


@functools.lru_cache(maxsize=None)
def wordnet_senses(lemma: str, pos: str) -> tuple[str, ...]:
    """The sense keys of ``lemma`` (words joined by ``_``) as a ``pos``, in WordNet's order.

    ``pos`` is ``n``, ``v``, ``a`` (satellite senses included) or ``r``. Empty when WordNet 3.0
    does not have the lemma with that part of speech.
    """
    return wordnet.sense_keys(lemma, pos)


def base_form(lemma: str, pos: str) -> str | None:
    """The WordNet lemma of an inflected form (``took`` -> ``take``), None if there is none."""
    return wordnet.morphy(lemma, pos)


def first_sense(candidates: Sequence[str]) -> dict[str, float]:
    """The ``wn1`` distribution: all weight on WordNet's first sense."""
    return {candidates[0]: 1.0}


def database_first_sense(candidates: Sequence[str]) -> dict[str, float]:
    """All weight on the candidate whose synset comes first in WordNet's database (lowest offset).

    That order follows the lexicographer files, not frequency: the choice of a baseline that
    must not use WordNet's sense counts (``mfs`` on a lemma SemCor never tagged).
    """
    return {min(candidates, key=wordnet.sense_index().offset): 1.0}


def rank(key: str, candidates: Sequence[str]) -> int:
    """The 1-based position of ``key`` among ``candidates`` (WordNet's frequency order)."""
    return candidates.index(key) + 1
