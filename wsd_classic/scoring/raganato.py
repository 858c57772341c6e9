"""The all-words scorer of Raganato, Camacho-Collados & Navigli's WSD Evaluation Framework.

It reimplements the framework's ``Scorer.java``: gold and prediction files both hold lines
``instance_id key [key ...]``. A prediction earns the share of its keys found among the gold
keys, so a single predicted key is simply right or wrong, and listing several keys cannot buy
full credit. P = correct / answered, R = correct / gold instances, F1 = 2PR / (P + R).
Predictions for ids the gold file lacks are reported and ignored (the Java scorer skips them
silently). Both files are read by ``corpora.raganato.read_raganato_key``, which refuses an id
listed twice where the Java scorer would merge the lines.

``score_macro`` gives the macro-averaged figures of Maru et al.'s challenge sets (ACL 2022, their
``evaluate_macro_F1.py``): precision, recall and F1 per gold sense, averaged over the senses, so
a rare sense weighs as much as a frequent one.
"""
from __future__ import annotations

import math
import os
from collections import Counter
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


def instance_credit(gold: Mapping[str, Iterable[str]], predicted: Mapping[str, Iterable[str]]
                    ) -> tuple[list[float], list[float]]:
    """Each gold instance's credit (the share of its predicted keys that are gold) and whether
    it was answered (1.0 or 0.0), in gold order: the per-instance terms of ``score_raganato``'s
    sums, which bootstrap intervals and splits add up again."""
    credit, answered = [], []
    for instance, gold_keys in gold.items():
        keys = set(predicted.get(instance, ()))
        answered.append(1.0 if keys else 0.0)
        credit.append(len(keys & set(gold_keys)) / len(keys) if keys else 0.0)
    return credit, answered


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


@dataclass(frozen=True)
class MacroResult:
    """Precision, recall and F1 averaged over the ``senses`` the gold keys name (fractions)."""

    precision: float
    recall: float
    f1: float
    senses: int


def score_macro(gold: Mapping[str, Iterable[str]],
                predicted: Mapping[str, Iterable[str]]) -> MacroResult:
    """Macro-averaged figures over gold senses, as the challenge sets' scorer counts them.

    An instance answered with n keys, one of them gold, credits each of its gold senses with
    1/n true positive; one answered with some key outside its gold keys charges each of its n
    keys 1/n false positive; an instance none of whose keys is gold (or unanswered, n = 1)
    charges each of its gold senses 1/n false negative. Answers for ids the gold lacks count
    for nothing.
    """
    true_positive: Counter = Counter()
    false_positive: Counter = Counter()
    false_negative: Counter = Counter()
    for instance, gold_keys in gold.items():
        gold_keys = set(gold_keys)
        keys = set(predicted.get(instance, ()))
        share = 1 / len(keys) if keys else 1.0
        if keys - gold_keys:
            for key in keys:
                false_positive[key] += share
        missed = not keys & gold_keys
        for key in gold_keys:
            (false_negative if missed else true_positive)[key] += share
    senses = set(true_positive) | set(false_negative)
    by_sense = []
    for sense in senses:
        precision = ratio(true_positive[sense], true_positive[sense] + false_positive[sense])
        recall = ratio(true_positive[sense], true_positive[sense] + false_negative[sense])
        by_sense.append((precision, recall, ratio(2 * precision * recall, precision + recall)))
    # fsum: the senses' set order follows string hashing, so a plain sum's rounding would vary
    # with PYTHONHASHSEED from run to run
    averages = ([ratio(math.fsum(figures), len(by_sense)) for figures in zip(*by_sense)]
                or [0.0] * 3)
    return MacroResult(*averages, len(by_sense))


def score_raganato_files(gold_path: str | os.PathLike, predicted_path: str | os.PathLike,
                         *, quiet: bool = False) -> RaganatoResult:
    """``score_raganato`` on a gold key file and a prediction file (the same format)."""
    return score_raganato(read_raganato_key(gold_path), read_raganato_key(predicted_path),
                          quiet=quiet)
