"""Linear SVM over all feature groups (Lee & Ng 2002) and the gloss evidence of every candidate,
with calibrated sense probabilities.

liblinear's one-vs-rest decision values are turned into a distribution by a softmax whose
temperature is fitted, per lexelt, to minimise the log-loss of held-out decision values from an
internal cross-validation on the training data (temperature scaling, Guo et al. 2017): one
parameter, so it cannot overfit small lexelts the way per-class Platt scaling would.
"""
from __future__ import annotations

import copy
import warnings

import numpy as np
from scipy.optimize import minimize
from scipy.special import softmax
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import LinearSVC

from wsd_classic.features.embeddings import evidence_name
from wsd_classic.systems import candidates
from wsd_classic.systems.base import (SenseClassifier, build_vocabulary, check_dense_size,
                                      feature_matrix, held_out_folds, vocabulary_names)

CALIBRATION_FOLDS = 5
TEMPERATURE_BOUNDS = (0.02, 20.0)
SHARE_BOUNDS = (0.0, 0.5)


def _fit_svc(matrix, y, weights, C: float, tol: float) -> LinearSVC:
    with warnings.catch_warnings():
        # Small lexelts often have more senses than half their instances: not a regression.
        warnings.filterwarnings("ignore", message="The number of unique classes is greater")
        # liblinear's dual solver may stop at max_iter on tiny lexelts; its solution still ranks.
        warnings.filterwarnings("ignore", category=ConvergenceWarning)
        return LinearSVC(C=C, loss="squared_hinge", dual=True, max_iter=5000, random_state=0,
                         tol=tol).fit(matrix, y, sample_weight=weights)


def _feature_major(coef: np.ndarray) -> np.ndarray:
    """``coef`` (senses x features) stored feature by feature: the transpose that
    ``decision_function`` multiplies by is then C-contiguous, which scipy's sparse product
    otherwise copies on every call (tagging makes one per lexelt and batch, of a few rows)."""
    return np.ascontiguousarray(coef.T).T


class LinearSVM(SenseClassifier):
    # emb and gloss: chosen by 5-fold CV on SENSEVAL-2 training (bench/tune.py --emb,
    # bench/tune_gloss.py) and on held-out SemCor (bench/semcor.py)
    feature_groups = ("bow", "colloc", "pos", "syntax", "emb", "gloss")
    vocabulary_entry = "features"
    state_fields = ("temperature", "prior_share", "plain_senses")
    state_arrays = ("coef", "intercept")

    def __init__(self, C: float = 10.0, calibrate: bool = True, random_state: int = 0,
                 min_instances: int = 0, tol: float = 1e-4,
                 calibration_folds: int = CALIBRATION_FOLDS):
        self.C = C
        # liblinear's stopping tolerance: its dual solver's iterations, most of a fit's time
        self.tol = tol
        self.calibrate = calibrate
        self.random_state = random_state
        self.calibration_folds = calibration_folds
        # Fewer training instances than this: answer the training sense distribution, as
        # ``commonest`` does. On a handful of examples counting beats any hyperplane.
        self.min_instances = min_instances

    def fit(self, X, y, sample_weight=None):
        self.prior_ = self._prior(y, sample_weight)
        self.vocabulary_ = build_vocabulary(X)
        self.plain_senses_ = candidates.senses_seen_without_particles(X, y)
        y = np.asarray(y)
        weights = np.ones(len(y)) if sample_weight is None else np.asarray(sample_weight, float)
        self.temperature_, self.prior_share_ = 1.0, 0.0
        counts_only = weights.sum() < self.min_instances  # an instance's row weights sum to 1
        if counts_only:
            self.prior_share_ = 1.0  # with zero weights below, predict_proba gives the prior
        check_dense_size(len(self.classes_), len(self.vocabulary_), len(y))
        if len(self.classes_) == 1 or counts_only:
            self.coef_ = np.zeros((len(self.classes_), len(self.vocabulary_)))
            self.intercept_ = np.zeros(len(self.classes_))
            return self
        matrix = self._matrix(X)
        svc = _fit_svc(matrix, y, weights, self.C, self.tol)
        coef, intercept = svc.coef_, svc.intercept_
        if len(self.classes_) == 2:
            coef = np.vstack([-coef, coef]) / 2
            intercept = np.concatenate([-intercept, intercept]) / 2
        self.coef_, self.intercept_ = _feature_major(coef), intercept
        if self.calibrate:
            self._cross_fit(X, y, weights)
            self.temperature_, self.prior_share_ = self._fit_calibration(X, y, weights)
        return self

    def _cross_fit(self, X, y, weights) -> None:
        """Decision values of each training row from an uncalibrated svm fitted on the other
        folds (-inf for senses its fold lacks; all -inf without folds), as tagging meets
        them: features the fold never saw are unknown to its model.

        Kept beside the fold of each row and the fold models' parameters: a combination whose
        svm member has those parameters and folds reuses them (``systems.combination``)."""
        self.held_out_params_ = {**self.get_params(), "calibrate": False, "min_instances": 0}
        self.held_out_folds_ = held_out_folds(X, self.calibration_folds, self.random_state)
        self.held_out_decisions_ = np.full((len(y), len(self.classes_)), -np.inf)
        if self.held_out_folds_ is None:
            return
        for fold in range(self.calibration_folds):
            train = np.flatnonzero(self.held_out_folds_ != fold)
            test = np.flatnonzero(self.held_out_folds_ == fold)
            model = LinearSVM(**self.held_out_params_).fit(
                [X[i] for i in train], y[train], sample_weight=weights[train])
            columns = np.searchsorted(self.classes_, model.classes_)
            self.held_out_decisions_[np.ix_(test, columns)] = model.decision_function(
                [X[i] for i in test])

    def uncalibrated(self) -> "LinearSVM":
        """This fitted svm as one fitted with ``calibrate=False`` would be (same weights)."""
        model = copy.copy(self)
        model.calibrate = False
        if hasattr(self, "held_out_decisions_"):  # else calibration never ran
            model.temperature_, model.prior_share_ = 1.0, 0.0
        return model

    def get_state(self) -> tuple[dict, dict[str, np.ndarray]]:
        meta, arrays = super().get_state()
        arrays["coef"] = _feature_major(self.coef_).T  # stored features x senses: read as is
        return meta, arrays

    @classmethod
    def from_state(cls, params: dict, meta: dict, arrays: dict[str, np.ndarray]):
        model = super().from_state(params, meta, arrays)
        model.coef_ = model.coef_.T  # a view: the stored array is features x senses
        return model

    def _fit_calibration(self, X, y, weights) -> tuple[float, float]:
        """Temperature and prior share minimising the log-loss of ``predict_proba`` on the
        held-out decision values (``_cross_fit``).

        The distribution is (1-ε)·softmax(z/T) + ε·prior: the prior share keeps some mass for
        senses the classifier cannot rank high (rare ones, or the sense of a held-out instance
        its fold never saw), which a temperature alone cannot. A row whose fold model knew one
        sense only says nothing of either. Senses the candidate filter rules out are left out,
        as in ``predict_proba``.
        """
        held_out = self.held_out_decisions_.copy()
        ranked = np.isfinite(held_out).sum(axis=1) >= 2
        allowed = candidates.allowed_mask(X, self.classes_, self.plain_senses_)
        held_out[~allowed] = -np.inf
        scored = ranked & np.isfinite(held_out).any(axis=1)
        if not scored.any():
            return 1.0, 0.0
        values, allowed, weights = held_out[scored], allowed[scored], weights[scored]
        truth = np.searchsorted(self.classes_, y[scored])
        prior = self.prior_ * allowed
        prior /= prior.sum(axis=1, keepdims=True)
        rows = np.arange(len(truth))

        def log_loss(parameters) -> float:
            temperature, share = np.exp(parameters[0]), parameters[1]
            p = (1 - share) * softmax(values / temperature, axis=1)[rows, truth]
            p += share * prior[rows, truth]
            return -np.average(np.log(np.maximum(p, 1e-12)), weights=weights)

        result = minimize(log_loss, x0=[0.0, 0.05], method="L-BFGS-B",
                          bounds=[tuple(np.log(TEMPERATURE_BOUNDS)), SHARE_BOUNDS])
        return float(np.exp(result.x[0])), float(result.x[1])

    def _matrix(self, X):
        """Binary features, each row scaled to unit length: liblinear's dual solver converges
        15-20 times faster than on raw 0/1 rows, and long contexts no longer dominate. The
        values of ``Weighted`` blocks are added as their groups scaled them.

        A 0/1 row's length is the square root of its count of features; scaling while building
        rather than through scikit-learn's ``normalize`` spares its input validation on every
        call of ``predict_proba``, which tagging makes once per lexelt and batch."""
        vocabulary = self.columns_of()
        if getattr(self, "_block_columns", (None, None))[0] is not vocabulary:
            self._block_columns = (vocabulary, {})  # a new fit: other columns
        return feature_matrix(X, vocabulary, unit_binary=True, weighted=True,
                              block_columns=self._block_columns[1])

    def decision_function(self, X) -> np.ndarray:
        return self._matrix(X) @ self.coef_.T + self.intercept_

    def predict_proba(self, X) -> np.ndarray:
        if len(self.classes_) == 1:
            return np.ones((len(X), 1))
        proba = softmax(self.decision_function(X) / self.temperature_, axis=1)
        proba = (1 - self.prior_share_) * proba + self.prior_share_ * self.prior_
        return candidates.restrict(proba, X, self.classes_, self.plain_senses_)

    def explain(self, X, top: int = 5) -> list[list[tuple[str, float]]]:
        """Per instance, up to ``top`` pieces of evidence adding most to its best sense's
        decision value: a feature's coefficient times its value, the context embedding's
        dimensions summed into one (``embeddings.evidence_name``)."""
        best = np.argmax(self.predict_proba(X), axis=1)
        matrix = self._matrix(X)
        names = [evidence_name(name) for name in vocabulary_names(self.vocabulary_)]
        evidence = []
        for row, sense in enumerate(best):
            cells = slice(matrix.indptr[row], matrix.indptr[row + 1])
            active = matrix.indices[cells]
            totals: dict[str, float] = {}
            for index, contribution in zip(active, self.coef_[sense, active] * matrix.data[cells]):
                totals[names[index]] = totals.get(names[index], 0.0) + float(contribution)
            evidence.append(sorted(((name, total) for name, total in totals.items() if total > 0),
                                   key=lambda item: -item[1])[:top])
        return evidence
