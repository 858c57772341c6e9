"""``bin/report --task sensebench|ambistory`` from hand-made saved scores."""
from __future__ import annotations

import json

from wsd_classic.cli import report


def _sensebench_entry(accuracy, against):
    figures = {"accuracy": accuracy, "correct": 1, "instances": 2,
               "ci95": [accuracy - 0.05, accuracy + 0.05]}
    return {"overall": figures, "parts": {"senseval2": figures},
            "mcnemar": {"against": against, "only_this": 0, "only_best": 3, "p_value": 0.25}}


def test_sensebench_report(tmp_path, capsys):
    folder = tmp_path / "sensebench"
    folder.mkdir()
    (folder / "scores.json").write_text(json.dumps({
        "wn1": {"ALL": _sensebench_entry(0.6, "svm")},
        "svm": {"ALL": _sensebench_entry(0.7, "svm")}}))
    assert report.main(["--task", "sensebench", "--results-dir", str(tmp_path),
                        "--format", "md"]) == 0
    text = (folder / "report.md").read_text()
    rows = [line for line in text.splitlines() if line.startswith(("| svm", "| wn1"))]
    assert rows == ["| svm | 70.0 [65.0, 75.0] | 70.0 [65.0, 75.0] | best |",
                    "| wn1 | 60.0 [55.0, 65.0] | 60.0 [55.0, 65.0] | 0.25 |"]


def test_ambistory_report(tmp_path, capsys):
    folder = tmp_path / "ambistory"
    folder.mkdir()
    dev = {"spearman": 0.4, "accuracy": 0.65, "samples": 588,
           "ci95": {"spearman": [0.33, 0.47], "accuracy": [0.61, 0.69]},
           "by_ending": {"open-ended": {"spearman": None, "accuracy": 0.6, "samples": 196},
                         "ended": {"spearman": 0.5, "accuracy": 0.7, "samples": 392}}}
    (folder / "scores.json").write_text(json.dumps({
        "dev": dev, "params": {"model": "ridge"},
        "ablation": {"all": dev, "without wsd": {"spearman": 0.39, "accuracy": 0.64}}}))
    assert report.main(["--task", "ambistory", "--results-dir", str(tmp_path),
                        "--format", "md"]) == 0
    text = (folder / "report.md").read_text()
    assert "| classic rater (ours), dev | 0.400 [0.330, 0.470] | 0.650 [0.610, 0.690] |" in text
    assert "| dev, open-ended stories | n/a | 0.600 |" in text
    assert "| without wsd | 0.390 | 0.640 |" in text
    assert "GPT-4o" in text


def test_missing_benchmark_scores_are_a_one_line_error(tmp_path, capsys):
    assert report.main(["--task", "ambistory", "--results-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "bin/train --task ambistory" in err
