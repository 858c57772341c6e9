"""A lexical-sample run: the systems that read word vectors train with the task's installed
ones, the others without; training is shared out and timed."""
from __future__ import annotations

import pytest

from wsd_classic import modelstore
from wsd_classic.cli import train as train_cli
from wsd_classic.features.embeddings import EmbeddingRule
from wsd_classic.features.featurizer import ContextRule
from wsd_classic.tasks import catalogue, engine

from conftest import FIXTURES, fixture_vectors


@pytest.fixture
def task_with_vectors(monkeypatch, installed_fixture_vectors):
    monkeypatch.setattr(catalogue, "TASKS", dict(catalogue.TASKS))
    return catalogue.register(catalogue.Task(
        "small-emb", catalogue.LEXICAL_SAMPLE, ("commonest", "dlist", "svm"),
        ContextRule(sentences=0), embedding=EmbeddingRule(
            window=3, sources=(installed_fixture_vectors,)), directory=FIXTURES,
        files=catalogue.LexicalSampleFiles("train_small.xml", "test_small.xml", "test_small.key")))


def test_the_systems_reading_word_vectors_train_with_the_installed_ones(
        task_with_vectors, tmp_path, monkeypatch):
    monkeypatch.setenv("WSD_CLASSIC_CACHE", str(tmp_path / "cache"))
    models = tmp_path / "models"
    assert train_cli.main(["--task", "small-emb", "--models-dir", str(models),
                           "--out-dir", str(tmp_path / "results")]) == 0
    svm = modelstore.load(models, "small-emb", "svm")
    assert [vectors.identity for vectors in svm.featurizer.embedding.pretrained] == [
        fixture_vectors().identity]
    assert svm.featurizer.embedding.vectors is None  # installed: not in the model file
    assert any(name.startswith("emb") for name in svm.models["bank.n"].vocabulary_)
    dlist = modelstore.load(models, "small-emb", "dlist")
    assert dlist.featurizer.embedding is None


def test_the_costliest_lexelts_go_to_the_workers_first_and_models_keep_the_corpus_order(
        tiny_models, monkeypatch):
    _, task, corpus = tiny_models
    handed_out = []

    def recorded(function, items, processes):
        handed_out.extend(item[2] for item in items)
        return map(function, items)

    monkeypatch.setattr(engine, "in_workers", recorded)
    trained = engine.train("dlist", corpus, task, progress=False)
    rows = {item: len(X) * len(set(y)) for item, X, y, _ in engine.lexelt_rows(corpus, ())}
    costliest_first = sorted(rows, key=lambda item: -rows[item])
    assert costliest_first != list(rows)  # else the corpus order would pass
    assert handed_out == costliest_first
    assert list(trained.models) == list(rows)


def test_a_stage_counts_the_cpu_of_the_workers_it_waited_for_and_not_its_sleep():
    import multiprocessing
    import time

    from wsd_classic.tasks.timing import StageTimer

    def spin():
        end = time.process_time() + 0.3
        while time.process_time() < end:
            pass

    timer = StageTimer()
    with timer.stage("work"):
        worker = multiprocessing.get_context("fork").Process(target=spin)
        worker.start()
        worker.join()
    with timer.stage("wait"):
        time.sleep(0.3)
    assert timer.cpu["work"] >= 0.25 and timer.cpu["wait"] < 0.1
    assert timer.seconds["wait"] >= 0.3


def test_a_run_records_each_stage_s_cpu_and_each_system_s_training(tmp_path, monkeypatch):
    import json

    monkeypatch.setenv("WSD_CLASSIC_CACHE", str(tmp_path / "cache"))
    train_cli.main(["--train", str(FIXTURES / "train_small.xml"), "--test",
                    str(FIXTURES / "test_small.xml"), "--key", str(FIXTURES / "test_small.key"),
                    "--systems", "commonest,dlist", "--models-dir", str(tmp_path / "models"),
                    "--out-dir", str(tmp_path / "results")])
    (timings_file,) = (tmp_path / "results").glob("*/timings.json")
    timings = json.loads(timings_file.read_text())
    assert set(timings["stage_cpu_seconds"]) == set(timings["stages"])
    assert set(timings["train_cpu_seconds"]) == set(timings["train_seconds"]) == {"commonest",
                                                                                  "dlist"}
    assert timings["stage_cpu_seconds"]["preprocess"] > 0


def test_answers_and_scores_written_in_the_workers_match_those_of_one_process(
        tmp_path, monkeypatch):
    monkeypatch.setenv("WSD_CLASSIC_CACHE", str(tmp_path / "cache"))
    outputs = {}
    for jobs in (1, 2):
        results = tmp_path / f"results{jobs}"
        train_cli.main(["--train", str(FIXTURES / "train_small.xml"), "--test",
                        str(FIXTURES / "test_small.xml"), "--key", str(FIXTURES / "test_small.key"),
                        "--systems", "commonest,dlist", "--jobs", str(jobs),
                        "--models-dir", str(tmp_path / f"models{jobs}"), "--out-dir", str(results)])
        outputs[jobs] = {path.name: path.read_bytes() for path in results.glob("*/*")
                         if path.name != "timings.json"}
    assert {"commonest.ans", "commonest.top.ans", "dlist.ans", "dlist.top.ans",
            "scores.json"} <= set(outputs[2])
    assert outputs[1] == outputs[2]
