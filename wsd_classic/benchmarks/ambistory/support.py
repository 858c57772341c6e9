"""Which meaning the story supports: a pairwise classifier over the features' margins, the
``support`` group (measured, not read by the rater)."""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.linear_model import LogisticRegression

from wsd_classic.benchmarks.ambistory.features import (FEATURES, NO_SUPPORT_EVIDENCE,
                                                       SUPPORT_INPUTS, FeaturizedSplit)
from wsd_classic.corpora.ambistory import AmbiStorySample

# The support classifier's regularisation, by its own cross-validation on train (the rater's
# homonym folds; the area under the ROC curve of the held-out probabilities on the stories with
# an ending, and on the open-ended ones): 0.712 / 0.576 at C = 1, 0.738 / 0.600 at 0.01, 0.756 /
# 0.611 at 0.001, 0.759 / 0.613 at 0.0003 and 0.760 / 0.613 at 0.0001. The strongest is best: the
# weights tend to the rating-gap-weighted mean of the inputs, each margin counted alike.
SUPPORT_C = 0.0001


def support_gaps(samples: Sequence[AmbiStorySample]) -> np.ndarray:
    """Each sample's mean rating minus that of the other meaning in the same story (the same
    setup and ending): positive when the story supports this meaning; NaN without ratings or
    without the other meaning."""
    stories: dict[tuple, dict[str, AmbiStorySample]] = defaultdict(dict)
    for sample in samples:
        stories[(sample.setup, sample.ending)].setdefault(sample.judged_meaning, sample)
    gaps = np.full(len(samples), np.nan)
    for index, sample in enumerate(samples):
        others = [other for meaning, other in stories[(sample.setup, sample.ending)].items()
                  if meaning != sample.judged_meaning]
        if sample.choices is not None and others and others[0].choices is not None:
            gaps[index] = sample.average - others[0].average
    return gaps


class SupportClassifier(ClassifierMixin, BaseEstimator):
    """P(the story supports this meaning rather than the other) from ``SUPPORT_INPUTS``.

    Fitted on ``support_gaps``: a story whose two meanings' ratings differ is one decision,
    weighted by how much they differ (ties teach nothing). A logistic regression without
    intercept on inputs that change sign with the order of the meanings gives the two meanings of
    a story probabilities that sum to 1. Stories with an ending and open-ended ones are told
    apart: in one the ending decides, in the other only the setup can.
    """

    def __init__(self, C: float = SUPPORT_C):
        self.C = C

    def _inputs(self, matrix: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        columns = matrix[:, [FEATURES.index(name) for name in SUPPORT_INPUTS]]
        return columns, matrix[:, FEATURES.index("has_ending")] > 0

    def fit(self, matrix: np.ndarray, gaps: np.ndarray) -> "SupportClassifier":
        inputs, ended = self._inputs(matrix)
        gaps = np.asarray(gaps, dtype=float)
        self.classes_ = np.array([False, True])
        # Scaled but not centred: centring would break the sign symmetry.
        self.scale_ = np.maximum(inputs.std(axis=0), 1e-12)
        self.estimators_ = {}
        for has_ending in (False, True):
            rows = (ended == has_ending) & (np.nan_to_num(gaps) != 0)
            if len(set(gaps[rows] > 0)) == 2:
                self.estimators_[has_ending] = LogisticRegression(
                    C=self.C, fit_intercept=False, max_iter=2000).fit(
                    inputs[rows] / self.scale_, gaps[rows] > 0, sample_weight=np.abs(gaps[rows]))
        return self

    def predict_proba(self, matrix: np.ndarray) -> np.ndarray:
        """Columns: against, supported (``NO_SUPPORT_EVIDENCE`` for a kind of story the
        training data had no decision of)."""
        inputs, ended = self._inputs(matrix)
        supported = np.full(len(matrix), NO_SUPPORT_EVIDENCE)
        for has_ending, estimator in self.estimators_.items():
            rows = ended == has_ending
            if rows.any():
                supported[rows] = estimator.predict_proba(inputs[rows] / self.scale_)[:, 1]
        return np.column_stack([1 - supported, supported])

    def predict(self, matrix: np.ndarray) -> np.ndarray:
        return self.predict_proba(matrix)[:, 1] > 0.5


def add_support(train: FeaturizedSplit, others: Iterable[FeaturizedSplit],
                folds: Sequence[tuple[np.ndarray, np.ndarray]]) -> None:
    """Fill the ``support`` column: on train out of fold (each fold from a classifier fitted on
    the others, the rater's own folds, so that the rater does not learn from probabilities fitted
    on the very ratings it is scored against), elsewhere from one fitted on all of train."""
    column, gaps = FEATURES.index("support_probability"), support_gaps(train.samples)
    held_out = np.empty(len(train.samples))
    for fitted, held in folds:
        classifier = SupportClassifier().fit(train.matrix[fitted], gaps[fitted])
        held_out[held] = classifier.predict_proba(train.matrix[held])[:, 1]
    train.matrix[:, column] = held_out
    fill_support(train.matrix, gaps, others)


def fill_support(train_matrix: np.ndarray, gaps: np.ndarray,
                 others: Iterable[FeaturizedSplit]) -> None:
    """The ``support`` column of ``others`` from a classifier fitted on all of train."""
    classifier = SupportClassifier().fit(train_matrix, gaps)
    column = FEATURES.index("support_probability")
    for split in others:
        split.matrix[:, column] = classifier.predict_proba(split.matrix)[:, 1]
