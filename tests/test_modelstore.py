"""Model files: round trip, refusal of changed or foreign bytes, atomic saves, the listing.

The models are the tiny ones ``conftest.tiny_models`` trains on tests/fixtures/tag_training.xml.
"""
from __future__ import annotations

import io
import json
import os
import shutil
import signal
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest

from wsd_classic import modelstore
from wsd_classic.errors import WsdError

SYSTEMS = ("commonest", "dlist", "svm")


@pytest.fixture
def models(tiny_models, tmp_path):
    """A private copy of the tiny models (tests change files): ``(root, task, corpus)``."""
    root, task, corpus = tiny_models
    shutil.copytree(root, tmp_path / "models")
    return tmp_path / "models", task, corpus


def _rows(corpus, system):
    from wsd_classic import systems

    groups = systems.get(system).feature_groups
    return corpus.rows(list(corpus.sample.instances()), groups)


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_loaded_model_predicts_what_the_saved_one_did(models, system):
    root, task, corpus = models
    loaded = modelstore.load(root, task, system)
    fresh = _refit(corpus, task, system)
    assert sorted(loaded.models) == sorted(fresh.models) == ["art.n", "bank.n", "bright.a", "call.v"]
    rows = _rows(corpus, system)
    for item, model in loaded.models.items():
        assert np.allclose(model.predict_proba(rows), fresh.models[item].predict_proba(rows))


def _refit(corpus, task, system):
    from wsd_classic.tasks import engine

    return engine.train(system, corpus, task, progress=False)


def test_the_file_describes_itself(models):
    root, task, _ = models
    header, _ = modelstore.read_header(modelstore.model_path(root, task, "svm"))
    assert header["task"] == task and header["system"] == "svm"
    assert header["feature_groups"] == ["bow", "colloc", "pos", "syntax", "emb", "gloss"]
    assert header["params"]["C"] > 0
    assert len(header["info"]["training_sha256"]) == 64
    assert {"wsd-classic", "numpy", "scikit-learn", "spacy", "nltk"} <= set(header["versions"])
    assert header["versions"]["spacy-model"].startswith("spacy-")
    assert header["created"].endswith("Z")


def _arrays(path: Path) -> dict[str, np.ndarray]:
    with np.load(path, allow_pickle=False) as archive:
        return {name: archive[name] for name in archive.files}


def _rewrite(path: Path, arrays: dict, sealed: bool) -> None:
    """Write ``arrays`` as the model file, with a whole-file seal that matches (as someone who
    knows the format could forge) or none."""
    archive = io.BytesIO()
    np.savez_compressed(archive, **arrays)
    path.write_bytes(modelstore._sealed(archive.getvalue()) if sealed else archive.getvalue())


@pytest.mark.parametrize("sealed", [False, True], ids=["file digest", "array digest"])
def test_a_changed_weight_fails_a_sha256_check(models, sealed):
    root, task, _ = models
    path = modelstore.model_path(root, task, "svm")
    arrays = _arrays(path)
    header = json.loads(arrays[modelstore.META_ENTRY].tobytes())
    member = header["lexelts"]["bank.n"]["member"]
    blob = arrays[member].copy()
    blob[-2] ^= 0x40  # the exponent of the last array's last weight
    arrays[member] = blob
    _rewrite(path, arrays, sealed)
    with pytest.raises(WsdError, match="SHA-256"):
        # Lexelts are built when first used: a forged seal is caught then, by the lexelt's digest.
        trained = modelstore.load(root, task, "svm")
        [trained.models[item] for item in trained.models]


@pytest.mark.parametrize("system", SYSTEMS)
def test_any_changed_byte_is_refused_with_a_wsd_error(models, system):
    """Flipping a byte anywhere (zip headers and directory, deflate streams, the seal) gives a
    WsdError, never another exception and never a model."""
    root, task, _ = models
    path = modelstore.model_path(root, task, system)
    original = path.read_bytes()
    step = max(1, len(original) // 150)
    # Every step-th byte, and the seal's length field and digest at the very end.
    for position in [*range(0, len(original), step), *range(len(original) - 100, len(original))]:
        changed = bytearray(original)
        changed[position] ^= 0xA5
        path.write_bytes(bytes(changed))
        with pytest.raises(WsdError):
            modelstore.load(root, task, system)


def test_pickled_arrays_are_never_unpickled(models, tmp_path):
    root, task, _ = models
    path = modelstore.model_path(root, task, "commonest")
    marker = tmp_path / "ran"
    archive = io.BytesIO()
    np.savez(archive, __meta__=np.array([_Exploit(marker)], dtype=object))
    path.write_bytes(modelstore._sealed(archive.getvalue()))
    with pytest.raises(WsdError, match="corrupt model file"):
        modelstore.load(root, task, "commonest")
    assert not marker.exists()


class _Exploit:
    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (Path.touch, (self.marker,))


def test_a_model_is_refused_under_another_task_or_system(models):
    root, task, _ = models
    shutil.copy(modelstore.model_path(root, task, "dlist"), modelstore.model_path(root, task, "svm"))
    with pytest.raises(WsdError, match=f"model is for {task}/dlist, not {task}/svm"):
        modelstore.load(root, task, "svm")


def test_a_model_reading_other_features_is_refused(models):
    root, task, _ = models
    path = modelstore.model_path(root, task, "svm")
    arrays = _arrays(path)
    header = json.loads(arrays[modelstore.META_ENTRY].tobytes())
    header["feature_groups"] = ["bow"]
    arrays[modelstore.META_ENTRY] = np.frombuffer(json.dumps(header).encode(), dtype=np.uint8)
    _rewrite(path, arrays, sealed=True)
    with pytest.raises(WsdError, match="reads features"):
        modelstore.load(root, task, "svm")


def _without_discourse_weight(path: Path, kind: str) -> None:
    """The model file as a version before the discourse weight wrote it, of kind ``kind``."""
    arrays = _arrays(path)
    header = json.loads(arrays[modelstore.META_ENTRY].tobytes())
    del header["discourse_weight"]
    header["kind"] = kind
    arrays[modelstore.META_ENTRY] = np.frombuffer(json.dumps(header).encode(), dtype=np.uint8)
    _rewrite(path, arrays, sealed=True)


def test_the_discourse_weight_goes_into_the_header_and_back(models):
    root, task, corpus = models
    trained = _refit(corpus, task, "svm")
    trained.discourse_weight = 0.25
    path = modelstore.save(trained, root)
    assert modelstore.read_header(path)[0]["discourse_weight"] == 0.25
    assert modelstore.load(root, task, "svm").discourse_weight == 0.25


def test_an_all_words_model_without_a_discourse_weight_is_refused(models):
    root, task, _ = models
    path = modelstore.model_path(root, task, "svm")
    _without_discourse_weight(path, "all-words")
    with pytest.raises(WsdError, match="predates the discourse weight in its header: retrain"):
        modelstore.load(root, task, "svm")


def test_a_lexical_sample_model_without_a_discourse_weight_reads_as_never_pulled(models):
    root, task, _ = models
    path = modelstore.model_path(root, task, "svm")
    _without_discourse_weight(path, "lexical-sample")
    assert modelstore.load(root, task, "svm").discourse_weight == 0.0


def test_a_model_file_of_an_earlier_format_asks_to_be_retrained(models):
    root, task, _ = models
    path = modelstore.model_path(root, task, "svm")
    arrays = _arrays(path)
    header = json.loads(arrays[modelstore.META_ENTRY].tobytes())
    header["format"] = "wsd-classic-model/3"  # names in JSON, no hashes: this version's reader
    arrays[modelstore.META_ENTRY] = np.frombuffer(json.dumps(header).encode(), dtype=np.uint8)
    _rewrite(path, arrays, sealed=True)
    with pytest.raises(WsdError, match=f"not a {modelstore.FORMAT} model file: retrain") as error:
        modelstore.load(root, task, "svm")
    assert "\n" not in str(error.value)


def test_a_stored_estimators_footprint_counts_its_one_buffer_once(models):
    root, task, _ = models
    trained = modelstore.load(root, task, "svm")
    item = next(item for item in trained.models if trained.models[item].classes_.size > 1)
    model = trained.models[item]
    blob = trained.models.archive[trained.models.index[item]["member"]]
    hashed = model.hashed_vocabulary_
    assert modelstore.footprint(model) == (blob.nbytes + hashed.order.nbytes
                                           + hashed.sorted.nbytes + model.classes_.nbytes)


def test_a_missing_model_names_what_is_installed(models):
    root, task, _ = models
    with pytest.raises(WsdError) as error:
        modelstore.load(root, "no-such-task", "svm")
    assert f"installed: {task}/commonest, {task}/dlist, {task}/svm" in str(error.value)


def test_saved_files_get_the_usual_permissions(models):
    root, task, _ = models
    trained = modelstore.load(root, task, "commonest")
    previous = os.umask(0o022)
    try:
        path = modelstore.save(trained, root)
    finally:
        os.umask(previous)
    assert path.stat().st_mode & 0o777 == 0o644


def test_a_failed_save_keeps_the_previous_model_and_leaves_no_temporary_file(models, monkeypatch):
    root, task, _ = models
    path = modelstore.model_path(root, task, "svm")
    before = path.read_bytes()
    trained = modelstore.load(root, task, "svm")

    def disk_full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(modelstore, "_npz", disk_full)
    with pytest.raises(OSError):
        modelstore.save(trained, root)
    assert path.read_bytes() == before
    assert sorted(p.name for p in path.parent.iterdir()) == ["model.npz"]


# A child that re-saves the model but stops, killable, once its temporary file is fully written
# and before the rename: the moment a crash would hurt most.
_SLOW_SAVE = """
import os, sys, time
from pathlib import Path
from wsd_classic import modelstore
root, task = Path(sys.argv[1]), sys.argv[2]
trained = modelstore.load(root, task, "svm")
for model in trained.models.values():
    model.coef_ = model.coef_ + 1.0
def stop(fd):
    Path(sys.argv[3]).touch()
    time.sleep(600)
os.fsync = stop
modelstore.save(trained, root)
"""


def test_a_save_killed_mid_write_leaves_the_previous_model_loadable(models, tmp_path):
    root, task, corpus = models
    path = modelstore.model_path(root, task, "svm")
    before = path.read_bytes()
    ready = tmp_path / "written"
    child = subprocess.Popen([sys.executable, "-c", _SLOW_SAVE, str(root), task, str(ready)])
    try:
        for _ in range(600):
            if ready.exists() or child.poll() is not None:
                break
            subprocess.run(["sleep", "0.1"])
        assert ready.exists(), "the child never reached the write"
        partial = [p for p in path.parent.iterdir() if p.name != "model.npz"]
        assert partial and partial[0].stat().st_size > 0
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    assert path.read_bytes() == before
    loaded = modelstore.load(root, task, "svm")
    rows = _rows(corpus, "svm")
    assert loaded.models["bank.n"].predict_proba(rows).shape[1] == 2
    # The killed save's leftover is neither loaded nor listed.
    assert [m.system for m in modelstore.installed(root)] == list(SYSTEMS)


def test_installed_lists_and_verifies_every_model(models):
    root, task, _ = models
    modelstore.model_path(root, task, "dlist").write_bytes(b"not a zip")
    listed = {model.system: model for model in modelstore.installed(root)}
    assert sorted(listed) == sorted(SYSTEMS)
    assert listed["svm"].problem is None and listed["svm"].lexelts == 4
    assert len(listed["svm"].training_sha256) == 64
    assert listed["svm"].size == modelstore.model_path(root, task, "svm").stat().st_size
    assert "SHA-256" in listed["dlist"].problem
    assert zipfile.is_zipfile(modelstore.model_path(root, task, "svm"))
