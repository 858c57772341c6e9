"""Bag of words: the lemmas of the whole context, stop words and punctuation dropped."""
from __future__ import annotations

import functools
from itertools import compress

from wsd_classic.preprocess.document import ProcessedInstance


@functools.lru_cache(maxsize=1 << 18)
def has_letter(lemma: str) -> bool:
    """Cached: every target's context asks it of every word again."""
    return any(character.isalpha() for character in lemma)


def content_lemmas(doc: ProcessedInstance) -> set[str]:
    """The distinct content lemmas of the context except the target and its particles."""
    kept = [not stop for stop in doc.stops]
    for index in (doc.target, *doc.sats):
        kept[index] = False
    return {lemma for lemma in set(compress(doc.lemmas, kept)) if has_letter(lemma)}


def bag_of_words(doc: ProcessedInstance) -> list[str]:
    """``bow=<lemma>`` for every distinct content lemma except the target and its particles."""
    return [f"bow={lemma}" for lemma in sorted(content_lemmas(doc))]
