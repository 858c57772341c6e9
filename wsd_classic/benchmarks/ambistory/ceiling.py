"""What bounds an AmbiStory rater: how the human ratings vary, and which part of that a rater's
ratings follow.

Every setup (precontext + sentence) is rated with two meanings and three endings (one written for
each meaning, and none). Within a setup rated completely, the six mean ratings split, as in a
two-way analysis of variance, into the setup's mean, the **meaning** effect (one meaning rated
higher whatever the ending), the **ending** effect (one ending rated higher whatever the
meaning) and their **interaction** (which meaning an ending supports). For a balanced table the
four parts' sums of squares add up to the ratings' own around their grand mean.

The component oracles ask what a rater would need: the saved rater's setting fitted again with
one more column holding a human component (which meaning each ending supports, or the meaning
effect itself, or that effect blurred to a given agreement), its cuts cross-validated on train
as the rater's were, and scored on dev. They read dev's ratings, so they bound; they choose nothing.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import replace

import numpy as np
from scipy.stats import spearmanr

from wsd_classic.benchmarks.ambistory.features import FeaturizedSplit
from wsd_classic.benchmarks.ambistory.rater import PlausibilityRater, as_integers, fit_cuts
from wsd_classic.benchmarks.ambistory.selection import (held_out_predictions, homonym_folds,
                                                        score_split)
from wsd_classic.corpora.ambistory import AmbiStorySample
from wsd_classic.scoring.ambistory import score_ambistory

COMPONENTS = ("setup", "meaning", "ending", "interaction")
MEANINGS, ENDINGS = 2, 3


def complete_tables(samples: Sequence[AmbiStorySample]) -> list[np.ndarray]:
    """Each setup rated with exactly two meanings x three endings, as a 2x3 array of sample
    indices (meanings and endings in sorted order); other setups are left out."""
    cells: dict[tuple, dict[tuple[str, str], int]] = defaultdict(dict)
    for index, sample in enumerate(samples):
        cells[sample.setup][(sample.judged_meaning, sample.ending)] = index
    tables = []
    for cell in cells.values():
        meanings = sorted({meaning for meaning, _ in cell})
        endings = sorted({ending for _, ending in cell})
        if len(meanings) == MEANINGS and len(endings) == ENDINGS and len(cell) == 6:
            tables.append(np.array([[cell[(meaning, ending)] for ending in endings]
                                    for meaning in meanings]))
    return tables


def components(values: np.ndarray, tables: Sequence[np.ndarray]) -> dict[str, np.ndarray]:
    """Each component's value at every sample of ``tables`` (NaN elsewhere); ``setup`` is the
    setup's mean minus the grand mean of all tables' samples."""
    values = np.asarray(values, dtype=float)
    parts = {name: np.full(len(values), np.nan) for name in COMPONENTS}
    if not tables:
        return parts
    grand = float(np.mean([values[table].mean() for table in tables]))
    for table in tables:
        cell = values[table]
        mean = cell.mean()
        meaning = cell.mean(axis=1, keepdims=True) - mean
        ending = cell.mean(axis=0, keepdims=True) - mean
        parts["setup"][table] = mean - grand
        parts["meaning"][table] = np.broadcast_to(meaning, cell.shape)
        parts["ending"][table] = np.broadcast_to(ending, cell.shape)
        parts["interaction"][table] = cell - mean - meaning - ending
    return parts


def _human_components(samples: Sequence[AmbiStorySample], tables: Sequence[np.ndarray]
                      ) -> dict[str, np.ndarray]:
    return components(np.array([sample.average for sample in samples]), tables)


def variance_shares(samples: Sequence[AmbiStorySample]) -> dict:
    """Each component's share of the mean ratings' sum of squares, over the complete setups."""
    tables = complete_tables(samples)
    parts = _human_components(samples, tables)
    squares = {name: float(np.nansum(part ** 2)) for name, part in parts.items()}
    total = sum(squares.values())
    return {"setups": len(tables), "samples": MEANINGS * ENDINGS * len(tables),
            "shares": {name: value / total if total else float("nan")
                       for name, value in squares.items()}}


def component_agreement(samples: Sequence[AmbiStorySample], predicted: np.ndarray
                        ) -> dict[str, float | None]:
    """Spearman's rho between each component of ``predicted`` and of the mean ratings, over
    the complete setups (None where either is constant)."""
    tables = complete_tables(samples)
    truth, guess = _human_components(samples, tables), components(predicted, tables)
    agreement = {}
    for name in COMPONENTS:
        rated = ~np.isnan(truth[name])
        both = truth[name][rated], guess[name][rated]
        agreement[name] = (None if min(np.ptp(both[0]), np.ptp(both[1])) == 0
                           else float(spearmanr(*both).statistic))
    return agreement


def roles(samples: Sequence[AmbiStorySample]) -> list[str]:
    """Each sample's role by its ratings: ``open`` without an ending; else ``supported`` /
    ``opposed`` when its meaning is rated above / below the other meaning in the same story,
    ``tie`` when equal or alone."""
    stories: dict[tuple, list[int]] = defaultdict(list)
    for index, sample in enumerate(samples):
        stories[(sample.setup, sample.ending)].append(index)
    labels = []
    for index, sample in enumerate(samples):
        others = [other for other in stories[(sample.setup, sample.ending)] if other != index]
        if not sample.ending:
            labels.append("open")
        elif len(others) != 1 or samples[others[0]].average == sample.average:
            labels.append("tie")
        else:
            labels.append("supported" if sample.average > samples[others[0]].average
                          else "opposed")
    return labels


def role_oracle(train: Sequence[AmbiStorySample], scored: Sequence[AmbiStorySample]) -> dict:
    """The task's figures on ``scored`` of a rater told each sample's role (``roles``, read off
    the very ratings it is scored against) and nothing else: it answers the training samples'
    mean rating of that role (of all of them for a role they lack), rounded. A bound on raters
    whose evidence is which meaning the ending supports."""
    by_role: dict[str, list[float]] = defaultdict(list)
    for sample, role in zip(train, roles(train)):
        by_role[role].append(sample.average)
    means = {role: float(np.mean(ratings)) for role, ratings in by_role.items()}
    overall = float(np.mean([sample.average for sample in train]))
    predictions = {sample.id: int(np.clip(np.rint(means.get(role, overall)), 1, 5))
                   for sample, role in zip(scored, roles(scored))}
    score = score_ambistory(predictions, {sample.id: sample.choices for sample in scored})
    return {"role_means": means, **score.as_dict()}


def pairing_agreement(samples: Sequence[AmbiStorySample], predicted: np.ndarray) -> float:
    """The share of complete setups whose two endings ``predicted`` pairs with the two meanings
    as the humans' ratings do: the sign of the interaction's contrast between the two endings
    (a setup whose ratings show none left out)."""
    tables = complete_tables(samples)
    truth = _human_components(samples, tables)["interaction"]
    guess = components(predicted, tables)["interaction"]
    agreements = []
    for table in tables:
        ended = [column for column in range(ENDINGS) if samples[table[0, column]].ending]
        if len(ended) != 2:  # a setup told with three endings has no one pairing
            continue
        first, second = table[0, ended[0]], table[0, ended[1]]
        human = truth[first] - truth[second]
        if human:
            agreements.append(np.sign(guess[first] - guess[second]) == np.sign(human))
    return float(np.mean(agreements)) if agreements else float("nan")


def oracle_column(samples: Sequence[AmbiStorySample], component: str) -> np.ndarray:
    """What a rater is told: ``pairing``, the sign of the interaction (which meaning each story
    supports beyond the meaning and ending effects), or ``meaning``, the meaning effect; 0 for a
    sample outside the complete setups."""
    parts = _human_components(samples, complete_tables(samples))
    if component == "pairing":
        return np.sign(np.nan_to_num(parts["interaction"]))
    if component == "meaning":
        return np.nan_to_num(parts["meaning"])
    raise ValueError(f"unknown component {component!r}")


def blurred(samples: Sequence[AmbiStorySample], column: np.ndarray, agreement: float,
            seed: int) -> np.ndarray:
    """``column`` (the meaning effect) plus noise that leaves the sum correlated ``agreement``
    with the effect: one normal draw per setup, of opposite signs for its two meanings."""
    generator = np.random.default_rng(seed)
    draws: dict[tuple, tuple[str, float]] = {}
    noise = np.empty(len(samples))
    for index, sample in enumerate(samples):
        first, draw = draws.setdefault(sample.setup, (sample.judged_meaning, generator.normal()))
        noise[index] = draw if sample.judged_meaning == first else -draw
    return column + np.sqrt(1 / agreement ** 2 - 1) * column.std() * noise


# The agreements of a blurred meaning effect the oracles try, and the noise draws each averages.
BLURRED_AGREEMENTS = (0.3, 0.4, 0.5, 0.6, 0.7)
BLUR_SEEDS = (0, 1, 2)


class ToldRater(PlausibilityRater):
    """A ``PlausibilityRater`` that also reads the matrix's last column, an oracle's."""

    def _columns(self, matrix: np.ndarray) -> np.ndarray:
        return np.hstack([super()._columns(matrix[:, :-1]), matrix[:, -1:]])


def told_rater(params: dict, groups: tuple[str, ...], train: FeaturizedSplit,
               dev: FeaturizedSplit, train_column: np.ndarray, dev_column: np.ndarray) -> dict:
    """The dev figures of the rater ``params`` also told ``*_column``: its cuts fitted on
    held-out predictions of train (the folds that chose the rater), as the rater's own are."""
    told = replace(train, matrix=np.hstack([train.matrix, train_column[:, None]]))
    held_out = held_out_predictions(params, groups, told, homonym_folds(train.samples),
                                    ToldRater)
    values = ToldRater(**params, groups=groups).fit(
        told.matrix, np.array([sample.average for sample in train.samples])).predict(
        np.hstack([dev.matrix, dev_column[:, None]]))
    integers = as_integers(values, "thresholds", None, fit_cuts(held_out, train))
    return score_split(dev, integers).as_dict()
