"""SenseBench's rule for baseline key files: one WordNet 3.0 key per instance, correct when it is
a gold key or names the same synset as one (``dog%1:05:00::`` and ``domestic_dog%1:05:00::``).

Accuracy is over every gold instance: an instance the key file lacks is wrong. The per-instance
results feed ``scoring.statistics`` for bootstrap intervals and McNemar tests; ``datasets`` splits
ALL-style ids (``senseval2.d000.s000.t000``) by their prefix.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from wsd_classic import wordnet
from wsd_classic.scoring.statistics import Interval, bootstrap_interval


def same_sense(answer: str, gold_keys: Sequence[str]) -> bool:
    """Whether ``answer`` is one of ``gold_keys`` or names the synset of one of them."""
    if answer in gold_keys:
        return True
    return any(wordnet.same_synset(answer, key) for key in gold_keys)


def correct_by_instance(gold: Mapping[str, Sequence[str]],
                        answers: Mapping[str, str]) -> dict[str, bool]:
    """Each gold instance, in gold order, with whether its answer (if any) is right."""
    return {instance: instance in answers and same_sense(answers[instance], keys)
            for instance, keys in gold.items()}


@dataclass(frozen=True)
class Accuracy:
    correct: int
    instances: int
    interval: Interval

    @property
    def accuracy(self) -> float:
        return self.correct / self.instances if self.instances else 0.0

    def as_dict(self) -> dict:
        return {"accuracy": self.accuracy, "correct": self.correct, "instances": self.instances,
                "ci95": [self.interval.low, self.interval.high]}


def accuracy(results: Sequence[bool]) -> Accuracy:
    """Accuracy with its 95% percentile bootstrap interval (instances resampled)."""
    return Accuracy(sum(results), len(results), bootstrap_interval([float(r) for r in results]))


def dataset_of(instance_id: str, names: Sequence[str]) -> str | None:
    """The set an ALL-style id belongs to (its first dot-separated field), if one of ``names``."""
    prefix = instance_id.split(".", 1)[0]
    return prefix if prefix in names else None
