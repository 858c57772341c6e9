"""``bin/score`` as users run it: ``python -m wsd_classic score ...`` in a subprocess.

The fixtures (tests/fixtures/score_*) are hand-made; the expected figures are worked out in the
comments from scorer2's rules.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
FIXTURES = Path("tests") / "fixtures"
KEY = str(FIXTURES / "score_key.txt")
ANSWERS = str(FIXTURES / "score_answers.txt")
SENSEMAP = str(FIXTURES / "score_sensemap.txt")
GOLD = str(FIXTURES / "score_gold.key.txt")
PRED = str(FIXTURES / "score_pred.key.txt")

# B = bank%1:14:00::, the group of bank%1:17:01:: and bank%1:04:00:: (count 2 each).
# Scores (attempted weight is the same at every grain):
# instance  gold      answer              attempted  fine  coarse  mixed
# bank.1    B         B                   1          1     1       1
# bank.2    17:01 B   17:01/.6 04:00/.4   1          .6    1       .6 + .4 (gold B subsumes 04:00)
# bank.3    U         B/.5                .5         0     0       0
# bank.4    04:00     B                   1          0     1       1/2 (answer B subsumes gold)
# sums                                    3.5        1.6   3       2.5


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "wsd_classic", "score", *args], cwd=REPO,
                          capture_output=True, text=True, timeout=60)


def test_fine_text_output_is_scorer2s():
    run = _run(KEY, ANSWERS)
    assert (run.returncode, run.stderr) == (0, "")
    # P = 1.6/3.5 = 0.457, R = 1.6/4 = 0.400, attempted = 3.5/4 = 87.50 %.
    assert run.stdout == (
        f'Fine-grained score for "{ANSWERS}" using key "{KEY}":\n'
        " precision: 0.457 (1.60 correct of 3.50 attempted)\n"
        " recall: 0.400 (1.60 correct of 4.00 in total)\n"
        " attempted: 87.50 % (3.50 attempted of 4.00 in total)\n")


def test_minimal_text_output():
    run = _run(KEY, ANSWERS, "--minimal")
    # bank.2 (two gold tags) is left out: 1.0 correct of 2.5 attempted, 3 in total.
    assert run.stdout.splitlines() == [
        f'Fine-grained minimal score for "{ANSWERS}" using key "{KEY}":',
        " precision: 0.400 (1.00 correct of 2.50 attempted)",
        " recall: 0.333 (1.00 correct of 3.00 in total)",
        " attempted: 83.33 % (2.50 attempted of 3.00 in total)"]


@pytest.mark.parametrize("grain, correct", [("fine", 1.6), ("coarse", 3.0), ("mixed", 2.5)])
def test_json_output_for_each_grain(grain, correct):
    run = _run(KEY, ANSWERS, "--grain", grain, "--sensemap", SENSEMAP, "--json")
    assert run.returncode == 0
    figures = json.loads(run.stdout)
    assert set(figures) == {"grain", "precision", "recall", "attempted", "instances", "answered"}
    assert (figures["grain"], figures["instances"], figures["answered"]) == (grain, 4, 4)
    assert round(figures["precision"], 4) == round(correct / 3.5, 4)
    assert round(figures["recall"], 4) == round(correct / 4, 4)
    assert figures["attempted"] == pytest.approx(0.875)


def test_raganato_text_and_json():
    # 2 right (t000, t001) of 3 answered, 4 gold: P = 66.7 %, R = 50.0 %, F1 = 4/7 = 57.1 %.
    run = _run("--raganato", GOLD, PRED)
    assert (run.returncode, run.stdout) == (0, "P=\t66.7%\nR=\t50.0%\nF1=\t57.1%\n")
    figures = json.loads(_run("--raganato", GOLD, PRED, "--json").stdout)
    assert (figures["correct"], figures["answered"], figures["instances"]) == (2, 3, 4)
    assert round(figures["f1"], 4) == 0.5714


def _assert_one_line_error(run: subprocess.CompletedProcess, *fragments: str) -> None:
    assert run.returncode != 0 and run.stdout == ""
    assert len(run.stderr.splitlines()) == 1, run.stderr
    assert "Traceback" not in run.stderr
    for fragment in fragments:
        assert fragment in run.stderr


@pytest.mark.parametrize("content, fragment", [
    ("bank.n bank.1 bank%1:14:00::/abc\n", ":1: bad weight 'abc'"),
    ("bank.n bank.1 a\nbank.n bank.2\n", ":2: expected 'lexelt instance sense"),
    ("", ":1: no answer lines"),
    (b"\x00\x01\x02binary", ":1: not a text file"),
])
def test_bad_answer_file_is_one_line_on_stderr(tmp_path, content, fragment):
    answers = tmp_path / "bad.answers"
    if isinstance(content, bytes):
        answers.write_bytes(content)
    else:
        answers.write_text(content)
    _assert_one_line_error(_run(KEY, str(answers)), f"score: error: {answers}{fragment}")


def test_missing_key_file_is_one_line_on_stderr(tmp_path):
    _assert_one_line_error(_run(str(tmp_path / "absent.key"), ANSWERS), "absent.key", "cannot read")


def test_bad_raganato_prediction_is_one_line_on_stderr(tmp_path):
    predictions = tmp_path / "bad.key.txt"
    predictions.write_text("d000.s000.t000 art%1:06:00::\nd000.s000.t001\n")
    _assert_one_line_error(_run("--raganato", GOLD, str(predictions)), f"{predictions}:2:")


def test_bad_sensemap_is_one_line_on_stderr(tmp_path):
    sensemap = tmp_path / "bad.senses"
    sensemap.write_text("a 2\n")
    _assert_one_line_error(_run(KEY, ANSWERS, "--grain", "coarse", "--sensemap", str(sensemap)),
                           f"{sensemap}:1:")


@pytest.mark.parametrize("args, message", [
    ((KEY, ANSWERS, "--grain", "coarse"), "--grain coarse needs"),
    ((KEY, ANSWERS, "--grain", "mixed"), "--grain mixed needs"),
    ((KEY, ANSWERS, "--grain", "medium"), "invalid choice"),
    (("--raganato", GOLD, PRED, "--minimal"), "not --raganato ones"),
    ((KEY,), "required: ANSWERS"),
])
def test_usage_errors_exit_2(args, message):
    run = _run(*args)
    assert run.returncode == 2 and message in run.stderr and "Traceback" not in run.stderr


def test_ignored_answers_are_warned_about_and_scoring_goes_on(tmp_path):
    answers = tmp_path / "extra.answers"
    answers.write_text("bank.n bank.1 bank%1:14:00::\nbank.n bank.9 U\nbank.n bank.1 U\n")
    run = _run(KEY, str(answers), "--json")
    assert run.returncode == 0
    assert run.stderr.splitlines() == [
        "warning: answer ignored: line 2: no instance bank.9 in the key",
        "warning: answer ignored: line 3: second answer for bank.1"]
    assert json.loads(run.stdout)["answered"] == 1
