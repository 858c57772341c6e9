"""Simplified Lesk and Lesk-corpus (Kilgarriff & Rosenzweig 2000), the SENSEVAL baselines.

Each candidate sense gets a signature: the content lemmas of its WordNet 3.0 gloss and examples
(and, for ``lesk-corpus``, of its training contexts). An instance scores each sense by the
idf-weighted overlap between its context lemmas and the signature; the weights emitted are the
scores normalised. Zero overlap everywhere falls back to the training distribution (commonest).
Sense ids WordNet 3.0 does not know (WordNet 1.7-only keys, ``U``, ``P``) have no gloss: plain
``lesk`` cannot pick them except through that fallback; they are counted in ``unknown_senses_``.
"""
from __future__ import annotations

import re

import numpy as np

from wsd_classic import wordnet
from wsd_classic.errors import WsdError
from wsd_classic.features.text import STOP_WORDS
from wsd_classic.systems.base import SenseClassifier, build_vocabulary

BOW_PREFIX = "bow="
WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")


def gloss_lemmas(key: str) -> set[str]:
    """Content lemmas of a sense's WordNet gloss, examples and synonyms ({} if unknown), read
    without NLTK's WordNet reader, which takes seconds to load."""
    location = wordnet.synset_location(key)
    if location is None:
        return set()
    synset = wordnet.synset_at(*location)
    text = " ".join([synset.definition, *synset.examples,
                     *(word.replace("_", " ") for word in synset.words)])
    lemmas = set()
    for word in WORD.findall(text.lower()):
        lemma = wordnet.base_form(word) or word
        if lemma not in STOP_WORDS and word not in STOP_WORDS:
            lemmas.add(lemma)
    return lemmas


def context_lemmas(features) -> list[str]:
    return [name[len(BOW_PREFIX):] for name in features if name.startswith(BOW_PREFIX)]


class Lesk(SenseClassifier):
    feature_groups = ("bow",)
    vocabulary_entry = "lemmas"
    state_fields = ("unknown_senses",)
    state_arrays = ("signatures", "idf")

    def __init__(self, use_corpus: bool = False):
        self.use_corpus = use_corpus

    @classmethod
    def load_resources(cls) -> None:
        """WordNet's index and lemma tables."""
        try:
            wordnet.load_tables()
        except WsdError:
            pass  # a fit that needs them says so; corpora whose senses are not WordNet's do not

    def fit(self, X, y, sample_weight=None):
        self.prior_ = self._prior(y, sample_weight)
        contexts = [context_lemmas(features) for features in X]
        signatures = {sense: gloss_lemmas(sense) for sense in self.classes_}
        self.unknown_senses_ = [sense for sense, lemmas in signatures.items() if not lemmas]
        if self.use_corpus:
            for lemmas, sense in zip(contexts, y):
                signatures[sense].update(lemmas)
        self.vocabulary_ = build_vocabulary([sorted(s) for s in signatures.values()])
        self.signatures_ = np.zeros((len(self.classes_), len(self.vocabulary_)))
        for row, sense in enumerate(self.classes_):
            self.signatures_[row, [self.vocabulary_[lemma] for lemma in signatures[sense]]] = 1
        # idf over the lexelt's training contexts (+1 smoothing): rare context words weigh most.
        document_frequency = np.zeros(len(self.vocabulary_))
        for lemmas in contexts:
            known = [self.vocabulary_[lemma] for lemma in set(lemmas) if lemma in self.vocabulary_]
            document_frequency[known] += 1
        self.idf_ = np.log((len(contexts) + 1) / (document_frequency + 1)) + 1
        return self

    def overlap_scores(self, X) -> np.ndarray:
        context = np.zeros((len(X), len(self.vocabulary_)))
        for row, features in enumerate(X):
            context[row, [self.vocabulary_[lemma] for lemma in context_lemmas(features)
                          if lemma in self.vocabulary_]] = 1
        return (context * self.idf_) @ self.signatures_.T

    def predict_proba(self, X) -> np.ndarray:
        scores = self.overlap_scores(X)
        totals = scores.sum(axis=1, keepdims=True)
        return np.where(totals > 0, scores / np.where(totals > 0, totals, 1), self.prior_)
