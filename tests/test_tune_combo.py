"""bench/tune_combo.py's held-out calibration figure."""
from __future__ import annotations


import numpy as np
import pytest

from bench import tune_combo


def test_held_out_ece_reads_each_distribution_s_top_sense_against_its_gold_senses():
    gold_first, gold_second = np.array([True, False]), np.array([False, True])
    # confidence 0.9 for each; the top sense is right in 3 of 4: calibration error 0.15
    held_out = [(np.array([0.9, 0.1]), gold_first)] * 3 + [(np.array([0.9, 0.1]), gold_second)]
    assert tune_combo.held_out_ece(held_out) == pytest.approx(0.15)
    # a second gold sense counts the top sense right: 4 of 4 at 0.9
    both = np.array([True, True])
    assert tune_combo.held_out_ece([(np.array([0.9, 0.1]), both)] * 4) == pytest.approx(0.1)


def test_the_cross_fitted_map_corrects_a_consistent_under_confidence():
    rng = np.random.default_rng(1)
    held_out = []
    for _ in range(3000):
        top = rng.uniform(0.55, 0.85)
        proba = np.array([top, 1 - top])
        right = rng.uniform() < top + 0.1  # right 10 points more often than it says
        held_out.append((proba, np.array([right, not right])))
    raw = tune_combo.held_out_ece(held_out)
    assert raw > 0.07
    assert tune_combo.cross_fitted_map_ece(held_out) < raw / 2


def test_registered_combo_takes_the_best_pool_rounded_and_its_map():
    best = {"pool": "geometric", "shrinkage": 1.0, "accuracy": 0.7}
    defaults = {"linear": (9.0,), "geometric": (2.75787, -1.74040, 0.00049)}
    value = tune_combo.registered_combo(best, defaults, {"top_sense_map": [0.0, 0.5, 1.0]})
    assert value == {"pool": "geometric", "shrinkage": 1.0,
                     "default_params": [2.758, -1.74, 0.0], "top_sense_map": [0.0, 0.5, 1.0]}


def test_registered_combo_says_ppr_only_when_it_is_a_component():
    best = {"pool": "geometric", "shrinkage": 1.0, "accuracy": 0.7}
    value = tune_combo.registered_combo(best, {"geometric": (1.0,)}, {"top_sense_map": []},
                                        ppr=True)
    assert value["ppr"] is True


def test_ppr_alone_takes_each_held_out_instance_s_most_probable_training_sense():
    from bench.cv import LexeltRows
    from wsd_classic.features.weighted import Weighted
    first, second = "bank%1:17:01::", "bank%1:14:00::"
    names = ("ppr=" + first, "ppr=" + second)
    rows = LexeltRows([[] for _ in range(10)], [first] * 5 + [second] * 5, [1.0] * 10,
                      [f"i{number}" for number in range(10)])
    # ppr is right on the first sense's instances only
    blocks = {f"i{number}": Weighted(names, np.array([0.7, 0.3])) for number in range(10)}
    correct, scored = tune_combo.ppr_alone(tune_combo.with_ppr(rows, blocks), folds=5)
    assert scored.sum() == 10
    assert correct.sum() == 5
