"""Words normalised to be matched: the one Porter stemmer and the stop-word lists.

Gloss evidence (``features.gloss``), the Lesk baselines (``systems.lesk``) and the AmbiStory
rater (``benchmarks.ambistory.text``) match stems and drop stop words through this module. Two
stop-word lists stay: spaCy's (326 words), which the gloss group, lesk and the tokens' own
``is_stop`` flags use, and scikit-learn's (318), with which the AmbiStory rater's setting was
chosen; they differ by 62 words, so one list for both would change either's features.
"""
from __future__ import annotations

import functools

from nltk.stem.porter import PorterStemmer
from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS as SCIKIT_LEARN_STOP_WORDS
from spacy.lang.en.stop_words import STOP_WORDS

__all__ = ["SCIKIT_LEARN_STOP_WORDS", "STOP_WORDS", "stem"]

_STEMMER = PorterStemmer()


@functools.lru_cache(maxsize=1 << 18)
def stem(word: str) -> str:
    """NLTK's Porter stem of ``word`` (its default, NLTK-extended mode), cached: corpora ask it
    of the same words again and again."""
    return _STEMMER.stem(word)
