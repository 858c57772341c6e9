"""The AmbiStory rater: meanings to synsets, the story as an all-words document, the features,
the estimator, and ``bin/train --task ambistory`` / ``bin/evaluate --benchmark ambistory`` on
hand-written stories about a bank (tests/fixtures/ambistory) with tiny models."""
from __future__ import annotations

import json
import shutil
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np
import pytest

from wsd_classic import wordnet
from wsd_classic.benchmarks import ambistory
from wsd_classic.cli import evaluate, train
from wsd_classic.corpora import registry
from wsd_classic.corpora.ambistory import AmbiStorySample, read_ambistory
from wsd_classic.features.word_vectors import WordVectors

pytestmark = [pytest.mark.filterwarnings("ignore:The multilingual functions are not available"),
              pytest.mark.filterwarnings("ignore::wsd_classic.corpora.registry."
                                         "UnverifiedDataWarning")]

FIXTURES = Path(__file__).parent / "fixtures"
STORIES = FIXTURES / "ambistory"
RIVER = "sloping land (especially the slope beside a body of water)"


def test_meanings_find_their_synsets():
    assert ambistory.meaning_synset("bank", RIVER)[0].name() == "bank.n.01"
    assert ambistory.meaning_synset("banks", RIVER + " ")[1] == "exact"
    synset, how = ambistory.meaning_synset(
        "bank", "a financial institution that takes deposits and lends the money")
    assert (synset.name(), how) == ("depository_financial_institution.n.01", "closest")
    assert ambistory.meaning_synset("qwzxv", "no gloss says this") == (None, "none")
    synset, how = ambistory.meaning_synset("qwzxv", RIVER)
    assert (synset.name(), how) == ("bank.n.01", "another word's")
    synset, how = ambistory.meaning_synset(
        "heated", "made warm or hot ('het' is a dialectal variant of 'heated')")
    assert (synset.name(), how) == ("heated.s.01", "exact")  # WordNet writes `het'
    synset, how = ambistory.meaning_synset("score", "twenty items of something")
    assert how == "closest"
    assert ambistory.target_lemma("banks", ambistory.meaning_synset("bank", RIVER)[0]) == (
        "bank", "n")


def test_story_sentences_words_and_target():
    assert ambistory.sentences_of('He left. "Why?" she asked. Then, at 5 p.m. Mr. X came.') == [
        "He left.", '"Why?" she asked.', "Then, at 5 p.m. Mr. X came."]
    words = ambistory.words_of("They walked to the banks, didn't they?")
    assert words == ("They", "walked", "to", "the", "banks", ",", "didn't", "they", "?")
    assert ambistory.target_position(words, "banks", "bank", "n") == 4
    assert ambistory.target_position(words, "bank", "bank", "n") == 4  # by its lemma
    assert ambistory.target_position(words, "shore", "shore", "n") is None


def test_story_corpus_holds_each_story_once_as_one_document():
    target = ambistory.StoryTarget("bank", "It rained. We waited.", "We saw the bank.",
                                   "It was muddy.", "bank", "n")
    setup_only = ambistory.StoryTarget("bank", "It rained. We waited.", "We saw the bank.", "",
                                       "bank", "n")
    corpus, ids = ambistory.story_corpus([target, setup_only, target])
    assert [sentence.document for sentence in corpus.sentences] == ["story0"] * 4 + ["story1"] * 3
    assert [(t.sentence, t.token, t.lexelt) for t in corpus.targets] == [(2, 3, "bank.n"),
                                                                         (6, 3, "bank.n")]
    assert set(ids) == {target, setup_only}


def _sample(key, meaning, ending):
    return AmbiStorySample(key, "bank", meaning, "Pre.", "The bank.", ending, "", (3, 3))


def test_partners_and_siblings():
    samples = [_sample("0", "a", ""), _sample("1", "b", ""), _sample("2", "a", "E1."),
               _sample("3", "a", "E2.")]
    partners = ambistory.other_meanings(samples)
    assert partners["0"].id == "1" and partners["1"].id == "0" and partners["3"].id == "1"
    sources = (*ambistory.SIBLING_SOURCES, *ambistory.WORDNET_SIBLING_SOURCES)
    rows = [{name: 0.0 for name in sources} for _ in samples]
    for source in (ambistory.SIBLING_SOURCES[0], ambistory.WORDNET_SIBLING_SOURCES[-1]):
        rows[2][source], rows[3][source] = 0.5, 0.125
    ambistory._add_sibling_features(samples, rows)
    for source in (ambistory.SIBLING_SOURCES[0], ambistory.WORDNET_SIBLING_SOURCES[-1]):
        assert [row[f"{source}_over_sibling"] for row in rows] == [0.0, 0.0, 0.375, -0.375]
    # the wordnet group holds its own over-sibling margins, so its ablation drops them too
    assert set(ambistory.FEATURE_GROUPS["wordnet"]) >= {
        f"{source}_over_sibling" for source in ambistory.WORDNET_SIBLING_SOURCES}
    assert not set(ambistory.FEATURE_GROUPS["siblings"]) & set(ambistory.FEATURE_GROUPS["wordnet"])


# An ending written for the tests, in the manner of the dataset's: no word of it is in either
# meaning's gloss.
SLEEPERS = "The children followed the old railway, stepping from one wooden sleeper to the next."


def test_wu_palmer_counts_the_depth_of_the_deepest_common_ancestor():
    synset = wordnet.wordnet().synset
    dog, cat, idea = synset("dog.n.01"), synset("cat.n.01"), synset("idea.n.01")
    assert ambistory.wu_palmer(dog, dog) == 1.0
    assert ambistory.wu_palmer(dog, cat) == pytest.approx(dog.wup_similarity(cat))
    assert ambistory.wu_palmer(dog, cat) > ambistory.wu_palmer(dog, idea) > 0
    assert ambistory.wu_palmer(dog, synset("run.v.01")) == 0.0  # no common ancestor


def test_ending_words_relate_to_the_railway_meaning_of_track():
    railway, path = (wordnet.wordnet().synset(name) for name in ("track.n.03", "track.n.10"))
    exclude = set(ambistory.stems("track"))
    # "railway" names a neighbour of the meaning (its hyponym railroad_track)
    assert ambistory.word_relatedness("railway", railway) == 1.0
    assert ambistory.word_relatedness("railway", path) < 1.0
    assert ambistory._story_words("The tracks, a Sleeper; sleeper!", exclude) == ["sleeper"]
    # railroad_track.n.01's gloss, "a line of track providing a runway for wheels", shares
    # "runway" and "wheels" with the railway meaning's
    assert {"runway", "wheel"} <= set(ambistory.extended_gloss(SLEEPERS, exclude))
    assert "runway" not in ambistory.extended_gloss("wooden sleeper", exclude)
    row = ambistory.wordnet_features(SLEEPERS, railway, path, ambistory.signatures(railway, ""),
                                     ambistory.signatures(path, ""), exclude)
    assert set(row) | set(ambistory._over_sibling(ambistory.WORDNET_SIBLING_SOURCES)) == set(
        ambistory.FEATURE_GROUPS["wordnet"])
    assert row["ending_wup_max"] == 1.0
    assert row["ending_wup_top3_margin"] > 0 and row["ending_extended_gloss_margin"] > 0
    swapped = ambistory.wordnet_features(SLEEPERS, path, railway, ambistory.signatures(path, ""),
                                         ambistory.signatures(railway, ""), exclude)
    for name in ambistory.WORDNET_SIBLING_SOURCES:
        assert swapped[name] == pytest.approx(-row[name])
    open_ended = ambistory.wordnet_features("", railway, path, ambistory.signatures(railway, ""),
                                            ambistory.signatures(path, ""), exclude)
    assert set(open_ended.values()) == {0.0}
    assert ambistory.relatedness_profile(SLEEPERS, None, exclude)["max"] == 0.0


def test_integers_round_or_follow_the_training_shares():
    values = np.array([0.2, 2.4, 2.6, 3.0, 5.7])
    assert ambistory.as_integers(values, "round", None).tolist() == [1, 2, 3, 3, 5]
    shares = np.array([0.2, 0.2, 0.2, 0.2, 0.2])
    assert ambistory.as_integers(values[::-1], "quantiles", shares).tolist() == [5, 4, 3, 2, 1]
    with pytest.raises(ValueError):
        ambistory.as_integers(values, "floor", shares)


def test_thresholds_cut_between_the_integers():
    values = np.array([0.2, 2.0, 2.1, 3.9, 4.0, 9.0])
    cuts = (2.0, 3.0, 3.95, 4.5)  # in any order
    assert ambistory.as_integers(values, "thresholds", None, cuts[::-1]).tolist() == [
        1, 1, 2, 3, 4, 5]
    with pytest.raises(ValueError):
        ambistory.as_integers(values, "thresholds", None, (2.0, 3.0))


def _rated(key, homonym, setup, choices):
    return AmbiStorySample(key, homonym, "m", f"Pre {setup}.", "The bank.", "", "", choices)


def test_cuts_fitted_on_held_out_values_beat_rounding_a_biased_rater():
    rng = np.random.default_rng(1)
    samples = [_rated(str(i), "bank", i, tuple(int(v) for v in rng.integers(1, 6, size=5)))
               for i in range(120)]
    split = ambistory.FeaturizedSplit(samples, np.zeros((120, 1)), Counter(), [])
    means = np.array([sample.average for sample in samples])
    biased = means + 1.6  # in the right order, but each a rating and a half too high
    cuts = ambistory.fit_cuts(biased, split)
    assert len(cuts) == 4 and list(cuts) == sorted(cuts)

    def figures(integers):
        score = ambistory.score_split(split, integers)
        return score.spearman + score.accuracy

    rounded = ambistory.as_integers(biased, "round", None)
    assert figures(ambistory.as_integers(biased, "thresholds", None, cuts)) > figures(rounded)


def test_folds_keep_a_homonym_on_one_side_and_split_one_homonym_by_setup():
    samples = [_rated(str(i), f"word{i % 7}", i % 3, (3, 3)) for i in range(28)]
    folds = ambistory.homonym_folds(samples)
    assert len(folds) == ambistory.FOLDS
    for fitted, held in folds:
        assert not {samples[i].homonym for i in fitted} & {samples[i].homonym for i in held}
    assert sorted(i for _, held in folds for i in held) == list(range(28))
    alone = [_rated(str(i), "bank", i % 3, (3, 3)) for i in range(9)]
    folds = ambistory.homonym_folds(alone)
    assert len(folds) == 3
    for fitted, held in folds:
        assert not {alone[i].setup for i in fitted} & {alone[i].setup for i in held}
    shuffled = ambistory.homonym_folds(samples, seed=1)  # another partition, still by homonym
    assert sorted(i for _, held in shuffled for i in held) == list(range(28))
    for fitted, held in shuffled:
        assert not {samples[i].homonym for i in fitted} & {samples[i].homonym for i in held}
    assert {tuple(held) for _, held in shuffled} != {
        tuple(held) for _, held in ambistory.homonym_folds(samples)}


def test_word_vectors_become_a_space_of_stems():
    vectors = WordVectors(("river", "rivers", "money", "42"),
                          np.array([[1, 0, 0], [0.6, 0.8, 0], [0, 0, 1], [1, 1, 1]]))
    space = ambistory.stem_space(vectors)
    assert space.words == ("money", "river")  # "rivers" joins its stem, "42" has no letter
    assert np.allclose(space.vectors[space.index["river"]], [0.8, 0.4, 0] / np.sqrt(0.8))
    assert np.allclose(np.linalg.norm(space.vectors, axis=1), 1)


def test_rater_learns_from_the_kept_groups_only():
    rng = np.random.default_rng(0)
    matrix = rng.normal(size=(200, len(ambistory.FEATURES)))
    signal = ambistory.FEATURES.index(ambistory.FEATURE_GROUPS["siblings"][0])
    ratings = np.clip(3 + matrix[:, signal], 1, 5)
    for model in ("ridge", "boosting", "ordinal"):
        rater = ambistory.PlausibilityRater(model=model).fit(matrix, ratings)
        predicted = rater.predict(matrix)
        assert np.corrcoef(predicted, ratings)[0, 1] > 0.8, model
        assert set(rater.predict_ratings(matrix)) <= {1, 2, 3, 4, 5}
    blind = ambistory.PlausibilityRater(model="ridge", groups=("wsd",)).fit(matrix, ratings)
    assert abs(np.corrcoef(blind.predict(matrix), ratings)[0, 1]) < 0.3


def test_running_text_space_puts_company_close():
    documents = [["river", "water", "shore"], ["money", "loan", "deposit"]] * 20
    space = ambistory.running_text_space(documents, window=2, min_count=1)
    river, water, loan = (space.vectors[space.index[word]] for word in ("river", "water", "loan"))
    assert river @ water > river @ loan


@pytest.fixture
def tiny_world(tmp_path, monkeypatch, allwords_models):
    """The fixture stories registered unhashed in a data dir, and word spaces and IDF from a few
    sentences instead of WordNet, SemCor and SENSEVAL-2 (which take minutes)."""
    monkeypatch.setenv("WSD_CLASSIC_CACHE", str(tmp_path / "cache"))
    data = tmp_path / "data"
    (data / "ambistory").mkdir(parents=True)
    for split, name in ambistory.SPLITS.items():  # under the names the dataset's layout has
        shutil.copy(STORIES / f"bank_stories_{split}.json", data / "ambistory" / name)
    monkeypatch.setitem(registry.DATASETS, "ambistory", registry.Dataset(
        "ambistory", "ambistory", "the test fixtures",
        tuple(registry.DataFile(name, None) for name in ambistory.SPLITS.values())))
    texts = ["the river water rose over the muddy grassy slope where ducks swim",
             "the clerk counted the money deposit loan account check at the counter"] * 10
    monkeypatch.setattr(ambistory, "build_spaces", lambda data_dir: {
        name: ambistory.running_text_space([ambistory.stems(text) for text in texts], 3, 1)
        for name in ambistory.SPACES})
    monkeypatch.setattr(ambistory, "inverse_document_frequency",
                        lambda: defaultdict(lambda: 1.0))
    models = tmp_path / "models"
    shutil.copytree(allwords_models, models)
    return data, models, tmp_path / "results"


def test_train_and_evaluate_write_complete_predictions(tiny_world, capsys):
    data, models, results = tiny_world
    assert train.main(["--task", "ambistory", "--data-dir", str(data), "--models-dir",
                       str(models), "--out-dir", str(results)]) == 0
    out = capsys.readouterr().out
    assert "chosen by cross-validation on train" in out and "GPT-4o" in out and "open-ended" in out
    assert "judged meanings to WordNet 3.0 synsets: train 12 exact" in out
    written = {}
    for split, filename in (("dev", "dev.json"), ("test", "test_redacted.json")):
        predictions = _predictions(results / "ambistory" / f"{split}.predictions.jsonl")
        assert all(value in range(1, 6) for value in predictions.values())
        assert list(predictions) == [sample.id for sample in read_ambistory(data / "ambistory" /
                                                                           filename)]
        written[split] = predictions
    scores = json.loads((results / "ambistory" / "scores.json").read_text())
    assert scores["dev"]["samples"] == 6 and set(scores["dev"]["by_ending"]) == {
        "open-ended", "ended"}
    assert {"all", "without siblings", "only wsd", "with support", "only support"} <= set(
        scores["ablation"])
    assert "without support" not in scores["ablation"]
    shutil.rmtree(results)
    assert evaluate.main(["--benchmark", "ambistory", "--data-dir", str(data), "--models-dir",
                          str(models), "--out-dir", str(results)]) == 0
    for split in written:  # the saved rater gives the same predictions
        assert _predictions(results / "ambistory" / f"{split}.predictions.jsonl") == \
            written[split]


def _predictions(path) -> dict:
    """A predictions file's rating by sample id, in file order."""
    return {record["id"]: record["prediction"]
            for record in map(json.loads, path.read_text().splitlines())}


def test_evaluate_without_a_trained_rater_is_a_one_line_error(tiny_world, capsys):
    data, models, results = tiny_world
    status = evaluate.main(["--benchmark", "ambistory", "--data-dir", str(data), "--models-dir",
                            str(models), "--out-dir", str(results)])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and "bin/train --task ambistory" in err


def test_train_without_the_semcor_svm_is_a_one_line_error(tiny_world, capsys):
    data, models, results = tiny_world
    shutil.rmtree(models / "semcor")
    assert train.main(["--task", "ambistory", "--data-dir", str(data), "--models-dir",
                       str(models), "--out-dir", str(results)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "bin/train --task semcor" in err


def _story(key, homonym, setup, meaning, ending, choices):
    return AmbiStorySample(key, homonym, meaning, f"Pre {setup}.", "The bank.", ending, "",
                           choices)


def test_support_gaps_compare_the_two_meanings_of_one_story():
    samples = [_story("0", "bank", 0, "a", "", (3, 3)), _story("1", "bank", 0, "b", "", (2, 2)),
               _story("2", "bank", 0, "a", "E1.", (5, 4)), _story("3", "bank", 0, "b", "E1.",
                                                                   (1, 2)),
               _story("4", "bank", 0, "a", "E2.", (2, 2)),  # its other meaning is missing
               _story("5", "bank", 1, "a", "E1.", None), _story("6", "bank", 1, "b", "E1.",
                                                                  (3, 3))]
    gaps = ambistory.support_gaps(samples)
    assert gaps[:4].tolist() == [1.0, -1.0, 3.0, -3.0]
    assert np.isnan(gaps[4:]).all()  # no partner, no ratings, a partner without ratings


def _support_layout(stories, rng, noise=0.0):
    """Toy rows of paired meanings: ``ending_definition_margin`` says which meaning the ending
    supports (the ratings follow it), every other margin is noise; the partner's margins are
    the negatives, as the features' are."""
    signal = ambistory.FEATURES.index("ending_definition_margin")
    margins = [ambistory.FEATURES.index(name) for name in ambistory.SUPPORT_INPUTS]
    matrix = np.zeros((2 * stories, len(ambistory.FEATURES)))
    samples = []
    for story in range(stories):
        row = np.zeros(len(ambistory.FEATURES))
        row[margins] = rng.normal(size=len(margins))
        supported = row[signal] + noise * rng.normal() > 0
        matrix[2 * story], matrix[2 * story + 1] = row, -row
        high, low = (5, 4), (1, 2)
        for meaning, choices in (("a", high if supported else low),
                                 ("b", low if supported else high)):
            samples.append(_story(f"{story}{meaning}", f"word{story % 10}", story, meaning,
                                  "E.", choices))
    matrix[:, ambistory.FEATURES.index("has_ending")] = 1.0
    return samples, matrix


def test_support_classifier_picks_the_meaning_the_ending_supports():
    rng = np.random.default_rng(0)
    samples, matrix = _support_layout(300, rng)
    classifier = ambistory.SupportClassifier(C=1.0).fit(matrix, ambistory.support_gaps(samples))
    _, unseen = _support_layout(50, np.random.default_rng(1))
    truth = unseen[:, ambistory.FEATURES.index("ending_definition_margin")] > 0
    assert (classifier.predict(unseen) == truth).mean() > 0.9
    probabilities = classifier.predict_proba(unseen)[:, 1]
    # the two meanings of a story: the inputs swap sign, the probabilities sum to 1
    assert np.allclose(probabilities[0::2] + probabilities[1::2], 1.0)
    open_ended = unseen.copy()
    open_ended[:, ambistory.FEATURES.index("has_ending")] = 0.0  # no open-ended story to learn
    assert (classifier.predict_proba(open_ended)[:, 1] == ambistory.NO_SUPPORT_EVIDENCE).all()


def test_support_column_is_out_of_fold_on_train_and_fitted_on_all_of_it_elsewhere():
    rng = np.random.default_rng(2)
    samples, matrix = _support_layout(120, rng, noise=1.0)
    train = ambistory.FeaturizedSplit(samples, matrix.copy(), Counter(), [])
    dev_samples, dev_matrix = _support_layout(20, np.random.default_rng(3))
    dev = ambistory.FeaturizedSplit(dev_samples, dev_matrix.copy(), Counter(), [])
    folds = ambistory.homonym_folds(samples)
    ambistory.add_support(train, [dev], folds)
    column = ambistory.FEATURES.index("support_probability")
    gaps = ambistory.support_gaps(samples)
    everything = ambistory.SupportClassifier().fit(matrix, gaps)
    assert np.allclose(dev.matrix[:, column], everything.predict_proba(dev_matrix)[:, 1])
    in_sample = everything.predict_proba(matrix)[:, 1]
    assert not np.allclose(train.matrix[:, column], in_sample)
    fitted, held = folds[0]
    from_the_others = ambistory.SupportClassifier().fit(matrix[fitted], gaps[fitted])
    assert np.allclose(train.matrix[held, column],
                       from_the_others.predict_proba(matrix[held])[:, 1])
    # only the support column was written
    assert np.array_equal(np.delete(train.matrix, column, axis=1),
                          np.delete(matrix, column, axis=1))


def test_the_rater_does_not_read_the_support_group_unless_told():
    assert "support" in ambistory.FEATURE_GROUPS
    assert "support" not in ambistory.RATER_GROUPS
    assert ambistory.PlausibilityRater().groups == ambistory.RATER_GROUPS
    assert "support_probability" not in ambistory.SUPPORT_INPUTS
    assert set(ambistory.SUPPORT_INPUTS) >= set(ambistory.FEATURE_GROUPS["siblings"])


def test_support_trial_compares_the_rater_with_and_without_the_group():
    rng = np.random.default_rng(4)
    samples, matrix = _support_layout(60, rng, noise=0.5)
    train = ambistory.FeaturizedSplit(samples, matrix, Counter(), [])
    params = {"model": "ridge", "alpha": 1.0, "integers": "round"}
    trials = ambistory.support_trial(params, train)
    assert [trial["seed"] for trial in trials] == list(ambistory.TRIAL_SEEDS)
    for trial in trials:
        assert trial["support_auc"]["ended"] > 0.8
        assert trial["support_auc"]["open-ended"] is None  # the toy has no open-ended story
        assert set(trial) == {"seed", "support_auc", "without support", "with support"}
        assert trial["with support"]["samples"] == 120
    assert (matrix[:, ambistory.FEATURES.index("support_probability")] == 0).all()  # a copy
