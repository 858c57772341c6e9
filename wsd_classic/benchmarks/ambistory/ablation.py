"""What each feature group brings: the chosen setting's dev figures without each group and with
each alone (``ablation``), and the ``support`` group cross-validated on several partitions of
train (``support_trial``, ``python -m bench ambistory --support-trial``)."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from sklearn.metrics import roc_auc_score

from wsd_classic.benchmarks.ambistory.features import (FEATURE_GROUPS, FEATURES, RATER_GROUPS,
                                                       FeaturizedSplit)
from wsd_classic.benchmarks.ambistory.rater import (PlausibilityRater, as_integers, fit_cuts,
                                                    rounded_shares)
from wsd_classic.benchmarks.ambistory.selection import (held_out_predictions, homonym_folds,
                                                        integer_params, score_split,
                                                        selection_key)
from wsd_classic.benchmarks.ambistory.support import add_support, support_gaps


def ablation(params: dict, train: FeaturizedSplit, dev: FeaturizedSplit) -> dict[str, dict]:
    """Dev figures of the chosen setting with the rater's groups, without each one, with each
    group alone, and with the groups it does not read (thresholds chosen again for each, on
    held-out predictions of train)."""
    folds = homonym_folds(train.samples)
    figures = {"all": _fit_score(params, RATER_GROUPS, train, dev, folds)}
    for group in FEATURE_GROUPS:
        if group in RATER_GROUPS:
            figures[f"without {group}"] = _fit_score(
                params, tuple(g for g in RATER_GROUPS if g != group), train, dev, folds)
        else:
            figures[f"with {group}"] = _fit_score(params, (*RATER_GROUPS, group), train, dev,
                                                  folds)
        figures[f"only {group}"] = _fit_score(params, (group,), train, dev, folds)
    return figures


def _fit_score(params: dict, groups: tuple[str, ...], train: FeaturizedSplit,
               dev: FeaturizedSplit, folds: Sequence[tuple[np.ndarray, np.ndarray]]) -> dict:
    params = {**integer_params(params, groups, train, folds), "groups": groups}
    rater = PlausibilityRater(**params).fit(train.matrix, train.ratings())
    return score_split(dev, rater.predict_ratings(dev.matrix)).as_dict()


# The partitions of train on which ``support_trial`` compares the rater with and without the
# support group: the folds that choose the rater, and homonyms shuffled into folds with these
# seeds (one partition's rho + accuracy differs from another's by up to 0.03, more than the
# group's effect).
TRIAL_SEEDS = (None, 1, 2, 3)


def support_trial(params: dict, train: FeaturizedSplit) -> list[dict]:
    """For each partition of ``TRIAL_SEEDS``: the rater ``params`` cross-validated with its groups
    and with ``support`` besides (its column out of fold on that partition's folds), and the
    support classifier's held-out area under the ROC curve on the stories with an ending, on
    those whose two meanings' ratings differ by more than 2, and on the open-ended ones."""
    gaps, ended = support_gaps(train.samples), np.array([bool(s.ending) for s in train.samples])
    decided = np.nan_to_num(gaps) != 0
    kinds = {"ended": ended & decided, "open-ended": ~ended & decided,
             "ended, gap over 2": ended & (np.abs(np.nan_to_num(gaps)) > 2)}
    shares = rounded_shares(train.ratings())
    trials = []
    for seed in TRIAL_SEEDS:
        folds = homonym_folds(train.samples, seed)
        split = FeaturizedSplit(train.samples, train.matrix.copy(), train.matches, [])
        add_support(split, (), folds)
        support = split.matrix[:, FEATURES.index("support_probability")]
        trial = {"seed": seed, "support_auc": {
            kind: float(roc_auc_score(gaps[rows] > 0, support[rows])) if rows.any() else None
            for kind, rows in kinds.items()}}
        for label, groups in (("without support", RATER_GROUPS),
                              ("with support", (*RATER_GROUPS, "support"))):
            held_out = held_out_predictions(params, groups, split, folds)
            cuts = fit_cuts(held_out, split) if params.get("integers") == "thresholds" else ()
            score = score_split(split, as_integers(held_out, params["integers"], shares, cuts))
            trial[label] = {**score.as_dict(), "key": selection_key(score)}
        trials.append(trial)
    return trials
