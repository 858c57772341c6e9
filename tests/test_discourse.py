"""One sense per discourse: each target's distribution pulled towards the mean of the others of
its lexelt in its document (``systems.discourse``)."""
from __future__ import annotations

import pytest

from wsd_classic.systems.discourse import pulled_together

RIVER, MONEY = "bank%1:17:01::", "bank%1:14:00::"


def test_two_targets_of_one_unit_are_mixed_with_each_other():
    first, second = {RIVER: 0.9, MONEY: 0.1}, {RIVER: 0.2, MONEY: 0.8}
    pulled = pulled_together([first, second], [("d0", "bank.n")] * 2, 0.25)
    assert pulled[0] == pytest.approx({RIVER: 0.75 * 0.9 + 0.25 * 0.2,
                                       MONEY: 0.75 * 0.1 + 0.25 * 0.8})
    assert pulled[1] == pytest.approx({RIVER: 0.75 * 0.2 + 0.25 * 0.9,
                                       MONEY: 0.75 * 0.8 + 0.25 * 0.1})


def test_a_target_is_pulled_towards_the_mean_of_the_others_only():
    distributions = [{RIVER: 1.0, MONEY: 0.0}, {RIVER: 0.0, MONEY: 1.0},
                     {RIVER: 0.5, MONEY: 0.5}]
    pulled = pulled_together(distributions, ["unit"] * 3, 0.5)
    assert pulled[0] == pytest.approx({RIVER: 0.5 + 0.5 * 0.25, MONEY: 0.5 * 0.75})
    assert pulled[2] == pytest.approx({RIVER: 0.5, MONEY: 0.5})
    for weights in pulled:
        assert sum(weights.values()) == pytest.approx(1.0)


def test_targets_of_other_units_and_lone_targets_are_left_alone():
    distributions = [{RIVER: 0.9, MONEY: 0.1}, {RIVER: 0.2, MONEY: 0.8},
                     {RIVER: 0.3, MONEY: 0.7}, {"run%2:38:00::": 1.0}]
    units = [("d0", "bank.n"), ("d1", "bank.n"), ("d0", "bank.n"), ("d0", "run.v")]
    pulled = pulled_together(distributions, units, 0.5)
    assert pulled[1] is None and pulled[3] is None
    assert pulled[0] == pytest.approx({RIVER: 0.6, MONEY: 0.4})
    assert pulled[2] == pytest.approx({RIVER: 0.6, MONEY: 0.4})


def test_weight_zero_changes_nothing():
    assert pulled_together([{RIVER: 0.9, MONEY: 0.1}, {RIVER: 0.2, MONEY: 0.8}],
                           ["unit"] * 2, 0.0) == [None, None]
