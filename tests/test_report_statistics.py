"""Bootstrap intervals and McNemar's test on hand-computable cases."""
import math

import pytest

from wsd_classic.scoring.statistics import bootstrap_f1_interval, bootstrap_interval, mcnemar


def test_bootstrap_interval_is_reproducible_with_its_seed():
    scores = [1.0] * 60 + [0.0] * 40
    first, again = bootstrap_interval(scores), bootstrap_interval(scores)
    assert first == again
    assert bootstrap_interval(scores, seed=1) != first
    assert first.low < 0.6 < first.high


def test_bootstrap_interval_matches_the_normal_approximation_on_a_large_sample():
    # mean 0.6 over 2000 instances: standard error sqrt(.6 * .4 / 2000) = 0.01095, so the 95%
    # interval is about 0.6 -+ 1.96 * 0.01095 = [0.5785, 0.6215]
    interval = bootstrap_interval([1.0] * 1200 + [0.0] * 800)
    assert interval.low == pytest.approx(0.5785, abs=0.004)
    assert interval.high == pytest.approx(0.6215, abs=0.004)


def test_bootstrap_interval_of_constant_scores_is_a_point():
    interval = bootstrap_interval([1.0] * 10)
    assert (interval.low, interval.high) == (1.0, 1.0)
    assert bootstrap_interval([]).low == 0.0


def test_mcnemar_counts_discordant_pairs():
    first = [True, True, False, False, True]
    second = [True, False, True, False, False]
    test = mcnemar(first, second)
    assert (test.only_first, test.only_second) == (2, 1)
    assert test.p_value == pytest.approx(1.0)  # 2 of 3 is what chance gives most often


def test_mcnemar_exact_p_value_by_hand():
    # 10 discordant pairs, all favouring the first system: two-sided p = 2 * 0.5^10
    first = [True] * 10 + [True] * 5
    second = [False] * 10 + [True] * 5
    assert mcnemar(first, second).p_value == pytest.approx(2 * 0.5 ** 10)
    # 8 against 2: p = 2 * P(X <= 2), X ~ Bin(10, 1/2) = 2 * (1 + 10 + 45) / 1024
    first = [True] * 8 + [False] * 2
    second = [False] * 8 + [True] * 2
    assert mcnemar(first, second).p_value == pytest.approx(2 * 56 / 1024)
    assert math.isclose(mcnemar(second, first).p_value, mcnemar(first, second).p_value)


def test_mcnemar_without_disagreement_and_on_mismatched_inputs():
    assert mcnemar([True, False], [True, False]).p_value == 1.0
    with pytest.raises(ValueError):
        mcnemar([True], [True, False])


def test_f1_interval_equals_the_mean_interval_when_everything_is_answered():
    credit = [1.0] * 70 + [0.0] * 30
    assert bootstrap_f1_interval(credit, [1] * 100) == bootstrap_interval(credit)


def test_f1_interval_when_half_is_unanswered():
    # 50 answered, 40 of them right: P = 0.8, R = 0.4, F1 = 2 * .32 / 1.2 = 0.5333
    credit = [1.0] * 40 + [0.0] * 60
    answered = [1] * 50 + [0] * 50
    interval = bootstrap_f1_interval(credit, answered)
    assert interval.low < 0.5333 < interval.high
    assert interval.high - interval.low < 0.25
    assert bootstrap_f1_interval([0.0] * 5, [0] * 5).high == 0.0  # nothing answered: F1 0
