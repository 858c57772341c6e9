"""``bin/report`` on a tiny synthetic results folder whose every figure is worked out by hand.

Key (8 instances; b4 has two gold tags) and answers of two systems:

    instance  gold          good (top; weighted)              base (top)
    b1        17:01         17:01;  17:01/.9  14:00/.1       17:01  right
    b2        17:01         17:01;  17:01/.9  14:00/.1       17:01  right
    b3        14:00         14:00;  14:00/.6  17:01/.4       17:01  wrong
    b4        14:00 17:01   14:00;  14:00/.6  17:01/.4       17:01  right
    p1        33            33;     33/.7  36/.2  U/.1       33     right
    p2        33            33;     33/.7  36/.2  U/.1       33     right
    p3        36            33;     33/.7  36/.2  U/.1       33     wrong (coarse: right)
    p4        U             U;      U/.5  33/.5              33     wrong

The sensemap puts play 36 under 33, so coarse grain merges them.
good: fine 7/8 = 87.5, coarse 8/8 = 100.0; base: fine 5/8 = 62.5, coarse 6/8 = 75.0.
McNemar, fine: only good right on b3 and p4, only base right on none: p = 2 * 0.5^2 = 0.5.
good's calibration (top-sense confidence .9 .9 .6 .6 .7 .7 .7 .5, right except p3):
    ECE = 2/8 * .1 + 2/8 * .4 + 3/8 * |2/3 - .7| + 1/8 * .5 = 0.2
    gold mass .9 .9 .6 1 .7 .7 .2 .5; Brier terms .02 .02 .32 0 .14 .14 1.14 .5, mean 0.285
"""
import base64
import html as htmllib
import json
import math
import re

import pytest

from conftest import assert_one_line_error, shared_data
from wsd_classic.cli import report as report_cli
from wsd_classic.corpora.raganato import read_raganato_key
from wsd_classic.scoring.learning_curve import (CurvePoint, LearningCurve, read_learning_curve,
                                               write_learning_curve)

needs_senseval2_all_words = pytest.mark.skipif(
    not (shared_data() / "raganato" / "senseval2").is_dir(),
    reason=f"Raganato's senseval2 not found under {shared_data()} (set WSD_CLASSIC_DATA)")
B1, B2 = "bank%1:17:01::", "bank%1:14:00::"
P1, P2 = "play%2:33:00::", "play%2:36:00::"
KEY = f"""bank b1 {B1}
bank b2 {B1}
bank b3 {B2}
bank b4 {B2} {B1}
play p1 {P1}
play p2 {P1}
play p3 {P2}
play p4 U
"""
SENSEMAP = f"{P2} 2 {P1}\n{P1}\n"
TRAINING_KEY = f"""bank t1 {B1}
bank t2 {B1}
bank t3 {B2}
bank b1 {B1}
play t4 {P1}
play t5 {P1}
play t6 {P1}
play t7 {P2}
play t8 U
"""
GOOD_TOP = [("bank.n", "b1", B1), ("bank.n", "b2", B1), ("bank.n", "b3", B2),
            ("bank.n", "b4", B2), ("play.v", "p1", P1), ("play.v", "p2", P1),
            ("play.v", "p3", P1), ("play.v", "p4", "U")]
GOOD_WEIGHTED = {"b1": f"{B1}/0.9 {B2}/0.1", "b2": f"{B1}/0.9 {B2}/0.1",
                 "b3": f"{B2}/0.6 {B1}/0.4", "b4": f"{B2}/0.6 {B1}/0.4",
                 "p1": f"{P1}/0.7 {P2}/0.2 U/0.1", "p2": f"{P1}/0.7 {P2}/0.2 U/0.1",
                 "p3": f"{P1}/0.7 {P2}/0.2 U/0.1", "p4": f"U/0.5 {P1}/0.5"}
BASE_TOP = [(lexelt, instance, B1 if lexelt == "bank.n" else P1)
            for lexelt, instance, _ in GOOD_TOP]


def _lines(rows):
    return "".join(" ".join(row) + "\n" for row in rows)


@pytest.fixture
def toy(tmp_path):
    """A results root holding task ``toy``, and the key, sensemap and training key beside it."""
    task_dir = tmp_path / "results" / "toy"
    task_dir.mkdir(parents=True)
    (task_dir / "good.top.ans").write_text(_lines(GOOD_TOP))
    (task_dir / "good.ans").write_text(_lines(
        (lexelt, instance, GOOD_WEIGHTED[instance]) for lexelt, instance, _ in GOOD_TOP))
    (task_dir / "base.top.ans").write_text(_lines(BASE_TOP))
    (tmp_path / "toy.key").write_text(KEY)
    (tmp_path / "toy.map").write_text(SENSEMAP)
    (tmp_path / "train.key").write_text(TRAINING_KEY)
    return tmp_path


def _report(toy, *extra, fmt="html"):
    out = toy / "out"
    code = report_cli.main(["--task", "toy", "--results-dir", str(toy / "results"),
                            "--key", str(toy / "toy.key"), "--sensemap", str(toy / "toy.map"),
                            "--training", str(toy / "train.key"), "--format", fmt,
                            "--out", str(out), *extra])
    assert code == 0
    return out


def _rows(html: str, caption: str) -> list[list[str]]:
    """The cell texts of the rows of the table with this caption."""
    table = re.search(r"<table>\s*<caption>" + re.escape(htmllib.escape(caption))
                      + r"</caption>(.*?)</table>", html, re.S)
    assert table, caption
    return [[htmllib.unescape(cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row)]
            for row in re.findall(r"<tr[^>]*>(.*?)</tr>", table.group(1), re.S) if "<td" in row]


def test_comparison_table_has_hand_computed_scores_and_calibration(toy, capsys):
    html = (_report(toy) / "report.html").read_text()
    rows = _rows(html, "Our systems (top sense) beside published results, by fine-grained recall")
    by_name = {row[0]: row for row in rows}
    assert list(by_name) == ["good", "base"]  # no published rows for an unregistered task
    good, base = by_name["good"], by_name["base"]
    assert good[1] == "87.5" and good[2].startswith("87.5 [")
    assert good[4].startswith("100.0 [100.0, 100.0]")
    assert base[2].startswith("62.5 [") and base[4].startswith("75.0 [")
    expected_log_loss = -sum(math.log(p) for p in (.9, .9, .6, 1, .7, .7, .2, .5)) / 8
    assert good[5:8] == ["0.200", f"{expected_log_loss:.3f}", "0.285"]
    assert base[5:8] == ["-", "-", "-"]  # no base.ans: nothing to calibrate
    low, high = map(float, re.search(r"\[(.*), (.*)\]", good[2]).groups())
    assert low <= 87.5 <= high
    assert "good: fine R 87.5" in capsys.readouterr().out


def test_per_pos_significance_and_per_lexelt_tables(toy):
    html = (_report(toy) / "report.html").read_text()
    pos = {(row[0], row[1]): row[2:] for row in
           _rows(html, "Recall (%) of the top sense by part of speech")}
    assert pos[("good", "nouns")][0] == "4" and pos[("good", "nouns")][1].startswith("100.0")
    assert pos[("good", "verbs")][1].startswith("75.0") and pos[("good", "verbs")][2].startswith(
        "100.0")
    assert pos[("base", "nouns")][1].startswith("75.0")
    mcnemar = _rows(html, "McNemar's test, good against each other system")
    # fine and coarse alike: only good is right on b3 and p4, only base on none: p = 0.5
    assert mcnemar == [["base", "2", "0", "0.500", "2", "0", "0.500"]]
    lexelts = _rows(html, "Fine-grained recall (%) of the top sense per lexelt")
    # training: b1 is in the test key, so bank has 3 training instances, not 4
    assert lexelts == [["bank.n", "4", "3", "2", "100.0", "75.0"],
                       ["play.v", "4", "5", "3", "75.0", "50.0"]]


def test_html_is_self_contained_with_figures_and_says_when_no_learning_curve(toy):
    html = (_report(toy) / "report.html").read_text()
    images = re.findall(r'<img src="data:image/png;base64,([^"]+)"', html)
    assert len(images) == 2  # reliability diagram and lexelt plot
    assert all(base64.b64decode(data).startswith(b"\x89PNG\r\n\x1a\n") for data in images)
    assert not re.search(r'(src|href)="(?!data:)', html)
    assert "http://" not in html and "https://" not in html
    assert "No learning curve" in html and "--learning-curve" in html
    assert "15 equal-width" in html


def test_learning_curve_is_plotted_and_tabulated(toy):
    write_learning_curve(toy / "results" / "toy" / "learning_curve.json", LearningCurve(
        "toy", 0, (CurvePoint("good", 0.5, 4, 0.5, 0.75), CurvePoint("good", 1.0, 8, 0.875, 1.0),
                   CurvePoint("base", 0.5, 4, 0.25, None),
                   CurvePoint("base", 1.0, 8, 0.625, None))))
    html = (_report(toy) / "report.html").read_text()
    assert len(re.findall(r"<img ", html)) == 3
    rows = _rows(html, "Fine-grained recall (%) by share of the training data (training instances)")
    assert rows == [["good", "50.0", "87.5"], ["base", "25.0", "62.5"]]
    assert "50% (4)" in html and "No learning curve" not in html


def test_learning_curve_file_round_trip_and_bad_file(tmp_path):
    curve = LearningCurve("t", 3, (CurvePoint("svm", 0.1, 9, 0.5, None),))
    write_learning_curve(tmp_path / "c.json", curve)
    assert read_learning_curve(tmp_path / "c.json") == curve
    (tmp_path / "bad.json").write_text(json.dumps({"task": "t", "points": []}))
    with pytest.raises(Exception, match="bad.json.*not a learning curve"):
        read_learning_curve(tmp_path / "bad.json")


def test_markdown_report_writes_pngs_beside_it(toy):
    out = _report(toy, fmt="md")
    text = (out / "report.md").read_text()
    assert "| good | 87.5 | 87.5 [" in text
    assert "(&lt;system>.top.ans)" in text  # not swallowed as an HTML tag
    links = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", text)
    assert links == ["report-reliability.png", "report-lexelts.png"]
    for link in links:
        assert (out / link).read_bytes().startswith(b"\x89PNG")
    assert not list(out.glob(".*tmp"))


def test_without_training_file_the_report_says_so(toy):
    out = toy / "out"
    assert report_cli.main(["--task", "toy", "--results-dir", str(toy / "results"),
                            "--key", str(toy / "toy.key"), "--out", str(out)]) == 0
    html = (out / "report.html").read_text()
    assert "no training data given" in html
    assert "Coarse" not in html  # no sensemap: fine grain only
    assert len(re.findall(r"<img ", html)) == 1


def test_split_run_key_is_found_in_the_results_folder(toy):
    (toy / "results" / "toy" / "test.key").write_text(KEY)
    assert report_cli.main(["--task", "toy", "--results-dir", str(toy / "results")]) == 0
    assert (toy / "results" / "toy" / "report.html").is_file()


def test_user_errors_are_one_line_and_leave_no_report(toy, run_command):
    results = toy / "results"
    missing = run_command("report", "--task", "nothing", "--results-dir", results)
    assert_one_line_error(missing, "no results for task nothing")
    no_key = run_command("report", "--task", "toy", "--results-dir", results)
    assert_one_line_error(no_key, "no key for task toy", "--key")
    (toy / "broken.key").write_text("bank b1\n")
    broken = run_command("report", "--task", "toy", "--results-dir", results,
                         "--key", toy / "broken.key", "--out", toy / "out")
    assert_one_line_error(broken, "broken.key:1:")
    assert not (toy / "out" / "report.html").exists()


def test_semcor_scores_beside_raganato_without_answer_files(tmp_path):
    semcor = tmp_path / "results" / "semcor"
    semcor.mkdir(parents=True)
    (semcor / "scores.json").write_text(json.dumps({
        "mfs": {"senseval2": {"precision": 0.66, "recall": 0.65, "f1": 0.655, "answered": 9},
                "mydata": {"precision": 0.65, "recall": 0.64, "f1": 0.645}},
        "svm": {"senseval2": {"precision": 0.70, "recall": 0.69, "f1": 0.695}}}))
    assert report_cli.main(["--task", "semcor", "--results-dir", str(tmp_path / "results"),
                            "--data-dir", str(shared_data())]) == 0
    html = (semcor / "report.html").read_text()
    rows = _rows(html, "P/R/F1 per evaluation dataset, beside published F1")
    assert rows[0] == ["senseval2", "svm", "70.0", "69.0", "69.5", "this run"]
    assert rows[1] == ["senseval2", "mfs", "66.0", "65.0", "65.5", "this run"]
    assert ["senseval2", "WN 1st sense", "-", "-", "66.8"] == rows[3][:5]
    assert ["senseval2", "IMS", "-", "-", "70.9"] == rows[4][:5] and "Raganato" in rows[4][5]
    assert '<tr class="published"><td class="text">senseval2</td><td class="text">IMS</td>' in html
    assert ["mydata", "mfs", "65.0", "64.0", "64.5", "this run"] in rows
    assert "mydata: not a registered dataset" in html
    assert "Significance" not in html  # nothing was rescored


@needs_senseval2_all_words
def test_semcor_answers_are_rescored_with_intervals_and_mcnemar(tmp_path):
    """``right`` answers every instance with its first gold key; ``half`` does so for the first
    half and answers the rest wrongly; ``lazy`` answers only the first quarter (rightly)."""
    gold = read_raganato_key(shared_data() / "raganato" / "senseval2" / "senseval2.gold.key.txt")
    ids = list(gold)
    half, quarter = len(ids) // 2, len(ids) // 4
    semcor = tmp_path / "results" / "semcor"
    semcor.mkdir(parents=True)
    answers = {"right": {i: gold[i][0] for i in ids},
               "half": {i: gold[i][0] if n < half else "wrong%1:00:00::"
                        for n, i in enumerate(ids)},
               "lazy": {i: gold[i][0] for i in ids[:quarter]}}
    for system, keys in answers.items():
        (semcor / f"{system}.senseval2.key").write_text(
            "".join(f"{i} {key}\n" for i, key in keys.items()))
    # scores.json lists the systems; the rescored figures replace its (here deliberately 0) ones
    zero = {"precision": 0, "recall": 0, "f1": 0}
    (semcor / "scores.json").write_text(json.dumps({s: {"senseval2": zero} for s in answers}))
    assert report_cli.main(["--task", "semcor", "--results-dir", str(tmp_path / "results"),
                            "--data-dir", str(shared_data()), "--format", "md"]) == 0
    text = (semcor / "report.md").read_text()
    lazy_p, lazy_r = 1.0, quarter / len(ids)
    lazy_f1 = 2 * lazy_p * lazy_r / (lazy_p + lazy_r)
    assert "| senseval2 | right | 100.0 | 100.0 | 100.0 [100.0, 100.0] | this run |" in text
    assert "| *senseval2* | *IMS* | *-* | *-* | *70.9* |" in text
    assert "| senseval2 | half | 50.0 | 50.0 | 50.0 [" in text
    assert f"| senseval2 | lazy | 100.0 | {100 * lazy_r:.1f} | {100 * lazy_f1:.1f} [" in text
    # McNemar, right against half: only right is right on the second half
    assert f"| senseval2 | right | half | {len(ids) - half} | 0 | < 0.001 |" in text
    assert f"| senseval2 | right | lazy | {len(ids) - quarter} | 0 | < 0.001 |" in text


def test_semcor_without_scores_is_a_clear_error(tmp_path, run_command):
    result = run_command("report", "--task", "semcor", "--results-dir", tmp_path / "results")
    assert_one_line_error(result, "scores.json", "run bin/train --task semcor, then bin/evaluate")
    (tmp_path / "results" / "semcor").mkdir(parents=True)
    (tmp_path / "results" / "semcor" / "scores.json").write_text('{"svm": {"x": {"f1": 70}}}')
    result = run_command("report", "--task", "semcor", "--results-dir", tmp_path / "results")
    assert_one_line_error(result, "svm/x: expected the fields precision, recall, f1")
