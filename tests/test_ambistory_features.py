"""The AmbiStory rater's evidence: meanings to synsets, the story as an all-words document,
siblings, WordNet relatedness and the word spaces."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bench.ambistory_ppr import PPR_FEATURES, with_every_word

from wsd_classic import wordnet
from wsd_classic.benchmarks.ambistory.features import (FEATURE_GROUPS,
                                                       SIBLING_SOURCES,
                                                       WORDNET_SIBLING_SOURCES,
                                                       add_sibling_features, other_meanings,
                                                       over_sibling)
from wsd_classic.benchmarks.ambistory.meanings import meaning_synset, signatures, target_lemma
from wsd_classic.benchmarks.ambistory.relatedness import (extended_gloss, relatedness_profile,
                                                          word_relatedness, wordnet_features,
                                                          wu_palmer)
from wsd_classic.benchmarks.ambistory import spaces
from wsd_classic.benchmarks.ambistory.spaces import running_text_space, stem_space
from wsd_classic.benchmarks.ambistory.stories import (StoryTarget, sentences_of, story_corpus,
                                                      target_position, words_of)
from wsd_classic.benchmarks.ambistory.text import stems, story_words
from wsd_classic.corpora.ambistory import AmbiStorySample
from wsd_classic.errors import WsdError
from wsd_classic.features import pretrained_vectors
from wsd_classic.features.word_vectors import WordVectors

pytestmark = [pytest.mark.filterwarnings("ignore:The multilingual functions are not available"),
              pytest.mark.filterwarnings("ignore::wsd_classic.corpora.registry."
                                         "UnverifiedDataWarning")]


FIXTURES = Path(__file__).parent / "fixtures"
STORIES = FIXTURES / "ambistory"
RIVER = "sloping land (especially the slope beside a body of water)"


def test_meanings_find_their_synsets():
    assert meaning_synset("bank", RIVER)[0].name() == "bank.n.01"
    assert meaning_synset("banks", RIVER + " ")[1] == "exact"
    synset, how = meaning_synset(
        "bank", "a financial institution that takes deposits and lends the money")
    assert (synset.name(), how) == ("depository_financial_institution.n.01", "closest")
    assert meaning_synset("qwzxv", "no gloss says this") == (None, "none")
    synset, how = meaning_synset("qwzxv", RIVER)
    assert (synset.name(), how) == ("bank.n.01", "another word's")
    synset, how = meaning_synset(
        "heated", "made warm or hot ('het' is a dialectal variant of 'heated')")
    assert (synset.name(), how) == ("heated.s.01", "exact")  # WordNet writes `het'
    synset, how = meaning_synset("score", "twenty items of something")
    assert how == "closest"
    assert target_lemma("banks", meaning_synset("bank", RIVER)[0]) == (
        "bank", "n")


def test_story_sentences_words_and_target():
    assert sentences_of('He left. "Why?" she asked. Then, at 5 p.m. Mr. X came.') == [
        "He left.", '"Why?" she asked.', "Then, at 5 p.m. Mr. X came."]
    words = words_of("They walked to the banks, didn't they?")
    assert words == ("They", "walked", "to", "the", "banks", ",", "didn't", "they", "?")
    assert target_position(words, "banks", "bank", "n") == 4
    assert target_position(words, "bank", "bank", "n") == 4  # by its lemma
    assert target_position(words, "shore", "shore", "n") is None


def test_story_corpus_holds_each_story_once_as_one_document():
    target = StoryTarget("bank", "It rained. We waited.", "We saw the bank.", "It was muddy.",
                         "bank", "n")
    setup_only = StoryTarget("bank", "It rained. We waited.", "We saw the bank.", "", "bank", "n")
    corpus, ids = story_corpus([target, setup_only, target])
    assert [sentence.document for sentence in corpus.sentences] == ["story0"] * 4 + ["story1"] * 3
    assert [(t.sentence, t.token, t.lexelt) for t in corpus.targets] == [(2, 3, "bank.n"),
                                                                         (6, 3, "bank.n")]
    assert set(ids) == {target, setup_only}


def test_ppr_reads_every_content_word_of_the_story():
    target = StoryTarget("bank", "The river flooded.", "We sat on the bank.", "", "bank", "n")
    corpus, ids = story_corpus([target])
    everything = with_every_word(corpus)
    assert [target.lexelt for target in everything.targets] == [
        "river.n", "flood.v", "sit.v", "bank.n"]
    assert everything.targets[3] == corpus.targets[0]
    assert PPR_FEATURES == tuple(name.replace("wsd", "ppr") for name in FEATURE_GROUPS["wsd"])


def _sample(key, meaning, ending):
    return AmbiStorySample(key, "bank", meaning, "Pre.", "The bank.", ending, "", (3, 3))


def test_partners_and_siblings():
    samples = [_sample("0", "a", ""), _sample("1", "b", ""), _sample("2", "a", "E1."),
               _sample("3", "a", "E2.")]
    partners = other_meanings(samples)
    assert partners["0"].id == "1" and partners["1"].id == "0" and partners["3"].id == "1"
    sources = (*SIBLING_SOURCES, *WORDNET_SIBLING_SOURCES)
    rows = [{name: 0.0 for name in sources} for _ in samples]
    for source in (SIBLING_SOURCES[0], WORDNET_SIBLING_SOURCES[-1]):
        rows[2][source], rows[3][source] = 0.5, 0.125
    add_sibling_features(samples, rows)
    for source in (SIBLING_SOURCES[0], WORDNET_SIBLING_SOURCES[-1]):
        assert [row[f"{source}_over_sibling"] for row in rows] == [0.0, 0.0, 0.375, -0.375]
    # the wordnet group holds its own over-sibling margins, so its ablation drops them too
    assert set(FEATURE_GROUPS["wordnet"]) >= {
        f"{source}_over_sibling" for source in WORDNET_SIBLING_SOURCES}
    assert not set(FEATURE_GROUPS["siblings"]) & set(FEATURE_GROUPS["wordnet"])


# An ending written for the tests, in the manner of the dataset's: no word of it is in either
# meaning's gloss.
SLEEPERS = "The children followed the old railway, stepping from one wooden sleeper to the next."


def test_wu_palmer_counts_the_depth_of_the_deepest_common_ancestor():
    synset = wordnet.wordnet().synset
    dog, cat, idea = synset("dog.n.01"), synset("cat.n.01"), synset("idea.n.01")
    assert wu_palmer(dog, dog) == 1.0
    assert wu_palmer(dog, cat) == pytest.approx(dog.wup_similarity(cat))
    assert wu_palmer(dog, cat) > wu_palmer(dog, idea) > 0
    assert wu_palmer(dog, synset("run.v.01")) == 0.0  # no common ancestor


def test_ending_words_relate_to_the_railway_meaning_of_track():
    railway, path = (wordnet.wordnet().synset(name) for name in ("track.n.03", "track.n.10"))
    exclude = set(stems("track"))
    # "railway" names a neighbour of the meaning (its hyponym railroad_track)
    assert word_relatedness("railway", railway) == 1.0
    assert word_relatedness("railway", path) < 1.0
    assert story_words("The tracks, a Sleeper; sleeper!", exclude) == ["sleeper"]
    # railroad_track.n.01's gloss, "a line of track providing a runway for wheels", shares
    # "runway" and "wheels" with the railway meaning's
    assert {"runway", "wheel"} <= set(extended_gloss(SLEEPERS, exclude))
    assert "runway" not in extended_gloss("wooden sleeper", exclude)
    row = wordnet_features(SLEEPERS, railway, path, signatures(railway, ""), signatures(path, ""),
                           exclude)
    assert set(row) | set(over_sibling(WORDNET_SIBLING_SOURCES)) == set(
        FEATURE_GROUPS["wordnet"])
    assert row["ending_wup_max"] == 1.0
    assert row["ending_wup_top3_margin"] > 0 and row["ending_extended_gloss_margin"] > 0
    swapped = wordnet_features(SLEEPERS, path, railway, signatures(path, ""),
                               signatures(railway, ""), exclude)
    for name in WORDNET_SIBLING_SOURCES:
        assert swapped[name] == pytest.approx(-row[name])
    open_ended = wordnet_features("", railway, path, signatures(railway, ""),
                                  signatures(path, ""), exclude)
    assert set(open_ended.values()) == {0.0}
    assert relatedness_profile(SLEEPERS, None, exclude)["max"] == 0.0


def test_word_vectors_become_a_space_of_stems():
    vectors = WordVectors(("river", "rivers", "money", "42"),
                          np.array([[1, 0, 0], [0.6, 0.8, 0], [0, 0, 1], [1, 1, 1]]))
    space = stem_space([vectors])
    assert space.words == ("money", "river")  # "rivers" joins its stem, "42" has no letter
    assert np.allclose(space.vectors[space.index["river"]], [0.8, 0.4, 0] / np.sqrt(0.8))
    assert np.allclose(np.linalg.norm(space.vectors, axis=1), 1)


def test_two_sources_of_vectors_are_blocks_of_equal_weight():
    """Each source's block of a stem has length 1 / sqrt(2) whatever its dimensions and vector
    lengths; a stem one source lacks is zero in its block."""
    own = WordVectors(("river", "money"), np.array([[2.0, 0], [0, 3.0]]))
    pretrained = WordVectors(("rivers", "loan", "money"),
                             np.array([[0, 5.0, 0], [1.0, 0, 0], [0, 0, 0.5]]))
    space = stem_space([own, pretrained])
    assert space.words == ("loan", "money", "river")
    half = 1 / np.sqrt(2)
    assert np.allclose(space.vectors, [[0, 0, half, 0, 0], [0, half, 0, 0, half],
                                       [half, 0, 0, half, 0]])


def test_the_vector_space_reads_the_sources_named(monkeypatch):
    read = []
    pretrained = WordVectors(("loan",), np.array([[1.0, 0]]))
    monkeypatch.setattr(pretrained_vectors, "load",
                        lambda name: read.append(name) or pretrained)
    space = spaces.vector_space((pretrained_vectors.GLOVE.name,))
    assert read == [pretrained_vectors.GLOVE.name] and space.words == ("loan",)
    both = spaces.vector_space((pretrained_vectors.SPACY_MD.name, pretrained_vectors.GLOVE.name))
    assert read[1:] == [pretrained_vectors.SPACY_MD.name, pretrained_vectors.GLOVE.name]
    assert both.vectors.shape[1] == 4  # a block each
    for sources in ((), ("glove-6b-50d", "glove-6b-50d")):
        with pytest.raises(WsdError, match="one or more, each once"):
            spaces.vector_space(sources)


def test_running_text_space_puts_company_close():
    documents = [["river", "water", "shore"], ["money", "loan", "deposit"]] * 20
    space = running_text_space(documents, window=2, min_count=1)
    river, water, loan = (space.vectors[space.index[word]] for word in ("river", "water", "loan"))
    assert river @ water > river @ loan


def test_saved_spaces_of_other_names_ask_to_train_again(tmp_path):
    space = stem_space([WordVectors(("river",), np.array([[1.0, 0]]))])
    path = tmp_path / "spaces.npz"
    spaces.save_spaces(path, dict.fromkeys(spaces.SPACES, space))
    assert set(spaces.load_spaces(path)) == set(spaces.SPACES)
    spaces.save_spaces(path, {"lsa": space, "ppmi": space, "w2v": space})
    with pytest.raises(WsdError, match="train the rater again"):
        spaces.load_spaces(path)
