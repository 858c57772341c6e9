"""The Python API (``wsd_classic.load``), on the tiny models ``conftest.tiny_models`` trains and
the all-words models of the miniature SemCor (``conftest.allwords_models``)."""
from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

import wsd_classic
from wsd_classic import api, wordnet
from wsd_classic.errors import WsdError

from conftest import REPO

TEXT = ("The union called off the strike.\n\nShe sat on the bank of the river, "
        "and the bank lent her money.\nBright students study art.")


@pytest.fixture(scope="module")
def tagger(tiny_models):
    root, task, _ = tiny_models
    return wsd_classic.load(task, "svm", models_dir=root)


def test_load_is_the_api_s_and_importing_the_package_loads_no_spacy():
    assert wsd_classic.load is api.load and wsd_classic.installed is api.installed
    assert wsd_classic.WsdError is WsdError
    result = subprocess.run([sys.executable, "-c", "import sys, wsd_classic\n"
                             "print('spacy' in sys.modules, callable(wsd_classic.load))"],
                            capture_output=True, text=True, cwd=REPO, timeout=120)
    assert result.stdout.split() == ["False", "True"], result.stderr
    with pytest.raises(AttributeError, match="no attribute 'loads'"):
        getattr(wsd_classic, "loads")


def test_tag_gives_what_bin_tag_gives_the_same_text(tagger, tag, tmp_path):
    """Same blocks, pipeline and component: the spans are bin/tag --format jsonl's records."""
    text_file = tmp_path / "text.txt"
    text_file.write_text(TEXT, encoding="utf-8")
    status, out, _ = tag("--format", "jsonl", text_file)
    assert status == 0
    records = [json.loads(line) for line in out.splitlines()]
    spans = tagger.tag(TEXT)
    assert len(spans) == len(records) == 5
    for span, record in zip(spans, records):
        assert (span.text, span.start, span.end, span.lexelt) == (
            record["text"], record["start"], record["end"], record["lexelt"])
        assert TEXT[span.start:span.end] == span.text
        assert [(sense.key, sense.weight, sense.gloss) for sense in span.senses] == [
            (sense["key"], sense["weight"], sense["gloss"]) for sense in record["senses"]]
        assert [list(particle) for particle in span.particles] == [
            [p["start"], p["end"], p["text"]] for p in record.get("particles", [])]


def test_a_span_names_its_best_sense_synset_and_gloss(tagger):
    called = tagger.tag(TEXT)[0]
    assert called.text == "called" and called.lexelt == "call.v"
    assert called.key == called.senses[0].key == "call_off%2:41:00::"
    assert called.synset == wordnet.synset_name(called.key) == "cancel.v.01"
    assert called.gloss == wordnet.gloss(called.key)
    assert called.particles == ((17, 20, "off"),)
    assert sum(sense.weight for sense in called.senses) == pytest.approx(1.0)
    assert called.evidence is None
    assert tagger.tag("") == [] and tagger.tag("Nothing here was ever seen.") == []


def test_each_paragraph_is_one_discourse_as_in_bin_tag(tagger):
    """Two banks of one paragraph are pulled together; the same sentences as two paragraphs
    are not, so each then gets the answer it gets alone."""
    first, second = "She sat on the bank of the river.", "The bank lent her money."
    alone = [tagger.tag(text)[0].senses for text in (first, second)]
    apart = [span.senses for span in tagger.tag(f"{first}\n\n{second}")]
    assert apart == alone
    together = [span.senses for span in tagger.tag(f"{first} {second}")]
    assert len(together) == 2


def test_disambiguate_gives_the_word_what_tag_gives_it_in_the_sentence(tagger):
    tokens = ["The", "union", "called", "off", "the", "strike", "."]
    span = tagger.disambiguate(tokens, 2)
    assert span.senses == tagger.tag("The union called off the strike .")[0].senses
    assert (span.text, span.start, span.end, span.particles) == ("called", 10, 16,
                                                               ((17, 20, "off"),))


def test_disambiguate_takes_the_lemma_and_part_of_speech_it_is_given(tagger):
    tokens = ["They", "bank", "on", "luck", "."]
    assert tagger.disambiguate(tokens, 1) is None  # spaCy's verb: no bank.v in the model
    as_noun = tagger.disambiguate(tokens, 1, pos="n")
    assert as_noun.lexelt == "bank.n" and as_noun.key.startswith("bank%1")
    assert tagger.disambiguate(tokens, 1, pos="NOUN").senses == as_noun.senses
    assert tagger.disambiguate(["Banks", "fail", "."], 0, lemma="bank", pos="n").lexelt == \
        "bank.n"
    assert tagger.disambiguate(["Banks", "fail", "."], 0, lemma="qwzx", pos="n") is None


@pytest.mark.parametrize("call, message", [
    (lambda t: t.disambiguate(["a", "bank"], 2), "token index 2 is not one of 0..1"),
    (lambda t: t.disambiguate(["a", "bank"], -1), "token index -1"),
    (lambda t: t.disambiguate("a bank", 1), "takes a list of tokens, not a str"),
    (lambda t: t.disambiguate([], 0), "at least one token"),
    (lambda t: t.disambiguate(["a", " "], 0), "token 1 is ' '"),
    (lambda t: t.disambiguate(["a", "bank"], 1, pos="noun"), "part of speech 'noun': one of n,"),
    (lambda t: t.disambiguate(["a", "bank"], 1, lemma=""), "lemma '': a non-empty str"),
    (lambda t: t.tag(b"bytes"), "tag() takes a str, not bytes"),
    (lambda t: t.tag("a \ud800 b"), "<text>: not text: character 2 is a lone surrogate"),
    (lambda t: t.tag("nul \0 byte"), "<text>:1: binary data, not text"),
])
def test_bad_input_is_one_line_wsd_error(tagger, call, message):
    with pytest.raises(WsdError) as raised:
        call(tagger)
    assert message in str(raised.value) and "\n" not in str(raised.value)


def test_load_refuses_what_is_not_installed_with_the_commands_errors(tiny_models, tmp_path):
    root, task, _ = tiny_models
    for arguments, message in [
            (("semcor", "svm", tmp_path), f"no semcor/svm model in {tmp_path}"),
            (("semcor", "lesk", root), "lesk"),
            (("nosuchtask", "svm", tmp_path), "nosuchtask/svm"),
            (("ambistory", "svm", root), "task ambistory does not tag words"),
            ((task, "nosuchsystem", root), "nosuchsystem")]:
        with pytest.raises(WsdError, match=re.escape(message)):
            wsd_classic.load(*arguments)


def test_the_models_directory_defaults_to_the_commands(tiny_models, tmp_path, monkeypatch):
    root, task, _ = tiny_models
    (tmp_path / "models").symlink_to(root)
    monkeypatch.chdir(tmp_path)
    tagger = wsd_classic.load(task, "dlist")
    assert str(tagger.models_dir) == "models" and "dlist" in repr(tagger)
    assert tagger.tag("The union called off the strike.")[0].lexelt == "call.v"


def test_explain_gives_the_evidence(tiny_models):
    root, task, _ = tiny_models
    [span] = wsd_classic.load(task, "dlist", root, explain=True).tag("I called my mother.")
    [(feature, strength)] = span.evidence
    assert isinstance(feature, str) and strength > 0


def test_installed_lists_model_files_and_systems_that_need_none(tiny_models, tmp_path):
    root, task, _ = tiny_models
    found = wsd_classic.installed(root)
    assert [(entry.task, entry.system, entry.on_request) for entry in found] == [
        ("semcor", "wn1", False), (task, "commonest", False), (task, "dlist", False),
        (task, "svm", False)]
    assert found[0].path is None and found[3].path.name == "model.npz"
    assert [entry.system for entry in wsd_classic.installed(tmp_path)] == ["wn1"]


def test_all_words_models_tag_every_word_wordnet_knows(allwords_models):
    tagger = wsd_classic.load("semcor", "svm", allwords_models)
    spans = tagger.tag("The dog barked at the postman.")
    assert {span.lexelt for span in spans} >= {"dog.n", "bark.v", "postman.n"}
    for span in spans:
        assert span.synset == wordnet.synset_name(span.key) is not None
        assert span.key in wordnet.wordnet_senses(*span.lexelt.rsplit(".", 1))
    dog = tagger.disambiguate(["The", "dog", "barked", "."], 1)
    assert dog.lexelt == "dog.n" and dog.synset.startswith("dog.n.")
    wn1 = wsd_classic.load("semcor", "wn1", allwords_models)
    assert wn1.disambiguate(["The", "dog", "barked", "."], 1).synset == "dog.n.01"


def test_the_readme_example_runs(allwords_models, tmp_path):
    """The API block of docs/api.md, run as a user would, in a directory whose models/ holds
    the all-words models."""
    block = re.search(r"```python\n(.*?)```", (REPO / "docs" / "api.md").read_text(),
                      re.DOTALL).group(1)
    (tmp_path / "models").symlink_to(allwords_models)
    result = subprocess.run([sys.executable, "-c", block], capture_output=True, text=True,
                            cwd=tmp_path, timeout=300)
    assert result.returncode == 0, result.stderr
    assert "bank" in result.stdout
