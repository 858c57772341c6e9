"""``python -m bench``: one entry point that lists the studies and runs one by name, and its
``register`` study, which stores a value chosen from a study's rows with its evidence."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import REPO

from bench import register
from bench.__main__ import studies
from wsd_classic import tuned


def run_bench(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bench", *args], cwd=REPO, capture_output=True,
                          text=True, timeout=120)


def test_the_listing_names_every_study_with_its_summary():
    listed = run_bench()
    assert listed.returncode == 0
    found = studies()
    assert {"semcor", "senseval2_ls", "tag", "tune_combo", "register"} <= set(found)
    assert "__main__" not in found and "cv" not in found  # helpers, no main
    for name, summary in found.items():
        assert name in listed.stdout and summary in listed.stdout


def test_an_unknown_study_is_one_line_and_exit_2():
    result = run_bench("no_such_study")
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        f"bench: unknown study 'no_such_study'; known: {', '.join(studies())}"]


def test_a_study_runs_by_name():
    result = run_bench("register", "--help")
    assert result.returncode == 0
    assert result.stdout.startswith("usage: python -m bench register [-h]")


def test_register_stores_the_json_value_with_its_evidence(tmp_path, monkeypatch):
    monkeypatch.setattr(tuned, "DIRECTORY", tmp_path / "tuned")
    monkeypatch.setattr(tuned, "REPOSITORY", tmp_path)
    (tmp_path / "tuned").mkdir()
    results = tmp_path / "study.json"
    results.write_text("{}\n")
    monkeypatch.setattr(sys, "argv", [
        "register", "toy", "svm", '{"C": 3.0}', "--results", str(results),
        "--command", "python -m bench semcor --tune-svm C=1,3"])
    tuned._scope.cache_clear()
    try:
        assert register.main() == 0
        stored = json.loads((tmp_path / "tuned" / "toy.json").read_text())
        assert stored["svm"]["value"] == {"C": 3.0}
        assert stored["svm"]["evidence"][0]["results"] == "study.json"
    finally:
        tuned._scope.cache_clear()


def test_register_refuses_a_command_that_is_not_a_study(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", ["register", "toy", "svm", "3", "--results",
                                      str(tmp_path), "--command", "I chose it"])
    with pytest.raises(SystemExit) as stop:
        register.main()
    assert stop.value.code == 2 and "--command" in capsys.readouterr().err
