"""``bin/models``: what is installed under a models directory, each file verified."""
from __future__ import annotations

import json
import shutil

from wsd_classic import modelstore
from wsd_classic.cli import models as models_cli
from wsd_classic.tasks import catalogue


def test_lists_every_model_with_its_description(tiny_models, capsys):
    root, task, _ = tiny_models
    assert models_cli.main(["--models-dir", str(root)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:3] == ["task", "system", "lexelts"]
    rows = {line.split()[1]: line for line in lines[1:lines.index("")]}
    assert sorted(rows) == ["commonest", "dlist", "svm"]
    header, _ = modelstore.read_header(modelstore.model_path(root, task, "svm"))
    svm = rows["svm"].split()
    assert svm[0] == task and svm[2] == "4" and svm[3] == header["created"]
    assert svm[4] == header["info"]["training_sha256"][:12]
    assert header["versions"]["spacy"] in rows["svm"] and rows["svm"].endswith("ok")


def test_json_gives_the_full_record(tiny_models, capsys):
    root, task, _ = tiny_models
    assert models_cli.main(["--models-dir", str(root), "--json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["system"] for r in records] == ["commonest", "dlist", "svm"]
    svm = records[2]
    assert svm["task"] == task and svm["lexelts"] == 4 and svm["problem"] is None
    assert svm["bytes"] == modelstore.model_path(root, task, "svm").stat().st_size
    assert len(svm["training_sha256"]) == 64 and "scikit-learn" in svm["versions"]


def test_a_damaged_model_is_flagged_and_the_exit_status_says_so(tiny_models, tmp_path, capsys):
    root, task, _ = tiny_models
    shutil.copytree(root, tmp_path / "models")
    damaged = modelstore.model_path(tmp_path / "models", task, "dlist")
    damaged.write_bytes(damaged.read_bytes()[:-10])
    assert models_cli.main(["--models-dir", str(tmp_path / "models")]) == 1
    lines = capsys.readouterr().out.splitlines()
    rows = {line.split()[1]: line for line in lines[1:lines.index("")]}
    assert "UNUSABLE" in rows["dlist"] and "SHA-256" in rows["dlist"]
    assert rows["svm"].endswith("ok")


def test_an_empty_directory_says_how_to_get_models(tmp_path, capsys):
    assert models_cli.main(["--models-dir", str(tmp_path)]) == 0
    assert "no models in" in capsys.readouterr().out


def test_below_the_table_systems_without_a_model_file_and_on_request_ones(tiny_models, tmp_path,
                                                                          capsys):
    root, task, _ = tiny_models
    shutil.copytree(root, tmp_path / "models")
    combo = tmp_path / "models" / "semcor" / "combo"
    combo.mkdir(parents=True)
    shutil.copy(modelstore.model_path(root, task, "svm"), combo / modelstore.FILENAME)
    models_cli.main(["--models-dir", str(tmp_path / "models")])
    lines = capsys.readouterr().out.splitlines()
    assert lines[-2] == "bin/tag needs no model file for: semcor/wn1"
    # The copied file holds another task's model: not usable, so not installed.
    on_request = catalogue.SEMCOR.on_request
    assert lines[-1] == (f"semcor on request (bin/train --task semcor --systems "
                         f"{','.join(on_request)}): {', '.join(on_request)}")
    assert models_cli.main(["--models-dir", str(root), "--json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [record["on_request"] for record in records] == [False, False, False]


def test_an_installed_on_request_system_is_marked(allwords_models, capsys, monkeypatch):
    """The miniature SemCor's svm, as if svm were trained on request only."""
    from dataclasses import replace

    semcor = catalogue.TASKS["semcor"]
    monkeypatch.setitem(catalogue.TASKS, "semcor", replace(
        semcor, systems=tuple(name for name in semcor.systems if name != "svm"),
        on_request=(*semcor.on_request, "svm")))
    models_cli.main(["--models-dir", str(allwords_models)])
    others = semcor.on_request
    assert capsys.readouterr().out.splitlines()[-1] == (
        f"semcor on request (bin/train --task semcor --systems {','.join(others)},svm): "
        f"{', '.join(others)}, svm (installed)")
    models_cli.main(["--models-dir", str(allwords_models), "--json"])
    records = {record["system"]: record["on_request"]
               for record in map(json.loads, capsys.readouterr().out.splitlines())}
    assert records == {"mfs": False, "svm": True}
