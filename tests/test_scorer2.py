"""scorer2's rules, one test each, on hand-made keys and answers with hand-computed figures.

Also Raganato's all-words scorer (``scoring.raganato``), whose rules are few enough to share
this file.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import assert_error_at

from wsd_classic import settings
from wsd_classic.answers.senseval import read_answers
from wsd_classic.corpora.keys import read_key
from wsd_classic.corpora.sensemap import read_sensemap
from wsd_classic.errors import WsdError
from wsd_classic.scoring import MAX_WARNINGS
from wsd_classic.scoring.raganato import (
    MacroResult, score_macro, score_raganato, score_raganato_files)
from wsd_classic.scoring.scorer2 import score

SENSEVAL2 = Path(os.environ.get(settings.DATA_ENV) or "/work/shared/data") / "senseval2-ls"


def _score(tmp_path, key: str, answers: str, sensemap: str | None = None, **options):
    """Score through the real readers, so that each rule is checked from file text to figure."""
    (tmp_path / "key").write_text(key)
    (tmp_path / "answers").write_text(answers)
    if sensemap is not None:
        (tmp_path / "senses").write_text(sensemap)
        options["sensemap"] = read_sensemap(tmp_path / "senses")
    return score(read_key(tmp_path / "key"), read_answers(tmp_path / "answers"), **options)


def _figures(result):
    return tuple(round(value, 4) for value in (result.precision, result.recall, result.attempted))


def test_tags_without_weights_share_the_instance_equally(tmp_path):
    result = _score(tmp_path, "x x.1 a\n", "x.n x.1 a b\n")
    # a and b weigh 1 each, sum 2 > 1 -> 1/2 each; only a is gold: score 0.5, attempted 1.
    assert _figures(result) == (0.5, 0.5, 1.0)
    assert (result.score_sum, result.attempted_sum) == (0.5, 1.0)


def test_one_unweighted_tag_makes_every_tag_weigh_one(tmp_path):
    result = _score(tmp_path, "x x.1 a\n", "x.n x.1 a/0.9 b\n")
    # b has no weight, so a/0.9 counts as a/1: 1/2 each -> score 0.5, attempted 1.
    assert _figures(result) == (0.5, 0.5, 1.0)


def test_weights_above_one_are_divided_by_their_sum(tmp_path):
    result = _score(tmp_path, "x x.1 a\n", "x.n x.1 a/3 b/1\n")
    # 3/4 and 1/4: score 0.75, attempted 1.
    assert _figures(result) == (0.75, 0.75, 1.0)


def test_weights_below_one_leave_the_rest_unattempted(tmp_path):
    result = _score(tmp_path, "x x.1 a\nx x.2 c\n", "x.n x.1 a/0.6 b/0.2\nx.n x.2 c/0.5\n")
    # x.1: score 0.6 of attempted 0.8; x.2: score 0.5 of attempted 0.5.
    # P = 1.1 / 1.3 = 0.8462, R = 1.1 / 2 = 0.55, attempted = 1.3 / 2 = 0.65.
    assert _figures(result) == (0.8462, 0.55, 0.65)
    assert result.instance_scores == pytest.approx({"x.1": 0.6, "x.2": 0.5})
    assert result.instance_attempted == pytest.approx({"x.1": 0.8, "x.2": 0.5})


def test_sums_within_a_billionth_of_one_count_as_one(tmp_path):
    result = _score(tmp_path, "x x.1 a\nx x.2 a\n",
                    "x.n x.1 a/0.3333333333 b/0.3333333333 c/0.3333333333\n"
                    "x.n x.2 a/0.5 b/0.499999998\n")
    # x.1 sums to 1 - 1e-10: within 1e-9 of 1, so scaled up to exactly 1 attempted and a
    # earns 1/3. x.2 sums to 1 - 2e-9: kept, so 2e-9 of it is unattempted.
    assert result.instance_attempted["x.1"] == 1.0
    assert result.instance_scores["x.1"] == pytest.approx(1 / 3, abs=1e-15)
    assert result.instance_attempted["x.2"] == pytest.approx(1 - 2e-9, abs=1e-15)
    assert result.instance_attempted["x.2"] < 1.0


def test_any_of_several_gold_tags_earns_credit(tmp_path):
    result = _score(tmp_path, "x x.1 a b\nx x.2 a b\nx x.3 a b\n",
                    "x.n x.1 b\nx.n x.2 b/0.5 c/0.5\nx.n x.3 a b\n")
    # x.1: b is gold -> 1. x.2: only b (0.5) -> 0.5. x.3: 1/2 + 1/2 -> 1.
    # P = R = 2.5 / 3 = 0.8333.
    assert result.instance_scores == {"x.1": 1.0, "x.2": 0.5, "x.3": 1.0}
    assert _figures(result) == (0.8333, 0.8333, 1.0)


def test_repeated_key_tags_count_once(tmp_path):
    result = _score(tmp_path, "x x.1 a a\n", "x.n x.1 a/0.5 b/0.5\n", minimal=True)
    # "a a" is one gold tag, so minimal scoring keeps x.1; a earns its 0.5 once, not twice.
    assert (result.instances, result.instance_scores) == (1, {"x.1": 0.5})


def test_answers_for_unknown_instances_are_reported_and_ignored(tmp_path, capsys):
    result = _score(tmp_path, "x x.1 a\nx x.2 b\n", "x.n x.1 a\nx.n x.9 a\n")
    # x.9 is not in the key: P = 1 / 1 = 1, R = 1 / 2 = 0.5, attempted 1 / 2.
    assert _figures(result) == (1.0, 0.5, 0.5)
    assert (result.instances, result.answered) == (2, 1)
    assert capsys.readouterr().err == (
        "warning: answer ignored: line 2: no instance x.9 in the key\n")


def test_only_the_first_answer_for_an_instance_counts(tmp_path, capsys):
    result = _score(tmp_path, "x x.1 a\n", "x.n x.1 b\nx.n x.1 a\n")
    # The wrong first answer is scored (0 of 1); the right second one is ignored.
    assert _figures(result) == (0.0, 0.0, 1.0)
    assert result.ignored == ("line 2: second answer for x.1",)
    assert "second answer for x.1" in capsys.readouterr().err


def test_many_ignored_answers_are_summed_up(tmp_path, capsys):
    answers = "".join(f"x.n x.{i} a\n" for i in range(2, 2 + MAX_WARNINGS + 5))
    result = _score(tmp_path, "x x.1 a\n", answers)
    assert len(result.ignored) == MAX_WARNINGS + 5
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == MAX_WARNINGS + 1 and lines[-1] == "warning: 5 more answers ignored"


def test_quiet_scoring_prints_nothing(tmp_path, capsys):
    result = _score(tmp_path, "x x.1 a\n", "x.n x.2 a\n", quiet=True)
    assert len(result.ignored) == 1 and capsys.readouterr().err == ""


def test_instances_match_by_id_whatever_the_lexelt(tmp_path):
    result = _score(tmp_path, "art art.1 a\nart art.2 b\n", "art.n art.1 a\nart-n art.2 b\n")
    assert _figures(result) == (1.0, 1.0, 1.0)


COARSE_MAP = "a1 2 A\na2 2 A\nb1\n"


def test_coarse_grain_maps_tags_to_groups_and_merges_them(tmp_path):
    result = _score(tmp_path, "x x.1 a1\nx x.2 a1\nx x.3 b1\n",
                    "x.n x.1 a2/0.5 b1/0.5\nx.n x.2 a1/0.3 a2/0.3\nx.n x.3 A\n",
                    COARSE_MAP, grain="coarse")
    # x.1: a2 -> A (gold A) 0.5, b1 -> b1 0 -> 0.5, attempted 1.
    # x.2: a1, a2 -> A, merged weight 0.6 (sum < 1 kept) -> 0.6, attempted 0.6.
    # x.3: gold b1 stays b1 (unlisted group of its own); A is wrong -> 0, attempted 1.
    # P = 1.1 / 2.6 = 0.4231, R = 1.1 / 3 = 0.3667, attempted = 2.6 / 3 = 0.8667.
    assert result.instance_scores == pytest.approx({"x.1": 0.5, "x.2": 0.6, "x.3": 0.0})
    assert _figures(result) == (0.4231, 0.3667, 0.8667)


def test_coarse_minimal_counts_gold_tags_after_merging(tmp_path):
    key, answers = "x x.1 a1 a2\nx x.2 a1 b1\n", "x.n x.1 a1\nx.n x.2 a1\n"
    fine = _score(tmp_path, key, answers, COARSE_MAP, minimal=True)
    coarse = _score(tmp_path, key, answers, COARSE_MAP, grain="coarse", minimal=True)
    # Fine: both instances have two gold tags -> none scored.
    # Coarse: x.1's a1 a2 become one tag A -> kept and right; x.2 becomes A b1 -> dropped.
    assert (fine.instances, coarse.instances) == (0, 1)
    assert _figures(coarse) == (1.0, 1.0, 1.0)


MIXED_MAP = "g 3 p 2 gp\np 2 gp\nh 4 gp\n"


def test_mixed_grain_partial_credit_is_one_over_the_product_of_counts(tmp_path):
    result = _score(tmp_path, "x x.1 g\nx x.2 g\nx x.3 p\nx x.4 gp\nx x.5 g\n",
                    "x.n x.1 p\nx.n x.2 gp\nx.n x.3 g\nx.n x.4 g\nx.n x.5 h\n",
                    MIXED_MAP, grain="mixed")
    # x.1: answer p subsumes gold g at the first step: 1/3 = 0.3333.
    # x.2: answer gp subsumes g two steps up: 1/(3*2) = 0.1667.
    # x.3: gold p subsumes answer g: full credit 1. x.4: gold gp subsumes g: 1.
    # x.5: h and g only share an ancestor: 0.
    # P = R = (1/3 + 1/6 + 1 + 1 + 0) / 5 = 2.5 / 5 = 0.5.
    assert result.instance_scores == pytest.approx(
        {"x.1": 1 / 3, "x.2": 1 / 6, "x.3": 1.0, "x.4": 1.0, "x.5": 0.0})
    assert _figures(result) == (0.5, 0.5, 1.0)


def test_mixed_credit_per_tag_adds_up_over_gold_tags_and_is_capped_at_one(tmp_path):
    result = _score(tmp_path, "x x.1 c1 c2\nx x.2 c1 c2 c3\nx x.3 c1\n",
                    "x.n x.1 P\nx.n x.2 P\nx.n x.3 P/0.5 c1/0.5\n",
                    "c1 2 P\nc2 2 P\nc3 2 P\n", grain="mixed")
    # x.1: P earns 1/2 for c1 + 1/2 for c2 = 1. x.2: 3 * 1/2 = 1.5, capped at 1.
    # x.3: P earns 1/2 of its 0.5 = 0.25, c1 earns its 0.5 -> 0.75.
    assert result.instance_scores == pytest.approx({"x.1": 1.0, "x.2": 1.0, "x.3": 0.75})


def test_minimal_drops_instances_with_several_gold_tags(tmp_path, capsys):
    result = _score(tmp_path, "x x.1 a b\nx x.2 c\nx x.3 d\n",
                    "x.n x.1 a\nx.n x.2 c\nx.n x.3 e\n", minimal=True)
    # x.1 is out; x.2 right, x.3 wrong: P = R = 1/2; its answer is skipped silently.
    assert (result.instances, result.answered) == (2, 2)
    assert _figures(result) == (0.5, 0.5, 1.0)
    assert capsys.readouterr().err == ""


def test_unassignable_and_proper_name_tags_are_ordinary_tags(tmp_path):
    result = _score(tmp_path, "x x.1 U\nx x.2 P a\nx x.3 a\nx x.4 P\n",
                    "x.n x.1 U\nx.n x.2 P\nx.n x.3 U\nx.n x.4 U\n")
    # U = U and P in {P, a} earn 1; U for a and U for P earn 0: P = R = 2/4.
    assert result.instance_scores == {"x.1": 1.0, "x.2": 1.0, "x.3": 0.0, "x.4": 0.0}
    assert _figures(result) == (0.5, 0.5, 1.0)


def test_a_subset_of_the_key_is_scored_on_its_own(tmp_path, capsys):
    result = _score(tmp_path, "art art.1 a\nart art.2 b\nbar bar.1 c\n",
                    "art.n art.1 a\nart.n art.2 a\nbar.n bar.1 c\n",
                    include=lambda entry: entry.lexelt == "art")
    # art.1 right, art.2 wrong; bar.1 is out of scope and not reported.
    assert (result.instances, result.answered) == (2, 2)
    assert _figures(result) == (0.5, 0.5, 1.0)
    assert capsys.readouterr().err == ""


def test_unanswered_instances_score_zero(tmp_path):
    result = _score(tmp_path, "x x.1 a\nx x.2 b\n", "x.n x.1 a\n")
    assert result.instance_scores == {"x.1": 1.0, "x.2": 0.0}
    assert result.instance_attempted == {"x.1": 1.0, "x.2": 0.0}
    assert _figures(result) == (1.0, 0.5, 0.5)


def test_nothing_attempted_gives_zero_not_an_error(tmp_path):
    result = _score(tmp_path, "x x.1 a b\n", "x.n x.1 a\n", minimal=True)
    assert (result.instances, _figures(result)) == (0, (0.0, 0.0, 0.0))


@pytest.mark.parametrize("grain", ["coarse", "mixed"])
def test_coarse_and_mixed_need_a_sensemap(tmp_path, grain):
    with pytest.raises(WsdError, match=f"{grain}-grained scoring needs a sensemap"):
        _score(tmp_path, "x x.1 a\n", "x.n x.1 a\n", grain=grain)


def test_unknown_grain_is_refused(tmp_path):
    with pytest.raises(WsdError, match="unknown grain 'medium'"):
        _score(tmp_path, "x x.1 a\n", "x.n x.1 a\n", grain="medium")


@pytest.mark.skipif(not (SENSEVAL2 / "eng-lex-samp.evaluation.key").is_file(),
                    reason=f"SENSEVAL-2 lexical sample not found in {SENSEVAL2}")
@pytest.mark.parametrize("grain", ["fine", "coarse", "mixed"])
def test_the_real_key_scored_against_itself_is_perfect(tmp_path, grain):
    key_path = SENSEVAL2 / "eng-lex-samp.evaluation.key"
    # The key file itself is a valid answer file: "lemma instance tag tag ...", no weights.
    result = score(read_key(key_path), read_answers(key_path), grain=grain,
                   sensemap=read_sensemap(SENSEVAL2 / "eng-lex-sample.training.senses"))
    assert (result.precision, result.recall, result.attempted) == (1.0, 1.0, 1.0)
    assert (result.instances, result.answered) == (4328, 4328)


# Raganato's scorer ---------------------------------------------------------------------------

def test_raganato_figures():
    gold = {"d0.t0": ("a",), "d0.t1": ("b", "c"), "d0.t2": ("d",), "d0.t3": ("e",)}
    predicted = {"d0.t0": ("a",), "d0.t1": ("c",), "d0.t2": ("x",)}
    result = score_raganato(gold, predicted)
    # Correct 2 of 3 answered, of 4 gold: P = 0.6667, R = 0.5, F1 = 2PR/(P+R) = 0.5714.
    assert (result.correct, result.answered, result.instances) == (2, 3, 4)
    assert tuple(round(v, 4) for v in (result.precision, result.recall, result.f1)) == (
        0.6667, 0.5, 0.5714)


def test_raganato_several_predicted_keys_share_the_credit():
    # As in Scorer.java: 1 of 2 predicted keys is gold -> 1/2; both gold -> 1; so listing
    # every candidate cannot buy full credit.
    result = score_raganato({"t0": ("a",), "t1": ("a", "b")}, {"t0": ("a", "z"), "t1": ("a", "b")})
    assert (result.correct, result.precision) == (1.5, 0.75)


def test_raganato_ids_missing_from_gold_are_reported_and_ignored(capsys):
    result = score_raganato({"t0": ("a",)}, {"t0": ("a",), "t9": ("a",)})
    assert (result.answered, result.precision, result.recall) == (1, 1.0, 1.0)
    assert capsys.readouterr().err == (
        "warning: answer ignored: no instance t9 in the gold standard\n")


def test_raganato_nothing_right_gives_zero_f1():
    result = score_raganato({"t0": ("a",)}, {"t0": ("b",)})
    assert (result.precision, result.recall, result.f1) == (0.0, 0.0, 0.0)


def test_raganato_files_are_read_and_a_line_without_a_key_is_refused(tmp_path):
    (tmp_path / "gold.txt").write_text("t0 a b\nt1 c\n")
    (tmp_path / "pred.txt").write_text("t0 b\nt1 d\n")
    result = score_raganato_files(tmp_path / "gold.txt", tmp_path / "pred.txt")
    assert (result.correct, result.answered, result.instances) == (1, 2, 2)
    (tmp_path / "pred.txt").write_text("t0 b\nt1\n")
    assert_error_at(lambda predictions: score_raganato_files(tmp_path / "gold.txt", predictions),
                    tmp_path / "pred.txt", 2, "has no sense key")


# The challenge sets' macro F1 over gold senses -------------------------------------------------

def test_macro_figures_average_each_gold_sense_by_hand():
    gold = {"t1": ("a",), "t2": ("a",), "t3": ("b",), "t4": ("c", "d"), "t5": ("e",),
            "t6": ("g",)}
    predicted = {"t1": ("a",), "t2": ("b",), "t3": ("b",), "t4": ("d",), "t5": ("e", "f"),
                 "t9": ("a",)}
    result = score_macro(gold, predicted)
    # Per gold sense (true positives, false positives, false negatives) -> P, R, F1:
    # a (1, 0, 1) -> 1, 1/2, 2/3; b (1, 1, 0) -> 1/2, 1, 2/3; c and d (1, 0, 0) -> 1, 1, 1;
    # e: t5 names two keys, one wrong, so each key gets 1/2 of a false positive and e 1/2 of a
    # true positive: (1/2, 1/2, 0) -> 1/2, 1, 2/3; g unanswered (0, 0, 1) -> 0, 0, 0.
    # f is no gold sense and t9 no gold instance: neither is averaged.
    assert result.senses == 6
    assert result.precision == pytest.approx((1 + 0.5 + 1 + 1 + 0.5 + 0) / 6)
    assert result.recall == pytest.approx((0.5 + 1 + 1 + 1 + 1 + 0) / 6)
    assert result.f1 == pytest.approx((2 / 3 + 2 / 3 + 1 + 1 + 2 / 3 + 0) / 6)


def test_macro_f1_weighs_a_rare_sense_as_much_as_a_frequent_one():
    gold = {f"t{index}": ("common",) for index in range(9)} | {"t9": ("rare",)}
    always_common = {instance: ("common",) for instance in gold}
    micro = score_raganato(gold, always_common, quiet=True)
    macro = score_macro(gold, always_common)
    assert micro.f1 == pytest.approx(0.9)
    # common: P 9/10, R 1, F1 18/19; rare: 0
    assert macro.f1 == pytest.approx((18 / 19) / 2)


def test_macro_figures_do_not_depend_on_string_hashing():
    script = (
        "from wsd_classic.scoring.raganato import score_macro\n"
        "gold = {f't{i}': (f's{i % 97}',) for i in range(1000)}\n"
        "predicted = {f't{i}': (f's{i * 7 % 89}', f's{i % 13}') for i in range(1000)}\n"
        "print(repr(score_macro(gold, predicted)))\n")
    outputs = {subprocess.run([sys.executable, "-c", script], check=True, capture_output=True,
                              text=True, env={**os.environ, "PYTHONHASHSEED": str(seed)}).stdout
               for seed in range(4)}
    assert len(outputs) == 1


def test_macro_of_nothing_is_zero():
    assert score_macro({}, {"t0": ("a",)}) == MacroResult(0.0, 0.0, 0.0, 0)
