"""Linear SVM over all feature groups (Lee & Ng 2002), with calibrated sense probabilities.

liblinear's one-vs-rest decision values are turned into a distribution by a softmax whose
temperature is fitted, per lexelt, to minimise the log-loss of held-out decision values from an
internal cross-validation on the training data (temperature scaling, Guo et al. 2017): one
parameter, so it cannot overfit small lexelts the way per-class Platt scaling would.
"""
from __future__ import annotations

import warnings

import numpy as np
from scipy.optimize import minimize_scalar
from scipy.special import log_softmax, softmax
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import GroupKFold
from sklearn.svm import LinearSVC

from wsd_classic.systems import candidates
from wsd_classic.systems.base import (SenseClassifier, binary_matrix, build_vocabulary,
                                      vocabulary_names, vocabulary_of)

CALIBRATION_FOLDS = 3
TEMPERATURE_BOUNDS = (0.02, 20.0)


def _fit_svc(matrix, y, weights, C: float) -> LinearSVC:
    with warnings.catch_warnings():
        # Small lexelts often have more senses than half their instances: not a regression.
        warnings.filterwarnings("ignore", message="The number of unique classes is greater")
        # liblinear's dual solver may stop at max_iter on tiny lexelts; its solution still ranks.
        warnings.filterwarnings("ignore", category=ConvergenceWarning)
        return LinearSVC(C=C, loss="squared_hinge", dual=True, max_iter=5000, random_state=0,
                         tol=1e-4).fit(matrix, y, sample_weight=weights)


def _decision_matrix(svc: LinearSVC, matrix, classes: np.ndarray) -> np.ndarray:
    """Decision values over ``classes`` (a superset of ``svc.classes_``); absent classes: -inf."""
    values = svc.decision_function(matrix)
    if len(svc.classes_) == 2:
        values = np.column_stack([-values, values]) / 2
    full = np.full((matrix.shape[0], len(classes)), -np.inf)
    full[:, np.searchsorted(classes, svc.classes_)] = values
    return full


class LinearSVM(SenseClassifier):
    feature_groups = ("bow", "colloc", "pos", "syntax")
    uses_candidate_filter = True

    def __init__(self, C: float = 1.0, calibrate: bool = True, restrict_candidates: bool = True,
                 random_state: int = 0):
        self.C = C
        self.calibrate = calibrate
        self.restrict_candidates = restrict_candidates
        self.random_state = random_state

    def fit(self, X, y, sample_weight=None):
        self.prior_ = self._prior(y, sample_weight)
        self.vocabulary_ = build_vocabulary(X)
        self.plain_senses_ = candidates.senses_seen_without_particles(X, y)
        y = np.asarray(y)
        weights = np.ones(len(y)) if sample_weight is None else np.asarray(sample_weight, float)
        self.temperature_ = 1.0
        if len(self.classes_) == 1:
            self.coef_ = np.zeros((1, len(self.vocabulary_)))
            self.intercept_ = np.zeros(1)
            return self
        matrix = binary_matrix(X, self.vocabulary_)
        svc = _fit_svc(matrix, y, weights, self.C)
        coef, intercept = svc.coef_, svc.intercept_
        if len(self.classes_) == 2:
            coef = np.vstack([-coef, coef]) / 2
            intercept = np.concatenate([-intercept, intercept]) / 2
        self.coef_, self.intercept_ = coef, intercept
        if self.calibrate:
            self.temperature_ = self._fit_temperature(X, matrix, y, weights)
        return self

    def _fit_temperature(self, X, matrix, y, weights) -> float:
        """The softmax temperature minimising held-out log-loss of what ``predict_proba`` emits.

        The rows of an instance with several gold tags are identical: they share a fold, or the
        copy in the training folds would make its held-out twin look confidently wrong and the
        temperature too high. Senses the candidate filter rules out are out of the softmax, as
        in ``predict_proba``.
        """
        groups = np.unique([" ".join(sorted(set(row))) for row in X], return_inverse=True)[1]
        if groups.max() + 1 < CALIBRATION_FOLDS:
            return 1.0
        held_out = np.full((len(y), len(self.classes_)), -np.inf)
        folds = GroupKFold(CALIBRATION_FOLDS, shuffle=True, random_state=self.random_state)
        for train, test in folds.split(matrix, y, groups):
            if len(set(y[train])) < 2:
                continue
            svc = _fit_svc(matrix[train], y[train], weights[train], self.C)
            held_out[test] = _decision_matrix(svc, matrix[test], self.classes_)
        if self.restrict_candidates:
            held_out[~candidates.allowed_mask(X, self.classes_, self.plain_senses_)] = -np.inf
        truth = np.searchsorted(self.classes_, y)
        usable = np.isfinite(held_out[np.arange(len(y)), truth])
        if not usable.any():
            return 1.0
        values, truth, weights = held_out[usable], truth[usable], weights[usable]

        def log_loss(log_temperature: float) -> float:
            log_p = log_softmax(values / np.exp(log_temperature), axis=1)
            return -np.average(log_p[np.arange(len(truth)), truth], weights=weights)

        result = minimize_scalar(log_loss, bounds=np.log(TEMPERATURE_BOUNDS), method="bounded")
        return float(np.exp(result.x))

    def decision_function(self, X) -> np.ndarray:
        return binary_matrix(X, self.vocabulary_) @ self.coef_.T + self.intercept_

    def predict_proba(self, X) -> np.ndarray:
        if len(self.classes_) == 1:
            return np.ones((len(X), 1))
        proba = softmax(self.decision_function(X) / self.temperature_, axis=1)
        if self.restrict_candidates:
            proba = candidates.restrict(proba, X, self.classes_, self.plain_senses_)
        return proba

    def explain(self, X, top: int = 5) -> list[list[tuple[str, float]]]:
        """Per instance, up to ``top`` features adding most to its best sense's decision value."""
        best = np.argmax(self.predict_proba(X), axis=1)
        matrix = binary_matrix(X, self.vocabulary_)
        names = vocabulary_names(self.vocabulary_)
        evidence = []
        for row, sense in enumerate(best):
            active = matrix.indices[matrix.indptr[row]:matrix.indptr[row + 1]]
            contributions = self.coef_[sense, active]
            strongest = [i for i in np.argsort(-contributions)[:top] if contributions[i] > 0]
            evidence.append([(names[active[i]], float(contributions[i])) for i in strongest])
        return evidence

    def get_state(self):
        meta, arrays = super().get_state()
        return ({**meta, "features": vocabulary_names(self.vocabulary_),
                 "temperature": self.temperature_, "plain_senses": self.plain_senses_},
                {**arrays, "coef": self.coef_, "intercept": self.intercept_})

    @classmethod
    def from_state(cls, params, meta, arrays):
        model = super().from_state(params, meta, arrays)
        model.vocabulary_ = vocabulary_of(meta["features"])
        model.temperature_ = meta["temperature"]
        model.plain_senses_ = meta["plain_senses"]
        model.coef_, model.intercept_ = arrays["coef"], arrays["intercept"]
        return model
