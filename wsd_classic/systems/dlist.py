"""Yarowsky-style decision list (Yarowsky 1994; as in Martinez et al. 2002 for SENSEVAL-2).

Every feature f and sense s give a rule ``f ⇒ s`` of strength
log((c(f,s)+α) / (c(f,¬s)+α)), the smoothed log-likelihood ratio of the sense against the rest.
For an instance the strongest rule among its features decides; the weights it emits are that
rule's smoothed sense distribution (c(f,s')+α) / (c(f)+Kα). With no matching rule (or none
stronger than ``min_strength``), the training distribution answers.
"""
from __future__ import annotations

import numpy as np

from wsd_classic.systems import candidates
from wsd_classic.systems.base import (SenseClassifier, feature_matrix, build_vocabulary,
                                      check_dense_size, vocabulary_names)


class DecisionList(SenseClassifier):
    feature_groups = ("bow", "colloc", "pos", "syntax")
    vocabulary_entry = "features"
    state_fields = ("plain_senses",)
    state_arrays = ("strength", "distribution")

    def __init__(self, alpha: float = 0.1, min_strength: float = 0.0, min_count: float = 1.0):
        self.alpha = alpha
        self.min_strength = min_strength
        self.min_count = min_count

    def fit(self, X, y, sample_weight=None):
        self.prior_ = self._prior(y, sample_weight)
        self.vocabulary_ = build_vocabulary(X)
        self.plain_senses_ = candidates.senses_seen_without_particles(X, y)
        weights = np.ones(len(y)) if sample_weight is None else np.asarray(sample_weight, float)
        check_dense_size(len(self.classes_), len(self.vocabulary_), len(y))
        targets = np.zeros((len(y), len(self.classes_)))
        targets[np.arange(len(y)), np.searchsorted(self.classes_, y)] = weights
        counts = np.asarray((feature_matrix(X, self.vocabulary_).T @ targets))
        totals = counts.sum(axis=1, keepdims=True)
        ratio = np.log((counts + self.alpha) / (totals - counts + self.alpha))
        strength = ratio.max(axis=1)
        strength[totals[:, 0] < self.min_count] = -np.inf
        self.strength_ = strength
        self.distribution_ = (counts + self.alpha) / (totals + self.alpha * len(self.classes_))
        return self

    def decisive_features(self, X) -> np.ndarray:
        """Per instance, the vocabulary index of the rule that decides (-1: none applies)."""
        matrix = feature_matrix(X, self.columns_of())
        usable = np.isfinite(self.strength_)
        if not usable.any() or matrix.shape[0] == 0:
            return np.full(matrix.shape[0], -1)
        # Shift strengths to positive values so a sparse row-wise argmax finds the strongest
        # active rule (ties: the first feature in vocabulary order); unusable rules score 0.
        shifted = np.where(usable, self.strength_ - self.strength_[usable].min() + 1, 0)
        scored = matrix.multiply(shifted).tocsr()
        decisive = np.asarray(scored.argmax(axis=1)).ravel()
        applies = (np.asarray(scored.max(axis=1).todense()).ravel() > 0)
        applies &= self.strength_[decisive] > self.min_strength
        return np.where(applies, decisive, -1)

    def predict_proba(self, X) -> np.ndarray:
        decisive = self.decisive_features(X)
        proba = np.tile(self.prior_, (len(decisive), 1))
        fired = decisive >= 0
        proba[fired] = self.distribution_[decisive[fired]]
        return candidates.restrict(proba, X, self.classes_, self.plain_senses_)

    def explain(self, X) -> list[list[tuple[str, float]]]:
        """Per instance, the rule that decided, ``[(feature, strength)]`` ([]: the prior did)."""
        names = self.rule_names()
        return [[(names[index], float(self.strength_[index]))] if index >= 0 else []
                for index in self.decisive_features(X)]

    def rule_names(self) -> list[str]:
        return vocabulary_names(self.vocabulary_)
