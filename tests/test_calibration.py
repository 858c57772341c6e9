"""Calibration figures of weighted answers, on cases small enough to work out by hand."""
import math

import numpy as np
import pytest

from wsd_classic.answers.senseval import Answer
from wsd_classic.corpora.keys import KeyEntry
from wsd_classic.report import calibration as cal


def _key(**tags):
    return {instance: KeyEntry("w", instance, tuple(gold.split()))
            for instance, gold in tags.items()}


def _answer(instance, *senses, line=1):
    return Answer("w.n", instance, tuple(senses), line)


def test_ece_over_equal_width_bins_by_hand():
    # Bins of width 1/15: 0.9 lies in (13/15, 14/15], 0.62 in (9/15, 10/15], 0.3 in (4/15, 5/15].
    # gaps: |0.5 - 0.9| * 2/5 + |1 - 0.62| * 2/5 + |0 - 0.3| * 1/5 = 0.16 + 0.152 + 0.06 = 0.372
    confidence = np.array([0.9, 0.9, 0.62, 0.62, 0.3])
    correct = np.array([True, False, True, True, False])
    assert cal.expected_calibration_error(confidence, correct) == pytest.approx(0.372)
    bins = cal.reliability_bins(confidence, correct)
    assert len(bins) == 15 and sum(b.count for b in bins) == 5
    assert [(b.count, b.accuracy) for b in bins if b.count] == [(1, 0.0), (2, 1.0), (2, 0.5)]
    assert bins[9].low == pytest.approx(0.6) and bins[9].mean_confidence == pytest.approx(0.62)


def test_ece_is_zero_when_confidence_matches_accuracy_and_bins_matter():
    # Four instances at 0.75 confidence, three right: perfectly calibrated.
    assert cal.expected_calibration_error(np.full(4, 0.75), np.array([1, 1, 1, 0], bool)) == 0
    # One bin would average 0.2 and 0.8 to 0.5 and see no gap; 15 bins see both gaps.
    confidence, correct = np.array([0.2, 0.8]), np.array([True, False])
    assert cal.expected_calibration_error(confidence, correct, bins=1) == pytest.approx(0.0)
    assert cal.expected_calibration_error(confidence, correct) == pytest.approx(0.8)


def test_confidence_one_and_zero_fall_in_the_end_bins():
    bins = cal.reliability_bins(np.array([0.0, 1.0]), np.array([False, True]))
    assert bins[0].count == 1 and bins[-1].count == 1


def test_predictions_top_sense_gold_mass_and_brier_by_hand():
    key = _key(i1="a", i2="a b", i3="c")
    answers = [_answer("i1", ("a", 0.5), ("b", 0.3), ("c", 0.2)),
               _answer("i2", ("c", 0.5), ("b", 0.3), ("a", 0.2)),
               _answer("i3", ("a", 1.0))]
    view = cal.predictions(key, answers)
    assert view.instances == ("i1", "i2", "i3")
    assert view.confidence.tolist() == pytest.approx([0.5, 0.5, 1.0])
    # i2: the top sense c is not gold, though half of the mass is on the gold tags a and b.
    assert view.correct.tolist() == [True, False, False]
    assert view.gold_mass.tolist() == pytest.approx([0.5, 0.5, 0.0])
    # i1: (1-.5)^2 + .3^2 + .2^2 = .38;  i2: (1-.5)^2 + .5^2 = .5;  i3: 1^2 + 1^2 = 2
    assert view.brier.tolist() == pytest.approx([0.38, 0.5, 2.0])


def test_log_loss_uses_gold_mass_clipped_at_1e_15():
    assert cal.log_loss(np.array([0.5, 1.0])) == pytest.approx(math.log(2) / 2)
    assert cal.log_loss(np.array([0.0])) == pytest.approx(-math.log(1e-15))


def test_weights_are_normalised_and_unweighted_tags_count_equally():
    key = _key(i1="a", i2="b")
    answers = [_answer("i1", ("a", 2.0), ("b", 6.0)),  # scaled to .25/.75
               _answer("i2", ("a", None), ("b", 0.9))]  # a tag without weight: all weigh 1
    view = cal.predictions(key, answers)
    assert view.gold_mass.tolist() == pytest.approx([0.25, 0.5])
    assert view.confidence.tolist() == pytest.approx([0.75, 0.5])
    # i2 ties at .5: the first tag (a) is the top sense, and it is wrong.
    assert view.correct.tolist() == [False, False]


def test_first_answer_counts_unknown_instances_ignored_unanswered_counted():
    key = _key(i1="a", i2="b", i3="c")
    answers = [_answer("i1", ("a", 1.0)), _answer("i1", ("b", 1.0), line=2),
               _answer("zz", ("a", 1.0), line=3)]
    result = cal.calibration(key, answers)
    assert (result.instances, result.unanswered) == (1, 2)
    assert (result.accuracy, result.ece, result.brier) == (1.0, 0.0, 0.0)


def test_calibration_summary():
    key = _key(i1="a", i2="a")
    result = cal.calibration(key, [_answer("i1", ("a", 0.8), ("b", 0.2)),
                                   _answer("i2", ("b", 0.6), ("a", 0.4))])
    assert result.accuracy == 0.5
    assert result.mean_confidence == pytest.approx(0.7)
    # bins: 0.8 -> right, gap .2; 0.6 -> wrong, gap .6; ECE = (.2 + .6) / 2
    assert result.ece == pytest.approx(0.4)
    assert result.log_loss == pytest.approx(-(math.log(0.8) + math.log(0.4)) / 2)
    # i1: .2^2 + .2^2 = .08; i2: .6^2 + .6^2 = .72
    assert result.brier == pytest.approx(0.4)
