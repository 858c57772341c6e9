"""``bench/semcor.py``'s studies (``bench/semcor_studies``): ``--tune-combo-mixture`` on the
miniature SemCor (stacking combo's members once and refitting only the combiner must give the
combo that training fits with those parameters), the rescaled groups, the example-lexelt rules,
the discourse study's counts per part of speech and the svm parameter ``--tune-svm`` sets."""
from __future__ import annotations

import time
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from wsd_classic import modelstore
from wsd_classic.systems.combination import POOLS
from wsd_classic.tasks import allwords
from wsd_classic.tasks.timing import StageTimer
from wsd_classic.workers import in_workers

from bench.semcor_studies.combo import lexelts_with_unseen_candidates, restricted
from bench.semcor_studies.combo_mixture import combined, pooled_defaults, stacked_combo
from bench.semcor_studies.discourse import discourse_results
from bench.semcor_studies.examples import (EXAMPLE_LEXELT_RULES, sense_counts,
                                     with_examples_of)
from bench.semcor_studies.held_out import TASK
from bench.semcor_studies.scale import RescaledFeaturizer, rescaled, with_factors
from bench.semcor_studies.svm_parameter import with_svm_param

pytestmark = pytest.mark.filterwarnings("ignore:The multilingual functions are not available")

SEMCOR = Path(__file__).parent / "fixtures" / "allwords_semcor"
DEFAULTS = {"linear": (-1.0, 2.0, 8.0, -10.0, 7.0, -8.0, 7.5),
            "geometric": (3.0, -2.0, -0.4, 0.7, -0.4, 4.0)}


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("WSD_CLASSIC_CACHE", str(tmp_path_factory.getbasetemp() / "cache"))
        yield allwords.prepare_training(
            SEMCOR, featurizer=TASK.featurizer(["combo"]))


@pytest.fixture(scope="module")
def stacked(data):
    return stacked_combo(data, jobs=1)


@pytest.mark.parametrize("pool", list(POOLS))
@pytest.mark.parametrize("shrinkage", [0.5, 10.0])
def test_refitted_combiner_is_combos_own_training(data, stacked, pool, shrinkage):
    trained = allwords.train_system(
        "combo", data, params={"pool": pool, "default_params": DEFAULTS[pool],
                               "shrinkage": shrinkage})
    refitted = combined(stacked, pool, DEFAULTS[pool], shrinkage,
                               data.featurized.featurizer)
    assert set(refitted.models) == set(trained.models)
    fitted = [item for item, (_, evidence) in stacked.items() if len(evidence[2])]
    assert fitted, "the fixture must give some lexelt held-out evidence"
    for item in refitted.models:
        assert refitted.models[item].mixture_ == pytest.approx(trained.models[item].mixture_)
        assert refitted.models[item].get_params() == trained.models[item].get_params()


def test_infinite_shrinkage_keeps_the_defaults(data, stacked):
    refitted = combined(stacked, "linear", DEFAULTS["linear"], np.inf,
                               data.featurized.featurizer)
    # defaults registered before ppr's component take the pool's neutral start for it
    assert all(model.mixture_ == pytest.approx([*DEFAULTS["linear"], 0.0])
               for model in refitted.models.values())


@pytest.mark.parametrize("pool", list(POOLS))
def test_pooled_defaults_are_within_bounds_and_reproducible(stacked, pool):
    pooled = pooled_defaults(stacked, pool)
    assert len(pooled) == len(POOLS[pool].parameters)
    assert all(low <= value <= high for value, (low, high) in zip(pooled, POOLS[pool].bounds))
    assert pooled_defaults(stacked, pool) == pooled


@pytest.mark.parametrize("group", ["emb", "gloss"])
def test_rescaled_group_is_scaled_and_the_other_groups_kept(data, group):
    scaled_corpus = rescaled(data.featurized, group, 3.0)
    assert scaled_corpus.features.keys() == data.featurized.features.keys()
    blocks = 0
    for identifier, groups in data.featurized.features.items():
        for other in groups:
            if other != group:
                assert scaled_corpus.features[identifier][other] is groups[other]
        for block, scaled in zip(groups[group], scaled_corpus.features[identifier][group], strict=True):
            assert scaled.names is block.names
            assert np.asarray(scaled.values) == pytest.approx(3.0 * np.asarray(block.values))
            blocks += 1
    assert blocks, f"the fixture must give {group} blocks"
    # A model trained on the rescaled table tags with what its featurizer makes: the same values.
    made = allwords.featurize(data.corpus, data.featurized.sample, scaled_corpus.featurizer,
                              lambda target: True)
    compared = 0
    for identifier, groups in scaled_corpus.features.items():
        if groups[group]:  # the table features only the targets that need it
            for block, again in zip(groups[group], made.features[identifier][group], strict=True):
                assert np.asarray(again.values) == pytest.approx(np.asarray(block.values))
                compared += 1
    assert compared == blocks


def test_lexelts_with_unseen_candidates_are_where_unseen_senses_change_combo(data):
    unseen = lexelts_with_unseen_candidates(data)
    combo = TASK.system_params("combo")
    plain = allwords.train_system("combo", data, params=combo)
    answering = allwords.train_system("combo", data, params={**combo, "unseen_senses": True})
    changed = {item for item, model in plain.models.items()
               if len(answering.models[item].classes_) > len(model.classes_)}
    assert changed, "the fixture must have a lexelt with a sense no training instance shows"
    assert unseen == changed
    assert restricted(data, unseen).featurized.sample.lexelts == [
        lexelt for lexelt in data.featurized.sample.lexelts if lexelt.item in unseen]


def test_sense_counts_split_an_instances_weight_over_its_distinct_tags():
    from wsd_classic.corpora.model import Instance, Lexelt, LexicalSample

    def instance(number, *answers):
        return Instance(f"bank.n.{number}", "bank.n", "the bank", (4, 8), answers=answers)

    sample = LexicalSample([Lexelt("bank.n", [instance(1, "river"), instance(2, "river", "money"),
                                              instance(3, "money", "money")])], "test")
    assert sense_counts(sample) == {"bank.n": {"river": 1.5, "money": 1.5}}


def test_example_lexelt_rules_differ_where_training_tags_one_sense_of_a_polysemous_word(data):
    counts = sense_counts(data.featurized.sample)
    tagged, polysemous = (rule(counts) for rule in EXAMPLE_LEXELT_RULES.values())
    assert "bank.n" in tagged and tagged < polysemous
    assert {"interest.n", "water.n", "flood.v"} <= polysemous - tagged
    assert "river.n" not in polysemous  # one WordNet sense
    trained = {label: allwords.train_system("svm", with_examples_of(data, lexelts))
               for label, lexelts in (("tagged", tagged), ("polysemous", polysemous))}
    assert list(trained["tagged"].models["interest.n"].classes_) == ["interest%1:21:00::"]
    assert len(trained["polysemous"].models["interest.n"].classes_) > 1
    assert set(trained["tagged"].models["bank.n"].classes_) == set(
        trained["polysemous"].models["bank.n"].classes_)


def test_discourse_results_give_each_part_of_speech_its_best_held_out_weight():
    targets = Counter(n=10, v=10)
    folds = [{"": targets, "0": Counter(n=5, v=8), "0.3": Counter(n=8, v=6)},
             {"": targets, "0": Counter(n=6, v=7), "0.3": Counter(n=7, v=7)}]
    development = {"": Counter(n=4, v=4), "0": Counter(n=1, v=3), "0.3": Counter(n=3, v=1)}
    results = discourse_results(folds, development, ["0", "0.3"])
    assert results["0"]["held_out_semcor_accuracy_by_pos"] == {"n": 0.55, "v": 0.75}
    assert results["0.3"]["held_out_semcor_accuracy_by_fold"] == [0.7, 0.7]
    per_pos = results["best weight per part of speech"]
    assert per_pos["weights"] == {"n": 0.3, "v": 0.0}
    assert per_pos["held_out_semcor_accuracy_by_fold"] == [0.8, 0.7]
    assert per_pos["development_f1"] == 0.75


def test_an_svm_parameter_reaches_the_svm_or_combos_svm_member_only():
    svm = with_svm_param("svm", "C", 0.5)
    assert svm == {**TASK.system_params("svm"), "C": 0.5}
    combo = with_svm_param("combo", "C", 0.5)
    registered = TASK.system_params("combo")
    assert combo["member_params"]["svm"] == {**registered["member_params"]["svm"], "C": 0.5}
    assert {key: value for key, value in combo.items() if key != "member_params"} == {
        key: value for key, value in registered.items() if key != "member_params"}
    assert TASK.system_params("combo") == registered  # the registered ones untouched


def _spin(seconds: float) -> float:
    started = time.process_time()
    while time.process_time() - started < seconds:
        pass
    return seconds


def test_the_benchmark_counts_the_cpu_of_the_workers_a_stage_waited_for():
    timer = StageTimer()
    with timer.stage("work"):
        assert list(in_workers(_spin, [0.3, 0.3], 2)) == [0.3, 0.3]
    assert timer.cpu["work"] >= 0.55  # both workers' time, though they ran side by side
    assert set(timer.seconds) == {"work"}


def test_a_rescaled_featurizer_keeps_its_factors_and_a_loaded_model_gets_them_back(data):
    base = data.featurized.featurizer
    scaled = RescaledFeaturizer(base, {"gloss": 3.0, "nonexistent": 2.0})
    assert scaled.factors == {"gloss": 3.0}
    assert scaled.settings() == base.settings()  # a model file records no factor
    assert scaled.for_groups(["bow", "gloss"]).factors == {"gloss": 3.0}
    assert scaled.for_groups(["bow"]).factors == {}
    made = {name: allwords.featurize(data.corpus, data.featurized.sample, featurizer,
                                     lambda target: True).features
            for name, featurizer in (("base", base), ("scaled", scaled))}
    compared = 0
    for identifier, groups in made["base"].items():
        assert made["scaled"][identifier]["bow"] == groups["bow"]
        for block, again in zip(groups["gloss"], made["scaled"][identifier]["gloss"], strict=True):
            assert np.asarray(again.values) == pytest.approx(3.0 * np.asarray(block.values))
            compared += 1
    assert compared
    loaded = modelstore.TrainedSystem("semcor", "svm", {}, featurizer=base, kind="all-words")
    assert with_factors(loaded, {"gloss": 3.0}).featurizer.factors == {"gloss": 3.0}
