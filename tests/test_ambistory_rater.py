"""The AmbiStory rater: the estimator, its integers and cuts, the homonym folds that choose it,
and the support classifier."""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from bench.ambistory_ppr import column_trial
from wsd_classic.benchmarks.ambistory.ablation import TRIAL_SEEDS, support_trial
from wsd_classic.benchmarks.ambistory.features import (FEATURES, FEATURE_GROUPS, FeaturizedSplit,
                                                       NO_SUPPORT_EVIDENCE, RATER_GROUPS,
                                                       SUPPORT_INPUTS)
from wsd_classic.benchmarks.ambistory.rater import PlausibilityRater, as_integers, fit_cuts
from wsd_classic.benchmarks.ambistory.selection import FOLDS, homonym_folds, score_split
from wsd_classic.benchmarks.ambistory.support import SupportClassifier, add_support, support_gaps
from wsd_classic.corpora.ambistory import AmbiStorySample

pytestmark = [pytest.mark.filterwarnings("ignore:The multilingual functions are not available"),
              pytest.mark.filterwarnings("ignore::wsd_classic.corpora.registry."
                                         "UnverifiedDataWarning")]


def test_integers_round_or_follow_the_training_shares():
    values = np.array([0.2, 2.4, 2.6, 3.0, 5.7])
    assert as_integers(values, "round", None).tolist() == [1, 2, 3, 3, 5]
    shares = np.array([0.2, 0.2, 0.2, 0.2, 0.2])
    assert as_integers(values[::-1], "quantiles", shares).tolist() == [5, 4, 3, 2, 1]
    with pytest.raises(ValueError):
        as_integers(values, "floor", shares)


def test_thresholds_cut_between_the_integers():
    values = np.array([0.2, 2.0, 2.1, 3.9, 4.0, 9.0])
    cuts = (2.0, 3.0, 3.95, 4.5)  # in any order
    assert as_integers(values, "thresholds", None, cuts[::-1]).tolist() == [
        1, 1, 2, 3, 4, 5]
    with pytest.raises(ValueError):
        as_integers(values, "thresholds", None, (2.0, 3.0))


def _rated(key, homonym, setup, choices):
    return AmbiStorySample(key, homonym, "m", f"Pre {setup}.", "The bank.", "", "", choices)


def test_cuts_fitted_on_held_out_values_beat_rounding_a_biased_rater():
    rng = np.random.default_rng(1)
    samples = [_rated(str(i), "bank", i, tuple(int(v) for v in rng.integers(1, 6, size=5)))
               for i in range(120)]
    split = FeaturizedSplit(samples, np.zeros((120, 1)), Counter(), [])
    means = np.array([sample.average for sample in samples])
    biased = means + 1.6  # in the right order, but each a rating and a half too high
    cuts = fit_cuts(biased, split)
    assert len(cuts) == 4 and list(cuts) == sorted(cuts)

    def figures(integers):
        score = score_split(split, integers)
        return score.spearman + score.accuracy

    rounded = as_integers(biased, "round", None)
    assert figures(as_integers(biased, "thresholds", None, cuts)) > figures(rounded)


def test_folds_keep_a_homonym_on_one_side_and_split_one_homonym_by_setup():
    samples = [_rated(str(i), f"word{i % 7}", i % 3, (3, 3)) for i in range(28)]
    folds = homonym_folds(samples)
    assert len(folds) == FOLDS
    for fitted, held in folds:
        assert not {samples[i].homonym for i in fitted} & {samples[i].homonym for i in held}
    assert sorted(i for _, held in folds for i in held) == list(range(28))
    alone = [_rated(str(i), "bank", i % 3, (3, 3)) for i in range(9)]
    folds = homonym_folds(alone)
    assert len(folds) == 3
    for fitted, held in folds:
        assert not {alone[i].setup for i in fitted} & {alone[i].setup for i in held}
    shuffled = homonym_folds(samples, seed=1)  # another partition, still by homonym
    assert sorted(i for _, held in shuffled for i in held) == list(range(28))
    for fitted, held in shuffled:
        assert not {samples[i].homonym for i in fitted} & {samples[i].homonym for i in held}
    assert {tuple(held) for _, held in shuffled} != {
        tuple(held) for _, held in homonym_folds(samples)}


def test_rater_learns_from_the_kept_groups_only():
    rng = np.random.default_rng(0)
    matrix = rng.normal(size=(200, len(FEATURES)))
    signal = FEATURES.index(FEATURE_GROUPS["siblings"][0])
    ratings = np.clip(3 + matrix[:, signal], 1, 5)
    for model in ("ridge", "boosting", "ordinal"):
        rater = PlausibilityRater(model=model).fit(matrix, ratings)
        predicted = rater.predict(matrix)
        assert np.corrcoef(predicted, ratings)[0, 1] > 0.8, model
        assert set(rater.predict_ratings(matrix)) <= {1, 2, 3, 4, 5}
    blind = PlausibilityRater(model="ridge", groups=("wsd",)).fit(matrix, ratings)
    assert abs(np.corrcoef(blind.predict(matrix), ratings)[0, 1]) < 0.3


def _story(key, homonym, setup, meaning, ending, choices):
    return AmbiStorySample(key, homonym, meaning, f"Pre {setup}.", "The bank.", ending, "",
                           choices)


def test_support_gaps_compare_the_two_meanings_of_one_story():
    samples = [_story("0", "bank", 0, "a", "", (3, 3)), _story("1", "bank", 0, "b", "", (2, 2)),
               _story("2", "bank", 0, "a", "E1.", (5, 4)),
               _story("3", "bank", 0, "b", "E1.", (1, 2)),
               _story("4", "bank", 0, "a", "E2.", (2, 2)),  # its other meaning is missing
               _story("5", "bank", 1, "a", "E1.", None),
               _story("6", "bank", 1, "b", "E1.", (3, 3))]
    gaps = support_gaps(samples)
    assert gaps[:4].tolist() == [1.0, -1.0, 3.0, -3.0]
    assert np.isnan(gaps[4:]).all()  # no partner, no ratings, a partner without ratings


def _support_layout(stories, rng, noise=0.0):
    """Toy rows of paired meanings: ``ending_definition_margin`` says which meaning the ending
    supports (the ratings follow it), every other margin is noise; the partner's margins are
    the negatives, as the features' are."""
    signal = FEATURES.index("ending_definition_margin")
    margins = [FEATURES.index(name) for name in SUPPORT_INPUTS]
    matrix = np.zeros((2 * stories, len(FEATURES)))
    samples = []
    for story in range(stories):
        row = np.zeros(len(FEATURES))
        row[margins] = rng.normal(size=len(margins))
        supported = row[signal] + noise * rng.normal() > 0
        matrix[2 * story], matrix[2 * story + 1] = row, -row
        high, low = (5, 4), (1, 2)
        for meaning, choices in (("a", high if supported else low),
                                 ("b", low if supported else high)):
            samples.append(_story(f"{story}{meaning}", f"word{story % 10}", story, meaning,
                                  "E.", choices))
    matrix[:, FEATURES.index("has_ending")] = 1.0
    return samples, matrix


def test_support_classifier_picks_the_meaning_the_ending_supports():
    rng = np.random.default_rng(0)
    samples, matrix = _support_layout(300, rng)
    classifier = SupportClassifier(C=1.0).fit(matrix, support_gaps(samples))
    _, unseen = _support_layout(50, np.random.default_rng(1))
    truth = unseen[:, FEATURES.index("ending_definition_margin")] > 0
    assert (classifier.predict(unseen) == truth).mean() > 0.9
    probabilities = classifier.predict_proba(unseen)[:, 1]
    # the two meanings of a story: the inputs swap sign, the probabilities sum to 1
    assert np.allclose(probabilities[0::2] + probabilities[1::2], 1.0)
    open_ended = unseen.copy()
    open_ended[:, FEATURES.index("has_ending")] = 0.0  # no open-ended story to learn
    assert (classifier.predict_proba(open_ended)[:, 1] == NO_SUPPORT_EVIDENCE).all()


def test_support_column_is_out_of_fold_on_train_and_fitted_on_all_of_it_elsewhere():
    rng = np.random.default_rng(2)
    samples, matrix = _support_layout(120, rng, noise=1.0)
    train = FeaturizedSplit(samples, matrix.copy(), Counter(), [])
    dev_samples, dev_matrix = _support_layout(20, np.random.default_rng(3))
    dev = FeaturizedSplit(dev_samples, dev_matrix.copy(), Counter(), [])
    folds = homonym_folds(samples)
    add_support(train, [dev], folds)
    column = FEATURES.index("support_probability")
    gaps = support_gaps(samples)
    everything = SupportClassifier().fit(matrix, gaps)
    assert np.allclose(dev.matrix[:, column], everything.predict_proba(dev_matrix)[:, 1])
    in_sample = everything.predict_proba(matrix)[:, 1]
    assert not np.allclose(train.matrix[:, column], in_sample)
    fitted, held = folds[0]
    from_the_others = SupportClassifier().fit(matrix[fitted], gaps[fitted])
    assert np.allclose(train.matrix[held, column],
                       from_the_others.predict_proba(matrix[held])[:, 1])
    # only the support column was written
    assert np.array_equal(np.delete(train.matrix, column, axis=1),
                          np.delete(matrix, column, axis=1))


def test_the_rater_does_not_read_the_support_group_unless_told():
    assert "support" in FEATURE_GROUPS
    assert "support" not in RATER_GROUPS
    assert PlausibilityRater().groups == RATER_GROUPS
    assert "support_probability" not in SUPPORT_INPUTS
    assert set(SUPPORT_INPUTS) >= set(FEATURE_GROUPS["siblings"])


def test_support_trial_compares_the_rater_with_and_without_the_group():
    rng = np.random.default_rng(4)
    samples, matrix = _support_layout(60, rng, noise=0.5)
    train = FeaturizedSplit(samples, matrix, Counter(), [])
    params = {"model": "ridge", "alpha": 1.0, "integers": "round"}
    trials = support_trial(params, train)
    assert [trial["seed"] for trial in trials] == list(TRIAL_SEEDS)
    for trial in trials:
        assert trial["support_auc"]["ended"] > 0.8
        assert trial["support_auc"]["open-ended"] is None  # the toy has no open-ended story
        assert set(trial) == {"seed", "support_auc", "without support", "with support"}
        assert trial["with support"]["samples"] == 120
    assert (matrix[:, FEATURES.index("support_probability")] == 0).all()  # a copy


def test_column_trial_reads_the_candidate_columns_only_with_them():
    rng = np.random.default_rng(5)
    samples, matrix = _support_layout(60, rng)
    signal = matrix[:, [FEATURES.index("ending_definition_margin")]].copy()
    matrix[:, FEATURES.index("ending_definition_margin")] = 0.0  # the rater's own columns: noise
    train = FeaturizedSplit(samples, matrix, Counter(), [])
    params = {"model": "ridge", "alpha": 1.0, "integers": "round"}
    trials = column_trial(params, train, signal, "toy")
    assert [trial["seed"] for trial in trials] == list(TRIAL_SEEDS)
    for trial in trials:
        assert set(trial) == {"seed", "without toy", "with toy"}
        assert trial["with toy"]["key"] > trial["without toy"]["key"] + 0.3
    assert train.matrix.shape[1] == len(FEATURES)
