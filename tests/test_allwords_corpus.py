"""Candidate resolution of Raganato-format instances whose lemma or tag WordNet spells otherwise.

The fixtures under ``fixtures/raganato_odd`` are in the real format: ``spellings.data.xml`` holds
lemmas WordNet has under another spelling or base form (all tagged with their own part of
speech), ``retagged.data.xml`` tags that are none of the universal four or that WordNet lacks the
lemma under, ``lexen_shape.data.xml`` the layout of lexEN's export (single-quoted declaration, a
comment in the corpus, indentation, ids prefixed with the source dataset, instances removed
from a sentence left as plain words).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from wsd_classic.errors import WsdError
from wsd_classic.wordnet import wordnet_senses
from wsd_classic.tasks.tagger import tag_raganato
from wsd_classic.corpora.allwords import read_raganato_corpus

pytestmark = pytest.mark.filterwarnings("ignore:The multilingual functions are not available")

ODD = Path(__file__).parent / "fixtures" / "raganato_odd"
SPELLINGS = ODD / "spellings.data.xml"
RETAGGED = ODD / "retagged.data.xml"
LEXEN_SHAPE = ODD / "lexen_shape.data.xml"


def one_instance_file(tmp_path, lemma, pos, text="word"):
    path = tmp_path / "one.data.xml"
    path.write_text('<?xml version="1.0" encoding="UTF-8" ?>\n<corpus lang="en">\n'
                    '<text id="d000">\n<sentence id="d000.s000">\n'
                    f'<instance id="d000.s000.t000" lemma="{lemma}" pos="{pos}">{text}</instance>\n'
                    '</sentence>\n</text>\n</corpus>\n', encoding="utf-8")
    return path


def lexelts(path):
    return {target.id: target.lexelt for target in read_raganato_corpus(path).targets}


def test_lemmas_find_their_wordnet_spelling_without_a_warning(capsys):
    assert lexelts(SPELLINGS) == {
        "d000.s000.t000": "well-known.a",      # case
        "d000.s000.t001": "t-shirt.n",
        "d000.s000.t002": "e-mail.n",          # underscore for WordNet's hyphen
        "d000.s000.t003": "o'clock.r",         # typographic apostrophe
        "d000.s001.t000": "dr..n",             # abbreviation dot
        "d000.s001.t001": "take_place.v",      # space for WordNet's underscore
        "d000.s001.t002": "valentine's_day.n",  # clitic split by a tokenizer
        "d000.s001.t003": "grownup.n",         # base form of the hyphen-less spelling
    }
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("lemma, pos, lexelt", [
    ("well_known", "ADJ", "well-known.a"),
    ("well known", "ADJ", "well-known.a"),
    ("e mail", "NOUN", "e-mail.n"),
    ("co-operate", "VERB", "cooperate.v"),
    ("u.s", "NOUN", "u.s..n"),
    ("Bank", "NOUN", "bank.n"),
])
def test_spelling_variants(tmp_path, lemma, pos, lexelt):
    assert lexelts(one_instance_file(tmp_path, lemma, pos)) == {"d000.s000.t000": lexelt}


def test_the_tag_outranks_another_part_of_speech_with_the_lemma_as_written(tmp_path, capsys):
    # WordNet has the adjective "taken", but a verb tag asks for the verb's base form first.
    assert lexelts(one_instance_file(tmp_path, "taken", "VERB")) == {"d000.s000.t000": "take.v"}
    assert capsys.readouterr().err == ""


def test_every_target_gets_candidates_that_tag_it(tmp_path):
    for path in (SPELLINGS, RETAGGED):
        corpus = read_raganato_corpus(path)
        answers = list(tag_raganato(path, "wn1", tmp_path))
        assert [answer.instance_id for answer in answers] == [t.id for t in corpus.targets]
        for target, answer in zip(corpus.targets, answers):
            assert answer.key == wordnet_senses(target.lemma, target.pos)[0]


def test_other_tags_take_another_part_of_speech_with_one_warning(capsys):
    assert lexelts(RETAGGED) == {
        "d000.s000.t000": "bank.n",     # X: nouns first
        "d000.s000.t001": "english.n",  # no verb: the noun before the adjective
        "d000.s000.t002": "today.r",    # no adjective: the adverb before the noun
        "d000.s000.t003": "take.v",
        "d000.s000.t004": "up.r",       # PRT: a particle is an adverb, not the verb "up"
        "d000.s000.t005": "jury.n",     # Penn's NNS
    }
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"warning: {RETAGGED}: 5 instance(s) take the senses of another")
    assert "d000.s000.t000 ('bank' X -> noun), d000.s000.t001 ('english' VERB -> noun), " \
           "d000.s000.t002 ('today' ADJ -> adverb) and 2 more" in lines[0]
    assert "t003" not in lines[0]


@pytest.mark.parametrize("lemma, pos, described", [
    ("qwzx", "NOUN", "noun 'qwzx'"),
    ("qwzx", "X", "'qwzx' tagged 'X'"),
    ("qwzx_bank", "NOUN", "noun 'qwzx_bank'"),  # a multiword's component is another word
    ("", "VERB", "verb ''"),
])
def test_lemma_without_any_sense_is_a_one_line_error(tmp_path, lemma, pos, described):
    path = one_instance_file(tmp_path, lemma, pos)
    with pytest.raises(WsdError) as raised:
        read_raganato_corpus(path)
    message = str(raised.value)
    # the instance stands on line 5 of the file
    assert message.startswith(f"{path}:5: instance d000.s000.t000: WordNet 3.0 has no {described},")
    assert "\n" not in message


def test_lexen_layout_reads_as_any_raganato_file(capsys):
    corpus = read_raganato_corpus(LEXEN_SHAPE)
    assert [(t.id, t.lexelt) for t in corpus.targets] == [
        ("senseval2.d000.s000.t000", "craft.n"), ("senseval2.d000.s000.t002", "odd.a"),
        ("semeval2015.d000.s000.t000", "bell.n")]
    assert [s.document for s in corpus.sentences] == ["senseval2.d000", "semeval2015.d000"]
    assert corpus.sentences[0].words[3] == "bell-tuning"
    assert capsys.readouterr().err == ""
