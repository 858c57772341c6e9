"""SemCor's instances of sense relatives as training instances (``corpora.sense_relatives``).

The fixture SemCor tags ``car`` twice with its railway sense only, and ``automobile`` (one
WordNet sense, the synset of car's first sense) three times, in two files: car's first sense
gets automobile's occurrences as its instances, and ``car`` a classifier.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from wsd_classic.corpora.allwords import AllWordsCorpus, Sentence, Target, read_semcor_corpus
from wsd_classic.corpora.model import Instance
from wsd_classic.corpora.sense_relatives import read_sense_relatives
from wsd_classic.errors import WsdError
from wsd_classic.tasks import allwords, engine

pytestmark = pytest.mark.filterwarnings("ignore:The multilingual functions are not available")

SEMCOR = Path(__file__).parent / "fixtures" / "relatives_semcor"
PARTS = ("brown1", "brown2")
AUTO, RAILWAY = "car%1:06:00::", "car%1:06:01::"


@pytest.fixture(autouse=True)
def private_cache(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("WSD_CLASSIC_CACHE", str(tmp_path_factory.getbasetemp() / "cache"))


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("WSD_CLASSIC_CACHE", str(tmp_path_factory.getbasetemp() / "cache"))
        yield allwords.prepare_training(SEMCOR, PARTS, relatives_cap=5)


def corpus_of(tags: list[tuple[str, tuple[str, ...]]]) -> AllWordsCorpus:
    """One sentence per ``(lemma, keys)``: ``the <lemma>``, the lemma a noun target."""
    sentences = [Sentence(f"d.s{index}", "d", ("the", lemma)) for index, (lemma, _) in
                 enumerate(tags)]
    targets = [Target(f"d.s{index}.t1", lemma, "n", index, 1, keys)
               for index, (lemma, keys) in enumerate(tags)]
    return AllWordsCorpus("hand-made", sentences, targets)


def test_other_lemmas_instances_of_a_sense_become_the_lexelts_retagged():
    corpus = read_semcor_corpus(SEMCOR, PARTS)
    relatives = read_sense_relatives(corpus, {target.lexelt for target in corpus.targets}, 5)
    automobiles = [target for target in corpus.targets if target.lemma == "automobile"]
    assert len(automobiles) == 3
    assert relatives.sentences is corpus.sentences
    assert [(target.lexelt, target.keys, target.sentence, target.token)
            for target in relatives.targets] == [
        ("car.n", (AUTO,), target.sentence, target.token) for target in automobiles]
    # automobile has one WordNet sense: nothing to learn, no relatives for it
    assert len({target.id for target in relatives.targets}) == 3


def test_a_senses_own_instances_and_the_cap_bound_its_relatives_spread_evenly():
    autos = [("automobile", ("automobile%1:06:00::",))] * 6
    corpus = corpus_of([("car", (AUTO,)), *autos, ("car", (RAILWAY,))])
    taken = read_sense_relatives(corpus, ["car.n"], 4).targets
    assert [target.sentence for target in taken] == [1, 3, 5]  # 4 less car's own one, of 6
    assert read_sense_relatives(corpus, ["car.n"], 1).targets == []


def test_a_word_tagged_with_two_senses_is_no_relative():
    corpus = corpus_of([("automobile", ("automobile%1:06:00::", "auto%1:06:00::")),
                        ("car", (RAILWAY,))])
    assert read_sense_relatives(corpus, ["car.n"], 5).targets == []


def test_an_instances_weight_scales_its_training_rows():
    instance = Instance("i", "car.n", "the car", (4, 7), answers=(AUTO, RAILWAY), weight=0.25)
    corpus = engine.FeaturizedCorpus(None, {"i": {"bow": ["bow=the"]}}, None)
    X, y, weights = engine.training_rows(corpus, [instance], ["bow"])
    assert (y, weights) == ([AUTO, RAILWAY], [0.125, 0.125])


def test_relatives_give_a_one_sense_lexelt_a_classifier_at_their_weight(data):
    assert len(data.relatives.sample) == 3
    # car's own SemCor targets are featurized (WordNet gives it five senses); WordNet's examples
    # are left out here, so only the relatives give it a second sense
    car = data.featurized.sample.lexelt("car.n")
    assert all(data.featurized.features[instance.id]["bow"] for instance in car.instances)
    trained = allwords.train_system("svm", data, relatives_weight=0.5, wordnet_examples=False)
    model = trained.models["car.n"]
    assert model.classes_.tolist() == [AUTO, RAILWAY]
    assert model.prior_.tolist() == pytest.approx([1.5 / 3.5, 2 / 3.5])
    assert (trained.info["sense_relatives"], trained.info["sense_relatives_weight"]) == (3, 0.5)
    without = allwords.train_system("svm", data, relatives_weight=0, wordnet_examples=False)
    assert without.models["car.n"].classes_.tolist() == [RAILWAY]
    assert without.info["sense_relatives"] == 0


def test_relatives_not_prepared_are_an_error(data):
    unprepared = allwords.prepare_training(SEMCOR, PARTS)
    assert unprepared.relatives is None
    with pytest.raises(WsdError, match="svm trains on SemCor's instances of sense relatives"):
        allwords.train_system("svm", unprepared, relatives_weight=0.5)


def test_relatives_go_only_to_lexelts_with_enough_instances_of_their_own(data):
    # car has 2 SemCor instances (WordNet's examples left out)
    for least, classes in ((2, [AUTO, RAILWAY]), (3, [RAILWAY])):
        trained = allwords.train_system("svm", data, relatives_weight=0.5, relatives_least=least,
                                        wordnet_examples=False)
        assert trained.models["car.n"].classes_.tolist() == classes
        assert trained.info["sense_relatives"] == (3 if least == 2 else 0)
