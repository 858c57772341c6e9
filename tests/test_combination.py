"""The combination of svm, dlist and lesk-corpus, stacked on held-out folds per lexelt."""
import numpy as np
import pytest

from wsd_classic import systems
from wsd_classic.features.weighted import Weighted
from wsd_classic.systems import combination
from wsd_classic.systems.base import SenseClassifier
from wsd_classic.systems.combination import Combination
from wsd_classic.tasks import catalogue

RIVER, MONEY, SHORE = "bank%1:17:01::", "bank%1:14:00::", "bank%1:17:00::"
NAMES = tuple(f"gloss={key}" for key in (RIVER, MONEY, SHORE))


def lexelt(repeats=6):
    """Rows with every group's features (a unique ``bow=id<n>`` each) and a gloss block."""
    X, y = [], []
    for index in range(repeats):
        for sense, words, values in ((RIVER, ("river", "water"), (0.6, 0.1, 0.3)),
                                     (MONEY, ("money", "loan"), (0.1, 0.7, 0.0))):
            X.append([f"bow={words[0]}", f"bow={words[1]}", f"bow=id{len(X)}",
                      f"col-1,-1={words[0]}", "pos0=NN", f"syn:head={words[1]}",
                      Weighted(NAMES, np.array(values))])
            y.append(sense)
    return X, y


class Recorder(SenseClassifier):
    """A member that remembers what it was fitted on and what it was asked."""

    feature_groups = ("bow",)
    fitted: list = []
    asked: list = []

    def __init__(self, C=1.0, calibrate=True, alpha=1.0, min_count=1):  # the members' parameters
        self.C, self.calibrate, self.alpha, self.min_count = C, calibrate, alpha, min_count

    def fit(self, X, y, sample_weight=None):
        self.prior_ = self._prior(y, sample_weight)
        Recorder.fitted.append(([list(row) for row in X], list(y)))
        self.seen_ = {row_id(row) for row in X}
        return self

    def predict_proba(self, X):
        Recorder.asked.append((self.seen_, [row_id(row) for row in X]))
        return np.tile(self.prior_, (len(X), 1))

    decision_function = predict_proba


def row_id(row):
    return next(name for name in row if isinstance(name, str) and name.startswith("bow=id"))


@pytest.fixture
def recorded(monkeypatch):
    Recorder.fitted, Recorder.asked = [], []
    monkeypatch.setattr(combination, "MEMBERS", {"svm": Recorder, "dlist": Recorder})
    return Recorder


def test_the_combination_beats_chance_and_gives_distributions():
    X, y = lexelt()
    model = systems.make("combo").fit(X, y)
    proba = model.predict_proba(X)
    assert np.allclose(proba.sum(axis=1), 1)
    assert (model.predict(X) == np.array(y)).all()
    assert model.members_ == ["svm", "dlist", "lesk-corpus"]
    assert len(model.mixture_) == len(combination.POOLS[model.pool].parameters)


def test_state_round_trips_with_identical_predictions():
    X, y = lexelt()
    model = systems.make("combo").fit(X, y)
    meta, arrays = model.get_state()
    restored = Combination.from_state(model.get_params(), meta, arrays)
    assert np.array_equal(restored.predict_proba(X), model.predict_proba(X))
    assert {name.split("/")[0] for name in arrays if "/" in name} == set(model.members_)


def test_stacking_never_predicts_an_instance_its_member_was_fitted_on(recorded):
    X, y = lexelt()
    Combination(folds=3).fit(X, y)
    fold_fits = recorded.fitted[:-len(combination.MEMBERS)]  # the last fits take all the data
    assert len(fold_fits) == 3 * len(combination.MEMBERS)
    for seen, asked in recorded.asked:
        assert not seen & set(asked)
    held_out = [row for seen, asked in recorded.asked for row in asked]
    assert sorted(held_out) == sorted([row_id(row) for row in X] * len(combination.MEMBERS))


def test_members_receive_only_the_groups_they_read(recorded):
    X, y = lexelt()
    model = Combination(folds=3).fit(X, y)
    assert all(name.startswith("bow=") for rows, _ in recorded.fitted for row in rows
               for name in row)
    assert model.members_ == ["svm", "dlist"]  # lesk-corpus is not a member here


def test_without_wordnet_keys_only_svm_and_dlist_are_combined_and_gloss_is_unused():
    X, y = lexelt()
    y = ["river" if sense == RIVER else "money" for sense in y]
    model = systems.make("combo").fit(X, y)
    assert model.members_ == ["svm", "dlist"]
    assert model.components() == ["svm", "dlist", "prior"]
    assert (model.predict(X) == np.array(y)).all()


def test_unseen_senses_are_answered_from_their_gloss_evidence():
    X, y = lexelt()
    model = Combination(unseen_senses=True, default_params=(0, 2, 0, 0, 0, 0, 3), shrinkage=1e6)
    model.fit(X, y)
    assert SHORE in model.classes_.tolist()
    shore = ["bow=zebra", Weighted(NAMES, np.array([0.0, 0.0, 1.0]))]
    assert model.predict([shore])[0] == SHORE


def test_a_lexelt_with_fewer_instances_than_folds_keeps_the_default_parameters():
    X, y = lexelt(repeats=1)
    model = Combination(default_params=(-1, 1, 2, 1, 0.5, 0.1, 3, 0.2)).fit(X, y)
    assert model.mixture_ == [-1, 1, 2, 1, 0.5, 0.1, 3, 0.2]


def test_defaults_registered_before_ppr_take_the_neutral_start_for_it():
    X, y = lexelt(repeats=1)
    model = Combination(default_params=(-1, 1, 2, 1, 0.5, 0.1, 3)).fit(X, y)
    assert model.mixture_ == [-1, 1, 2, 1, 0.5, 0.1, 3, 0.0]


@pytest.fixture
def counted_svm_fits(monkeypatch):
    from wsd_classic.systems import svm

    fits = []
    real = svm._fit_svc
    monkeypatch.setattr(svm, "_fit_svc", lambda *args: fits.append(1) or real(*args))
    return fits


def test_a_fitted_svm_is_reused_with_its_held_out_decisions_and_changes_nothing(counted_svm_fits):
    X, y = lexelt(repeats=8)
    alone = systems.make("combo").fit(X, y)
    svm = systems.make("svm").fit(X, y)
    counted_svm_fits.clear()
    reusing = systems.make("combo").fit(X, y, fitted_members={"svm": svm})
    assert counted_svm_fits == []  # neither the folds' svms nor the final one fitted again
    assert np.array_equal(reusing.predict_proba(X), alone.predict_proba(X))
    assert reusing.mixture_ == alone.mixture_
    assert reusing.get_state()[0] == alone.get_state()[0]  # the member stored uncalibrated


def test_a_fitted_member_with_other_parameters_is_fitted_again(counted_svm_fits):
    X, y = lexelt(repeats=8)
    alone = systems.make("combo").fit(X, y)
    other = systems.make("svm", C=0.01).fit(X, y)
    counted_svm_fits.clear()
    refitted = systems.make("combo").fit(X, y, fitted_members={"svm": other})
    assert len(counted_svm_fits) == 6  # five folds and all the data
    assert np.array_equal(refitted.predict_proba(X), alone.predict_proba(X))


def test_senseval2_s_combo_reuses_the_svm_its_run_trains(counted_svm_fits):
    """The task's svm parameters (liblinear's tolerance) are its combo's svm member's, so a run
    fits the svm's folds once; SemCor's combo fits its own svm member at liblinear's default
    tolerance (its member's C differs from the svm's anyway)."""
    from wsd_classic.tasks import catalogue

    task = catalogue.SENSEVAL2_LS
    X, y = lexelt(repeats=8)
    svm = systems.make("svm", **task.system_params("svm")).fit(X, y)
    counted_svm_fits.clear()
    systems.make("combo", **task.system_params("combo")).fit(X, y, fitted_members={"svm": svm})
    assert counted_svm_fits == []
    assert task.system_params("svm")["tol"] != systems.make("svm").tol
    semcor_member = catalogue.SEMCOR.system_params("combo")["member_params"]["svm"]
    assert systems.make("svm", **semcor_member).tol == systems.make("svm").tol


def test_the_engine_gives_a_combination_the_members_trained_before_it(tiny_models,
                                                                      counted_svm_fits):
    from wsd_classic.tasks import engine

    _, task, corpus = tiny_models
    alone = engine.train("combo", corpus, task, progress=False)
    svm = engine.train("svm", corpus, task, progress=False)
    counted_svm_fits.clear()
    reusing = engine.train("combo", corpus, task, progress=False, fitted={"svm": svm})
    assert counted_svm_fits == []
    rows = corpus.rows(list(corpus.sample.instances()), Combination.feature_groups)
    assert sorted(reusing.models) == sorted(alone.models)
    for item, model in reusing.models.items():
        assert model.models_["svm"] is not svm.models[item]  # a view, the svm left calibrated
        assert np.array_equal(model.predict_proba(rows), alone.models[item].predict_proba(rows))


def test_the_top_sense_map_moves_the_top_sense_only_and_keeps_the_answer():
    # a curve that raises every top probability by 0.1 (capped at 1)
    curve = tuple(np.minimum(combination.TOP_SENSE_GRID + 0.1, 1.0))
    proba = np.array([[0.5, 0.3, 0.2, 0.0],     # 0.5 -> 0.6; the others share 0.4 as 3:2
                      [0.0, 1.0, 0.0, 0.0]])    # everything on one sense: unchanged
    mapped = combination.mapped_top_sense(proba, curve)
    assert np.allclose(mapped[0], [0.6, 0.24, 0.16, 0.0])
    assert np.array_equal(mapped[1], proba[1])
    assert np.array_equal(combination.mapped_top_sense(proba, ()), proba)


def test_the_top_sense_map_leaves_a_row_whose_top_sense_it_would_overturn():
    lowered = tuple(combination.TOP_SENSE_GRID / 2)
    proba = np.array([[0.4, 0.35, 0.25],   # 0.4 -> 0.2 would put 0.35 x 0.8 / 0.6 above it
                      [0.9, 0.05, 0.05]])  # 0.9 -> 0.45, the others 0.275 each: still the top
    mapped = combination.mapped_top_sense(proba, lowered)
    assert np.array_equal(mapped[0], proba[0])
    assert np.allclose(mapped[1], [0.45, 0.275, 0.275])
    assert (mapped.argmax(axis=1) == proba.argmax(axis=1)).all()


def test_the_fitted_top_sense_map_follows_held_out_correctness_monotonically():
    rng = np.random.default_rng(0)
    confidence = rng.uniform(0.2, 1.0, 4000)
    # right more often than the probability says: 0.1 above it
    correct = rng.uniform(size=4000) < np.minimum(confidence + 0.1, 1.0)
    curve = np.array(combination.fit_top_sense_map(confidence, correct))
    assert curve.shape == combination.TOP_SENSE_GRID.shape
    assert (np.diff(curve) >= 0).all()
    middle = (combination.TOP_SENSE_GRID >= 0.3) & (combination.TOP_SENSE_GRID <= 0.8)
    assert np.allclose(curve[middle], combination.TOP_SENSE_GRID[middle] + 0.1, atol=0.06)


def test_a_combination_applies_its_top_sense_map_to_every_prediction():
    X, y = lexelt()
    plain = systems.make("combo", top_sense_map=()).fit(X, y)
    lowered = tuple(combination.TOP_SENSE_GRID * 0.9)
    mapped = systems.make("combo", top_sense_map=lowered).fit(X, y)
    expected = combination.mapped_top_sense(plain.predict_proba(X), lowered)
    assert np.allclose(mapped.predict_proba(X), expected)
    assert not np.allclose(expected, plain.predict_proba(X))


def test_only_the_task_whose_held_out_distributions_fitted_the_map_applies_it():
    fitted_on = catalogue.SENSEVAL2_LS.system_params("combo")["top_sense_map"]
    assert len(fitted_on) == len(combination.TOP_SENSE_GRID)
    assert catalogue.SEMCOR.system_params("combo")["top_sense_map"] == ()


@pytest.mark.parametrize("pool", list(combination.POOLS))
def test_each_pool_combines_into_distributions_over_the_allowed_senses(pool):
    X, y = lexelt()
    model = Combination(pool=pool).fit(X, y)
    proba = model.predict_proba(X)
    assert np.allclose(proba.sum(axis=1), 1)
    assert (model.predict(X) == np.array(y)).all()
    assert len(model.mixture_) == len(combination.POOLS[pool].parameters)


def test_the_geometric_pool_is_a_softmax_of_its_weighted_terms():
    # one instance, three senses: the svm lacks the third; dlist, lesk-corpus, prior, gloss
    evidence = np.zeros((1, 3, len(combination.EVIDENCE)))
    evidence[0, :, 0] = [1.0, 0.0, -np.inf]
    evidence[0, :, combination.EVIDENCE.index("dlist")] = [0.5, 0.5, 0.0]
    evidence[0, :, combination.EVIDENCE.index("prior")] = [0.2, 0.3, 0.5]
    evidence[0, :, combination.EVIDENCE.index("gloss")] = [0.0, 0.4, 0.9]
    allowed = np.ones((1, 3), dtype=bool)
    used = np.array([True, True, False, True, True, False])  # no lesk-corpus, no ppr
    # svm, svm lacks, dlist, lesk, prior, gloss, ppr
    weights = np.array([2.0, -1.0, 0.5, 7.0, 1.0, 3.0, 4.0])
    smoothed = np.log(np.array([[0.5, 0.5, 0.0], [0.2, 0.3, 0.5]]) + combination.LOG_SMOOTHING)
    scores = (np.array([2.0, 0.0, -1.0]) + 0.5 * smoothed[0] + smoothed[1]
              + 3.0 * np.array([0.0, 0.4, 0.9]))
    expected = np.exp(scores) / np.exp(scores).sum()
    proba = combination.mixture(evidence, allowed, weights, used, "geometric")
    assert np.allclose(proba[0], expected)
    only_two = combination.mixture(evidence, np.array([[True, True, False]]), weights, used,
                                   "geometric")
    assert only_two[0, 2] == 0 and np.isclose(only_two[0].sum(), 1)


def test_ppr_values_give_senses_its_block_does_not_name_the_rows_smallest():
    block = Weighted(("ppr=" + RIVER, "ppr=" + MONEY), np.array([0.8, 0.2]))
    classes = np.array(sorted([RIVER, MONEY, "bank%1:99:99::"]))
    values = combination.ppr_values([[block], ["bow=river"]], classes)
    assert dict(zip(classes, values[0])) == {RIVER: 0.8, MONEY: 0.2, "bank%1:99:99::": 0.2}
    assert (values[1] == 0).all()


def test_ppr_is_a_component_only_when_asked_and_its_term_moves_the_geometric_pool():
    X, y = lexelt()
    # ppr says the opposite of the training senses
    with_ppr = [[*row, Weighted(("ppr=" + RIVER, "ppr=" + MONEY),
                                np.array([0.1, 0.9]) if sense == RIVER else np.array([0.9, 0.1]))]
                for row, sense in zip(X, y)]
    assert "ppr" not in Combination(pool="geometric").fit(with_ppr, y).components()
    model = Combination(pool="geometric", ppr=True).fit(with_ppr, y)
    assert model.components()[-1] == "ppr"
    evidence = model._evidence(with_ppr[:1], model._member_rows(with_ppr[:1]), model.models_,
                               model.prior_)
    assert evidence[0, :, combination.EVIDENCE.index("ppr")].tolist() == [0.9, 0.1]
    weights = np.zeros(len(combination.LOG_LINEAR_TERMS))
    weights[-1] = 1.0
    proba = combination.mixture(evidence, np.ones((1, 2), bool), weights, model._used(),
                                "geometric")
    smoothed = np.array([0.9, 0.1]) + combination.LOG_SMOOTHING
    assert np.allclose(proba[0], smoothed / smoothed.sum())


def test_a_pool_refuses_defaults_of_another_length_and_unknown_pools():
    X, y = lexelt()
    with pytest.raises(ValueError, match="geometric pool takes 7 default parameters"):
        Combination(pool="geometric", default_params=(0, 0, 2, 0, 0, 0, 0, 0)).fit(X, y)
    with pytest.raises(ValueError, match="linear or geometric"):
        Combination(pool="harmonic").fit(X, y)
