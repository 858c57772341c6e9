"""bench/cv.py, the cross-validation every bench/tune*.py scores on: its rows are the engine's,
each tagged with its instance; its folds keep an instance's rows together, hold each instance out
once, do not depend on the file's order, and are the folds the recorded results were made with
(scikit-learn's KFold over the sorted instance ids, shuffled with seed 0)."""
from __future__ import annotations

import random

import numpy as np
from sklearn.model_selection import KFold

from wsd_classic.corpora.model import Instance, Lexelt, LexicalSample
from wsd_classic.features.featurizer import Featurizer
from wsd_classic.tasks import engine

from bench import cv


def instance(number: int, *answers: str) -> Instance:
    return Instance(f"bank.{number}", "bank.n", "the bank", (4, 8), answers=answers)


def test_rows_are_the_engines_each_with_its_instance():
    lexelts = [Lexelt("bank.n", [instance(3, "river"), instance(1, "river", "money"),
                                 instance(2)]),  # unannotated: no rows
               Lexelt("bass.n", [Instance("bass.1", "bass.n", "a bass", (2, 6))])]
    features = {f"bank.{number}": {"bow": [f"bow:{number}"]} for number in (1, 2, 3)}
    features["bass.1"] = {"bow": []}
    corpus = engine.FeaturizedCorpus(LexicalSample(lexelts, "test"), features, Featurizer())
    rows = cv.lexelt_rows(corpus, ["bow"])
    assert [(X, y, weights) for _, X, y, weights in engine.lexelt_rows(corpus, ["bow"])] == [
        (row.X, row.y, row.weights) for row in rows]
    assert rows[0].instances == ["bank.3", "bank.1", "bank.1"]
    assert rows[0].y == ["river", "river", "money"]


def test_folds_hold_each_instance_out_once_with_all_its_rows():
    instances = [f"i{number % 13}" for number in range(40)]  # 13 instances, up to 4 rows each
    held_out = []
    for train, test in cv.instance_folds(instances, 5):
        tested = {instances[row] for group in test for row in group}
        assert not tested & {instances[row] for row in train}
        for group in test:
            assert {instances[row] for row in group} == {instances[group[0]]}
            assert group == [row for row, name in enumerate(instances)
                             if name == instances[group[0]]]
        assert sorted([*train, *(row for group in test for row in group)]) == list(range(40))
        held_out += [instances[group[0]] for group in test]
    assert sorted(held_out) == sorted(set(instances))


def test_folds_are_kfold_over_the_sorted_instances_whatever_the_row_order():
    names = [f"bank.{number}" for number in (10, 2, 7, 1, 30, 4, 5, 9, 3)]
    expected = [sorted(names)[index] for _, test in
                KFold(3, shuffle=True, random_state=0).split(sorted(names)) for index in test]
    for seed in range(3):
        instances = names * 2
        random.Random(seed).shuffle(instances)
        folds = [instances[group[0]] for _, test in cv.instance_folds(instances, 3)
                 for group in test]
        assert folds == expected


def test_a_lexelt_with_fewer_instances_than_folds_has_no_fold():
    assert list(cv.instance_folds(["a", "a", "b"], 3)) == []


def test_fold_accuracies_gather_each_lexelts_kth_part_and_average_to_the_accuracy():
    # commonest learns "a" on every training part, so a fold's accuracy is its share of "a"
    senses = ["a"] * 7 + ["b"] * 3
    rows = cv.LexeltRows([["bow:x"]] * 10, senses, [1.0] * 10,
                         [f"bank.{number}" for number in range(10)])
    other = cv.LexeltRows([["bow:y"]] * 5, ["c"] * 5, [1.0] * 5,
                          [f"bass.{number}" for number in range(5)])
    measured = cv.fold_accuracy("commonest", {}, [rows, other], 5, jobs=1)
    assert measured.accuracy == 12 / 15
    expected = []
    for train, test in cv.instance_folds(rows.instances, 5):
        expected.append((sum(senses[group[0]] == "a" for group in test) + 1) / (len(test) + 1))
    assert measured.folds == expected
    assert len(set(expected)) > 1
    assert measured.standard_error == np.std(expected, ddof=1) / np.sqrt(5)
