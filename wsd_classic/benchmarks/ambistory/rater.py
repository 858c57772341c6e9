"""The rater: a regressor of the mean rating (scikit-learn conventions) and the ways of making
the task's integers 1-5 of its output."""
from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from scipy.stats import spearmanr
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.ensemble import HistGradientBoostingRegressor
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.preprocessing import StandardScaler

from wsd_classic.benchmarks.ambistory.features import (FEATURE_GROUPS, FEATURES, RATER_GROUPS,
                                                       FeaturizedSplit)
from wsd_classic.scoring.ambistory import RATINGS, within_standard_deviation


class PlausibilityRater(RegressorMixin, BaseEstimator):
    """The mean rating of a sample from the columns of ``FEATURES`` that ``groups`` keep.

    ``model``: ``ridge`` (standardised features), ``boosting`` (gradient-boosted trees) or
    ``ordinal`` (multinomial logistic regression over the rounded ratings, read out as the
    expected rating). ``integers``: ``round`` (the nearest of 1-5), ``quantiles`` (the
    real-valued ratings of the samples rated together are cut so that each integer gets the
    share the rounded mean ratings have in the training data; it needs no label of those
    samples) or ``thresholds`` (the four ``cuts`` between 1-5, which ``fit_cuts`` chooses on
    held-out predictions of the training data).
    """

    def __init__(self, model: str = "boosting", groups: tuple[str, ...] = RATER_GROUPS,
                 alpha: float = 1.0, iterations: int = 200, learning_rate: float = 0.05,
                 depth: int = 3, integers: str = "round", cuts: Sequence[float] = (),
                 random_state: int = 0):
        self.model = model
        self.groups = groups
        self.alpha = alpha
        self.iterations = iterations
        self.learning_rate = learning_rate
        self.depth = depth
        self.integers = integers
        self.cuts = cuts
        self.random_state = random_state

    def _columns(self, matrix: np.ndarray) -> np.ndarray:
        keep = [FEATURES.index(name) for group in self.groups for name in FEATURE_GROUPS[group]]
        return matrix[:, keep]

    def fit(self, matrix: np.ndarray, ratings: np.ndarray) -> "PlausibilityRater":
        features, ratings = self._columns(matrix), np.asarray(ratings, dtype=float)
        rounded = np.clip(np.rint(ratings), 1, 5).astype(int)
        self.shares_ = rounded_shares(ratings)
        if self.model == "ridge":
            self.scaler_ = StandardScaler().fit(features)
            self.estimator_ = Ridge(alpha=self.alpha).fit(self.scaler_.transform(features),
                                                          ratings)
        elif self.model == "boosting":
            self.scaler_ = None
            self.estimator_ = HistGradientBoostingRegressor(
                max_iter=self.iterations, learning_rate=self.learning_rate, max_depth=self.depth,
                random_state=self.random_state).fit(features, ratings)
        elif self.model == "ordinal":
            self.scaler_ = StandardScaler().fit(features)
            self.estimator_ = LogisticRegression(C=1 / self.alpha, max_iter=2000).fit(
                self.scaler_.transform(features), rounded)
        else:
            raise ValueError(f"unknown model {self.model!r}")
        return self

    def predict(self, matrix: np.ndarray) -> np.ndarray:
        features = self._columns(matrix)
        if self.scaler_ is not None:
            features = self.scaler_.transform(features)
        if self.model == "ordinal":
            return self.estimator_.predict_proba(features) @ self.estimator_.classes_
        return np.clip(self.estimator_.predict(features), 1, 5)

    def predict_ratings(self, matrix: np.ndarray) -> np.ndarray:
        """Integers 1-5, as the task takes them."""
        return as_integers(self.predict(matrix), self.integers, self.shares_, self.cuts)


def rounded_shares(ratings: np.ndarray) -> np.ndarray:
    """The share of each integer 1-5 among the rounded ratings."""
    rounded = np.clip(np.rint(ratings), 1, 5).astype(int)
    return np.array([np.mean(rounded == value) for value in RATINGS])


def as_integers(values: np.ndarray, method: str, shares: np.ndarray | None,
                cuts: Sequence[float] = ()) -> np.ndarray:
    if method == "thresholds":
        if len(cuts) != len(RATINGS) - 1:
            raise ValueError(f"thresholds need {len(RATINGS) - 1} cuts, not {list(cuts)}")
        return RATINGS[0] + np.searchsorted(np.sort(cuts), values)
    if method == "round":
        return np.clip(np.rint(values), 1, 5).astype(int)
    if method == "quantiles":
        order = np.argsort(values, kind="stable")
        bounds = np.rint(np.cumsum(shares) * len(values)).astype(int)
        integers = np.empty(len(values), dtype=int)
        start = 0
        for value, stop in zip(RATINGS, bounds):
            integers[order[start:stop]] = value
            start = stop
        integers[order[start:]] = RATINGS[-1]
        return integers
    raise ValueError(f"unknown integers method {method!r}")


def fit_cuts(values: np.ndarray, split: FeaturizedSplit) -> tuple[float, ...]:
    """The thresholds between the integers 1-5 with the best rho + accuracy of ``values``
    against the split's ratings: coordinate ascent from the rounding thresholds over quantiles
    of the values. Accuracy within SD forgives a prediction near the mean rating and rho needs
    spread, so the best cuts need not be those of rounding."""
    means = split.ratings()
    hits = np.array([[within_standard_deviation(value, sample.choices) for value in RATINGS]
                     for sample in split.samples])

    def key(cuts: np.ndarray) -> float:
        integers = as_integers(values, "thresholds", None, cuts)
        rho = spearmanr(integers, means).statistic if len(set(integers)) > 1 else math.nan
        accuracy = hits[np.arange(len(values)), integers - RATINGS[0]].mean()
        return (0.0 if math.isnan(rho) else rho) + accuracy

    options = np.quantile(values, np.linspace(0.01, 0.99, 50))
    cuts = np.array([1.5, 2.5, 3.5, 4.5])
    for _ in range(2):
        for position in range(len(cuts)):
            cuts[position] = max((cuts[position], *options), key=lambda cut: key(
                np.where(np.arange(len(cuts)) == position, cut, cuts)))
    return tuple(float(cut) for cut in np.sort(cuts))


# The settings ``selection.choose`` compares by cross-validation on train (dev is a check that
# chooses nothing; the test labels are never read).
CANDIDATES = (
    *({"model": "ridge", "alpha": alpha} for alpha in (1.0, 10.0, 100.0)),
    *({"model": "ordinal", "alpha": alpha} for alpha in (1.0, 10.0)),
    *({"model": "boosting", "iterations": iterations, "learning_rate": 0.05, "depth": depth}
      for iterations in (100, 300) for depth in (2, 3)),
)
INTEGER_METHODS = ("round", "quantiles", "thresholds")
