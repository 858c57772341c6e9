"""Confidence intervals and significance tests over per-instance scores.

Both work on the per-instance scores scorer2 computes (``Scorer2Result.instance_scores``), so the
intervals and tests are about exactly the figures in the table.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from scipy.stats import binomtest

BOOTSTRAP_RESAMPLES = 1000
BOOTSTRAP_SEED = 0
CONFIDENCE = 0.95


@dataclass(frozen=True)
class Interval:
    low: float
    high: float


def _resampled_sums(columns: Sequence[Sequence[float]], resamples: int, seed: int):
    """For each column, its sum over each of ``resamples`` resamples (with replacement) of the
    rows. The generator is seeded, so every run (and every system, given the same number of
    instances) draws the same resamples: the intervals are reproducible and paired."""
    values = [np.asarray(column, dtype=float) for column in columns]
    indices = np.random.default_rng(seed).integers(0, len(values[0]),
                                                   size=(resamples, len(values[0])))
    return [column[indices].sum(axis=1) for column in values]


def _percentile_interval(statistics: np.ndarray, confidence: float) -> Interval:
    tail = (1 - confidence) / 2
    low, high = np.quantile(statistics, [tail, 1 - tail])
    return Interval(float(low), float(high))


def bootstrap_interval(scores: Sequence[float], resamples: int = BOOTSTRAP_RESAMPLES,
                       seed: int = BOOTSTRAP_SEED, confidence: float = CONFIDENCE) -> Interval:
    """Percentile bootstrap interval of the mean of ``scores``, resampling instances."""
    if len(scores) == 0:
        return Interval(0.0, 0.0)
    (sums,) = _resampled_sums([scores], resamples, seed)
    return _percentile_interval(sums / len(scores), confidence)


def bootstrap_statistic_interval(statistic: Callable[[np.ndarray], float], count: int,
                                 resamples: int = BOOTSTRAP_RESAMPLES,
                                 seed: int = BOOTSTRAP_SEED,
                                 confidence: float = CONFIDENCE) -> Interval:
    """Percentile bootstrap interval of any ``statistic`` of ``count`` instances, which it gets
    as the indices of a resample (drawn as ``_resampled_sums`` draws them); resamples where it
    is undefined (NaN, such as a correlation of constant values) are left out."""
    if count == 0:
        return Interval(0.0, 0.0)
    indices = np.random.default_rng(seed).integers(0, count, size=(resamples, count))
    values = np.array([statistic(row) for row in indices], dtype=float)
    values = values[~np.isnan(values)]
    return _percentile_interval(values, confidence) if len(values) else Interval(0.0, 0.0)


def bootstrap_f1_interval(credit: Sequence[float], answered: Sequence[float],
                          resamples: int = BOOTSTRAP_RESAMPLES, seed: int = BOOTSTRAP_SEED,
                          confidence: float = CONFIDENCE) -> Interval:
    """Percentile bootstrap interval of F1 = 2PR / (P + R), resampling instances, where
    P = sum(credit) / sum(answered) and R = sum(credit) / instances."""
    if len(credit) == 0:
        return Interval(0.0, 0.0)
    correct, attempted = _resampled_sums([credit, answered], resamples, seed)
    precision = np.divide(correct, attempted, out=np.zeros_like(correct), where=attempted > 0)
    recall = correct / len(credit)
    total = precision + recall
    f1 = np.divide(2 * precision * recall, total, out=np.zeros_like(total), where=total > 0)
    return _percentile_interval(f1, confidence)


@dataclass(frozen=True)
class McNemar:
    """Discordant pairs of two systems on the same instances, and the exact two-sided p-value."""

    only_first: int
    only_second: int
    p_value: float


def mcnemar(first_correct: Sequence[bool], second_correct: Sequence[bool]) -> McNemar:
    """Exact McNemar test: under the null hypothesis each discordant pair favours either system
    with probability 1/2, so the count favouring the first is Binomial(discordant, 1/2)."""
    first = np.asarray(first_correct, dtype=bool)
    second = np.asarray(second_correct, dtype=bool)
    if first.shape != second.shape:
        raise ValueError("McNemar's test needs both systems' results on the same instances")
    only_first = int(np.sum(first & ~second))
    only_second = int(np.sum(~first & second))
    discordant = only_first + only_second
    p_value = binomtest(only_first, discordant, 0.5).pvalue if discordant else 1.0
    return McNemar(only_first, only_second, float(p_value))
