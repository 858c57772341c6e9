"""``bin/train --task ambistory`` / ``bin/evaluate --benchmark ambistory`` on hand-written stories
about a bank (tests/fixtures/ambistory) with tiny models."""
from __future__ import annotations

import ast
import json
import shutil
from collections import defaultdict
from pathlib import Path

import pytest

from wsd_classic.benchmarks.ambistory import spaces, text
from wsd_classic.benchmarks.ambistory.jobs import SPLITS
from wsd_classic.cli import evaluate, train
from wsd_classic.corpora import registry
from wsd_classic.corpora.ambistory import read_ambistory

pytestmark = [pytest.mark.filterwarnings("ignore:The multilingual functions are not available"),
              pytest.mark.filterwarnings("ignore::wsd_classic.corpora.registry."
                                         "UnverifiedDataWarning")]

STORIES = Path(__file__).parent / "fixtures" / "ambistory"


def make_tiny_data(data: Path) -> None:
    """The fixture stories in a data dir, under the names the dataset's layout has."""
    (data / "ambistory").mkdir(parents=True)
    for split, name in SPLITS.items():
        shutil.copy(STORIES / f"bank_stories_{split}.json", data / "ambistory" / name)


def use_tiny_world(patch: pytest.MonkeyPatch) -> None:
    """The fixture stories registered unhashed, and word spaces and IDF from a few sentences
    instead of WordNet, SemCor and SENSEVAL-2 (which take minutes)."""
    patch.setitem(registry.DATASETS, "ambistory", registry.Dataset(
        "ambistory", "ambistory", "the test fixtures",
        tuple(registry.DataFile(name, None) for name in SPLITS.values())))
    texts = ["the river water rose over the muddy grassy slope where ducks swim",
             "the clerk counted the money deposit loan account check at the counter"] * 10

    def tiny_space(*args):
        return spaces.running_text_space([text.stems(line) for line in texts], 3, 1)

    patch.setattr(spaces, "text_spaces", lambda data_dir: {"lsa": tiny_space(),
                                                            "ppmi": tiny_space()})
    patch.setattr(spaces, "vector_space", tiny_space)
    patch.setattr(text, "inverse_document_frequency", lambda: defaultdict(lambda: 1.0))


@pytest.fixture
def tiny_world(tmp_path, monkeypatch, allwords_models):
    """A data dir of the fixture stories and a models root with the tiny all-words svm, in the
    tiny world (``use_tiny_world``); returns (data, models, results) directories."""
    monkeypatch.setenv("WSD_CLASSIC_CACHE", str(tmp_path / "cache"))
    make_tiny_data(tmp_path / "data")
    use_tiny_world(monkeypatch)
    models = tmp_path / "models"
    shutil.copytree(allwords_models, models)
    return tmp_path / "data", models, tmp_path / "results"


def test_train_and_evaluate_write_complete_predictions(tiny_world, capsys):
    data, models, results = tiny_world
    assert train.main(["--task", "ambistory", "--data-dir", str(data), "--models-dir",
                       str(models), "--out-dir", str(results)]) == 0
    out = capsys.readouterr().out
    assert "GPT-4o" in out and "open-ended" in out
    assert "judged meanings to WordNet 3.0 synsets: train 12 exact" in out
    written = {}
    for split, filename in (("dev", "dev.json"), ("test", "test_redacted.json")):
        predictions = _predictions(results / "ambistory" / f"{split}.predictions.jsonl")
        assert list(predictions) == [
            sample.id for sample in read_ambistory(data / "ambistory" / filename)]
        written[split] = predictions
    scores = json.loads((results / "ambistory" / "scores.json").read_text())
    # the setting reported and saved is the candidate with the best cross-validated figures
    best = max(scores["selection"], key=lambda trial: trial["key"])
    printed = next(line for line in out.splitlines()
                   if line.startswith("chosen by cross-validation on train: "))
    assert ast.literal_eval(printed.partition(": ")[2]) == best["params"]
    assert json.loads((models / "ambistory" / "rater.json").read_text())["params"] == \
        best["params"]
    assert all(trial["key"] == pytest.approx((trial["cv"]["spearman"] or 0.0)
                                             + trial["cv"]["accuracy"])
               for trial in scores["selection"])
    assert scores["dev"]["samples"] == 6 and set(scores["dev"]["by_ending"]) == {
        "open-ended", "ended"}
    assert {"all", "without siblings", "only wsd", "with support", "only support"} <= set(
        scores["ablation"])
    assert "without support" not in scores["ablation"]
    shutil.rmtree(results)
    assert evaluate.main(["--benchmark", "ambistory", "--data-dir", str(data), "--models-dir",
                          str(models), "--out-dir", str(results)]) == 0
    for split in written:  # the saved rater gives the same predictions
        assert _predictions(results / "ambistory" / f"{split}.predictions.jsonl") == \
            written[split]


def test_evaluate_without_a_trained_rater_is_a_one_line_error(tiny_world, capsys):
    data, models, results = tiny_world
    status = evaluate.main(["--benchmark", "ambistory", "--data-dir", str(data), "--models-dir",
                            str(models), "--out-dir", str(results)])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and "bin/train --task ambistory" in err


def test_train_without_the_semcor_svm_is_a_one_line_error(tiny_world, capsys):
    data, models, results = tiny_world
    shutil.rmtree(models / "semcor")
    assert train.main(["--task", "ambistory", "--data-dir", str(data), "--models-dir",
                       str(models), "--out-dir", str(results)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "bin/train --task semcor" in err


def _predictions(path) -> dict:
    """A predictions file's rating by sample id, in file order."""
    return {record["id"]: record["prediction"]
            for record in map(json.loads, path.read_text().splitlines())}
