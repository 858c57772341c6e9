"""combo with ppr's evidence on a lexical sample, in every path: ``bin/train`` keeps the walk
(its settings and graph) in the combo's model file and records which graph it was, ``bin/tag
--senseval`` then writes the answers ``bin/train`` wrote, byte for byte, without the data
directory, plain text gets the same evidence, and a model that lacks its walk is one error.

The task is tests/fixtures/train_small.xml and test_small.xml, its combo given a strong ppr
weight kept by a large shrinkage, so that the walk's evidence moves the answers."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest
import spacy

from wsd_classic import modelstore
from wsd_classic.cli import tag as tag_cli
from wsd_classic.cli import train as train_cli
from wsd_classic.corpora.lexsample import read_lexical_sample
from wsd_classic.errors import WsdError
from wsd_classic.knowledge import graph as knowledge_graph
from wsd_classic.knowledge.word_to_word import WalkSettings
from wsd_classic.tasks import catalogue, engine
from wsd_classic.tasks.tagger import Tagger

from conftest import FIXTURES, assert_one_line_error

pytestmark = pytest.mark.filterwarnings("ignore:The multilingual functions are not available")

TASK = "small-ppr"
# The geometric pool's weights (svm, svm lacks, dlist, lesk-corpus, prior, gloss, ppr)
WEIGHTS = (1.0, -5.0, 0.0, 0.0, 0.0, 1.0, 3.0)


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """svm and combo with ppr trained on the fixture task, with a data directory that lacks
    SyntagNet; returns (models root, results directory, cache directory)."""
    base = tmp_path_factory.mktemp("ppr-combo")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("WSD_CLASSIC_CACHE", str(base / "cache"))
        patch.setattr(catalogue, "TASKS", dict(catalogue.TASKS))
        catalogue.register(catalogue.Task(
            TASK, catalogue.LEXICAL_SAMPLE, ("svm", "combo"), directory=FIXTURES,
            files=catalogue.LexicalSampleFiles("train_small.xml", "test_small.xml",
                                               "test_small.key"),
            params={"combo": {"ppr": True, "pool": "geometric", "default_params": WEIGHTS,
                              "shrinkage": 1e6}}))
        assert train_cli.main(["--task", TASK, "--models-dir", str(base / "models"),
                               "--out-dir", str(base / "results"),
                               "--data-dir", str(base / "no-data")]) == 0
    return base / "models", base / "results" / TASK, base / "cache"


def test_the_combo_model_keeps_its_walk_and_says_which_graph(trained):
    root, _, _ = trained
    header, _ = modelstore.read_header(modelstore.model_path(root, TASK, "combo"))
    assert header["walk"] == WalkSettings(**catalogue.SEMCOR.system_params("ppr")).to_dict()
    assert header["info"]["graph"]["graph"] == knowledge_graph.WORDNET  # no SyntagNet here
    assert len(header["info"]["graph"]["identity"]) == 64
    loaded = modelstore.load(root, TASK, "combo")
    assert loaded.walk.graph.identity == header["info"]["graph"]["identity"]
    assert loaded.walk.params == header["walk"]
    svm, _ = modelstore.read_header(modelstore.model_path(root, TASK, "svm"))
    assert "walk" not in svm and "graph" not in svm["info"]
    assert modelstore.load(root, TASK, "svm").walk is None


def test_tag_senseval_writes_bin_train_s_answers_without_the_data_directory(
        trained, tmp_path, monkeypatch):
    root, results, cache = trained
    monkeypatch.setenv("WSD_CLASSIC_CACHE", str(cache))
    monkeypatch.setenv("WSD_CLASSIC_DATA", str(tmp_path / "nothing"))
    out = tmp_path / "combo.ans"
    assert tag_cli.main(["--task", TASK, "--system", "combo", "--models-dir", str(root),
                         "--senseval", str(FIXTURES / "test_small.xml"), "-o", str(out)]) == 0
    assert out.read_bytes() == (results / "combo.ans").read_bytes()


def walkless(trained_combo):
    """The combo model without its walk: its contexts get no ppr evidence."""
    return dataclasses.replace(trained_combo, walk=None)


def test_the_walk_s_evidence_moves_the_combo_s_answers(trained, tmp_path, monkeypatch):
    root, _, _ = trained
    monkeypatch.setenv("WSD_CLASSIC_CACHE", str(tmp_path))
    sample = read_lexical_sample(FIXTURES / "test_small.xml")
    combo = modelstore.load(root, TASK, "combo")
    with_walk = {instance: weights for _, instance, weights in Tagger(combo).tag_sample(sample)}
    without = {instance: weights
               for _, instance, weights in Tagger(walkless(combo)).tag_sample(sample)}
    assert with_walk.keys() == without.keys()
    assert any(not np.allclose(list(with_walk[instance].values()),
                               list(without[instance].values())) for instance in with_walk)


@pytest.fixture(scope="module")
def text_combo(trained):
    """combo with ppr trained on tests/fixtures/tag_training.xml (one sentence a context, as
    plain text gives them), through its model file, and its cache directory."""
    from wsd_classic.features.featurizer import Featurizer
    from wsd_classic.systems.personalised_pagerank import PersonalisedPageRank

    root, _, cache = trained
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("WSD_CLASSIC_CACHE", str(cache))
        sample = read_lexical_sample(FIXTURES / "tag_training.xml")
        docs = engine.analyse(sample)
        corpus = engine.featurize(sample, Featurizer(), docs=docs)
        engine.add_walk_evidence([corpus], [docs], PersonalisedPageRank.built(
            catalogue.SEMCOR.system_params("ppr"), cache / "no-data"))
        model = engine.train("combo", corpus, "tag-ppr", progress=False, params={
            "ppr": True, "pool": "geometric", "default_params": WEIGHTS, "shrinkage": 1e6})
        modelstore.save(model, root)
    return modelstore.load(root, "tag-ppr", "combo"), cache


def test_plain_text_gets_the_walk_s_evidence_as_the_senseval_path_does(
        text_combo, monkeypatch):
    combo, cache = text_combo
    monkeypatch.setenv("WSD_CLASSIC_CACHE", str(cache))
    from wsd_classic.preprocess.pipeline import installed_model

    nlp = spacy.load(installed_model(), exclude=["ner"])
    sample = read_lexical_sample(FIXTURES / "tag_test.xml")
    tagger = Tagger(combo)
    expected = {instance: weights for _, instance, weights in tagger.tag_sample(sample)}
    assert sorted(expected) == ["bank.x1", "bank.x2", "call.x1"]
    instances = [instance for instance in sample.instances() if instance.id in expected]
    # all the docs at once, as one batch: each context's evidence is its own
    for instance, targets in zip(instances, tagger.tag_docs([nlp(instance.text)
                                                            for instance in instances])):
        target = next(t for t in targets if t.token.idx == instance.head[0])
        want = {sense: weight for sense, weight in expected[instance.id].items() if weight > 0}
        got = dict(target.senses)
        assert got.keys() == want.keys()
        for sense, weight in want.items():
            assert got[sense] == pytest.approx(weight, abs=1e-9)
    # and the evidence is there: without the walk the answers move
    walkless_text = Tagger(walkless(combo)).tag_docs([nlp(instances[0].text)])[0]
    target = next(t for t in walkless_text if t.token.idx == instances[0].head[0])
    assert not np.allclose([dict(target.senses).get(sense, 0.0) for sense in expected["bank.x1"]],
                           list(expected["bank.x1"].values()))


def test_training_a_system_that_reads_walks_without_them_is_an_error():
    from wsd_classic.corpora.model import LexicalSample
    from wsd_classic.features.featurizer import Featurizer

    corpus = engine.FeaturizedCorpus(LexicalSample([]), {}, Featurizer())
    with pytest.raises(WsdError, match="reads ppr's walks"):
        engine.train("combo", corpus, TASK, params={"ppr": True})


def test_a_combo_model_that_reads_walks_but_lacks_its_graph_is_one_error(
        trained, tmp_path, run_command):
    root, _, _ = trained
    combo = modelstore.load(root, TASK, "combo")
    broken = dataclasses.replace(combo, task=catalogue.SENSEVAL2_LS.name, walk=None,
                                 models=dict(combo.models), resources={})
    modelstore.save(broken, tmp_path / "models")
    result = run_command("tag", "--task", catalogue.SENSEVAL2_LS.name, "--system", "combo",
                         "--models-dir", tmp_path / "models", "--senseval",
                         FIXTURES / "test_small.xml")
    assert result.returncode == 2
    assert_one_line_error(result, "model.npz", "holds no knowledge graph", "retrain")


def test_a_walk_whose_graph_arrays_are_missing_is_one_error(trained, tmp_path, monkeypatch):
    root, _, _ = trained
    combo = modelstore.load(root, TASK, "combo")
    arrays = combo.walk.resources()
    del arrays["graph_indices"]
    monkeypatch.setattr(combo.walk, "resources", lambda: arrays)
    saved = modelstore.save(dataclasses.replace(combo, models=dict(combo.models), resources={}),
                            tmp_path / "models")
    with pytest.raises(WsdError, match="walk is incomplete") as raised:
        modelstore.load(tmp_path / "models", TASK, "combo")
    assert raised.value.path == str(saved)
