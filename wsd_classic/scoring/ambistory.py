"""The scores of SemEval-2026 Task 5 (AmbiStory), as the task's ``scoring.py`` computes them.

Predictions are integers 1-5, one per sample id, in JSON lines ``{"id": "<key>", "prediction":
n}``. Spearman's rho is taken between the integer predictions and the mean of each sample's
ratings. A prediction is accurate when it lies strictly within the mean plus or minus the
sample standard deviation of the ratings (n - 1 in the denominator), or strictly less than 1
from the mean.
"""
from __future__ import annotations

import json
import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from scipy.stats import spearmanr

from wsd_classic.errors import WsdError
from wsd_classic.scoring.statistics import bootstrap_interval, bootstrap_statistic_interval

RATINGS = (1, 2, 3, 4, 5)


def within_standard_deviation(prediction: int, ratings: Sequence[int]) -> bool:
    mean = sum(ratings) / len(ratings)
    deviation = statistics.stdev(ratings)
    return mean - deviation < prediction < mean + deviation or abs(mean - prediction) < 1


@dataclass(frozen=True)
class AmbiStoryScore:
    spearman: float  # NaN when the predictions (or the means) are constant, as scipy has it
    accuracy: float
    samples: int

    def as_dict(self) -> dict:
        return {"spearman": None if math.isnan(self.spearman) else self.spearman,
                "accuracy": self.accuracy, "samples": self.samples}


def score_ambistory(predictions: Mapping[str, int],
                    ratings: Mapping[str, Sequence[int]]) -> AmbiStoryScore:
    """Score integer ``predictions`` against every rated sample (all must be predicted)."""
    missing = [key for key in ratings if key not in predictions]
    if missing:
        raise WsdError(f"no prediction for {len(missing)} sample(s), e.g. id {missing[0]!r}")
    keys = list(ratings)
    guesses = [predictions[key] for key in keys]
    means = [sum(ratings[key]) / len(ratings[key]) for key in keys]
    rho = (spearmanr(guesses, means).statistic if len(set(guesses)) > 1 and len(set(means)) > 1
           else math.nan)
    hits = sum(within_standard_deviation(predictions[key], ratings[key]) for key in keys)
    return AmbiStoryScore(float(rho), hits / len(keys), len(keys))


def score_intervals(predictions: Mapping[str, int], ratings: Mapping[str, Sequence[int]]
                    ) -> dict[str, list[float]]:
    """95% percentile bootstrap intervals of rho and of the accuracy (samples resampled)."""
    keys = list(ratings)
    guesses = np.array([predictions[key] for key in keys], dtype=float)
    means = np.array([sum(ratings[key]) / len(ratings[key]) for key in keys])
    hits = np.array([within_standard_deviation(predictions[key], ratings[key]) for key in keys],
                    dtype=float)

    def rho(indices: np.ndarray) -> float:
        if len(set(guesses[indices])) < 2 or len(set(means[indices])) < 2:
            return math.nan
        return float(spearmanr(guesses[indices], means[indices]).statistic)

    intervals = {"spearman": bootstrap_statistic_interval(rho, len(keys)),
                 "accuracy": bootstrap_interval(hits)}
    return {name: [interval.low, interval.high] for name, interval in intervals.items()}


def prediction_lines(predictions: Mapping[str, int]) -> list[str]:
    """The lines of a predictions file, in the order given."""
    return [json.dumps({"id": key, "prediction": value}) for key, value in predictions.items()]
