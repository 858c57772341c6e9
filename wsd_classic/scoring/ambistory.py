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
import os
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

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


def read_predictions(path: str | os.PathLike) -> dict[str, int]:
    """A predictions file; each line one object, ids unique, predictions integers 1-5."""
    predictions: dict[str, int] = {}
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise WsdError(f"cannot read the file: {getattr(error, 'strerror', None) or error}",
                       path) from None
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            raise WsdError(f"not a JSON object: {error.msg}", path, number) from None
        if not isinstance(record, dict) or set(record) != {"id", "prediction"}:
            raise WsdError('expected {"id": ..., "prediction": ...} and nothing else', path,
                           number)
        key, value = str(record["id"]), record["prediction"]
        if type(value) is not int or value not in RATINGS:
            raise WsdError(f"prediction for id {key!r} is {value!r}, not an integer 1-5", path,
                           number)
        if key in predictions:
            raise WsdError(f"id {key!r} is predicted a second time", path, number)
        predictions[key] = value
    return predictions


def prediction_lines(predictions: Mapping[str, int]) -> list[str]:
    """The lines of a predictions file, in the order given."""
    return [json.dumps({"id": key, "prediction": value}) for key, value in predictions.items()]
