"""The task catalogue: one entry makes a task that every command trains, tags and scores."""
from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from wsd_classic import modelstore, systems
from wsd_classic.cli import tag as tag_cli
from wsd_classic.cli import train as train_cli
from wsd_classic.errors import WsdError
from wsd_classic.features.featurizer import ContextRule
from wsd_classic.tasks import catalogue

from conftest import FIXTURES


@pytest.fixture
def small_task(monkeypatch):
    """A lexical-sample task over the small fixtures, registered as one catalogue entry."""
    monkeypatch.setattr(catalogue, "TASKS", dict(catalogue.TASKS))
    return catalogue.register(catalogue.Task(
        "small-ls", catalogue.LEXICAL_SAMPLE, ("commonest", "dlist", "svm"),
        ContextRule(sentences=0), directory=FIXTURES,
        files=catalogue.LexicalSampleFiles("train_small.xml", "test_small.xml", "test_small.key"),
        params={"svm": {"C": 1.0}}))


def test_a_registered_task_trains_tags_and_scores(small_task, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("WSD_CLASSIC_CACHE", str(tmp_path / "cache"))
    models, results = tmp_path / "models", tmp_path / "results"
    train_cli.main(["--task", "small-ls", "--models-dir", str(models), "--out-dir", str(results)])
    table = capsys.readouterr().out
    assert "svm" in table and "dlist" in table and "lesk" not in table  # the task's systems
    scores = json.loads((results / "small-ls" / "scores.json").read_text())
    assert set(scores) == {"commonest", "dlist", "svm"}
    assert all(0 <= scores[name]["fine"]["recall"] <= 1 for name in scores)
    trained = modelstore.load(models, "small-ls", "svm")
    assert trained.featurizer.context == ContextRule(sentences=0)  # the task's rule, recorded
    assert trained.models["bank.n"].C == 1.0  # the task's parameter over the registered one
    assert systems.get("svm").params["C"] != 1.0
    text = tmp_path / "text.txt"
    text.write_text("The river overflowed its bank.\n", encoding="utf-8")
    assert tag_cli.main(["--task", "small-ls", "--models-dir", str(models), "--format", "jsonl",
                         str(text)]) == 0
    captured = capsys.readouterr()
    assert [json.loads(line)["lexelt"] for line in captured.out.splitlines()] == ["bank.n"]
    assert "task small-ls, svm" in captured.err


def test_unknown_tasks_and_systems_outside_a_task_are_refused(small_task):
    with pytest.raises(WsdError, match="unknown task 'nope'; known: senseval2-ls, semcor"):
        catalogue.get("nope")
    with pytest.raises(WsdError, match="unknown system lesk for task small-ls; known: commonest, dlist, svm"):
        small_task.check_systems(["lesk"])


def test_no_task_name_is_written_outside_the_catalogue():
    """Commands, reports and benchmarks look tasks up: no string in their code (docstrings
    aside) spells a registered task's name, except the catalogue and the dataset registry,
    which names the corpora."""
    root = Path(__file__).resolve().parent.parent
    names = set(catalogue.TASKS)
    offenders = []
    for path in [*(root / "wsd_classic").rglob("*.py"), *(root / "bench").glob("*.py")]:
        if path.name in ("catalogue.py", "registry.py"):
            continue
        tree = ast.parse(path.read_text())
        docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                      if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef))
                      and node.body and isinstance(node.body[0], ast.Expr)}
        offenders += [f"{path.relative_to(root)}:{node.lineno}" for node in ast.walk(tree)
                      if isinstance(node, ast.Constant) and node.value in names
                      and id(node) not in docstrings]
    assert offenders == []
