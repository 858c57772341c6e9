"""Bag of words: the lemmas of the whole context, stop words and punctuation dropped."""
from __future__ import annotations

from wsd_classic.preprocess.document import ProcessedInstance


def bag_of_words(doc: ProcessedInstance) -> list[str]:
    """``bow=<lemma>`` for every distinct content lemma except the target and its particles."""
    return [f"bow={lemma}" for lemma in sorted(doc.content_lemmas)]
