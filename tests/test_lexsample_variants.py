"""The structural variants of public SENSEVAL-format corpora: each fixture of
``fixtures/lexsample_variants/`` reads as intended, and trains, tags and scores with
``bin/train --split 2:1``, its answers re-scoring with ``bin/score`` against the written key."""
import csv
import json
import os
import subprocess

import pytest

from conftest import FIXTURES, REPO, assert_error_at, assert_one_line_error, head_text
from wsd_classic.answers.senseval import read_answers
from wsd_classic.corpora.keys import read_key
from wsd_classic.corpora.lexsample import check_annotated, check_split, read_lexical_sample
from wsd_classic.corpora.model import LexicalSample, Lexelt
from wsd_classic.errors import WsdError

VARIANTS = FIXTURES / "lexsample_variants"
# fixture -> the key file holding its answers, if apart from the XML
TRAIN_KEYS = {"key_answers.xml": VARIANTS / "key_answers.key"}


def _read(name: str) -> LexicalSample:
    return read_lexical_sample(VARIANTS / name, TRAIN_KEYS.get(name))


def _instances(name: str) -> dict:
    return {instance.id: instance for instance in _read(name).instances()}


def test_ids_a_key_cannot_hold_get_safe_stand_ins_and_the_rest_keep_theirs():
    sample = _read("odd_ids.xml")
    assert [lexelt.item for lexelt in sample.lexelts] == ["kettle_drum.n", "moss!_n"]
    instances = _instances("odd_ids.xml")
    assert list(instances)[:6] == ["kd_0001_01303731:", "kd_0002", "kd!_0003", "_",
                                   "kd_0006~2", "kd_0006"]
    assert instances["kd_0006"].text.startswith("Water boiled")  # the safe id kept its own
    assert instances["_"].answers == ("pot_2",) and instances["m_é_4"].answers == ("bog_land",)
    assert instances["m_é_4"].lexelt == "moss!_n"
    assert sample.renamed_ids["instance"]["kd_0002"] == "kd\t0002"
    assert sample.renamed_ids["instance"]["_"] == ""
    assert sample.renamed_ids["sense"] == {"drum_of_brass": "drum of brass", "pot_2": "pot/2",
                                           "bog_land": "bog land"}
    assert "kd_0006" not in sample.renamed_ids["instance"]


def test_a_compound_head_spans_all_its_words():
    instances = _instances("compound.xml")
    assert instances["tc.4"].text == "we met in a tea cosy near the bus station ."
    assert all(head_text(instance) == "tea cosy" for instance in instances.values())


def test_wf_tokens_with_and_without_lemma():
    instances = _instances("wf_lemma.xml")
    assert instances["crane.2"].text == "The grey cranes flew over the marsh ."
    assert head_text(instances["crane.2"]) == "cranes"


def test_paragraph_and_sentence_edges_separate_words():
    instances = _instances("paragraphs.xml")
    assert " ".join(instances["lock.1"].text.split()) == (
        "The barge waited at the canal. Its crew opened the lock gates slowly.")
    assert " ".join(instances["lock.3"].text.split()) == (
        "Boats queued at the lock on the canal. The keeper waved.")
    assert {head_text(instance) for instance in instances.values()} == {"lock"}


def test_answers_from_a_separate_key_file():
    instances = _instances("key_answers.xml")
    assert instances["comb.1"].answers == ("hair_tool",)
    assert instances["comb.6"].answers == ("honeycomb",)
    assert not any(i.answers for i in read_lexical_sample(VARIANTS / "key_answers.xml")
                   .instances())


def test_senseval1_and_senseval3_styles():
    senseval1 = _read("senseval1.xml")
    assert (senseval1.lexelts[0].lemma, senseval1.lexelts[0].pos) == ("anvil", "n")
    assert _instances("senseval1.xml")["800106"].answers == ("612002", "612001")
    senseval3 = _read("senseval3.xml")
    assert (senseval3.lexelts[0].lemma, senseval3.lexelts[0].pos) == ("sift", "v")
    assert _instances("senseval3.xml")["sift.v.own.000003"].answers == ("4101", "U")


def test_a_repeated_answer_is_kept_once(tmp_path):
    path = tmp_path / "repeated.xml"
    path.write_text('<corpus><lexelt item="a.n"><instance id="a.1">'
                    '<answer instance="a.1" senseid="s"/><answer instance="a.1" senseid="s"/>'
                    "<context><head>a</head></context></instance></lexelt></corpus>")
    assert next(read_lexical_sample(path).instances()).answers == ("s",)


@pytest.mark.parametrize("key_text, line, fragment", [
    ("comb comb.1 hair_tool\ncomb comb.9 honeycomb\n", 2, "comb.9 is not in"),
    ("comb comb.1 hair_tool\n", None, None),
])
def test_key_file_errors_name_its_line(tmp_path, key_text, line, fragment):
    key = tmp_path / "train.key"
    key.write_text(key_text)
    if fragment is None:
        assert next(read_lexical_sample(VARIANTS / "key_answers.xml", key).instances()).answers
        return
    assert_error_at(lambda path: read_lexical_sample(VARIANTS / "key_answers.xml", path), key,
                    line, fragment)


def test_a_key_that_contradicts_the_xml_answers_is_refused(tmp_path):
    key = tmp_path / "train.key"
    key.write_text("crane crane.1 machine\n")
    assert_error_at(lambda path: read_lexical_sample(VARIANTS / "wf_lemma.xml", path), key, 1,
                    "remove the <answer> elements or correct the key")


@pytest.mark.parametrize("text, line, fragment", [
    ('<corpus><lexelt item="a"><instance id="1"><context><head>a</head> <head>b</head>'
     "</context></instance></lexelt></corpus>", 1, "make one instance per <head>"),
    ('<corpus><lexelt item="a"><instance id="1"><context><head>a</head><table/>'
     "</context></instance></lexelt></corpus>", 1, "the format has no <table>: remove it"),
    ('<corpus><lexelt item="a"><instance id="1"><context><head><p>a</p></head>'
     "</context></instance></lexelt></corpus>", 1, "<p> may stand only inside <context>"),
    ("<lexelt item='a'/>", 1, "<lexelt> may stand only inside <corpus>"),
])
def test_unsupported_structures_say_what_to_change(tmp_path, text, line, fragment):
    path = tmp_path / "variant.xml"
    path.write_text(text)
    assert_error_at(read_lexical_sample, path, line, fragment)


def test_training_needs_answers_and_a_split_two_non_empty_sides():
    test_file = read_lexical_sample(FIXTURES / "lexsample_test.xml")
    with pytest.raises(WsdError, match="--train-key"):
        check_annotated(test_file)
    sample = _read("senseval3.xml")
    with pytest.raises(WsdError, match="no test instance in a lexelt it trains on: "
                                       "the file has 6 annotated"):
        check_split(sample, LexicalSample([Lexelt("sift.v")], sample.source))
    untrained = LexicalSample([Lexelt("other.v", list(sample.instances()))], sample.source)
    with pytest.raises(WsdError, match="no test instance"):
        check_split(sample, untrained)
    with pytest.raises(WsdError, match="no training instance"):
        check_split(LexicalSample([], sample.source), sample)


# --- end to end -----------------------------------------------------------------------------

def _train(root, name: str, *extra):
    train_key = ("--train-key", TRAIN_KEYS[name]) if name in TRAIN_KEYS else ()
    return subprocess.run(
        [str(REPO / "bin" / "train"), "--train", str(VARIANTS / name), *map(str, train_key),
         "--split", "2:1", "--jobs", "1", "--models-dir", str(root / "models"),
         "--out-dir", str(root / "results"), *extra],
        capture_output=True, text=True, timeout=600, cwd=root,
        env={**os.environ, "WSD_CLASSIC_CACHE": str(root / "cache")})


@pytest.mark.parametrize("name", sorted(path.name for path in VARIANTS.glob("*.xml")))
def test_every_variant_trains_tags_and_rescores(name, tmp_path):
    result = _train(tmp_path, name)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    out = tmp_path / "results" / name.removesuffix(".xml")
    key = read_key(out / "test.key")
    assert key
    scores = json.loads((out / "scores.json").read_text())
    assert scores
    for system, figures in scores.items():
        answered = {answer.instance for answer in read_answers(out / f"{system}.top.ans")}
        assert answered <= set(key)
        rescored = subprocess.run(
            [str(REPO / "bin" / "score"), str(out / "test.key"), str(out / f"{system}.top.ans"),
             "--json"], capture_output=True, text=True, timeout=120)
        assert rescored.returncode == 0, rescored.stderr
        assert json.loads(rescored.stdout)["recall"] == pytest.approx(
            figures["fine"]["recall"])
    with open(out / "ids.tsv", newline="", encoding="utf-8") as stream:
        rows = list(csv.reader(stream, dialect="excel-tab"))
    assert rows[0] == ["kind", "safe_id", "original_id"]
    if name == "sparse_lexelt.xml":  # ladle.n's one instance stays on the training side
        assert {entry.lexelt for entry in key.values()} == {"pier.n"}
    if name == "odd_ids.xml":
        assert ["instance", "kd_0002", "kd\t0002"] in rows
        # every answer names a known instance, either as written in the corpus or via the map
        originals = {row[1]: row[2] for row in rows[1:] if row[0] == "instance"}
        assert "kd_0001_01303731:" in originals and set(key) <= set(_instances(name))
    else:
        assert rows[1:] == []


def test_a_test_file_given_as_training_data_is_one_line(tmp_path):
    result = subprocess.run(
        [str(REPO / "bin" / "train"), "--train", str(FIXTURES / "lexsample_test.xml"),
         "--split", "2:1", "--models-dir", str(tmp_path / "m"), "--out-dir", str(tmp_path / "r")],
        capture_output=True, text=True, timeout=600, cwd=tmp_path,
        env={**os.environ, "WSD_CLASSIC_CACHE": str(tmp_path / "cache")})
    assert_one_line_error(result, "lexsample_test.xml", "no instance has an answer")
    assert not (tmp_path / "r").exists() and not (tmp_path / "m").exists()


def test_tagging_a_file_with_odd_ids_writes_their_map_beside_the_answers(tmp_path):
    assert _train(tmp_path, "odd_ids.xml").returncode == 0
    answers = tmp_path / "odd.ans"
    tag = [str(REPO / "bin" / "tag"), "--task", "odd_ids", "--models-dir",
           str(tmp_path / "models"), "--senseval", str(VARIANTS / "odd_ids.xml")]
    env = {**os.environ, "WSD_CLASSIC_CACHE": str(tmp_path / "cache")}
    result = subprocess.run([*tag, "--output", str(answers)], capture_output=True, text=True,
                            timeout=600, env=env)
    assert result.returncode == 0, result.stderr
    with open(tmp_path / "odd.ans.ids.tsv", newline="", encoding="utf-8") as stream:
        rows = list(csv.reader(stream, dialect="excel-tab"))
    assert ["instance", "kd_0002", "kd\t0002"] in rows
    assert {answer.instance for answer in read_answers(answers)} == set(_instances("odd_ids.xml"))
    to_stdout = subprocess.run(tag, capture_output=True, text=True, timeout=600, env=env)
    assert to_stdout.returncode == 0 and "give --output FILE to get the map" in to_stdout.stderr
