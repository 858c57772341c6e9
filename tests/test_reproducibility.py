"""Two ``bin/train`` runs from the same inputs write byte-identical answers, scores and models.

The two runs differ in everything that must not matter: ``--jobs 1`` against ``--jobs 2``, a
cold spaCy cache against a warm one, and Python's string-hash seed (set ordering). The split
variant of ``--jobs 1`` against ``--jobs 2`` is in ``test_train_cli``; this one covers an
explicit test set, every system, ``scores.json`` and the model files. ``bench/reliability.py``
checks the same on the real SENSEVAL-2 task.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest
from conftest import FIXTURES, REPO

from wsd_classic import modelstore
from wsd_classic.tasks.catalogue import LEXICAL_SAMPLE_SYSTEMS as SYSTEMS

TASK = "train_small"


def train(root, jobs: int, hash_seed: str):
    command = [REPO / "bin" / "train", "--train", FIXTURES / "train_small.xml",
               "--test", FIXTURES / "test_small.xml", "--key", FIXTURES / "test_small.key",
               "--systems", ",".join(SYSTEMS), "--jobs", str(jobs),
               "--models-dir", root / "models", "--out-dir", root / "results"]
    environment = {**os.environ, "WSD_CLASSIC_CACHE": str(root / "cache"),
                   "PYTHONHASHSEED": hash_seed}
    result = subprocess.run([str(part) for part in command], capture_output=True, text=True,
                            env=environment, timeout=600)
    assert result.returncode == 0, result.stderr


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory):
    first, second = tmp_path_factory.mktemp("first"), tmp_path_factory.mktemp("second")
    train(first, jobs=1, hash_seed="1")
    shutil.copytree(first / "cache", second / "cache")  # the second run reads spaCy's analyses
    train(second, jobs=2, hash_seed="2")
    return first, second


@pytest.mark.parametrize("name", ["scores.json"] + [
    f"{system}{suffix}" for system in SYSTEMS for suffix in (".ans", ".top.ans")])
def test_answers_and_scores_are_byte_identical(two_runs, name):
    first, second = (root / "results" / TASK / name for root in two_runs)
    assert first.read_bytes() == second.read_bytes()


def test_the_runs_did_differ_in_jobs(two_runs):
    jobs = [json.loads((root / "results" / TASK / "timings.json").read_text())["jobs"]
            for root in two_runs]
    assert jobs == [1, 2]


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_models_are_identical_but_for_their_creation_time(two_runs, system):
    first, second = (modelstore.read_header(modelstore.model_path(root / "models", TASK, system))[0]
                     for root in two_runs)
    first.pop("created")
    second.pop("created")
    # the header holds the SHA-256 over every array's name, type, shape and bytes
    assert first == second
