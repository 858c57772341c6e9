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
from wsd_classic.wordnet import wordnet_senses
from wsd_classic.tasks import allwords, catalogue, tagging
from wsd_classic.tasks.tagger import tag_raganato
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


def _raganato(path, texts):
    """The texts as spaCy analyses them, each one document, in Raganato's format: an instance
    for every token the all-words component takes as a target, with spaCy's lemma and part of
    speech."""
    nlp = load_spacy()
    lines = ['<?xml version="1.0" encoding="UTF-8" ?>', '<corpus lang="en" source="test">']
    expected = []
    for document, text in enumerate(texts):
        lines.append(f'<text id="d{document:03d}">')
        for number, sentence in enumerate(nlp(text).sents):
            sentence_id = f"d{document:03d}.s{number:03d}"
            lines.append(f'<sentence id="{sentence_id}">')
            for position, token in enumerate(sentence):
                attributes = f"lemma={quoteattr(token.lemma_)} pos={quoteattr(token.pos_)}"
                pos = UNIVERSAL_POS.get(token.pos_)
                if pos and wordnet_lemma(token.lemma_, pos):
                    identifier = f"{sentence_id}.t{position:03d}"
                    expected.append((identifier, token.text))
                    lines.append(f'<instance id="{identifier}" {attributes}>{token.text}'
                                 '</instance>')
                else:
                    lines.append(f"<wf {attributes}>{token.text}</wf>")
            lines.append("</sentence>")
        lines.append("</text>")
    lines.append("</corpus>")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return expected


def _tagged_both_ways(texts, system, models_root, path):
    """The answers of ``--raganato`` and the component's targets, for the texts as documents."""
    expected = _raganato(path, texts)
    from_file = list(tag_raganato(path, system, models_root))
    nlp = tagging.tagging_pipeline("semcor", system, models_root)
    from_text = [token for text in texts for token in nlp(text)._.wsd_targets]
    assert [token.text for token in from_text] == [text for _, text in expected]
    for answer, token in zip(from_file, from_text):
        assert [key for key, _ in token._.wsd_senses] == [key for key, _ in answer.senses]
        assert [weight for _, weight in token._.wsd_senses] == pytest.approx(
            [weight for _, weight in answer.senses], abs=1e-12)
    return from_file


@pytest.mark.parametrize("system", SYSTEMS)
def test_text_and_raganato_give_the_same_distributions(system, models_root, tmp_path):
    answers = _tagged_both_ways(SENTENCES, system, models_root, tmp_path / "text.data.xml")
    assert len(answers) >= 8


@pytest.mark.parametrize("system", SYSTEMS)
def test_one_document_pulls_its_banks_together_both_ways(system, models_root, tmp_path):
    """Both sentences as one paragraph of text, and as one Raganato document: each bank is
    pulled towards the other by the task's discourse weight, the same way on both paths."""
    apart = _tagged_both_ways(SENTENCES, system, models_root, tmp_path / "apart.data.xml")
    together = _tagged_both_ways([" ".join(SENTENCES)], system, models_root,
                                 tmp_path / "together.data.xml")
    banks_apart, banks_together = ([dict(answer.senses) for answer in answers
                                    if answer.key.startswith("bank%")]
                                   for answers in (apart, together))
    assert len(banks_apart) == len(banks_together) == 2
    moved = (catalogue.SEMCOR.discourse_weights.get(system, 0.0) > 0
             and banks_apart[0] != pytest.approx(banks_apart[1]))
    for alone, pulled in zip(banks_apart, banks_together):
        assert (pulled != pytest.approx(alone)) == moved
    assert moved or system != "svm"


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
