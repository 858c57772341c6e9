"""WordNet relatedness of a story's words with a meaning: Wu & Palmer's similarity with the
meaning's synset and its neighbours, and Banerjee & Pedersen's extended gloss overlap."""
from __future__ import annotations

import functools

import numpy as np

from wsd_classic import wordnet
from wsd_classic.benchmarks.ambistory.meanings import related_synsets
from wsd_classic.benchmarks.ambistory.text import cosine, stems, story_words, tfidf_vector

# The senses of a story word whose glosses the extended gloss overlap reads: WordNet's first
# ones, the commonest; the cross-validation on train preferred 3 to all of them.
EXTENDED_GLOSS_SENSES = 3


@functools.lru_cache(maxsize=None)
def _ancestors(synset) -> dict:
    """The synset and its (instance) hypernyms, each with its depth: the longest path from a
    root, counted in synsets (a root has depth 1)."""
    parents = synset.hypernyms() + synset.instance_hypernyms()
    depths: dict = {}
    for parent in parents:
        for ancestor, depth in _ancestors(parent).items():
            depths[ancestor] = max(depth, depths.get(ancestor, 0))
    depths[synset] = 1 + max(depths.values(), default=0)
    return depths


def wu_palmer(first, second) -> float:
    """Wu & Palmer's similarity: twice the depth of the deepest common ancestor over the sum of
    the two depths; 0 when they share none (verbs of different trees, another part of speech).
    NLTK's ``wup_similarity`` (0.857 for dog and cat, as here) walks every hypernym path per call,
    which the millions of word-meaning pairs here cannot afford; the depths are cached per
    synset."""
    mine, yours = _ancestors(first), _ancestors(second)
    common = mine.keys() & yours.keys()
    if not common:
        return 0.0
    return 2 * max(mine[ancestor] for ancestor in common) / (mine[first] + yours[second])


@functools.lru_cache(maxsize=None)
def _meaning_neighbourhood(synset) -> tuple:
    """The meaning's synset and its related nouns and verbs (the parts of speech with a
    hierarchy): a rail meronym of the railway track is as good a clue as the track itself."""
    return (synset, *(other for other in related_synsets(synset) if other.pos() in "nv"))


@functools.lru_cache(maxsize=1 << 18)
def word_relatedness(word: str, synset) -> float:
    """The best Wu-Palmer similarity between any noun or verb sense of ``word`` and the meaning's
    neighbourhood (the word's part of speech in the story is not known)."""
    senses = [sense for sense in wordnet.wordnet().synsets(word) if sense.pos() in "nv"]
    return max((wu_palmer(sense, other) for sense in senses
                for other in _meaning_neighbourhood(synset) if sense.pos() == other.pos()),
               default=0.0)


def relatedness_profile(text: str, synset, exclude: set[str]) -> dict[str, float]:
    """The words' relatedness with the meaning, aggregated: the most related word, the mean of
    the three most related, the mean of all (0 without words or synset)."""
    values = sorted((word_relatedness(word, synset) for word in story_words(text, exclude)),
                    reverse=True) if synset is not None else []
    if not values:
        return {"max": 0.0, "top3": 0.0, "mean": 0.0}
    return {"max": values[0], "top3": float(np.mean(values[:3])), "mean": float(np.mean(values))}


@functools.lru_cache(maxsize=1 << 16)
def _word_gloss(word: str) -> tuple[str, ...]:
    return tuple(stem for sense in wordnet.wordnet().synsets(word)[:EXTENDED_GLOSS_SENSES]
                 for stem in stems(" ".join([*(lemma.name().replace("_", " ")
                                               for lemma in sense.lemmas()),
                                             sense.definition()])))


def extended_gloss(text: str, exclude: set[str]) -> list[str]:
    """The stems of the glosses of the text's words (Banerjee & Pedersen's extended gloss
    overlap, the story's side): "the abandoned railway line" meets the meaning "a pair of
    parallel rails providing a runway for wheels" through ``railway``'s gloss "a line of track
    providing a runway for wheels"."""
    return [stem for word in story_words(text, exclude) for stem in _word_gloss(word)]


def wordnet_features(ending: str, synset, other, own_words: dict[str, list[str]],
                     their_words: dict[str, list[str]], exclude: set[str]) -> dict[str, float]:
    """The ``wordnet`` group but its over-sibling margins: the ending's relatedness with the
    meaning (``synset``, whose ``signatures`` are ``own_words``) and its margin against the
    other meaning's."""
    row = {}
    profiles = [relatedness_profile(ending, meaning, exclude) for meaning in (synset, other)]
    for aggregate, value in profiles[0].items():
        row[f"ending_wup_{aggregate}"] = value
        row[f"ending_wup_{aggregate}_margin"] = value - profiles[1][aggregate]
    glosses = tfidf_vector(extended_gloss(ending, exclude), exclude)
    own, theirs = (tfidf_vector(words["definition"] + words["related"], exclude)
                   for words in (own_words, their_words))
    row["ending_extended_gloss_similarity"] = cosine(glosses, own)
    row["ending_extended_gloss_margin"] = row["ending_extended_gloss_similarity"] - cosine(
        glosses, theirs)
    return row
