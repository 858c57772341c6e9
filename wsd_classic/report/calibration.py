"""How trustworthy the weighted sense distributions (``.ans`` files) are as probabilities.

Per key instance with an answer, the distribution is the answer's weights normalised to sum to 1
(a line with a tag without weight counts every tag equally, as scorer2 does), and:

* the *top sense* is the heaviest tag (the first one on ties, as ``write_answers`` writes the
  best first); it is correct if it is any of the instance's gold tags;
* the *gold mass* is the probability on the gold tags together: the gold tags are treated as one
  outcome, so an instance with several gold tags is not penalised for splitting its mass among
  them.

From these: expected calibration error of the top sense over ``BINS`` equal-width confidence
bins (Guo et al. 2017: the instance-weighted mean gap between accuracy and mean confidence),
log-loss ``-log(gold mass)`` clipped at ``LOG_CLIP``, and the multi-class Brier score with the
gold tags merged into one class: ``(1 - gold mass)^2 + sum of p^2 over the other senses``.
Scoring is fine-grained.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np

from wsd_classic.answers.senseval import Answer
from wsd_classic.corpora.keys import KeyEntry

BINS = 15
LOG_CLIP = 1e-15


@dataclass(frozen=True)
class Predictions:
    """Per answered key instance (in key order): top-sense confidence and correctness, the
    probability on the gold tags and the Brier term; ``unanswered`` counts the key instances
    without an answer, which are left out of every calibration figure."""

    instances: tuple[str, ...]
    confidence: np.ndarray
    correct: np.ndarray
    gold_mass: np.ndarray
    brier: np.ndarray
    unanswered: int


def predictions(key: Mapping[str, KeyEntry], answers: Iterable[Answer]) -> Predictions:
    """The calibration view of ``answers``; only an instance's first answer counts (scorer2)."""
    first: dict[str, Answer] = {}
    for answer in answers:
        if answer.instance in key:
            first.setdefault(answer.instance, answer)
    instances, confidence, correct, gold_mass, brier = [], [], [], [], []
    for instance, entry in key.items():
        answer = first.get(instance)
        if answer is None:
            continue
        distribution = _distribution(answer)
        gold = set(entry.tags)
        top = max(distribution, key=distribution.get)  # first of the heaviest, in file order
        mass = sum(p for sense, p in distribution.items() if sense in gold)
        instances.append(instance)
        confidence.append(distribution[top])
        correct.append(top in gold)
        gold_mass.append(mass)
        brier.append((1 - mass) ** 2 + sum(p * p for sense, p in distribution.items()
                                           if sense not in gold))
    return Predictions(tuple(instances), np.array(confidence, dtype=float),
                       np.array(correct, dtype=bool), np.array(gold_mass, dtype=float),
                       np.array(brier, dtype=float), len(key) - len(instances))


def _distribution(answer: Answer) -> dict[str, float]:
    """The answer's senses (repeats merged, file order kept) with weights summing to 1."""
    unweighted = any(weight is None for _, weight in answer.senses)
    merged: dict[str, float] = {}
    for sense, weight in answer.senses:
        merged[sense] = merged.get(sense, 0.0) + (1.0 if unweighted else weight)
    total = sum(merged.values())
    if total <= 0:  # every weight written as 0: nothing to prefer, so uniform
        return {sense: 1 / len(merged) for sense in merged}
    return {sense: weight / total for sense, weight in merged.items()}


@dataclass(frozen=True)
class Bin:
    """One confidence bin ``(low, high]`` (the first also holds 0) of the reliability diagram."""

    low: float
    high: float
    count: int
    mean_confidence: float
    accuracy: float


def reliability_bins(confidence: np.ndarray, correct: np.ndarray, bins: int = BINS) -> list[Bin]:
    """Equal-width bins over [0, 1]; empty bins are kept (count 0) so the diagram is complete."""
    edges = np.linspace(0.0, 1.0, bins + 1)
    index = np.digitize(confidence, edges[1:-1], right=True)
    result = []
    for number in range(bins):
        members = index == number
        count = int(members.sum())
        result.append(Bin(float(edges[number]), float(edges[number + 1]), count,
                          float(confidence[members].mean()) if count else 0.0,
                          float(correct[members].mean()) if count else 0.0))
    return result


def expected_calibration_error(confidence: np.ndarray, correct: np.ndarray,
                               bins: int = BINS) -> float:
    total = len(confidence)
    if total == 0:
        return 0.0
    return sum(b.count / total * abs(b.accuracy - b.mean_confidence)
               for b in reliability_bins(confidence, correct, bins))


def log_loss(gold_mass: np.ndarray) -> float:
    if len(gold_mass) == 0:
        return 0.0
    return float(np.mean(-np.log(np.clip(gold_mass, LOG_CLIP, 1.0))))


@dataclass(frozen=True)
class Calibration:
    """The figures the report prints for one system's weighted distributions."""

    instances: int
    unanswered: int
    accuracy: float
    mean_confidence: float
    ece: float
    log_loss: float
    brier: float
    bins: tuple[Bin, ...]


def calibration(key: Mapping[str, KeyEntry], answers: Iterable[Answer],
                bins: int = BINS) -> Calibration:
    view = predictions(key, answers)
    answered = len(view.instances)
    return Calibration(
        answered, view.unanswered,
        float(view.correct.mean()) if answered else 0.0,
        float(view.confidence.mean()) if answered else 0.0,
        expected_calibration_error(view.confidence, view.correct, bins),
        log_loss(view.gold_mass),
        float(view.brier.mean()) if answered else 0.0,
        tuple(reliability_bins(view.confidence, view.correct, bins)))
