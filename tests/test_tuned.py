"""Tuned values as data: every registered value names the results file that chose it, and that
file is the one committed; no tuned literal is left in the modules that read them."""
from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from wsd_classic import tuned

REPO = Path(__file__).resolve().parent.parent
READERS = ("wsd_classic/tasks/catalogue.py", "wsd_classic/systems/__init__.py",
           "wsd_classic/features/gloss.py")


def all_evidence():
    for scope in tuned.scopes():
        for setting, entry in tuned.entries(scope).items():
            for evidence in entry["evidence"]:
                yield scope, setting, evidence


@pytest.mark.parametrize("scope,setting,evidence", list(all_evidence()),
                         ids=lambda item: item if isinstance(item, str) else "")
def test_every_registered_value_matches_its_results_file(scope, setting, evidence):
    results = REPO / evidence["results"]
    assert results.is_file(), f"{scope}.{setting}: {evidence['results']} is missing"
    assert tuned.file_sha256(results) == evidence["sha256"], (
        f"{scope}.{setting}: {evidence['results']} changed since it was registered; re-run "
        f"{evidence['command']!r} with --register")
    assert evidence["command"].startswith("python -m bench ")


def test_every_scope_names_evidence_for_each_setting():
    assert {"systems", "features", "senseval2-ls", "semcor"} <= set(tuned.scopes())
    for scope in tuned.scopes():
        for setting, entry in tuned.entries(scope).items():
            assert set(entry) == {"value", "evidence"} and entry["evidence"], (scope, setting)


def test_no_tuned_float_literal_left_in_the_reading_modules():
    for relative in READERS:
        tree = ast.parse((REPO / relative).read_text())
        floats = [node.value for node in ast.walk(tree)
                  if isinstance(node, ast.Constant) and isinstance(node.value, float)]
        assert floats == [], f"{relative} holds tuned literals {floats}"


def test_values_read_as_tuples_and_the_tasks_use_them():
    from wsd_classic.tasks import catalogue
    combo = tuned.value("senseval2-ls", "combo")
    assert isinstance(combo["default_params"], tuple)
    assert catalogue.SENSEVAL2_LS.system_params("combo")["default_params"] == combo["default_params"]
    assert catalogue.SEMCOR.system_params("svm") == {
        **tuned.value("systems", "svm"), **tuned.value("semcor", "svm")}


def test_register_writes_the_value_with_its_results_fingerprint(tmp_path, monkeypatch):
    monkeypatch.setattr(tuned, "DIRECTORY", tmp_path / "tuned")
    monkeypatch.setattr(tuned, "REPOSITORY", tmp_path)
    (tmp_path / "tuned").mkdir()
    results = tmp_path / "bench" / "results" / "study.json"
    results.parent.mkdir(parents=True)
    results.write_text('{"best": 3}\n')
    tuned._scope.cache_clear()
    try:
        written = tuned.register("toy", "svm", {"C": 3.0, "map": [0.1, 0.2]},
                                 "python -m bench study --register", results)
        stored = json.loads(written.read_text())
        assert stored["svm"]["evidence"] == [{
            "command": "python -m bench study --register",
            "results": "bench/results/study.json", "sha256": tuned.file_sha256(results)}]
        assert tuned.value("toy", "svm") == {"C": 3.0, "map": (0.1, 0.2)}
        with pytest.raises(KeyError, match="no tuned value 'dlist'"):
            tuned.value("toy", "dlist")
    finally:
        tuned._scope.cache_clear()
