"""``bin/evaluate --task semcor`` (and ``bin/train --task semcor``) on the miniature fixtures."""
from __future__ import annotations

import dataclasses
import json
import re
import shutil
from pathlib import Path

import pytest

from wsd_classic.cli import evaluate, train
from wsd_classic.corpora import registry
from wsd_classic.corpora.raganato import read_raganato_key
from wsd_classic.errors import WsdError
from wsd_classic.scoring.raganato import score_macro, score_raganato
from wsd_classic.tasks import allwords
from wsd_classic.tasks.allwords_evaluation import resolve_dataset, resolve_datasets
from wsd_classic.report.table import all_words_table

pytestmark = pytest.mark.filterwarnings("ignore:The multilingual functions are not available")

FIXTURES = Path(__file__).parent / "fixtures"
DATASET = FIXTURES / "allwords_sample.data.xml"


@pytest.fixture
def models_root(allwords_models):
    return allwords_models


@pytest.fixture(autouse=True)
def private_cache(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("WSD_CLASSIC_CACHE", str(tmp_path_factory.getbasetemp() / "cache"))


def run(capsys, *argv):
    status = evaluate.main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_keys_scores_and_table(models_root, tmp_path, capsys):
    status, out, err = run(capsys, "--task", "semcor", "--datasets", str(DATASET),
                           "--systems", "mfs,wn1,svm", "--models-dir", str(models_root),
                           "--out-dir", str(tmp_path))
    assert status == 0, err
    results = tmp_path / "semcor"
    gold = read_raganato_key(FIXTURES / "allwords_sample.gold.key.txt")
    for system in ("mfs", "wn1", "svm"):
        keys = read_raganato_key(results / f"{system}.allwords_sample.key")
        assert list(keys) == list(gold)
        assert all(len(senses) == 1 for senses in keys.values())
    scores = json.loads((results / "scores.json").read_text())
    assert set(scores) == {"mfs", "wn1", "svm"}
    # 8 instances: wn1 misses the money bank and peculiarity; mfs the river bank, peculiarity
    # and old, which SemCor (the fixture) never tags: mfs does not take WordNet's first sense
    assert scores["wn1"]["allwords_sample"]["f1"] == pytest.approx(6 / 8)
    assert scores["mfs"]["allwords_sample"]["correct"] == 5
    assert scores["svm"]["allwords_sample"]["f1"] == pytest.approx(7 / 8)
    lines = out.splitlines()
    assert "allwords_sample" in lines[1] and lines[2].split() == ["P", "R", "F1", "mF1"]
    # svm misses peculiarity only, with a sense no gold key names: of the 8 gold senses
    # peculiarity's scores F1 0, each other 1 (wn1 misses the money bank with the river bank's
    # sense, which then also loses precision: 2/3, and 0 for the money bank and peculiarity)
    assert scores["svm"]["allwords_sample"]["macro_f1"] == pytest.approx(7 / 8)
    assert scores["wn1"]["allwords_sample"]["macro_f1"] == pytest.approx((5 + 2 / 3) / 8)
    assert lines[4].split() == ["svm", "(ours)", "87.5", "87.5", "87.5", "87.5"]
    assert "published" not in out  # no published figures for this dataset
    assert "targets/s" in out and "time:" in out


def test_table_shows_published_rows_for_the_registered_datasets():
    figures = {"precision": 0.7, "recall": 0.7, "f1": 0.7}
    table = all_words_table({"svm": {"senseval2": figures, "semeval2007": figures}},
                            ["senseval2", "semeval2007"])
    rows = {line.split()[0]: line.split()[1:] for line in table.splitlines()[4:]}
    # figures kept from a run without macro F1 show "-" there
    assert rows["svm"] == ["(ours)", "70.0", "70.0", "70.0", "-", "70.0", "70.0", "70.0", "-"]
    assert rows["MFS"] == ["65.6", "54.5"] and rows["IMS"] == ["70.9", "61.3"]
    assert rows["WN"] == ["1st", "sense", "66.8", "55.2"]
    assert rows["IMS+emb"] == ["71.0", "60.9"]


def test_dataset_without_gold_key_is_an_error(tmp_path, models_root, capsys):
    lonely = tmp_path / "lonely.data.xml"
    shutil.copy(DATASET, lonely)
    status, out, err = run(capsys, "--datasets", str(lonely), "--models-dir", str(models_root),
                           "--out-dir", str(tmp_path))
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and "lonely.gold.key.txt" in err
    assert not (tmp_path / "semcor" / "scores.json").exists()


@pytest.mark.parametrize("argv, message", [
    (["--datasets", "senseval2-ls"], "not an all-words dataset"),
    (["--datasets", "nonesuch"], "not an all-words dataset"),
    (["--systems", "lesk"], "unknown system lesk for task semcor; known: mfs, wn1, svm, dlist"),
    (["--systems", "dlist"], "no semcor/dlist model"),
])
def test_bad_requests_are_one_line_errors(argv, message, models_root, tmp_path, capsys):
    status, _, err = run(capsys, "--datasets", str(DATASET), "--models-dir", str(models_root),
                         "--out-dir", str(tmp_path), *argv)
    assert status == 2 and message in err and err.count("\n") == 1


def test_later_runs_add_to_the_scores_and_a_failed_run_changes_nothing(models_root, tmp_path,
                                                                      capsys):
    def evaluate_systems(systems):
        return run(capsys, "--datasets", str(DATASET), "--systems", systems,
                   "--models-dir", str(models_root), "--out-dir", str(tmp_path))[0]

    results = tmp_path / "semcor"
    assert evaluate_systems("mfs") == 0
    assert evaluate_systems("wn1") == 0
    scores = json.loads((results / "scores.json").read_text())
    assert set(scores) == {"mfs", "wn1"} and set(scores["mfs"]) == {"allwords_sample"}
    before = {path.name: path.read_bytes() for path in results.iterdir()}
    # svm tags and its key is written in the staging copy before dlist's model is found missing
    assert evaluate_systems("svm,dlist") == 2
    assert {path.name: path.read_bytes() for path in results.iterdir()} == before
    assert [path.name for path in tmp_path.iterdir() if "staging" in path.name] == []


def test_an_interrupted_training_leaves_the_models_as_they_were(tmp_path, monkeypatch):
    root = tmp_path / "models"
    allwords.train_semcor(FIXTURES / "allwords_semcor", ["mfs"], root)
    model = root / "semcor" / "mfs" / "model.npz"
    before = (model.read_bytes(), model.stat().st_ino)  # the bytes may repeat within a second
    trained = []

    def train_then_fail(name, *args, **kwargs):
        if trained:
            raise KeyboardInterrupt
        trained.append(name)
        return real_train_system(name, *args, **kwargs)

    real_train_system = allwords.train_system
    monkeypatch.setattr(allwords, "train_system", train_then_fail)
    with pytest.raises(KeyboardInterrupt):
        allwords.train_semcor(FIXTURES / "allwords_semcor", ["mfs", "svm"], root)
    assert trained == ["mfs"]  # a new mfs model was saved in the staging copy, then svm failed
    assert sorted(path.name for path in (root / "semcor").iterdir()) == ["mfs"]
    assert (model.read_bytes(), model.stat().st_ino) == before
    assert [path.name for path in root.iterdir() if "staging" in path.name] == []


def test_registered_dataset_names_resolve_to_their_files():
    dataset = resolve_dataset("semeval2007")
    if not dataset.data.is_file():
        pytest.skip("the Raganato datasets are not in the data directory")
    assert dataset.gold.name == "semeval2007.gold.key.txt"


def test_registered_dataset_without_a_hash_is_used_with_a_one_line_warning(
        tmp_path, models_root, capsys, monkeypatch):
    # Every real set has its hashes registered: a throwaway one stands for a set without.
    monkeypatch.setitem(registry.DATASETS, "unhashed", registry._raganato("unhashed", None, None))
    _put_raganato(tmp_path / "data", "unhashed")
    status, out, err = run(capsys, "--datasets", "unhashed", "--systems", "wn1",
                           "--data-dir", str(tmp_path / "data"), "--models-dir", str(models_root),
                           "--out-dir", str(tmp_path))
    assert status == 0 and "unhashed" in out.splitlines()[1]
    (warning,) = err.splitlines()
    assert re.fullmatch(r"\S+: warning: unhashed: no SHA-256 registered for unhashed\.data\.xml, "
                        r"unhashed\.gold\.key\.txt in .*: used as found, NOT verified against "
                        r"the published release", warning)


def test_the_shared_all_set_matches_its_registered_hashes():
    try:
        registry.locate("ALL", download=False)
    except WsdError as error:
        if "not found" in str(error):
            pytest.skip("Raganato's ALL is not in the data directory")
        raise


@pytest.mark.parametrize("name", ["semeval2013", "semeval2015", "ALL"])
def test_registered_dataset_with_other_content_is_a_one_line_error(name, tmp_path, models_root,
                                                                   capsys):
    _put_raganato(tmp_path / "data", name)
    status, out, err = run(capsys, "--datasets", name, "--systems", "wn1",
                           "--data-dir", str(tmp_path / "data"), "--models-dir", str(models_root),
                           "--out-dir", str(tmp_path))
    assert status == 2 and out == "" and err.count("\n") == 1
    assert f"{name}.data.xml" in err and "SHA-256" in err


def _put_raganato(data_dir: Path, name: str) -> None:
    """The fixture dataset under ``name`` in ``data_dir``'s Raganato layout."""
    folder = data_dir / "raganato" / name
    folder.mkdir(parents=True)
    shutil.copy(DATASET, folder / f"{name}.data.xml")
    shutil.copy(FIXTURES / "allwords_sample.gold.key.txt", folder / f"{name}.gold.key.txt")


def test_two_datasets_of_one_name_are_an_error(tmp_path):
    (tmp_path / "copy").mkdir()
    for directory in (tmp_path, tmp_path / "copy"):
        shutil.copy(DATASET, directory / DATASET.name)
        shutil.copy(FIXTURES / "allwords_sample.gold.key.txt", directory)
    with pytest.raises(WsdError, match="two datasets named allwords_sample"):
        resolve_datasets([str(tmp_path / DATASET.name), str(tmp_path / "copy" / DATASET.name)])


def test_train_dispatches_the_semcor_task(tmp_path, capsys):
    # The fixture is not the registered SemCor: the dispatch reaches its verification.
    (tmp_path / "semcor-3.0").symlink_to(FIXTURES / "allwords_semcor", target_is_directory=True)
    status = train.main(["--task", "semcor", "--systems", "mfs", "--data-dir", str(tmp_path),
                         "--models-dir", str(tmp_path / "models")])
    err = capsys.readouterr().err
    assert status == 2 and "semcor-3.0" in err and "SHA-256" in err
    assert train.main(["--task", "semcor", "--systems", "svm,lesk"]) == 2
    assert "unknown system lesk for task semcor; known: mfs, wn1, svm, dlist" in capsys.readouterr().err
    assert train.main(["--task", "semcor", "--learning-curve"]) == 2
    assert "--learning-curve is for lexical samples, not --task semcor" in capsys.readouterr().err


HARD_BENCHMARK = FIXTURES / "hard_benchmark"


def test_challenge_set_by_name_from_the_data_dir(models_root, tmp_path, capsys, monkeypatch):
    # The fixture copies 42D's layout and format, not its bytes: register the fixture's hashes
    # under the set's name, so that the name resolves through --data-dir as the real set would.
    registered = registry.DATASETS["42D"]
    directory = HARD_BENCHMARK / registered.directory
    monkeypatch.setitem(registry.DATASETS, "42D", dataclasses.replace(registered, files=tuple(
        dataclasses.replace(entry, sha256=registry.file_sha256(directory / entry.path))
        for entry in registered.files)))
    status, out, err = run(capsys, "--datasets", "42D", "--systems", "wn1,svm",
                           "--data-dir", str(HARD_BENCHMARK), "--models-dir", str(models_root),
                           "--out-dir", str(tmp_path))
    assert status == 0, err
    gold = read_raganato_key(directory / "42D.gold.key.txt")
    scores = json.loads((tmp_path / "semcor" / "scores.json").read_text())
    rows = {line.split()[0]: line.split()[2:] for line in out.splitlines()[4:6]}
    for system in ("wn1", "svm"):
        answers = read_raganato_key(tmp_path / "semcor" / f"{system}.42D.key")
        assert list(answers) == list(gold)
        figures, macro = scores[system]["42D"], score_macro(gold, answers)
        assert figures["macro_f1"] == pytest.approx(macro.f1) and figures["senses"] == 7
        assert figures["f1"] == pytest.approx(score_raganato(gold, answers, quiet=True).f1)
        assert rows[system][3] == f"{100 * macro.f1:.1f}"
    # wn1 takes the river bank for the bank lending money, so macro F1 and micro F1 part
    assert scores["wn1"]["42D"]["macro_f1"] < scores["wn1"]["42D"]["f1"]


def test_challenge_set_missing_from_the_data_dir_says_where_to_get_it(tmp_path, capsys):
    status, out, err = run(capsys, "--datasets", "42D,hardEN", "--data-dir", str(tmp_path),
                           "--out-dir", str(tmp_path))
    assert status == 2 and out == ""
    assert err.count("\n") == 1
    assert str(tmp_path / "raganato" / "42D" / "42D.data.xml") in err
    assert "SapienzaNLP/wsd-hard-benchmark" in err and "wsd_hard_benchmark/42D/" in err
