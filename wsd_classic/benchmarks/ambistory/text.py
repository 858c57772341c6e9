"""Words and stems of story and gloss text, and sparse TF-IDF vectors of stems weighted by WordNet's
glosses: what every similarity with a meaning compares."""
from __future__ import annotations

import functools
import math
import re
from collections import Counter, defaultdict
from collections.abc import Sequence

from wsd_classic import wordnet
from wsd_classic.features.text import SCIKIT_LEARN_STOP_WORDS, stem

WORD = re.compile(r"[A-Za-z0-9]+(?:['\u2019-][A-Za-z0-9]+)*|[^\w\s]")


def content_words(text: str) -> set[str]:
    return {word.lower() for word in WORD.findall(text)
            if word[0].isalnum() and word.lower() not in SCIKIT_LEARN_STOP_WORDS}


def stems(text: str) -> list[str]:
    return [stem(word.lower()) for word in WORD.findall(text)
            if word[0].isalnum() and word.lower() not in SCIKIT_LEARN_STOP_WORDS]


def story_words(text: str, exclude: set[str]) -> list[str]:
    """The distinct content words of a text, lower-cased, those whose stem is excluded aside."""
    return list(dict.fromkeys(word.lower() for word in WORD.findall(text)
                              if word[0].isalpha() and word.lower() not in SCIKIT_LEARN_STOP_WORDS
                              and stem(word.lower()) not in exclude))


@functools.lru_cache(maxsize=1)
def inverse_document_frequency() -> defaultdict[str, float]:
    """IDF of stems over WordNet's glosses (definition and examples of each synset): a weighting
    that depends on no split of the task. A stem no gloss has counts as rare as the rarest."""
    counts: Counter = Counter()
    synsets = list(wordnet.wordnet().all_synsets())
    for synset in synsets:
        counts.update(set(stems(" ".join([synset.definition(), *synset.examples()]))))
    rarest = math.log(len(synsets))
    return defaultdict(lambda: rarest, {term: math.log(len(synsets) / count)
                                        for term, count in counts.items()})


def tfidf_vector(words: Sequence[str], exclude: set[str]) -> dict[str, float]:
    """The words' TF-IDF vector, of unit length (empty if none is left), ``exclude`` aside."""
    idf = inverse_document_frequency()
    counts = Counter(word for word in words if word not in exclude)
    vector = {word: count * idf[word] for word, count in counts.items()}
    norm = math.sqrt(sum(value * value for value in vector.values()))
    return {word: value / norm for word, value in vector.items()} if norm else {}


def cosine(first: dict[str, float], second: dict[str, float]) -> float:
    if len(first) > len(second):
        first, second = second, first
    return sum(value * second.get(word, 0.0) for word, value in first.items())
