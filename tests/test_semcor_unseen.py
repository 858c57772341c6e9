"""``python -m bench semcor --unseen-senses`` (``bench/semcor_studies/unseen_senses.py``) on the
miniature SemCor: the removal of senses, the held-out table's svm answers against the tagger's,
the subsets and the figures of the study."""
from __future__ import annotations

import dataclasses
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from wsd_classic.corpora.allwords import AllWordsCorpus
from wsd_classic.systems.first_sense import first_sense
from wsd_classic.systems.sense_ranking import BASE_FEATURES, PAIR_FEATURES
from wsd_classic.tasks import allwords
from wsd_classic.tasks.engine import FeaturizedCorpus
from wsd_classic.tasks.tagger import Tagger

from bench.semcor_studies import unseen_senses as semcor_unseen

pytestmark = pytest.mark.filterwarnings("ignore:The multilingual functions are not available")

SEMCOR = Path(__file__).parent / "fixtures" / "allwords_semcor"
SHARE, SEED = 0.5, 0


def every_other_sentence(data: allwords.TrainingData, fold: int):
    """The miniature's held-out split: its three files are too few to hold whole files out."""
    corpus = data.corpus
    testing = [target for target in corpus.targets if target.sentence % 2 == fold]
    training = [target for target in corpus.targets if target.sentence % 2 != fold]
    return dataclasses.replace(data, featurized=FeaturizedCorpus(
        allwords.as_lexical_sample(corpus, training), data.featurized.features,
        data.featurized.featurizer)), testing


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("WSD_CLASSIC_CACHE", str(tmp_path_factory.getbasetemp() / "cache"))
        yield allwords.prepare_training(
            SEMCOR, featurizer=semcor_unseen.TASK.featurizer(["svm"]))


@pytest.fixture(scope="module")
def simulated(data):
    return semcor_unseen.simulate(data, every_other_sentence, SHARE, SEED, jobs=1)


def test_removed_senses_are_a_seeded_share_of_the_polysemous_lexelts_senses(data):
    sample = data.featurized.sample
    removed = semcor_unseen.removed_senses(sample, SHARE, SEED)
    polysemous = {sense for lexelt in sample.lexelts
                  if len(semcor_unseen.wordnet_senses(*lexelt.item.rsplit(".", 1))) >= 2
                  for instance in lexelt.instances for sense in instance.answers}
    assert removed <= polysemous and len(removed) == round(SHARE * len(polysemous))
    assert semcor_unseen.removed_senses(sample, SHARE, SEED) == removed
    assert any(semcor_unseen.removed_senses(sample, SHARE, seed) != removed for seed in range(1, 5))


def test_without_senses_drops_every_instance_of_a_removed_sense_only(data):
    removed = semcor_unseen.removed_senses(data.featurized.sample, SHARE, SEED)
    reduced = semcor_unseen.without_senses(data, removed).featurized.sample
    kept = list(reduced.instances())
    assert not any(removed.intersection(instance.answers) for instance in kept)
    assert len(kept) == sum(not removed.intersection(instance.answers)
                            for instance in data.featurized.sample.instances())


def test_table_answers_as_the_tagger_does(data, simulated):
    table, removal = simulated
    subset, testing = every_other_sentence(data, 0)
    assert sorted(target.id for target in table) == sorted(target.id for target in testing)
    reduced = semcor_unseen.without_senses(subset, set(removal["removed_senses"]))
    svm = allwords.train_system("svm", reduced)
    tagged = Tagger(svm, first_sense, discourse_weight=0.0).tag(
        AllWordsCorpus(data.corpus.source, data.corpus.sentences, testing))
    answers = semcor_unseen.system_answers(table, None, None)
    assert answers == {answer.instance_id: answer.key for answer in tagged}
    ranked = [target for target in table if target.features is not None]
    assert ranked and all(target.features.shape == (len(target.classes), len(BASE_FEATURES))
                          for target in ranked)
    assert all(target.features.shape == (len(target.classes), len(PAIR_FEATURES))
               for target in semcor_unseen.interacting(ranked))


def test_a_ranker_that_reads_only_the_first_sense_answers_it(simulated):
    table, _ = simulated
    coef = np.zeros(len(PAIR_FEATURES))
    coef[PAIR_FEATURES.index("first")] = 10.0
    table = semcor_unseen.interacting(table)
    answers = semcor_unseen.system_answers(
        table, {target.id: coef for target in table}, None)
    for target in table:
        if target.features is not None:
            assert answers[target.id] == semcor_unseen.wordnet_senses(target.lemma,
                                                                      target.pos)[0]


def test_study_scores_the_three_subsets(simulated):
    table, removal = simulated
    table = semcor_unseen.interacting(table)
    result = semcor_unseen.study(table, removal)
    removed = set(removal["removed_senses"])
    svm = result["systems"]["svm"]
    assert svm["c_all"]["targets"] == len(table)
    assert svm["a_removed_senses"]["targets"] == sum(
        bool(removed.intersection(target.keys)) for target in table) > 0
    assert svm["a_removed_senses"]["targets"] <= svm["b_rare_senses"]["targets"]
    assert result["removed_senses"] == len(removed)
    for system in result["systems"].values():
        for figures in system.values():
            assert 0 <= figures["accuracy"] <= 1 and 0 <= figures["macro_f1"] <= 1
    assert "rank stacked" in result["systems"] and "rank back-off h=10" in result["systems"]
    if result["chosen"] is not None:
        assert len(result["registered"]["coef"]) == len(PAIR_FEATURES)


def test_wordnet_order_and_counts_as_if_semcor_had_not_tagged_the_removed_senses(simulated):
    table, removal = simulated
    removed = set(removal["removed_senses"])
    untagged = semcor_unseen.as_if_untagged(table, removed)
    count = PAIR_FEATURES.index("log wordnet count")
    first = PAIR_FEATURES.index("first")
    checked = 0
    for before, after in zip(table, untagged):
        assert before.id == after.id
        if before.features is None:
            assert after.features is None
            continue
        for column, key in enumerate(before.classes):
            if key in removed and semcor_unseen.wordnet_count(key) > 0:
                checked += 1
                assert before.features[column, count] > 0
                assert after.features[column, count] == 0
                # a removed first sense goes behind its lemma's senses that kept a count
                assert after.features[column, first] == 0
    assert checked
    others = [index for index, name in enumerate(BASE_FEATURES)
              if name not in semcor_unseen.WORDNET_ORDER_FEATURES]
    assert all(np.array_equal(before.features[:, others], after.features[:, others])
               for before, after in zip(table, untagged) if before.features is not None)


def test_the_cached_table_round_trips_without_pickle(tmp_path):
    """The study's cache file holds JSON and plain arrays, and reads back equal."""
    HeldOutTarget = semcor_unseen.HeldOutTarget
    table = [HeldOutTarget("d1.s1.t1", "d1", "bank", "n", ("bank%1:14:00::",), (), None),
             HeldOutTarget("d1.s1.t2", "d1", "run", "v", ("run%2:38:00::",), ("a", "b"),
                           np.array([0.25, 0.75]), np.arange(6.0).reshape(2, 3),
                           np.array([True, False]), 0.5),
             HeldOutTarget("d2.s1.t1", "d2", "cold", "a", ("cold%3:00:01::",), ("c",),
                           np.ones(1))]
    removal = {"removed_senses": ["run%2:38:00::"], "training_counts": {"a": 3}}
    path = tmp_path / "table.npz"
    semcor_unseen.save_table(path, table, removal)
    loaded, loaded_removal = semcor_unseen.load_table(path)
    assert loaded_removal == removal
    assert len(loaded) == len(table)
    for before, after in zip(table, loaded):
        for field in dataclasses.fields(HeldOutTarget):
            old, new = getattr(before, field.name), getattr(after, field.name)
            if isinstance(old, np.ndarray):
                np.testing.assert_array_equal(old, new)
            else:
                assert old == new
    with np.load(path, allow_pickle=False) as saved:
        assert all(saved[name].dtype != object for name in saved.files)


def test_the_cached_table_is_named_by_the_svm_s_word_vectors(tmp_path, monkeypatch):
    """A table simulated with other word vectors is not read back for the registered ones."""
    monkeypatch.setenv("WSD_CLASSIC_CACHE", str(tmp_path))
    args = SimpleNamespace(unseen_share=semcor_unseen.SHARE, unseen_seed=semcor_unseen.SEED)
    task = semcor_unseen.TASK
    other = dataclasses.replace(task, embedding=dataclasses.replace(
        task.embedding, sources=("self",)))
    assert semcor_unseen.table_path(args, task) == semcor_unseen.table_path(args)
    assert semcor_unseen.table_path(args, other) != semcor_unseen.table_path(args, task)
    assert semcor_unseen.table_path(args).parent == tmp_path / "bench"
