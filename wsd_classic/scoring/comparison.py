"""Rows of predictions scored side by side on one dataset, as ``bin/compare`` tables them.

Every row is scored as Raganato et al.'s scorer does (``scoring.raganato``: an instance the row
does not answer counts against recall only). Beside P, R and F1 each row gets:

- a 95% percentile bootstrap interval of F1 over the dataset's instances; every row of a
  dataset is resampled with the same seed, so all rows see the same resamples (paired);
- McNemar's exact test against the best classic row (by F1), an instance counting as right
  when its prediction earns full credit;
- F1 on each split of the instances (``instance_splits``): part of speech, MFS / LFS, gold
  sense seen / unseen in SemCor, lemma unseen in SemCor.
"""
from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from wsd_classic.corpora.allwords import key_lexelt
from wsd_classic.pos import POS_NAMES, UNIVERSAL_POS
from wsd_classic.scoring.raganato import RaganatoResult, instance_credit
from wsd_classic.scoring.statistics import Interval, McNemar, bootstrap_f1_interval, mcnemar
from wsd_classic.wordnet import wordnet_senses

POS_SPLITS = POS_NAMES  # the splits by part of speech are named as people name them
MFS, LFS = "MFS", "LFS"
SEEN_SENSE, UNSEEN_SENSE, UNSEEN_LEMMA = "seen sense", "unseen sense", "unseen lemma"
SPLITS = (*POS_SPLITS.values(), MFS, LFS, SEEN_SENSE, UNSEEN_SENSE, UNSEEN_LEMMA)


@dataclass(frozen=True)
class SemcorInventory:
    """What SemCor tags: its sense keys, and its lexelts (``lemma.pos`` of those keys)."""

    senses: frozenset[str]
    lexelts: frozenset[str]


def is_mfs(gold_keys: Sequence[str]) -> bool:
    """Whether one of the gold keys is WordNet's first sense of its own lemma and part of
    speech (``bank%1:14:00::`` is, ``bank%1:17:01::`` is not)."""
    for key in gold_keys:
        senses = wordnet_senses(*key_lexelt(key))
        if senses and senses[0] == key:
            return True
    return False


def instance_splits(gold: Mapping[str, Sequence[str]], pos_tags: Mapping[str, str],
                    inventory: SemcorInventory) -> dict[str, np.ndarray]:
    """For each split of ``SPLITS``, which gold instances (in gold order) it holds.

    The part of speech is the dataset's own tag of the instance (``pos_tags``: NOUN, VERB, ADJ,
    ADV; other tags are in no POS split). MFS: a gold key is WordNet's first sense of its lemma
    (``is_mfs``), LFS: none is. Seen sense: a gold key is tagged somewhere in SemCor; unseen
    sense: none is. Unseen lemma: SemCor tags no sense of the lemma and part of speech of any
    gold key (a subset of the unseen senses: BEM's zero-shot words).
    """
    instances = list(gold)
    pos = [POS_SPLITS.get(UNIVERSAL_POS.get(pos_tags.get(instance, ""), ""))
           for instance in instances]
    mfs = np.array([is_mfs(gold[instance]) for instance in instances], dtype=bool)
    seen = np.array([any(key in inventory.senses for key in gold[instance])
                     for instance in instances], dtype=bool)
    lemma_seen = np.array([any("{}.{}".format(*key_lexelt(key)) in inventory.lexelts
                               for key in gold[instance]) for instance in instances], dtype=bool)
    splits = {name: np.array([tag == name for tag in pos], dtype=bool)
              for name in POS_SPLITS.values()}
    splits.update({MFS: mfs, LFS: ~mfs, SEEN_SENSE: seen, UNSEEN_SENSE: ~seen,
                   UNSEEN_LEMMA: ~lemma_seen})
    return splits


@dataclass(frozen=True)
class RowScore:
    """One row on one dataset. ``correct``: per gold instance, full credit; ``by_split``: F1
    per split (None for an empty split); ``against_best``: McNemar's test of this row (first)
    against the best classic row (second), None for that row itself or without classic rows."""

    label: str
    classic: bool
    result: RaganatoResult
    interval: Interval
    by_split: dict[str, float | None]
    correct: np.ndarray
    against_best: McNemar | None = None

    @property
    def unanswered(self) -> int:
        return self.result.instances - self.result.answered


@dataclass(frozen=True)
class DatasetComparison:
    """Every row on one dataset (a column of the tables), rows in the order given."""

    name: str
    instances: int
    split_sizes: dict[str, int]
    rows: tuple[RowScore, ...]
    best_classic: str | None


def compare_rows(name: str, gold: Mapping[str, Sequence[str]],
                 predictions: Mapping[str, Mapping[str, Sequence[str]]], classic: Collection[str],
                 splits: Mapping[str, np.ndarray]) -> DatasetComparison:
    """Score every row of ``predictions`` (label -> predicted keys by id; ids outside ``gold``
    are ignored) on ``gold``; ``classic`` names the classic rows."""
    scored = [_row(label, label in classic, gold, predicted, splits)
              for label, predicted in predictions.items()]
    classic_rows = [row for row in scored if row.classic]
    best = max(classic_rows, key=lambda row: row.result.f1) if classic_rows else None
    if best is not None:
        scored = [row if row is best else _with_test(row, mcnemar(row.correct, best.correct))
                  for row in scored]
    return DatasetComparison(name, len(gold), {split: int(mask.sum())
                                               for split, mask in splits.items()},
                             tuple(scored), best.label if best is not None else None)


def _with_test(row: RowScore, test: McNemar) -> RowScore:
    return RowScore(row.label, row.classic, row.result, row.interval, row.by_split, row.correct,
                    test)


def _row(label: str, classic: bool, gold: Mapping[str, Sequence[str]],
         predicted: Mapping[str, Sequence[str]], splits: Mapping[str, np.ndarray]) -> RowScore:
    credit, answered = (np.array(values) for values in instance_credit(gold, predicted))
    by_split = {split: (RaganatoResult(float(credit[mask].sum()), int(answered[mask].sum()),
                                       int(mask.sum())).f1 if mask.any() else None)
                for split, mask in splits.items()}
    result = RaganatoResult(float(credit.sum()), int(answered.sum()), len(gold))
    return RowScore(label, classic, result, bootstrap_f1_interval(credit, answered), by_split,
                    credit >= 1.0)
