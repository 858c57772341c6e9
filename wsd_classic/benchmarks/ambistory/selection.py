"""The rater's setting chosen by cross-validation on train: folds by homonym (train, dev and test
share none), each candidate's held-out predictions, and the task's two figures summed."""
from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

import numpy as np
from sklearn.model_selection import GroupKFold, PredefinedSplit

from wsd_classic.benchmarks.ambistory.features import RATER_GROUPS, FeaturizedSplit
from wsd_classic.benchmarks.ambistory.rater import (CANDIDATES, INTEGER_METHODS,
                                                    PlausibilityRater, as_integers, fit_cuts,
                                                    rounded_shares)
from wsd_classic.corpora.ambistory import AmbiStorySample
from wsd_classic.scoring.ambistory import AmbiStoryScore, score_ambistory

# Folds of the cross-validation on train that chooses the rater (grouped by homonym).
FOLDS = 5


def score_split(split: FeaturizedSplit, integers: np.ndarray) -> AmbiStoryScore:
    return score_ambistory({sample.id: int(value) for sample, value in
                            zip(split.samples, integers)},
                           {sample.id: sample.choices for sample in split.samples})


def selection_key(score: AmbiStoryScore) -> float:
    """Both of the task's figures count: their sum, a NaN rho as 0."""
    return (0.0 if math.isnan(score.spearman) else score.spearman) + score.accuracy


def homonym_folds(samples: Sequence[AmbiStorySample], seed: int | None = None
                  ) -> list[tuple[np.ndarray, np.ndarray]]:
    """Cross-validation folds of train, no homonym on both sides (train, dev and test share
    none); a file of one homonym is split by setup instead. ``seed``: homonyms shuffled into
    folds of equal counts (another partition), instead of folds of equal sizes."""
    keys = [sample.homonym for sample in samples]
    if len(set(keys)) < 2:
        keys = [sample.setup for sample in samples]
    sizes = Counter(keys)
    count = min(FOLDS, len(sizes))
    if seed is not None:
        numbers = {key: number for number, key in enumerate(sorted(sizes))}
        folds = GroupKFold(count, shuffle=True, random_state=seed)
        return list(folds.split(np.zeros((len(keys), 1)), groups=[numbers[key] for key in keys]))
    # GroupKFold's greedy assignment, with its ties between equal sizes broken by the key: its own
    # order of ties depends on the scikit-learn version and, before 1.9, on the CPU's sort.
    loads, fold_of = [0] * count, {}
    for key in sorted(sizes, key=lambda key: (sizes[key], key), reverse=True):
        fold_of[key] = loads.index(min(loads))
        loads[fold_of[key]] += sizes[key]
    return list(PredefinedSplit([fold_of[key] for key in keys]).split())


def held_out_predictions(params: dict, groups: tuple[str, ...], train: FeaturizedSplit,
                         folds: Sequence[tuple[np.ndarray, np.ndarray]],
                         rater_class: type[PlausibilityRater] = PlausibilityRater) -> np.ndarray:
    """Each training sample's real-valued rating from a rater fitted on the other folds."""
    ratings, values = train.ratings(), np.empty(len(train.samples))
    for fitted, held in folds:
        rater = rater_class(**{**params, "groups": groups}).fit(train.matrix[fitted],
                                                                ratings[fitted])
        values[held] = rater.predict(train.matrix[held])
    return values


def integer_params(params: dict, groups: tuple[str, ...], train: FeaturizedSplit,
                   folds: Sequence[tuple[np.ndarray, np.ndarray]]) -> dict:
    """``params`` with the cuts its thresholds need, chosen on held-out predictions."""
    if params.get("integers") != "thresholds":
        return params
    held_out = held_out_predictions(params, groups, train, folds)
    return {**params, "cuts": list(fit_cuts(held_out, train))}


def choose(train: FeaturizedSplit) -> tuple[dict, list[dict]]:
    """The candidate setting with the best cross-validated figures on train, and every
    candidate's cross-validated figures. Nothing but train is read."""
    folds, groups = homonym_folds(train.samples), RATER_GROUPS
    shares = rounded_shares(train.ratings())
    trials = []
    for candidate in CANDIDATES:
        held_out = held_out_predictions(candidate, groups, train, folds)
        for method in INTEGER_METHODS:
            cuts = fit_cuts(held_out, train) if method == "thresholds" else ()
            cross_validated = score_split(train, as_integers(held_out, method, shares, cuts))
            params = {**candidate, "integers": method, **({"cuts": list(cuts)} if cuts else {})}
            trials.append({"params": params, "cv": cross_validated.as_dict(),
                           "key": selection_key(cross_validated)})
    best = max(trials, key=lambda trial: trial["key"])
    return best["params"], trials


def with_dev_figures(trials: Sequence[dict], train: FeaturizedSplit,
                     dev: FeaturizedSplit) -> list[dict]:
    """``choose``'s trials, each with its setting's figures on dev when fitted on all of train:
    a check, after the choice, that chooses nothing."""
    shares, values = rounded_shares(train.ratings()), {}
    checked = []
    for trial in trials:
        params = trial["params"]
        candidate = {name: value for name, value in params.items()
                     if name not in ("integers", "cuts")}
        fitted = repr(sorted(candidate.items()))  # each candidate fitted once for its 3 integers
        if fitted not in values:
            values[fitted] = PlausibilityRater(**candidate).fit(
                train.matrix, train.ratings()).predict(dev.matrix)
        integers = as_integers(values[fitted], params["integers"], shares, params.get("cuts", ()))
        checked.append({**trial, "dev": score_split(dev, integers).as_dict()})
    return checked
