"""The all-words task on a miniature SemCor and a tiny Raganato dataset (real formats).

The SemCor fixture tags ``bank`` with its river sense (WordNet's first) in one file and its money
sense in another, the money sense once more, so ``mfs`` and ``wn1`` disagree and a system
reading the context can beat both. Training here runs on a handful of words in seconds.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from conftest import plain_row

from wsd_classic import modelstore, systems, wordnet
from wsd_classic.modelstore import TrainedSystem
from wsd_classic.errors import WsdError
from wsd_classic.systems.first_sense import first_sense
from wsd_classic.wordnet import wordnet_senses
from wsd_classic.tasks import allwords, catalogue
from wsd_classic.tasks.tagger import Tagger, tag_raganato
from wsd_classic.corpora.allwords import read_raganato_corpus, read_semcor_corpus
from wsd_classic.corpora.wordnet_examples import WORD, read_wordnet_examples
from wsd_classic.preprocess import sentences
from wsd_classic.preprocess.sentences import analyse, contexts, word_parts

pytestmark = pytest.mark.filterwarnings("ignore:The multilingual functions are not available")

FIXTURES = Path(__file__).parent / "fixtures"
SEMCOR = FIXTURES / "allwords_semcor"
DATASET = FIXTURES / "allwords_sample.data.xml"
DISCOURSE = FIXTURES / "allwords_discourse.data.xml"  # bank twice in d000, once in d001
RIVER, MONEY = "bank%1:17:01::", "bank%1:14:00::"
SEMCOR_TASK = catalogue.SEMCOR


@pytest.fixture(autouse=True)
def private_cache(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("WSD_CLASSIC_CACHE", str(tmp_path_factory.getbasetemp() / "cache"))


@pytest.fixture(scope="module")
def models_root(tmp_path_factory):
    root = tmp_path_factory.mktemp("models")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("WSD_CLASSIC_CACHE", str(tmp_path_factory.getbasetemp() / "cache"))
        report = allwords.train_semcor(SEMCOR, [*SEMCOR_TASK.systems, *SEMCOR_TASK.on_request],
                                       root)
    assert "wn1: nothing to train" in report
    assert "WordNet 3.0 examples of the polysemous lexelts' senses: " in report
    assert "training instances for svm, combo, rank, hybrid\n" in report
    return root


def tag(system, models_root, path=DATASET):
    return {answer.instance_id: answer for answer in tag_raganato(path, system, models_root)}


# --- corpora -----------------------------------------------------------------------------------

def test_semcor_targets_lexelts_and_keys():
    corpus = read_semcor_corpus(SEMCOR)
    assert [s.id for s in corpus.sentences][:2] == ["brown1/br-z01.s1", "brown1/br-z01.s2"]
    banks = [t for t in corpus.targets if t.lexelt == "bank.n"]
    assert [t.keys for t in banks] == [(RIVER,)] * 5 + [(MONEY,)] * 6 + [(MONEY, RIVER)]
    muddy = next(t for t in corpus.targets if t.lemma == "muddy")
    assert (muddy.lexelt, muddy.keys) == ("muddy.a", ("muddy%5:00:00:wet:01",))
    took_place = next(t for t in corpus.targets if t.lemma == "take_place")
    assert corpus.sentences[took_place.sentence].words[took_place.token] == "took_place"


def test_semcor_keys_wordnet_30_lacks_are_left_out_and_counted():
    corpus = read_semcor_corpus(SEMCOR)
    assert corpus.unknown_keys == 1  # jury%1:14:09:: (wnsn=0)
    assert "brown2/br-z02.s7.t4" not in {t.id for t in corpus.targets}
    # brownv's untagged nouns are no targets
    assert [t.lexelt for t in corpus.targets if t.id.startswith("brownv/")] == ["walk.v"]


def test_raganato_targets_with_multiword_lemmas():
    corpus = read_raganato_corpus(DATASET)
    assert [t.id for t in corpus.targets][:3] == ["d000.s000.t000", "d001.s000.t000",
                                                   "d001.s000.t001"]
    took_place = next(t for t in corpus.targets if t.id == "d002.s000.t000")
    assert (took_place.lexelt, took_place.token) == ("take_place.v", 2)


def test_raganato_target_of_unknown_pos_or_lemma_is_an_error(tmp_path):
    for attributes, message in (('lemma="qwzx" pos="X"', "'qwzx' tagged 'X'"),
                                ('lemma="qwzx" pos="NOUN"', "no noun 'qwzx'")):
        path = tmp_path / "bad.data.xml"
        path.write_text('<corpus lang="en"><text id="d"><sentence id="d.s">'
                        f'<instance id="d.s.t" {attributes}>bank</instance>'
                        '</sentence></text></corpus>')
        with pytest.raises(WsdError, match=message) as raised:
            read_raganato_corpus(path)
        assert raised.value.path == str(path)


def test_inflected_lemma_falls_back_to_its_wordnet_base_form(tmp_path):
    path = tmp_path / "inflected.data.xml"
    path.write_text('<corpus lang="en"><text id="d"><sentence id="d.s">'
                    '<instance id="d.s.t" lemma="juries" pos="NOUN">juries</instance>'
                    '</sentence></text></corpus>')
    assert read_raganato_corpus(path).targets[0].lemma == "jury"


# --- preprocessing -----------------------------------------------------------------------------

def test_word_parts_of_multiword_tokens():
    assert word_parts("took_place") == word_parts("took place") == ["took", "place"]
    assert word_parts("change-ringing") == ["change-ringing"]


def test_analysis_keeps_the_corpus_tokens():
    corpus = read_semcor_corpus(SEMCOR)
    analyses = analyse(corpus)
    for sentence, analysis in zip(corpus.sentences, analyses):
        assert len(analysis.words) == len(sentence.words)
        assert set(analysis.sentences) == {0}
    meeting = analyses[[s.id for s in corpus.sentences].index("brown2/br-z02.s7")]
    assert meeting.words[5] == "took place"
    assert meeting.lemmas[5] == "take_place"
    assert meeting.tags[5].startswith("VB")
    assert analyse(corpus) == analyses  # the second time from the cache


def test_analyses_made_in_worker_processes_equal_those_made_here(monkeypatch, tmp_path):
    corpus = read_semcor_corpus(SEMCOR)
    monkeypatch.setattr(sentences, "BATCH_SENTENCES", 2)  # several batches on each worker
    here = analyse(corpus, jobs=1)
    monkeypatch.setattr(sentences, "PARALLEL_MIN_SENTENCES", 1)
    monkeypatch.setenv("WSD_CLASSIC_CACHE", str(tmp_path))  # not the analyses above
    assert analyse(corpus, jobs=2) == here


def test_contexts_share_a_window_and_stay_in_the_document():
    corpus = read_semcor_corpus(SEMCOR)
    analyses = analyse(corpus)
    docs = list(contexts(corpus, analyses, context_sentences=1))
    assert [doc.id for doc in docs] == [target.id for target in corpus.targets]
    first = [doc for doc in docs if doc.id.startswith("brown1/br-z01.s1.")]
    assert len(first) == 4 and all(doc.words is first[0].words for doc in first)
    assert set(first[0].sentences) == {0, 1}  # no previous sentence, the next one
    middle = next(doc for doc in docs if doc.id.startswith("brown1/br-z01.s2."))
    assert set(middle.sentences) == {0, 1, 2}
    assert middle.words[middle.target] == "boat"
    last_of_file = next(doc for doc in docs if doc.id.startswith("brown1/br-z01.s3."))
    assert "deposited" not in last_of_file.words  # the next file is another document
    alone = next(iter(contexts(corpus, analyses, context_sentences=0)))
    assert alone.words == analyses[0].words and alone.lexelt == "fish.v"


def test_empty_sentences_are_analysed_as_empty(tmp_path):
    path = tmp_path / "empty.data.xml"
    path.write_text('<corpus lang="en"><text id="d"><sentence id="d.s0"></sentence>'
                    '<sentence id="d.s1"><wf lemma="a" pos="DET">A</wf>'
                    '<instance id="d.s1.t0" lemma="bank" pos="NOUN">bank</instance></sentence>'
                    '</text></corpus>')
    corpus = read_raganato_corpus(path)
    analyses = analyse(corpus)
    assert analyses[0].words == () and analyses[1].words == ("A", "bank")
    (doc,) = contexts(corpus, analyses, context_sentences=1)
    assert doc.words == ("A", "bank") and doc.target == 1


# --- training and tagging ----------------------------------------------------------------------

def test_trained_models_cover_every_semcor_lexelt(models_root):
    svm = modelstore.load(models_root, SEMCOR_TASK.name, "svm")
    assert svm.featurizer.context == SEMCOR_TASK.context  # the task's rule, in the header
    assert svm.kind == catalogue.ALL_WORDS
    assert svm.info["all_words_system"] == "svm"
    assert {"bank.n", "jury.n", "take_place.v", "walk.v"} <= set(svm.models)
    assert svm.models["river.n"].vocabulary_ == {}  # one sense: nothing to learn from features
    # SemCor tags jury.n with one of its two senses: dlist, without WordNet's examples, too
    dlist = modelstore.load(models_root, SEMCOR_TASK.name, "dlist")
    assert list(dlist.models["jury.n"].classes_) == ["jury%1:14:00::"]
    assert dlist.models["jury.n"].vocabulary_ == {}  # its features are not kept either
    mfs = modelstore.load(models_root, SEMCOR_TASK.name, "mfs")
    assert mfs.info["all_words_system"] == "mfs"
    assert list(mfs.models["bank.n"].classes_) == sorted([RIVER, MONEY])
    assert (models_root / SEMCOR_TASK.name / "mfs" / modelstore.FILENAME).is_file()
    assert not (models_root / SEMCOR_TASK.name / "commonest").exists()


@pytest.mark.parametrize("system", list(SEMCOR_TASK.systems))
def test_one_candidate_key_per_instance_in_input_order(system, models_root):
    answers = list(tag_raganato(DATASET, system, models_root))
    corpus = read_raganato_corpus(DATASET)
    assert [a.instance_id for a in answers] == [t.id for t in corpus.targets]
    for answer, target in zip(answers, corpus.targets):
        candidates = wordnet_senses(target.lemma, target.pos)
        assert answer.key in candidates
        assert [key for key, _ in answer.senses] != [] and answer.senses[0][0] == answer.key
        assert sorted(key for key, _ in answer.senses) == sorted(candidates)
        weights = [weight for _, weight in answer.senses]
        assert sum(weights) == pytest.approx(1.0)
        assert weights == sorted(weights, reverse=True)
        assert answer.rank == candidates.index(answer.key) + 1


def test_unseen_lemmas_get_wordnet_first_sense(models_root):
    for system in ("wn1", "svm", "dlist"):
        answers = tag(system, models_root)
        assert answers["d001.s000.t000"].key == "loan%1:21:00::"  # loan: context, never tagged
        assert answers["d002.s001.t001"].key == "old%3:00:02::"
        assert answers["d002.s001.t000"].key == "peculiarity%1:09:00::"
        assert answers["d002.s001.t000"].senses[0] == ("peculiarity%1:09:00::", 1.0)


def test_mfs_answers_unseen_lemmas_without_wordnet_sense_counts(models_root):
    answers = tag("mfs", models_root)
    for instance, lemma, pos in (("d002.s001.t001", "old", "a"),
                                 ("d002.s001.t000", "peculiarity", "n")):
        candidates = wordnet_senses(lemma, pos)
        first_in_database = min(
            candidates, key=lambda key: wordnet.lemma_of_key(key).synset().offset())
        assert first_in_database != candidates[0]  # else the test could not tell them apart
        assert answers[instance].key == first_in_database
        assert answers[instance].senses[0] == (first_in_database, 1.0)
        assert answers[instance].rank == candidates.index(first_in_database) + 1


def test_mfs_wn1_and_svm_on_bank(models_root):
    mfs, wn1, svm = (tag(system, models_root) for system in ("mfs", "wn1", "svm"))
    assert mfs["d000.s000.t000"].key == MONEY  # SemCor's (the fixture's) most frequent sense
    assert mfs["d000.s000.t000"].rank == 2
    assert dict(mfs["d000.s000.t000"].senses)[MONEY] == pytest.approx(6.5 / 12)
    assert wn1["d000.s000.t000"].key == RIVER and wn1["d001.s000.t001"].key == RIVER
    assert svm["d000.s000.t000"].key == RIVER  # the river flooded the bank
    assert svm["d001.s000.t001"].key == MONEY  # a loan from the bank with interest


def test_the_svm_model_file_keeps_the_tasks_embedding_rule_and_learns_gloss_embeddings(
        models_root):
    svm = modelstore.load(models_root, SEMCOR_TASK.name, "svm")
    assert svm.featurizer.embedding.rule == SEMCOR_TASK.embedding
    assert SEMCOR_TASK.embedding.gloss > 0
    learnt = {name for name in svm.models["bank.n"].vocabulary_ if name.startswith("embgloss=")}
    assert learnt == {f"embgloss={key}" for key in wordnet_senses("bank", "n")}


def test_svm_parameters_reach_every_lexelt_and_its_model_file(models_root):
    svm = modelstore.load(models_root, SEMCOR_TASK.name, "svm")
    assert svm.models["bank.n"].get_params()["min_instances"] == \
        SEMCOR_TASK.params["svm"]["min_instances"]
    data = allwords.prepare_training(SEMCOR)
    counted = allwords.train_system("svm", data, params={"min_instances": 13},  # bank: 12
                                    wordnet_examples=False)
    mfs = allwords.train_system("mfs", data)
    assert counted.models["bank.n"].min_instances == 13
    bank = read_raganato_corpus(DATASET)
    answers = {a.instance_id: a for a in Tagger(counted, first_sense, 0.0).tag(bank)}
    expected = {a.instance_id: a for a in Tagger(mfs, first_sense, 0.0).tag(bank)}
    for instance in ("d000.s000.t000", "d001.s000.t001"):
        assert answers[instance].senses == pytest.approx(expected[instance].senses)


def test_combo_mixture_parameters_of_the_task_reach_every_lexelt(models_root):
    combo = modelstore.load(models_root, SEMCOR_TASK.name, "combo")
    registered = SEMCOR_TASK.params["combo"]
    assert registered["default_params"] != systems.get("combo").params["default_params"]
    for model in combo.models.values():
        assert tuple(model.get_params()["default_params"]) == registered["default_params"]
        assert model.get_params()["shrinkage"] == registered["shrinkage"]


def test_wordnet_examples_are_targets_of_the_sense_they_illustrate():
    corpus = read_wordnet_examples(["bank.n", "take_place.v", "walk.v"])
    assert len({target.id for target in corpus.targets}) == len(corpus.targets)
    assert [target.sentence for target in corpus.targets] == list(range(len(corpus.sentences)))
    for target in corpus.targets:
        (key,) = target.keys
        assert key in wordnet_senses(target.lemma, target.pos)
        words = [word.replace("_", " ") for word in corpus.sentences[target.sentence].words]
        assert " ".join(words) in {" ".join(WORD.findall(example))
                                   for example in wordnet.examples(key)}
    words = {(target.lexelt, corpus.sentences[target.sentence].words[target.token])
             for target in corpus.targets}
    assert {("walk.v", "walked"), ("walk.v", "walks"), ("bank.n", "bank"),
            ("take_place.v", "took_place")} <= words
    bank = [target.keys[0] for target in corpus.targets if target.lexelt == "bank.n"]
    with_examples = [key for key in wordnet_senses("bank", "n") if wordnet.examples(key)]
    assert sorted(set(bank)) == sorted(with_examples)  # each of its examples uses "bank"
    assert bank.count(RIVER) == len(wordnet.examples(RIVER)) == 2


def test_examples_not_using_the_lemma_are_left_out():
    # bank's money sense: its synset's examples illustrate it with "bank", not this lemma
    lexelt = "depository_financial_institution.n"
    key = wordnet_senses("depository_financial_institution", "n")[0]
    assert wordnet.examples(key) == wordnet.examples(MONEY)
    assert read_wordnet_examples([lexelt]).targets == []


def test_svm_trains_on_wordnet_examples_and_the_others_do_not(models_root):
    svm = modelstore.load(models_root, SEMCOR_TASK.name, "svm")
    data = allwords.prepare_training(SEMCOR)
    assert svm.info["wordnet_examples"] == len(data.examples.sample) > 0
    # senses SemCor never tagged get their examples as training instances
    assert {RIVER, MONEY, "bank%1:04:00::"} <= set(svm.models["bank.n"].classes_)
    # SemCor tags interest.n with one sense; WordNet's examples give it others
    interest = set(svm.models["interest.n"].classes_)
    assert {"interest%1:21:00::", "interest%1:07:01::", "interest%1:09:00::"} <= interest
    assert data.info["multi_sense_lexelts"] < data.info["polysemous_lexelts"]
    # a monosemous lexelt learns nothing from examples
    assert list(svm.models["river.n"].classes_) == ["river%1:17:00::"]
    for name in ("mfs", "dlist"):
        trained = modelstore.load(models_root, SEMCOR_TASK.name, name)
        assert trained.info["wordnet_examples"] == 0
        assert len(trained.models["bank.n"].classes_) == 2
        assert list(trained.models["interest.n"].classes_) == ["interest%1:21:00::"]
    without = allwords.prepare_training(SEMCOR, with_features=False)
    assert without.examples is None
    with pytest.raises(WsdError, match="svm trains on WordNet's examples"):
        allwords.train_system("svm", without)


def test_examples_are_read_only_for_a_system_that_trains_on_them(tmp_path):
    report = allwords.train_semcor(SEMCOR, ["dlist"], tmp_path)
    assert "WordNet 3.0 examples" not in report
    assert modelstore.load(tmp_path, SEMCOR_TASK.name, "dlist").info["wordnet_examples"] == 0


def test_seen_single_sense_lemmas_answer_that_sense(models_root):
    for system in ("mfs", "svm", "dlist"):
        answers = tag(system, models_root)
        assert answers["d002.s000.t000"].key == "take_place%2:30:00::"
        assert answers["d002.s001.t002"].key == "jury%1:14:00::"


def test_targets_of_one_lexelt_in_one_document_are_pulled_together(models_root):
    trained = modelstore.load(models_root, SEMCOR_TASK.name, "svm")
    corpus = read_raganato_corpus(DISCOURSE)
    alone = {a.instance_id: a for a in Tagger(trained, first_sense, 0.0).tag(corpus)}
    weight = 0.4
    pulled = {a.instance_id: a for a in Tagger(trained, first_sense, weight).tag(corpus)}
    river, money = "d000.s000.t000", "d000.s001.t001"
    assert alone[river].key == RIVER and alone[money].key == MONEY
    for one, other in ((river, money), (money, river)):
        expected = {key: (1 - weight) * probability + weight * dict(alone[other].senses)[key]
                    for key, probability in alone[one].senses}
        assert dict(pulled[one].senses) == pytest.approx(expected)
        assert dict(pulled[one].senses) != pytest.approx(dict(alone[one].senses))
        weights = [probability for _, probability in pulled[one].senses]
        assert weights == sorted(weights, reverse=True)
        assert pulled[one].key == pulled[one].senses[0][0]
        assert pulled[one].rank == wordnet_senses("bank", "n").index(pulled[one].key) + 1
    # alone in its document (d001), or in its lexelt (loan): as without the rule
    assert pulled["d001.s000.t000"] == alone["d001.s000.t000"]
    assert alone["d001.s000.t000"].senses == alone[river].senses
    assert pulled["d000.s001.t000"] == alone["d000.s001.t000"]


def test_the_taggers_of_a_task_pull_with_the_weights_its_models_were_trained_with(
        models_root, monkeypatch):
    assert SEMCOR_TASK.discourse_weights  # else the rule would go untested here
    trained_with = dict(SEMCOR_TASK.discourse_weights)
    answers = {a.instance_id: a for a in tag_raganato(DISCOURSE, "svm", models_root)}
    assert answers["d000.s000.t000"].senses != answers["d001.s000.t000"].senses
    # The catalogue is read at training only: changed afterwards, tagging does not see it.
    for system in trained_with:
        monkeypatch.delitem(SEMCOR_TASK.discourse_weights, system)
    for system in (*SEMCOR_TASK.systems, *SEMCOR_TASK.on_request):
        tagger = Tagger.load(system, models_root)
        assert tagger.discourse_weight == trained_with.get(system, 0.0)
    assert {a.instance_id: a for a in tag_raganato(DISCOURSE, "svm", models_root)} == answers


def test_decide_keeps_only_candidates_and_breaks_ties_by_wordnet_order():
    lexelt = read_raganato_corpus(DATASET).targets[0].lexelt
    assert lexelt == "bank.n"
    tagger = Tagger(TrainedSystem(SEMCOR_TASK.name, "wn1", {}, kind=catalogue.ALL_WORDS))
    senses, rank = tagger.decide(lexelt, {"bank%1:14:00::": 0.5, "bank%1:17:01::": 0.5,
                                          "bunk%1:06:00::": 3.0})
    assert senses[0][0] == RIVER and rank == 1
    assert dict(senses)[MONEY] == 0.5
    assert tagger.decide(lexelt, None)[0][0] == (RIVER, 1.0)
    assert tagger.decide(lexelt, {"bunk%1:06:00::": 1.0})[0][0][0] == RIVER


def test_unknown_system_and_missing_model_are_errors(tmp_path):
    with pytest.raises(WsdError, match="unknown system lesk"):
        list(tag_raganato(DATASET, "lesk", tmp_path))
    with pytest.raises(WsdError, match="no semcor/svm model"):
        list(tag_raganato(DATASET, "svm", tmp_path))


def test_semcor_is_featurized_with_the_task_s_installed_vectors_when_no_featurizer_is_given():
    data = allwords.prepare_training(SEMCOR)
    assert data.featurized.featurizer.embedding.rule == catalogue.SEMCOR.embedding
    assert data.featurized.featurizer.embedding.vectors is None  # installed ones only
    assert any(features["emb"] for features in data.featurized.features.values())
