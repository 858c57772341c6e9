"""The SENSEVAL "commonest" baseline: the lexelt's training sense distribution for every instance."""
from __future__ import annotations

import numpy as np

from wsd_classic.systems.base import SenseClassifier


class Commonest(SenseClassifier):
    def fit(self, X, y, sample_weight=None):
        self.prior_ = self._prior(y, sample_weight)
        return self

    def predict_proba(self, X) -> np.ndarray:
        return np.tile(self.prior_, (len(X), 1))
