"""The all-words scorer of Raganato, Camacho-Collados & Navigli's WSD Evaluation Framework.

It reimplements the framework's ``Scorer.java``: gold and prediction files both hold lines
``instance_id key [key ...]``. A prediction earns the share of its keys found among the gold
keys, so a single predicted key is simply right or wrong, and listing several keys cannot buy
full credit. P = correct / answered, R = correct / gold instances, F1 = 2PR / (P + R).
Predictions for ids the gold file lacks are reported and ignored (the Java scorer skips them
silently). Both files are read by ``corpora.raganato.read_raganato_key``, which refuses an id
listed twice where the Java scorer would merge the lines.
"""
from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from wsd_classic.corpora.raganato import read_raganato_key
from wsd_classic.scoring import ratio, report_ignored


@dataclass(frozen=True)
class RaganatoResult:
    """The counts behind Raganato's figures; precision, recall and F1 are fractions."""

    correct: float
    answered: int
    instances: int
    ignored: tuple[str, ...] = ()

    @property
    def precision(self) -> float:
        return ratio(self.correct, self.answered)

    @property
    def recall(self) -> float:
        return ratio(self.correct, self.instances)

    @property
    def f1(self) -> float:
        return ratio(2 * self.precision * self.recall, self.precision + self.recall)


def score_raganato(gold: Mapping[str, Iterable[str]], predicted: Mapping[str, Iterable[str]],
                   *, quiet: bool = False) -> RaganatoResult:
    """Score ``predicted`` keys against ``gold`` keys, both by instance id."""
    correct = 0.0
    answered = 0
    ignored = []
    for instance, keys in predicted.items():
        if instance not in gold:
            ignored.append(f"no instance {instance} in the gold standard")
            continue
        keys = set(keys)
        if not keys:
            continue  # an empty prediction is no answer
        answered += 1
        correct += len(keys & set(gold[instance])) / len(keys)
    if not quiet:
        report_ignored(ignored)
    return RaganatoResult(correct, answered, len(gold), tuple(ignored))


def score_raganato_files(gold_path: str | os.PathLike, predicted_path: str | os.PathLike,
                         *, quiet: bool = False) -> RaganatoResult:
    """``score_raganato`` on a gold key file and a prediction file (the same format)."""
    return score_raganato(read_raganato_key(gold_path), read_raganato_key(predicted_path),
                          quiet=quiet)
