"""``bench/semcor.py --tune-hybrid`` (``bench/semcor_studies/hybrid.py``): the tables' rows
as padded arrays, the figures of a mixture on them and docs/choices.md's selection rule, on
hand-made rows."""
from __future__ import annotations

import numpy as np
import pytest

from wsd_classic.systems.hybrid import Mixture, unseen_mixed

from bench.semcor_studies import hybrid as study
from bench.semcor_studies import hybrid_stacking as stacking

A, B, C = "a%1:00:00::", "b%1:00:00::", "c%1:00:00::"


def row(identifier, keys, candidates, svm, support=5, gold_support=5, document="d0",
        lexelt="x.n"):
    return {"id": identifier, "document": document, "lexelt": lexelt, "keys": keys,
            "candidates": candidates, "svm": svm, "support": support,
            "gold_support": gold_support}


ROWS = [row("t0", [A], [A, B, C], [0.7, 0.3, 0.0]),
        row("t1", [C], [A, B, C], [0.6, 0.4, 0.0], gold_support=0),
        row("t2", [B], [A, B], None, support=0, lexelt="y.v")]
PPR = {"t0": {A: 0.5, B: 0.3, C: 0.2}, "t1": {A: 0.2, B: 0.1, C: 0.7},
       "t2": {A: 0.3, B: 0.7}}


def test_table_pads_rows_and_answers_unknown_lemmas_with_wordnets_first_sense():
    table = study.table(ROWS, PPR, removed={C})
    assert table.svm.tolist() == [[0.7, 0.3, 0.0], [0.6, 0.4, 0.0], [1.0, 0.0, 0.0]]
    assert table.ppr[2].tolist() == [0.3, 0.7, 0.0]
    assert table.subsets["removed"].tolist() == [False, True, False]
    assert table.subsets["rare"].tolist() == [False, True, False]
    assert table.pos.tolist() == ["n", "n", "v"]
    # t0 and t1 share a document and lexelt: one discourse unit
    assert table.units[0] == table.units[1] != table.units[2]


def test_figures_of_the_svm_ppr_and_a_mixture():
    tables = {name: study.table(ROWS, PPR, removed={C}) for name in study.TABLES}
    svm = study.figures(tables, study.linear(tables, Mixture.uniform(0.0)))
    assert svm["H"] == pytest.approx(100 / 3) and svm["R"] == 0.0
    ppr = study.figures(tables, study.linear(tables, Mixture.uniform(1.0)))
    assert ppr["H"] == 100.0 and ppr["R"] == 100.0
    # w = 0.5: t0 0.6 on A; t1 0.4, 0.25, 0.35 (A); t2 0.65, 0.35 (A)
    half = study.figures(tables, study.linear(tables, Mixture.uniform(0.5)))
    assert half["H"] == pytest.approx(100 / 3) and half["R"] == 0.0
    # sharpened by a power of 4, ppr takes t1 (C) at w = 0.5: 0.7^4 outweighs the rest
    sharp = study.figures(tables, study.linear(tables, Mixture.uniform(0.5, power=4.0)))
    assert sharp["H"] == pytest.approx(200 / 3) and sharp["R"] == 100.0


def test_pulled_mixes_each_row_with_the_mean_of_the_others_of_its_unit():
    table = study.table(ROWS, PPR)
    pulled = study.pulled(table, table.svm, 0.5)
    assert pulled[0].tolist() == pytest.approx([0.65, 0.35, 0.0])
    assert pulled[2].tolist() == table.svm[2].tolist()


def test_the_rule_takes_the_best_held_out_accuracy_among_those_keeping_half_the_gain():
    results = {"svm": {"H": 70.0, "R": 10.0, "B": 50.0, "D": 60.0},
               "strong on removed": {"H": 69.0, "R": 40.0, "B": 60.0, "D": 60.0},
               "balanced": {"H": 71.0, "R": 30.0, "B": 55.0, "D": 60.0},
               "balanced, tie": {"H": 71.05, "R": 26.0, "B": 55.0, "D": 66.0},
               "best held out": {"H": 72.0, "R": 24.0, "B": 55.0, "D": 66.0}}
    # floor 10 + (40 - 10) / 2 = 25: "best held out" is out; the two balanced tie on H
    assert study.chosen(results) == "balanced"
    assert study.chosen(results, candidates={"svm", "strong on removed"}) == (
        "strong on removed")
    # the removed-senses best outside the candidates still sets the floor
    assert study.chosen(results, candidates={"svm", "best held out", "balanced, tie"}) == (
        "balanced, tie")


def test_per_part_of_speech_weights_are_chosen_on_each_part_of_speechs_targets():
    tables = {name: study.table(ROWS, PPR, removed={C}) for name in study.TABLES}
    settings, choices = study.per_pos_settings(tables)
    # t1 needs ppr's weight above 0.6 / 1.1, t2 (the one verb) above 1 / 1.4; ties go to the
    # first weight
    assert choices["per part of speech a=1"]["n"] == 0.6
    assert choices["per part of speech a=1"]["v"] == 0.8
    assert settings["per part of speech a=4"].power == 4.0


def test_unseen_sense_mixture_moves_ppr_mass_only_to_senses_the_svm_never_saw():
    tables = {name: study.table(ROWS, PPR, removed={C}) for name in study.TABLES}
    t = tables["removed"]
    mixed = unseen_mixed(t.svm, t.ppr, np.ones(3), 1.0)
    # t0, t1: C is the one sense the svm gives nothing; ppr's mass on it moves there
    assert mixed[0].tolist() == pytest.approx([0.7 * 0.8, 0.3 * 0.8, 0.2])
    assert mixed[1].tolist() == pytest.approx([0.6 * 0.3, 0.4 * 0.3, 0.7])
    # t2, a lemma without a model: WordNet's first sense, ppr's mass on the others
    assert mixed[2].tolist() == pytest.approx([0.3, 0.7, 0.0])
    assert np.allclose(mixed.sum(axis=1), 1.0)
    seen = study.table([row("t0", [A], [A, B], [0.7, 0.3])], {"t0": {A: 0.1, B: 0.9}})
    assert unseen_mixed(seen.svm, seen.ppr, np.ones(1), 4.0).tolist() == seen.svm.tolist()
    unseen = Mixture.uniform(1.0, unseen_only=True)
    assert study.figures(tables, study.linear(tables, unseen))["R"] == 100.0


def stacking_tables(copies: int):
    """``copies`` documents of two noun targets where ppr is right when the svm is not, and one
    verb target where the svm is right; for the stacked model's folds."""
    rows, ppr = [], {}
    for number in range(copies):
        for name, keys, svm, own in (("a", [C], [0.6, 0.4, 0.0], {A: 0.1, B: 0.1, C: 0.8}),
                                     ("b", [B], [0.7, 0.3, 0.0], {A: 0.2, B: 0.7, C: 0.1})):
            identifier = f"d{number}.{name}"
            rows.append(row(identifier, keys, [A, B, C], svm, document=f"d{number}"))
            ppr[identifier] = own
        identifier = f"d{number}.v"
        rows.append(row(identifier, [A], [A, B], [0.9, 0.1], document=f"d{number}",
                        lexelt="y.v"))
        ppr[identifier] = {A: 0.1, B: 0.9}
    return rows, ppr


def test_stacked_model_learns_from_other_documents_which_evidence_to_trust():
    rows, ppr = stacking_tables(10)
    tables = {name: study.table(rows, ppr, removed={C}) for name in study.TABLES}
    widths = {name: np.array([len(r["candidates"]) for r in rows]) for name in study.TABLES}
    folds = {name: stacking.document_folds(rows) for name in ("held_out", "removed")}
    assert folds["held_out"].tolist()[:6] == [0, 0, 0, 1, 1, 1]
    scores = stacking.stacked_scores(tables, widths, folds, with_removed=False)
    # nouns: ppr is right every time, so its evidence wins; the verb: the svm's
    assert study.figures(tables, scores)["H"] == 100.0
    assert np.isneginf(scores["held_out"][2, 2])  # the verb's padding
    svm = study.figures(tables, study.linear(tables, Mixture.uniform(0.0)))
    assert svm["H"] == pytest.approx(100 / 3)


def test_pair_features_hold_both_logs_their_products_and_the_svms_seen_senses():
    t = study.table([row("t0", [A], [A, B, C], [0.75, 0.25, 0.0], support=7)],
                    {"t0": {A: 0.5, B: 0.25, C: 0.25}})
    pairs = stacking.pair_features(t, np.array([3]))
    assert pairs.features.shape == (3, 13) and pairs.gold.tolist() == [True, False, False]
    first = pairs.features[0]
    assert first[:2].tolist() == pytest.approx([np.log(0.75), np.log(0.5)])
    assert first[2:4].tolist() == pytest.approx([0.5 * np.log(0.75), 0.5 * np.log(0.5)])
    # support 7: the third bucket (5 to 19) carries the logs, the others nothing
    assert first[4:12].reshape(2, 4)[:, 2].tolist() == pytest.approx(first[:2].tolist())
    assert pairs.features[:, 12].tolist() == [1.0, 1.0, 0.0]
    assert pairs.features[2, 0] == pytest.approx(np.log(stacking.SVM_FLOOR))
