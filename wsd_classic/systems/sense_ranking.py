"""A sense ranker: one model for every lexelt that scores each WordNet candidate of a target, the
senses no training instance shows included.

The per-lexelt svm chooses only among the senses it saw. The ranker reads, for each (context,
candidate sense) pair, evidence that exists for any sense (``PAIR_FEATURES``): the context's
similarity to the sense's extended gloss (stems, tf-idf: ``features.gloss``; word vectors:
``features.embeddings``' ``embgloss=``), to the centroid of the sense's training contexts where
it has some, to the contexts of its relatives in every other lexelt's training rows
(``RELATIVES``: the other lemmas of its synset, its WordNet neighbours, its lexicographer file;
drawn once across lexelts by ``shared_fit_params``), the sense's WordNet rank, WordNet's count of
it (``cntlist``) and its share of the candidates' counts, its training weight (0 when unseen)
and scarcity, the lexelt's, the svm's probability of it and confidence, and its lexicographer
file. A target's distribution is the softmax, over its candidates, of
the pairs' linear scores ``coef`` (a logistic regression on candidate pairs fitted across
lexelts: ``pair_model``). The coefficients are one model for all lexelts, so they are the
system's parameters, fitted held out by ``bench/semcor_studies/unseen_senses.py`` (the engine
fits estimators per lexelt).

With ``svm_half_weight`` h the answer is instead a back-off weighted by how much the lexelt has
seen: n / (n + h) of the svm's distribution and h / (n + h) of the ranker's, n the lexelt's
training weight; the ranker then scores without the svm's probability. With ``svm_gate`` g
the svm answers alone wherever its best sense has probability g or more.
"""
from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np
from scipy.special import softmax
from sklearn.linear_model import LogisticRegression

from wsd_classic import wordnet
from wsd_classic.features import PREFIXES, pretrained_vectors
from wsd_classic.features.embeddings import GLOSS_PREFIX as EMBEDDING_GLOSS_PREFIX
from wsd_classic.features.gloss import PREFIX as GLOSS_PREFIX, signature_text, text_words
from wsd_classic.features.word_vectors import unit_rows
from wsd_classic.pos import KEY_POS
from wsd_classic.systems.base import SenseClassifier, prefixed_senses, prefixed_values
from wsd_classic.systems.svm import LinearSVM

EMBEDDING_PREFIX = PREFIXES["emb"]
BAG_PREFIX = PREFIXES["bow"]
LEXICOGRAPHER_FILES = len(wordnet.LEXICOGRAPHER_FILES)
# A sense's relatives, whose training contexts stand in for its own: the other lemmas of its
# synset, the synsets its ``NEIGHBOURS`` pointers reach (wninput(5WN): hypernyms, instance
# hypernyms, hyponyms, instance hyponyms, similar to, verb groups, also see, derivationally
# related) and its lexicographer file.
RELATIVES = ("synset mates", "neighbours", "lexicographer file")
NEIGHBOURS = ("@", "@i", "~", "~i", "&", "$", "^", "+")
BASE_FEATURES = (
    "gloss", "gloss - best", "embgloss", "embgloss - best", "centroid", "centroid - best",
    "has centroid", "log training weight", "unseen", "unseen x log lexelt weight",
    "1 / rank", "first", "log wordnet count", "wordnet count share", "svm", "log svm",
    *(f"lexname {name}" for name, _ in wordnet.LEXICOGRAPHER_FILES),
    *(feature for relative in RELATIVES
      for feature in (relative, f"{relative} - best", f"has {relative}")),
    "scarce", "scarce x svm top", "scarce x svm entropy", "glove signature",
    "glove signature - best")
# What stands in for a sense's own training instances weighs more the scarcer they are and the
# less sure the svm is: products a linear score cannot form alone.
KNOWLEDGE = ("gloss", "gloss - best", "embgloss", "embgloss - best", "synset mates",
             "synset mates - best", "neighbours", "neighbours - best", "lexicographer file",
             "lexicographer file - best", "glove signature", "glove signature - best", "1 / rank",
             "first")
INTERACTIONS = tuple((factor, feature) for factor in ("scarce", "svm entropy")
                     for feature in KNOWLEDGE)
PAIR_FEATURES = (*BASE_FEATURES, *(f"{factor} x {feature}" for factor, feature in INTERACTIONS))
SVM_FEATURES = ("svm", "log svm", "scarce x svm top", "scarce x svm entropy")
WORDNET_ORDER_FEATURES = ("1 / rank", "first", "log wordnet count", "wordnet count share")
SVM_FLOOR = 1e-4  # the log of a probability the svm cannot give (a sense it never saw)


def lexicographer_file(key: str) -> int:
    """The number of the sense's lexicographer file, from its key (``bank%1:17:01::`` -> 17)."""
    return int(key.partition("%")[2].split(":")[1])


def with_interactions(base: np.ndarray) -> np.ndarray:
    """``BASE_FEATURES`` (their last axis) with the ``INTERACTIONS`` products after them."""
    column = BASE_FEATURES.index
    scarce = base[..., column("scarce")]
    factors = {"scarce": scarce, "svm entropy": base[..., column("scarce x svm entropy")] / scarce}
    return np.concatenate([base, np.stack([factors[factor] * base[..., column(feature)]
                                           for factor, feature in INTERACTIONS], axis=-1)],
                          axis=-1)


def glove_mean(words) -> np.ndarray:
    """The unit-length mean of the GloVe vectors (``pretrained_vectors.GLOVE``) of ``words``
    (lower-cased; zeros when GloVe knows none)."""
    vectors = pretrained_vectors.load(pretrained_vectors.GLOVE.name)
    rows = [vectors.index[word] for word in (word.lower() for word in words)
            if word in vectors.index]
    mean = (vectors.matrix[rows].astype(np.float64).mean(axis=0) if rows
            else np.zeros(vectors.dimensions))
    return unit_rows(mean)


@functools.lru_cache(maxsize=1 << 16)
def signature_glove(key: str) -> np.ndarray:
    """``glove_mean`` of the sense's signature (``features.gloss.signature_text``: its synset's
    words, definition and examples, its related synsets' words and definitions)."""
    return glove_mean(text_words(signature_text(key)))


def _add(sums: dict, place, vector: np.ndarray) -> None:
    sums[place] = sums[place] + vector if place in sums else vector.copy()


def _minus_best(values: np.ndarray, present: np.ndarray) -> np.ndarray:
    """Each value less the row's largest among ``present`` columns (0 where none is)."""
    best = np.where(present, values, -np.inf).max(axis=1, keepdims=True)
    return np.where(present & np.isfinite(best), values - best, 0.0)


class SenseRanker(SenseClassifier):
    """Per lexelt: its candidates, each one's training weight and centroid, and the svm member;
    the scores' ``coef`` are shared by every lexelt (``PAIR_FEATURES``, in order). The svm
    member takes its registered parameters (``member_defaults``, which ``systems.System.make``
    hands in) with ``member_params["svm"]`` over them."""

    feature_groups = LinearSVM.feature_groups
    member_systems = ("svm",)
    state_fields = ("svm_classes",)
    state_arrays = ("weights", "centroids", "relatives", "signatures")

    @classmethod
    def load_resources(cls) -> None:
        """GloVe, which the signatures read."""
        pretrained_vectors.load(pretrained_vectors.GLOVE.name)

    def __init__(self, coef: Sequence[float] | None = None, svm_half_weight: float | None = None,
                 svm_gate: float | None = None, member_params: dict | None = None,
                 member_defaults: dict | None = None):
        self.coef = coef
        self.svm_half_weight = svm_half_weight
        self.svm_gate = svm_gate
        self.member_params = member_params
        self.member_defaults = member_defaults

    def _svm_params(self) -> dict:
        return {**(self.member_defaults or {}).get("svm", {}),
                **(self.member_params or {}).get("svm", {})}

    @classmethod
    def shared_fit_params(cls, rows) -> dict[str, dict]:
        """Per lexelt, ``relatives``: each candidate's relatives' contexts (``RELATIVES``), the
        sums of the unit context embeddings of every other lexelt's training rows tagged with
        a sense of the candidate's synset, of a synset its ``NEIGHBOURS`` reach, or of its
        lexicographer file, each made unit length."""
        by_synset: dict[tuple, np.ndarray] = {}
        by_file: dict[int, np.ndarray] = {}
        own = {}  # item: its rows' sums by synset and by lexicographer file
        width = 0
        for item, X, y, weights in rows:
            contexts = unit_rows(cls._contexts(X))
            if not contexts.shape[1]:
                continue
            width = contexts.shape[1]
            synsets, files = {}, {}
            for vector, key, weight in zip(contexts, y, weights):
                location = wordnet.synset_location(key)
                if location is not None:
                    _add(synsets, location, vector * weight)
                    _add(files, lexicographer_file(key), vector * weight)
            own[item] = synsets, files
            for table, sums in ((by_synset, synsets), (by_file, files)):
                for place, vector in sums.items():
                    _add(table, place, vector)
        shared = {}
        for item, X, y, _ in rows:
            if item not in own:
                continue
            synsets, files = own[item]

            def others(table: dict, mine: dict, place) -> np.ndarray:
                return table.get(place, 0) - mine.get(place, 0) + np.zeros(width)

            relatives = {}
            for key in {*y, *wordnet.wordnet_senses(*item.rsplit(".", 1))}:
                location = wordnet.synset_location(key)
                if location is None:
                    continue
                neighbours = np.zeros(width)
                for symbol, pos, offset in wordnet.synset_at(*location).pointers:
                    if symbol in NEIGHBOURS:
                        neighbours += others(by_synset, synsets, (pos, offset))
                relatives[key] = unit_rows(np.array([
                    others(by_synset, synsets, location), neighbours,
                    others(by_file, files, lexicographer_file(key))], dtype=np.float32))
            shared[item] = {"relatives": relatives}
        return shared

    def fit(self, X, y, sample_weight=None, fitted_members: dict | None = None,
            relatives: dict[str, np.ndarray] | None = None):
        """Fit (or take from ``fitted_members``, fitted with the svm member's parameters on
        these rows) the svm, and keep each candidate's training weight, centroid of training
        contexts and ``relatives``' contexts (``shared_fit_params``)."""
        weights = np.ones(len(y)) if sample_weight is None else np.asarray(sample_weight, float)
        svm = (fitted_members or {}).get("svm")
        if not (isinstance(svm, LinearSVM)
                and svm.get_params() == LinearSVM(**self._svm_params()).get_params()):
            svm = LinearSVM(**self._svm_params()).fit(X, y, sample_weight=weights)
        self.svm_ = svm
        self.svm_classes_ = svm.classes_.tolist()
        self.classes_ = np.array(sorted({*y, *prefixed_senses(X, GLOSS_PREFIX)}))
        index = np.searchsorted(self.classes_, y)
        self.weights_ = np.bincount(index, weights=weights, minlength=len(self.classes_))
        self.prior_ = self.weights_ / self.weights_.sum()
        contexts = unit_rows(self._contexts(X))
        self.centroids_ = np.zeros((len(self.classes_), contexts.shape[1]), dtype=np.float32)
        np.add.at(self.centroids_, index, contexts * weights[:, None])
        self.centroids_ = unit_rows(self.centroids_)
        self.signatures_ = np.array([signature_glove(key) for key in self.classes_],
                                    dtype=np.float32).reshape(len(self.classes_), -1)
        self.relatives_ = np.zeros((len(self.classes_), len(RELATIVES), contexts.shape[1]),
                                   dtype=np.float32)
        for column, key in enumerate(self.classes_):
            if key in (relatives or {}):
                self.relatives_[column] = relatives[key]
        return self

    @staticmethod
    def _contexts(X) -> np.ndarray:
        """Each row's context embedding (the ``emb`` block; zeros without one)."""
        found = [next((block.values for block in row if not isinstance(block, str)
                       and block.names[0].startswith(EMBEDDING_PREFIX)
                       and not block.names[0].startswith(EMBEDDING_GLOSS_PREFIX)), None)
                 for row in X]
        width = next((len(values) for values in found if values is not None), 0)
        return np.array([np.zeros(width) if values is None else values for values in found],
                        dtype=np.float64).reshape(len(X), width)

    def svm_proba(self, X) -> np.ndarray:
        """The svm's distribution over ``classes_`` (0 for the senses it never saw)."""
        proba = np.zeros((len(X), len(self.classes_)))
        columns = np.searchsorted(self.classes_, self.svm_classes_)
        proba[:, columns] = self.svm_.predict_proba(X)
        return proba

    def pair_features(self, X) -> tuple[np.ndarray, np.ndarray]:
        """Rows x classes x ``PAIR_FEATURES``, and which classes are each row's candidates (its
        gloss block's senses; every class for a row without one)."""
        gloss, candidates = prefixed_values(X, self.classes_, GLOSS_PREFIX)
        embgloss, with_embgloss = prefixed_values(X, self.classes_, EMBEDDING_GLOSS_PREFIX)
        candidates[~candidates.any(axis=1)] = True
        with_embgloss &= candidates
        has_centroid = np.broadcast_to(np.linalg.norm(self.centroids_, axis=1) > 0,
                                       candidates.shape) & candidates
        contexts = unit_rows(self._contexts(X))
        centroid = contexts @ self.centroids_.T.astype(np.float64)
        svm = self.svm_proba(X)
        rows, per_class = len(X), self._class_features()
        relatives = []
        for place in range(len(RELATIVES)):
            vectors = self.relatives_[:, place].astype(np.float64)
            similarity = contexts @ vectors.T
            present = np.broadcast_to(np.linalg.norm(vectors, axis=1) > 0,
                                      candidates.shape) & candidates
            relatives += [similarity, _minus_best(similarity, present), present.astype(float)]
        signature = np.array([glove_mean(name[len(BAG_PREFIX):] for name in row
                                         if isinstance(name, str) and name.startswith(BAG_PREFIX))
                              for row in X]).reshape(rows, -1) @ self.signatures_.T
        with_signature = np.broadcast_to(np.linalg.norm(self.signatures_, axis=1) > 0,
                                         candidates.shape) & candidates
        scarce = np.broadcast_to(1 / (1 + self.weights_), candidates.shape)
        entropy = -(svm * np.log(svm + SVM_FLOOR)).sum(axis=1, keepdims=True)
        features = np.concatenate([
            np.stack([gloss, _minus_best(gloss, candidates), embgloss,
                      _minus_best(embgloss, with_embgloss), centroid,
                      _minus_best(centroid, has_centroid), has_centroid.astype(float)], axis=2),
            np.broadcast_to(per_class, (rows, *per_class.shape)),
            np.stack([svm, np.log(svm + SVM_FLOOR)], axis=2),
            np.broadcast_to(self._lexicographer_files(),
                            (rows, len(self.classes_), LEXICOGRAPHER_FILES)),
            np.stack([*relatives, scarce, scarce * svm.max(axis=1, keepdims=True),
                      scarce * entropy, signature,
                      _minus_best(signature, with_signature)], axis=2)], axis=2)
        return with_interactions(features), candidates

    def _class_features(self) -> np.ndarray:
        """Classes x the features of a sense alone: its training weight, WordNet's rank and
        count of it."""
        unseen = (self.weights_ == 0).astype(float)
        training = np.stack([np.log1p(self.weights_), unseen,
                             unseen * np.log1p(self.weights_.sum())], axis=1)
        return np.concatenate([training, wordnet_order_features(
            np.array([wordnet_count(key) for key in self.classes_], dtype=float),
            np.array([wordnet_rank(key) for key in self.classes_], dtype=float))], axis=1)

    def _lexicographer_files(self) -> np.ndarray:
        """Classes x lexicographer files, 1 at each sense's own."""
        onehot = np.zeros((len(self.classes_), LEXICOGRAPHER_FILES))
        onehot[np.arange(len(self.classes_)),
               [lexicographer_file(key) for key in self.classes_]] = 1
        return onehot

    def rank_proba(self, X) -> np.ndarray:
        """The ranker's own distribution over each row's candidates."""
        features, candidates = self.pair_features(X)
        scores = np.where(candidates, features @ np.asarray(self.coef, dtype=float), -np.inf)
        return softmax(scores, axis=1)

    def predict_proba(self, X) -> np.ndarray:
        if self.coef is None or len(self.classes_) == 1:
            return self.svm_proba(X) if len(self.classes_) > 1 else np.ones((len(X), 1))
        ranked, svm = self.rank_proba(X), self.svm_proba(X)
        if self.svm_half_weight is not None:
            seen = self.weights_.sum()
            share = seen / (seen + self.svm_half_weight)
            ranked = share * svm + (1 - share) * ranked
        if self.svm_gate is not None:
            ranked = np.where(svm.max(axis=1, keepdims=True) >= self.svm_gate, svm, ranked)
        return ranked

    def explain(self, X, top: int = 5) -> list[list[tuple[str, float]]]:
        """Per instance, the evidence behind its best sense: the svm's (``LinearSVM.explain``)
        where the svm chose that sense too, else, and always for a sense no training instance
        shows, up to ``top`` pair features (``rank:<feature>``) whose coefficient times their
        value's lead over the candidates' mean adds most to its score."""
        best = np.argmax(self.predict_proba(X), axis=1)
        if self.coef is None:
            return self.svm_.explain(X, top)
        svm_best = np.argmax(self.svm_proba(X), axis=1)
        features, candidates = self.pair_features(X)
        svm_evidence = self.svm_.explain(X, top)
        evidence = []
        for row, sense in enumerate(best):
            if sense == svm_best[row] and self.weights_[sense] > 0:
                evidence.append(svm_evidence[row])
                continue
            lead = features[row, sense] - features[row, candidates[row]].mean(axis=0)
            contributions = np.asarray(self.coef, dtype=float) * lead
            strongest = [index for index in np.argsort(-contributions)[:top]
                         if contributions[index] > 0]
            evidence.append([(f"rank:{PAIR_FEATURES[index]}", float(contributions[index]))
                             for index in strongest])
        return evidence

    def get_state(self) -> tuple[dict, dict[str, np.ndarray]]:
        meta, arrays = super().get_state()
        svm_meta, svm_arrays = self.svm_.get_state()
        meta["svm_state"] = svm_meta
        arrays.update({f"svm/{key}": array for key, array in svm_arrays.items()})
        return meta, arrays

    @classmethod
    def from_state(cls, params: dict, meta: dict, arrays: dict[str, np.ndarray]):
        model = super().from_state(params, meta, arrays)
        model.svm_ = LinearSVM.from_state(
            model._svm_params(), meta["svm_state"],
            {key[len("svm/"):]: array for key, array in arrays.items() if key.startswith("svm/")})
        return model


def wordnet_order_features(counts: np.ndarray, ranks: np.ndarray) -> np.ndarray:
    """Classes x ``WORDNET_ORDER_FEATURES`` from WordNet's count and 1-based rank of each."""
    share = counts / counts.sum() if counts.sum() else np.zeros_like(counts)
    return np.stack([1 / ranks, (ranks == 1).astype(float), np.log1p(counts), share], axis=1)


@functools.lru_cache(maxsize=1 << 18)
def wordnet_count(key: str) -> int:
    return wordnet.lemma_count(key)


@functools.lru_cache(maxsize=1 << 18)
def wordnet_rank(key: str) -> int:
    """The key's 1-based place among its lemma's senses of its part of speech (1 for a key
    WordNet lacks: it is nobody's candidate)."""
    keys = lemma_senses(key)
    return keys.index(key) + 1 if key in keys else 1


def lemma_senses(key: str) -> tuple[str, ...]:
    """The senses of the key's lemma and part of speech, in WordNet's order."""
    lemma, _, rest = key.partition("%")
    return wordnet.wordnet_senses(lemma, KEY_POS[rest[0]])


def pair_model(features: np.ndarray, gold: np.ndarray, columns: Sequence[int],
               C: float = 1.0) -> np.ndarray:
    """``coef`` over ``PAIR_FEATURES`` (0 outside ``columns``): a logistic regression of
    whether each (context, candidate) pair is gold on its features (pairs x features),
    standardised while fitting and folded back into the coefficients."""
    chosen = features[:, columns]
    mean, scale = chosen.mean(axis=0), chosen.std(axis=0)
    scale[scale == 0] = 1
    model = LogisticRegression(C=C, max_iter=2000).fit((chosen - mean) / scale, gold)
    coef = np.zeros(features.shape[1])
    coef[list(columns)] = model.coef_[0] / scale
    return coef
