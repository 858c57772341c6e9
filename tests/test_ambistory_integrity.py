"""The AmbiStory rater's evaluation integrity and reproducibility: the setting is chosen on train
alone, the word spaces read no evaluation text, and a run's predictions do not depend on Python's
per-process hash salt."""
from __future__ import annotations

import copy
import importlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

import test_ambistory_jobs
from bench import ambistory as ambistory_bench
from bench import self_vectors
from conftest import fixture_vectors
from wsd_classic.benchmarks.ambistory import spaces
from wsd_classic.cli import train
from wsd_classic.corpora import registry
from wsd_classic.features.word_vectors import WordVectors
from wsd_classic.tasks import catalogue

pytestmark = [pytest.mark.filterwarnings("ignore:The multilingual functions are not available"),
              pytest.mark.filterwarnings("ignore::wsd_classic.corpora.registry."
                                         "UnverifiedDataWarning")]

tiny_world = test_ambistory_jobs.tiny_world  # the fixture, shared
TESTS = Path(__file__).parent
FIXTURES = TESTS / "fixtures"
STORIES = FIXTURES / "ambistory"
ROOT = TESTS.parent

# Every file the process opens while a list is in here (Python's audit hook for ``open``, which
# ``open``, ``Path.read_bytes`` and ``os.open`` raise); a hook cannot be removed, so it is added
# once and records only while watched.
_WATCHERS: list[list[str]] = []


def _record_open(event: str, args: tuple) -> None:
    if event == "open" and _WATCHERS and isinstance(args[0], (str, bytes, os.PathLike)):
        for opened in _WATCHERS:
            opened.append(os.fsdecode(args[0]))


sys.addaudithook(_record_open)


def _run_train(data: Path, models: Path, results: Path) -> dict:
    assert train.main(["--task", "ambistory", "--data-dir", str(data), "--models-dir",
                       str(models), "--out-dir", str(results)]) == 0
    return json.loads((results / "ambistory" / "scores.json").read_text())


def test_the_setting_is_chosen_without_reading_dev(tiny_world, tmp_path):
    data, models, results = tiny_world
    first = _run_train(data, models, results)
    dev = data / "ambistory" / "dev.json"
    samples = json.loads(dev.read_text())
    rated = [(sample["choices"], sample["average"], sample["stdev"])
             for sample in samples.values()]
    for sample, (choices, average, stdev) in zip(samples.values(), rated[1:] + rated[:1]):
        sample["choices"], sample["average"], sample["stdev"] = choices, average, stdev
    dev.write_text(json.dumps(samples))
    again = _run_train(data, models, tmp_path / "results again")
    assert again["params"] == first["params"]
    assert [trial["cv"] for trial in again["selection"]] == [
        trial["cv"] for trial in first["selection"]]
    assert again["dev"]["accuracy"] != first["dev"]["accuracy"]  # dev's ratings did change


def test_the_word_vectors_are_chosen_on_train_alone(tiny_world, monkeypatch):
    """``python -m bench ambistory --vectors``: each candidate's rater chosen and cross-validated on
    train; neither dev nor test is opened."""
    data, models, _ = tiny_world
    # Only the spaces read the small stand-ins: the SemCor svm checks the installed sets it names.
    monkeypatch.setattr(ambistory_bench, "pretrained_vectors", SimpleNamespace(
        load=lambda name: WordVectors(("river", "money", "water"), np.eye(3))))
    monkeypatch.setattr(self_vectors, "obtain", lambda *args, **kwargs: fixture_vectors())
    opened: list[str] = []
    _WATCHERS.append(opened)
    try:
        trials = ambistory_bench.choose_vectors(data, models)
    finally:
        _WATCHERS.remove(opened)
    assert [trial["sources"] for trial in trials] == list(
        map(list, ambistory_bench.VECTOR_CANDIDATES))
    for trial in trials:
        best = max(trial["settings"], key=lambda setting: setting["key"])
        assert (trial["params"], trial["cv"], trial["key"]) == (best["params"], best["cv"],
                                                               best["key"])
        assert set(trial["component_rho"]) == {"setup", "meaning", "ending", "interaction"}
    read = {Path(path).name for path in opened}
    assert "train.json" in read and not {"dev.json", "test_redacted.json"} & read


def _registered_unhashed(monkeypatch, name: str, data: Path, files: tuple[str, ...]) -> None:
    dataset = registry.DATASETS[name]
    monkeypatch.setitem(registry.DATASETS, name, registry.Dataset(
        name, dataset.directory, "the test fixtures",
        tuple(registry.DataFile(path, None) for path in files)))
    (data / dataset.directory).mkdir(parents=True, exist_ok=True)


def test_the_word_spaces_read_training_text_only(tmp_path, monkeypatch):
    """Every corpus the spaces could read is in the data dir, its evaluation files beside its
    training files; building the spaces opens training files and no evaluation file."""
    monkeypatch.setenv("WSD_CLASSIC_CACHE", str(tmp_path / "cache"))
    data = tmp_path / "data"
    files = catalogue.SENSEVAL2_LS.files
    senseval2 = {files.train: "lexsample_training.xml", files.test: "lexsample_test.xml",
                 files.key: "test_small.key", files.training_key: "test_small.key",
                 files.sensemap: "test_small.key"}
    _registered_unhashed(monkeypatch, "senseval2-ls", data, tuple(senseval2))
    for name, fixture in senseval2.items():
        shutil.copy(FIXTURES / fixture, data / "senseval2-ls" / name)
    (data / "senseval2-ls" / "lexical-sample.dtd").touch()
    _registered_unhashed(monkeypatch, "semcor-3.0", data, ())
    shutil.copytree(FIXTURES / "allwords_semcor", data / "semcor-3.0", dirs_exist_ok=True)
    test_ambistory_jobs.make_tiny_data(data)
    _registered_unhashed(monkeypatch, "ambistory", data,
                         ("train.json", "dev.json", "test_redacted.json"))
    # WordNet's glosses (no evaluation text, and minutes of SVD) stand in small; the word
    # vectors are the fixtures' in every test (conftest), their corpus checked where it is built.
    monkeypatch.setattr(spaces, "gloss_space", lambda: spaces.running_text_space(
        [["river", "water"], ["money", "loan"]] * 5, 1, 1))
    monkeypatch.setattr(spaces, "gloss_documents", lambda: iter([["river", "bank"]] * 5))
    opened: list[str] = []
    _WATCHERS.append(opened)
    try:
        built = spaces.build_spaces(data)
    finally:
        _WATCHERS.remove(opened)
    assert set(built) == set(spaces.SPACES)
    read = {Path(path).resolve() for path in opened}
    training = {data / "senseval2-ls" / files.train,
                data / "semcor-3.0" / "brown1" / "tagfiles" / "br-z01"}
    evaluation = {data / "senseval2-ls" / name
                  for name in (files.test, files.key)} | {
        data / "ambistory" / name for name in ("dev.json", "test_redacted.json")}
    assert {path.resolve() for path in training} <= read
    assert not {path.resolve() for path in evaluation} & read


CHILD = """
import sys
from pathlib import Path

import pytest

sys.path.insert(0, {tests!r})
from test_ambistory_jobs import use_tiny_world
from wsd_classic.cli import train

use_tiny_world(pytest.MonkeyPatch())
sys.exit(train.main(["--task", "ambistory", "--data-dir", {data!r}, "--models-dir", {models!r},
                     "--out-dir", {results!r}]))
"""


RELATED_CHILD = """
import json
import sys

from wsd_classic.benchmarks.ambistory.meanings import meaning_synset, related_synsets

for path in sys.argv[1:]:
    for sample in json.load(open(path)).values():
        synset, _ = meaning_synset(sample["homonym"], sample["judged_meaning"])
        print(*(other.name() for other in related_synsets(synset)))
"""


def test_related_synsets_come_in_the_same_order_whatever_the_hash_salt():
    """NLTK keeps pointers in sets: their order, and the sums over the related synsets' words,
    would change with PYTHONHASHSEED (they do between 1 and 2)."""
    stories = [str(STORIES / f"bank_stories_{split}.json") for split in ("train", "dev", "test")]
    orders = {seed: subprocess.run(
        [sys.executable, "-c", RELATED_CHILD, *stories], capture_output=True, text=True,
        check=True, env={**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT)}).stdout
        for seed in ("1", "2")}
    assert orders["1"] and orders["1"] == orders["2"]


def test_predictions_do_not_depend_on_the_hash_salt(tmp_path, allwords_models):
    """Two runs in fresh processes with different PYTHONHASHSEED: the same features, ratings and
    predictions, to the bit (a set's order is salted, and sums over it round differently)."""
    test_ambistory_jobs.make_tiny_data(tmp_path / "data")
    runs = {}
    for seed in ("1", "2"):
        models, results = tmp_path / f"models{seed}", tmp_path / f"results{seed}"
        shutil.copytree(allwords_models, models)
        code = CHILD.format(tests=str(TESTS), data=str(tmp_path / "data"), models=str(models),
                            results=str(results))
        environment = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT),
                       "WSD_CLASSIC_CACHE": str(tmp_path / f"cache{seed}")}
        runs[seed] = (subprocess.Popen([sys.executable, "-c", code], env=environment,
                                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                       text=True), models, results)
    outputs = {}
    for seed, (process, models, results) in runs.items():
        _, err = process.communicate(timeout=600)
        assert process.returncode == 0, err
        with np.load(models / "ambistory" / "rater.npz") as saved:
            matrix = saved["matrix"].tobytes()
        outputs[seed] = (matrix, *((results / "ambistory" / f"{split}.{kind}.jsonl").read_text()
                                   for split in ("dev", "test")
                                   for kind in ("ratings", "predictions")))
    assert outputs["1"] == outputs["2"]


def _bench_script():
    return importlib.import_module("bench.ambistory")


def test_the_bench_check_fails_when_the_recorded_figures_drift(capsys):
    script = _bench_script()
    recorded = json.loads((ROOT / "bench" / "results" / "ambistory.json").read_text())
    assert script.reproduces(copy.deepcopy(recorded), recorded)
    noise = copy.deepcopy(recorded)
    noise["params"]["cuts"][0] += 1e-12  # the last digits of a sum
    assert script.reproduces(noise, recorded)
    for path, value in ((("dev", "spearman"), recorded["dev"]["spearman"] - 0.01),
                        (("dev", "accuracy"), recorded["dev"]["accuracy"] + 0.001),
                        (("params", "model"), "another model")):
        drifted = copy.deepcopy(recorded)
        drifted[path[0]][path[1]] = value
        assert not script.reproduces(drifted, recorded)
        # named by its path in REPRODUCED (the setting is compared whole)
        assert capsys.readouterr().err.startswith("params" if path[0] == "params"
                                                  else ".".join(path))
