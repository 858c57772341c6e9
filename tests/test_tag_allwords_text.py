"""``bin/tag`` on plain text with the all-words models: every content word WordNet knows is a
target, and a sentence tagged as text gets exactly what ``--raganato`` gives the same sentence.

Models are trained on the miniature SemCor of ``test_allwords`` (bank in its river and money
senses, and a few other words).
"""
from __future__ import annotations

import json
from xml.sax.saxutils import quoteattr

import pytest

from wsd_classic.cli import tag as tag_cli
from wsd_classic.preprocess.pipeline import load_spacy
from wsd_classic.systems.first_sense import wordnet_senses
from wsd_classic.tasks import allwords, catalogue, tagging
from wsd_classic.corpora.allwords import UNIVERSAL_POS, wordnet_lemma

from conftest import FIXTURES

pytestmark = pytest.mark.filterwarnings("ignore:The multilingual functions are not available")

SEMCOR = FIXTURES / "allwords_semcor"
SENTENCES = ("The river flooded the bank near the old mill.",
             "She asked the bank for a loan with low interest.")
SYSTEMS = catalogue.SEMCOR.systems


@pytest.fixture(scope="module")
def models_root(tmp_path_factory):
    root = tmp_path_factory.mktemp("models")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("WSD_CLASSIC_CACHE", str(tmp_path_factory.getbasetemp() / "cache"))
        allwords.train_semcor(SEMCOR, list(SYSTEMS), root)
    return root


def _raganato(path, sentences):
    """The sentences as spaCy analyses them, in Raganato's format: an instance for every token
    the all-words component takes as a target, with spaCy's lemma and part of speech."""
    nlp = load_spacy()
    lines = ['<?xml version="1.0" encoding="UTF-8" ?>', '<corpus lang="en" source="test">',
             '<text id="d000">']
    expected = []
    for number, sentence in enumerate(sentences):
        lines.append(f'<sentence id="d000.s{number:03d}">')
        for position, token in enumerate(nlp(sentence)):
            attributes = f"lemma={quoteattr(token.lemma_)} pos={quoteattr(token.pos_)}"
            pos = UNIVERSAL_POS.get(token.pos_)
            if pos and wordnet_lemma(token.lemma_, pos):
                identifier = f"d000.s{number:03d}.t{position:03d}"
                expected.append((identifier, token.text))
                lines.append(f'<instance id="{identifier}" {attributes}>{token.text}</instance>')
            else:
                lines.append(f"<wf {attributes}>{token.text}</wf>")
        lines.append("</sentence>")
    lines += ["</text>", "</corpus>"]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return expected


@pytest.mark.parametrize("system", SYSTEMS)
def test_text_and_raganato_give_the_same_distributions(system, models_root, tmp_path):
    expected = _raganato(tmp_path / "text.data.xml", SENTENCES)
    assert len(expected) >= 8
    from_file = list(allwords.tag_raganato(tmp_path / "text.data.xml", system, models_root))
    nlp = tagging.tagging_pipeline("semcor", system, models_root)
    from_text = [token for sentence in SENTENCES for token in nlp(sentence)._.wsd_targets]
    assert [token.text for token in from_text] == [text for _, text in expected]
    for answer, token in zip(from_file, from_text):
        assert [key for key, _ in token._.wsd_senses] == [key for key, _ in answer.senses]
        assert [weight for _, weight in token._.wsd_senses] == pytest.approx(
            [weight for _, weight in answer.senses], abs=1e-12)


def test_every_content_word_wordnet_knows_is_a_target(models_root):
    nlp = tagging.tagging_pipeline("semcor", "svm", models_root)
    doc = nlp("The committee quickly approved an unusual plan.")
    targets = {token.text: token._.wsd_lexelt for token in doc._.wsd_targets}
    assert targets == {"committee": "committee.n", "quickly": "quickly.r",
                       "approved": "approve.v", "unusual": "unusual.a", "plan": "plan.n"}
    for token in doc._.wsd_targets:
        lemma, pos = token._.wsd_lexelt.rsplit(".", 1)
        assert sorted(key for key, _ in token._.wsd_senses) == sorted(wordnet_senses(lemma, pos))
        assert sum(weight for _, weight in token._.wsd_senses) == pytest.approx(1.0)
    [committee] = [token for token in doc if token.text == "committee"]
    assert len(wordnet_senses("committee", "n")) > 1  # a lemma SemCor's fixture never tagged:
    assert committee._.wsd_senses[0] == (wordnet_senses("committee", "n")[0], 1.0)  # back-off


def test_a_monosemous_word_gets_its_one_sense_with_weight_one(models_root):
    nlp = tagging.tagging_pipeline("semcor", "svm", models_root)
    [word] = [token for token in nlp("The sommelier poured wine.") if token.text == "sommelier"]
    assert wordnet_senses("sommelier", "n") == (word._.wsd_senses[0][0],)
    assert word._.wsd_senses == [(wordnet_senses("sommelier", "n")[0], 1.0)]


def test_without_task_the_all_words_models_are_used_and_named(models_root, tmp_path, capsys):
    text = tmp_path / "text.txt"
    text.write_text(SENTENCES[0] + "\n", encoding="utf-8")
    assert tag_cli.main(["--models-dir", str(models_root), "--format", "jsonl", str(text)]) == 0
    captured = capsys.readouterr()
    lexelts = [json.loads(line)["lexelt"] for line in captured.out.splitlines()]
    assert {"river.n", "flood.v", "bank.n", "mill.n"} <= set(lexelts)
    assert "task semcor (the default), svm" in captured.err


def test_wn1_tags_text_without_a_model_file(tmp_path):
    nlp = tagging.tagging_pipeline("semcor", "wn1", tmp_path)
    [bank] = [token for token in nlp(SENTENCES[1]) if token.text == "bank"]
    assert bank._.wsd_senses[0] == (wordnet_senses("bank", "n")[0], 1.0)
