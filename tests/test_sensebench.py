"""SenseBench: its scoring rule, and ``bin/evaluate --benchmark sensebench`` on the fixtures."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from wsd_classic.benchmarks.sensebench import p002_index
from wsd_classic.corpora.registry import ALL_PARTS
from wsd_classic.report.table import sensebench_table
from wsd_classic.cli import evaluate
from wsd_classic.corpora.raganato import read_raganato_key
from wsd_classic.scoring.sensebench import (
    accuracy, correct_by_instance, dataset_of, same_sense)

pytestmark = pytest.mark.filterwarnings("ignore:The multilingual functions are not available")

FIXTURES = Path(__file__).parent / "fixtures"


def test_a_key_of_the_gold_synset_counts_as_right():
    assert same_sense("domestic_dog%1:05:00::", ["dog%1:05:00::"])
    assert same_sense("bank%1:17:01::", ["bank%1:14:00::", "bank%1:17:01::"])
    assert not same_sense("bank%1:17:01::", ["bank%1:14:00::"])
    assert not same_sense("nonsense%1:00:00::", ["bank%1:14:00::"])


def test_an_instance_without_answer_is_wrong_and_ids_name_their_set():
    gold = {"senseval2.d0.s0.t0": ("dog%1:05:00::",), "semeval2015.d0.s0.t0": ("bank%1:14:00::",)}
    assert correct_by_instance(gold, {"senseval2.d0.s0.t0": "canis_familiaris%1:05:00::"}) == {
        "senseval2.d0.s0.t0": True, "semeval2015.d0.s0.t0": False}
    assert dataset_of("semeval2015.d0.s0.t0", ALL_PARTS) == "semeval2015"
    assert dataset_of("d000.s000.t000", ALL_PARTS) is None
    figures = accuracy([True, False, True, True])
    assert figures.accuracy == 0.75 and figures.interval.low <= 0.75 <= figures.interval.high


def test_p002_index_counts_synsets_in_wordnet_order():
    assert p002_index("bank%1:17:01::", "bank", "n") == 1
    assert p002_index("bank%1:14:00::", "bank", "n") == 2


def _all_style_set(directory: Path) -> Path:
    """The fixture set with ALL's id prefixes (two parts), and one gold key that is a synonym of
    WordNet's first sense of ``quickly``: right by SenseBench's rule, wrong by Raganato's."""
    prefixes = {"d000": "senseval2", "d001": "senseval2", "d002": "semeval2015"}
    data = (FIXTURES / "allwords_sample.data.xml").read_text()
    gold = (FIXTURES / "allwords_sample.gold.key.txt").read_text()
    for document, part in prefixes.items():
        data = data.replace(f'id="{document}', f'id="{part}.{document}')
        gold = gold.replace(f"{document}.", f"{part}.{document}.")
    gold = gold.replace("quickly%4:02:00::", "rapidly%4:02:00::")
    (directory / "mini.data.xml").write_text(data)
    (directory / "mini.gold.key.txt").write_text(gold)
    return directory / "mini.data.xml"


def test_key_files_indices_and_scores(allwords_models, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("WSD_CLASSIC_CACHE", str(tmp_path / "cache"))
    dataset = _all_style_set(tmp_path)
    status = evaluate.main(["--benchmark", "sensebench", "--datasets", str(dataset),
                            "--systems", "mfs,wn1,svm", "--models-dir", str(allwords_models),
                            "--out-dir", str(tmp_path / "results")])
    out, err = capsys.readouterr()
    assert status == 0, err
    results = tmp_path / "results" / "sensebench"
    gold = read_raganato_key(tmp_path / "mini.gold.key.txt")
    scores = json.loads((results / "scores.json").read_text())
    for system in ("mfs", "wn1", "svm"):
        lines = (results / f"{system}.mini.key").read_text().splitlines()
        assert [line.split()[0] for line in lines] == list(gold)
        assert all(len(line.split()) == 2 for line in lines)
        records = [json.loads(line)
                   for line in (results / f"{system}.mini.p002.jsonl").read_text().splitlines()]
        assert [(r["id"], r["key"]) for r in records] == [tuple(line.split()) for line in lines]
        answers = dict(line.split() for line in lines)
        right = sum(same_sense(answers[i], keys) for i, keys in gold.items())
        assert scores[system]["mini"]["overall"]["correct"] == right
        assert set(scores[system]["mini"]["parts"]) == {"senseval2", "semeval2015"}
        assert scores[system]["mini"]["parts"]["senseval2"]["instances"] == 3
    # wn1 answers quickly%4:02:00::, the synset of the gold rapidly%4:02:00::: 6 of 8 as in
    # test_evaluate_cli, where Raganato's scorer accepts the very key
    assert scores["wn1"]["mini"]["overall"]["correct"] == 6
    index = {r["id"]: r["index"] for r in map(json.loads, (
        results / "wn1.mini.p002.jsonl").read_text().splitlines())}
    assert set(index.values()) == {1}  # WordNet's first sense is the first synset
    best = max(scores, key=lambda s: scores[s]["mini"]["overall"]["correct"])
    assert all(scores[s]["mini"]["mcnemar"]["against"] == best for s in scores)
    assert "McNemar" in out and "semeval2015" in out and "time:" in out


def test_table_ranks_systems_and_marks_the_best():
    def entry(value):
        figures = {"accuracy": value, "correct": 1, "instances": 2, "ci95": [value - .1, value]}
        return {"overall": figures, "parts": {"senseval2": figures},
                "mcnemar": {"against": "svm", "p_value": 0.03}}

    lines = sensebench_table({"wn1": {"ALL": entry(0.6)}, "svm": {"ALL": entry(0.7)}}).splitlines()
    assert lines[3].split()[:2] == ["svm", "70.0"] and lines[3].split()[-1] == "best"
    assert lines[4].split()[0] == "wn1" and lines[4].split()[-1] == "0.03"
