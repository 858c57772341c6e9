"""The knowledge-based ``ppr`` end to end: ``bin/train --task semcor --systems ppr`` saves a
model holding the graph, with which ``bin/tag --system ppr`` tags text and a Raganato file
without the data directory, ``--explain`` names the context senses and edges behind each
answer, ``bin/evaluate`` scores it (and writes its SenseBench key file) and ``bin/report``
shows it."""
from __future__ import annotations

import json

import pytest

from wsd_classic import modelstore
from wsd_classic.knowledge import graph as knowledge_graph
from wsd_classic.tasks import catalogue
from wsd_classic.wordnet import wordnet_senses

from conftest import FIXTURES, shared_data

pytestmark = pytest.mark.filterwarnings("ignore:The multilingual functions are not available")

TEXT = "She sat on the bank of the river and watched the water.\n"


@pytest.fixture(scope="module")
def models_root(tmp_path_factory):
    """A ppr model of the data directory's graph (WordNet with SyntagNet when it is there)."""
    from wsd_classic.tasks import allwords

    root = tmp_path_factory.mktemp("models")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("WSD_CLASSIC_CACHE", str(tmp_path_factory.mktemp("cache")))
        report = allwords.train_semcor(FIXTURES / "allwords_semcor", ["ppr"], root)
    assert "ppr: nothing to train" in report
    return root


def test_model_header_records_the_graph(models_root):
    header, _ = modelstore.read_header(modelstore.model_path(models_root, "semcor", "ppr"))
    graph = header["info"]["graph"]
    syntagnet = shared_data() / "syntagnet" / "collocations.yaml"
    gloss = catalogue.SEMCOR.system_params("ppr").get("gloss") or None
    assert graph["graph"] == knowledge_graph.graph_name(
        syntagnet if syntagnet.is_file() else None, gloss)
    assert len(graph["identity"]) == 64
    assert header["params"]["damping"] > 0


def tag(run_command, tmp_path, models_root, *options):
    (tmp_path / "text.txt").write_text(TEXT)
    return run_command("tag", "--task", "semcor", "--system", "ppr", "--models-dir",
                       models_root, "--format", "jsonl", *options, "text.txt",
                       env={"WSD_CLASSIC_DATA": str(tmp_path / "no-data")})


def test_tag_text_with_ppr_needs_no_data_directory(run_command, tmp_path, models_root):
    result = tag(run_command, tmp_path, models_root)
    assert result.returncode == 0, result.stderr
    records = {record["text"]: record for record in map(json.loads, result.stdout.splitlines())}
    assert {"sat", "bank", "river", "watched", "water"} <= set(records)
    bank = records["bank"]["senses"]
    assert sorted(sense["key"] for sense in bank) == sorted(wordnet_senses("bank", "n"))
    assert sum(sense["weight"] for sense in bank) == pytest.approx(1.0)
    assert "evidence" not in records["bank"]


def test_explain_names_context_senses_and_edges(run_command, tmp_path, models_root):
    result = tag(run_command, tmp_path, models_root, "--explain")
    assert result.returncode == 0, result.stderr
    records = {record["text"]: record for record in map(json.loads, result.stdout.splitlines())}
    evidence = [item["feature"] for item in records["bank"]["evidence"]]
    contexts = [name for name in evidence if name.startswith("context ")]
    edges = [name for name in evidence if name.startswith("edge ")]
    assert contexts and edges
    context_lemmas = {name.split()[1].partition("%")[0] for name in contexts}
    assert context_lemmas <= {"sit", "river", "watch", "water"}
    shares = [item["score"] for item in records["bank"]["evidence"]]
    assert all(0 < share <= 1 for share in shares)


def test_raganato_and_evaluate_with_ppr(run_command, tmp_path, models_root):
    tagged = run_command("tag", "--task", "semcor", "--system", "ppr", "--models-dir",
                         models_root, "--raganato", FIXTURES / "allwords_sample.data.xml")
    assert tagged.returncode == 0, tagged.stderr
    gold = (FIXTURES / "allwords_sample.gold.key.txt").read_text().split("\n")
    answers = [line.split() for line in tagged.stdout.splitlines()]
    assert [answer[0] for answer in answers] == [line.split()[0] for line in gold if line]
    evaluated = run_command("evaluate", "--task", "semcor", "--systems", "ppr", "--models-dir",
                            models_root, "--datasets",
                            FIXTURES / "allwords_sample.data.xml", "--out-dir", tmp_path / "out")
    assert evaluated.returncode == 0, evaluated.stderr
    assert "ppr (ours)" in evaluated.stdout
    reported = run_command("report", "--task", "semcor", "--results-dir", tmp_path / "out",
                           "--format", "md", "--out", tmp_path / "report")
    assert reported.returncode == 0, reported.stderr
    assert "| ppr |" in (tmp_path / "report" / "report.md").read_text()
    benchmark = run_command("evaluate", "--benchmark", "sensebench", "--systems", "ppr",
                            "--models-dir", models_root, "--datasets",
                            FIXTURES / "allwords_sample.data.xml", "--out-dir", tmp_path / "out")
    assert benchmark.returncode == 0, benchmark.stderr
    keys = (tmp_path / "out" / "sensebench" / "ppr.allwords_sample.key").read_text()
    assert [line.split()[0] for line in keys.splitlines()] == [answer[0] for answer in answers]
