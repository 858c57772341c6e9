"""Bag of words: the lemmas of the whole context, stop words and punctuation dropped."""
from __future__ import annotations

import functools

from wsd_classic.preprocess.document import ProcessedInstance


def is_content_word(lemma: str, is_stop: bool) -> bool:
    return not is_stop and has_letter(lemma)


@functools.lru_cache(maxsize=1 << 18)
def has_letter(lemma: str) -> bool:
    """Cached: every target's context asks it of every word again."""
    return any(character.isalpha() for character in lemma)


def content_lemmas(doc: ProcessedInstance) -> set[str]:
    """The distinct content lemmas of the context except the target and its particles."""
    skipped = {doc.target, *doc.sats}
    return {
        lemma for index, (lemma, stop) in enumerate(zip(doc.lemmas, doc.stops))
        if index not in skipped and is_content_word(lemma, stop)
    }


def bag_of_words(doc: ProcessedInstance) -> list[str]:
    """``bow=<lemma>`` for every distinct content lemma except the target and its particles."""
    return [f"bow={lemma}" for lemma in sorted(content_lemmas(doc))]
