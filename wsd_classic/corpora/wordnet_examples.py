"""WordNet's example sentences as sense-tagged training targets for the all-words systems.

A synset's examples (``"he sat on the bank of the river"``) illustrate its sense; where one uses
the lexelt's lemma (inflected or not; a multiword lemma as consecutive words), that occurrence is
a target tagged with the lemma's key for the synset: an instance of the sense in context, as
SemCor's are. Examples that use another word of the synset are left out. Every WordNet sense of
the lexelt is read, those SemCor never tagged included: they get their first training instances.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from wsd_classic import wordnet
from wsd_classic.wordnet import wordnet_senses
from wsd_classic.corpora.allwords import AllWordsCorpus, Sentence, Target

SOURCE = "WordNet 3.0 examples"
DOCUMENT = "wordnet-examples"
# WordNet's examples are plain one-sentence strings, and the all-words corpora want words: a
# split at spaces and punctuation is all they need (hyphenated and clitic forms stay one word).
WORD = re.compile(r"\w+(?:['’-]\w+)*|[^\w\s]")


def _lemma_at(words: Sequence[str], start: int, parts: Sequence[str], pos: str) -> bool:
    """Whether ``words`` from ``start`` spell the lemma's words ``parts``, any inflected."""
    if start + len(parts) > len(words):
        return False
    for word, part in zip(words[start:start + len(parts)], parts):
        word = word.lower()
        if word != part and wordnet.morphy(word, pos) != part:
            return False
    return True


def read_wordnet_examples(lexelts: Iterable[str]) -> AllWordsCorpus:
    """A corpus of the examples using each lexelt's (``lemma.pos``) lemma, one target each.

    The target is the lemma's first occurrence, its words joined into one token with ``_`` as
    SemCor writes multiword lemmas (``took place`` -> ``took_place``).
    """
    sentences: list[Sentence] = []
    targets: list[Target] = []
    for lexelt in sorted(set(lexelts)):
        lemma, pos = lexelt.rsplit(".", 1)
        parts = lemma.lower().split("_")
        for key in wordnet_senses(lemma, pos):
            for example in wordnet.examples(key):
                words = WORD.findall(example)
                start = next((index for index in range(len(words))
                              if _lemma_at(words, index, parts, pos)), None)
                if start is None:
                    continue
                end = start + len(parts)
                words[start:end] = ["_".join(words[start:end])]
                sentences.append(Sentence(f"{DOCUMENT}.s{len(sentences):06d}", DOCUMENT,
                                          tuple(words)))
                targets.append(Target(f"{DOCUMENT}.t{len(targets):06d}", lemma, pos,
                                      len(sentences) - 1, start, (key,)))
    return AllWordsCorpus(SOURCE, sentences, targets)
