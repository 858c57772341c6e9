"""``bin/train`` end to end on a small corpus in the SENSEVAL lexical-sample format."""
import json

import numpy as np
import pytest

from conftest import FIXTURES, assert_one_line_error
from wsd_classic import modelstore
from wsd_classic.answers.senseval import read_answers
from wsd_classic.corpora.keys import read_key
from wsd_classic.scoring import scorer2

SYSTEMS = "commonest,lesk,lesk-corpus,dlist,svm"


@pytest.fixture(scope="module")
def split_run(tmp_path_factory):
    import os
    import subprocess

    from conftest import REPO

    root = tmp_path_factory.mktemp("split")
    result = subprocess.run(
        [str(REPO / "bin" / "train"), "--train", str(FIXTURES / "train_small.xml"),
         "--split", "2:1", "--seed", "3", "--systems", SYSTEMS, "--jobs", "1",
         "--models-dir", str(root / "models"), "--out-dir", str(root / "results")],
        capture_output=True, text=True, timeout=600,
        env={**os.environ, "WSD_CLASSIC_CACHE": str(root / "cache")})
    assert result.returncode == 0, result.stderr
    return root, result


def test_split_run_writes_answers_key_scores_and_models(split_run):
    root, result = split_run
    out = root / "results" / "train_small"
    key = read_key(out / "test.key")
    assert len(key) == 16  # a third of 48
    for system in SYSTEMS.split(","):
        weighted = read_answers(out / f"{system}.ans")
        top = read_answers(out / f"{system}.top.ans")
        assert sorted(a.instance for a in weighted) == sorted(key)
        assert all(abs(sum(w for _, w in a.senses) - 1) < 1e-9 for a in weighted)
        assert all(len(a.senses) == 1 and a.senses[0][1] is None for a in top)
        assert [a.senses[0][0] for a in top] == [a.senses[0][0] for a in weighted]
        trained = modelstore.load(root / "models", "train_small", system)
        assert sorted(trained.models) == ["bank.n", "play.v"]
    assert "svm (ours)" in result.stdout and "time:" in result.stdout


def test_scores_json_matches_an_independent_rescoring(split_run):
    root, _ = split_run
    out = root / "results" / "train_small"
    scores = json.loads((out / "scores.json").read_text())
    key = read_key(out / "test.key")
    for system, figures in scores.items():
        result = scorer2.score(key, read_answers(out / f"{system}.top.ans"))
        assert figures["fine"]["recall"] == pytest.approx(result.recall)
        assert set(figures["by_pos"]) == {"n", "v"}
    # the contexts are unambiguous: the learned systems must beat the baseline
    assert scores["svm"]["fine"]["recall"] > scores["commonest"]["fine"]["recall"]
    assert scores["dlist"]["fine"]["recall"] > scores["commonest"]["fine"]["recall"]


def test_split_is_stratified_and_reproducible(split_run, run_command, tmp_path):
    root, _ = split_run
    again = run_command("train", "--train", FIXTURES / "train_small.xml", "--split", "2:1",
                        "--seed", "3", "--systems", "commonest,svm", "--jobs", "2",
                        "--models-dir", tmp_path / "m", "--out-dir", tmp_path / "r")
    assert again.returncode == 0, again.stderr
    for name in ("test.key", "svm.ans", "svm.top.ans", "commonest.ans"):
        assert ((tmp_path / "r" / "train_small" / name).read_bytes()
                == (root / "results" / "train_small" / name).read_bytes()), name
    senses = [entry.tags[0] for entry in read_key(root / "results" / "train_small" / "test.key").values()]
    assert {senses.count(sense) for sense in set(senses)} == {4}  # 12 per sense, a third each


def test_explicit_test_set_and_key(run_command, tmp_path):
    result = run_command("train", "--train", FIXTURES / "train_small.xml",
                         "--test", FIXTURES / "test_small.xml", "--key", FIXTURES / "test_small.key",
                         "--systems", "svm", "--models-dir", tmp_path / "m",
                         "--out-dir", tmp_path / "r", "--jobs", "1")
    assert result.returncode == 0, result.stderr
    scores = json.loads((tmp_path / "r" / "train_small" / "scores.json").read_text())
    assert scores["svm"]["fine"]["recall"] == pytest.approx(1.0)
    model = modelstore.load(tmp_path / "m", "train_small", "svm").models["bank.n"]
    assert np.isfinite(model.temperature_)


def test_missing_and_malformed_inputs_give_one_line_errors(run_command, tmp_path):
    missing = run_command("train", "--train", tmp_path / "nope.xml", "--split", "2:1",
                          "--out-dir", tmp_path / "r", "--models-dir", tmp_path / "m")
    assert_one_line_error(missing, "nope.xml")
    broken = tmp_path / "broken.xml"
    broken.write_text('<corpus lang="en">\n<lexelt item="a.n">\n<instance id="a.1">\n')
    result = run_command("train", "--train", broken, "--split", "2:1",
                         "--out-dir", tmp_path / "r", "--models-dir", tmp_path / "m")
    assert_one_line_error(result, "broken.xml")
    assert not (tmp_path / "r").exists() and not (tmp_path / "m").exists()
    unknown = run_command("train", "--train", broken, "--split", "2:1", "--systems", "bert")
    assert_one_line_error(unknown, "unknown system bert")
    ratio = run_command("train", "--train", FIXTURES / "train_small.xml", "--split", "two")
    assert_one_line_error(ratio, "--split")


@pytest.mark.parametrize("argv, fragment", [
    (["--train", "x.xml", "--split", "2:1", "--key", "k"], "--train-key"),
    (["--task", "senseval2-ls", "--train-key", "k"], "--train-key goes with --train"),
    (["--train", "x.xml", "--split", "2:1", "--train-key", "k", "--learning-curve"],
     "not with --learning-curve"),
])
def test_misplaced_key_options_are_usage_errors(argv, fragment, capsys):
    from wsd_classic.cli.train import parse_args

    with pytest.raises(SystemExit) as exited:
        parse_args(argv)
    assert exited.value.code == 2 and fragment in capsys.readouterr().err
