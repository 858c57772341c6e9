"""The five systems on tiny hand-made feature lists, where the right answer is known."""
import numpy as np
import pytest

from wsd_classic import systems
from wsd_classic.errors import WsdError
from wsd_classic.systems.candidates import restrict
from wsd_classic.systems.commonest import Commonest
from wsd_classic.systems.dlist import DecisionList
from wsd_classic.systems.svm import LinearSVM

RIVER, MONEY = "bank%1:17:01::", "bank%1:14:00::"


def toy_data(repeats=4):
    X, y = [], []
    for index in range(repeats):
        X.append(["bow=river", "bow=water", f"bow=noise{index}", "col-1,-1=muddy"])
        y.append(RIVER)
        X.append(["bow=money", "bow=loan", f"bow=noise{index}", "col-1,-1=the"])
        y.append(MONEY)
    X.append(["bow=money", "col-1,-1=the"])
    y.append(MONEY)
    return X, y


def test_commonest_emits_the_training_distribution():
    X, y = toy_data()
    model = Commonest().fit(X, y)
    proba = model.predict_proba([["bow=river"]])
    assert list(model.classes_) == sorted({RIVER, MONEY})
    assert proba[0, list(model.classes_).index(MONEY)] == pytest.approx(5 / 9)
    assert model.predict([["bow=anything"]])[0] == MONEY


def test_sample_weights_count_in_the_prior():
    model = Commonest().fit([["a"], ["b"], ["c"]], ["s1", "s2", "s2"], sample_weight=[1, 0.25, 0.25])
    assert model.predict_proba([[]])[0].tolist() == pytest.approx([2 / 3, 1 / 3])


def test_decision_list_strongest_rule_decides_with_its_smoothed_distribution():
    X, y = toy_data()
    model = DecisionList(alpha=0.1).fit(X, y)
    proba = model.predict_proba([["bow=water", "bow=unseen"]])[0]
    river = list(model.classes_).index(RIVER)
    # "bow=water": 4 river, 0 money -> (4+0.1)/(4+2*0.1)
    assert proba[river] == pytest.approx(4.1 / 4.2)
    assert model.rule_names()[model.decisive_features([["bow=water"]])[0]] == "bow=water"


def test_decision_list_without_matching_rule_answers_the_prior():
    X, y = toy_data()
    model = DecisionList().fit(X, y)
    assert model.decisive_features([["bow=unseen"]])[0] == -1
    assert model.predict_proba([["bow=unseen"]])[0].tolist() == pytest.approx(
        Commonest().fit(X, y).predict_proba([[]])[0].tolist())


def test_svm_separates_and_gives_probabilities_that_sum_to_one():
    X, y = toy_data(repeats=6)
    model = LinearSVM(C=1.0).fit(X, y)
    proba = model.predict_proba([["bow=river", "bow=water"], ["bow=money", "bow=loan"]])
    assert np.allclose(proba.sum(axis=1), 1)
    assert list(model.predict([["bow=river", "bow=water"], ["bow=money", "bow=loan"]])) == [RIVER, MONEY]
    assert model.temperature_ > 0


def test_svm_multiclass_and_single_class_lexelts():
    X = [["a"], ["a", "x"], ["b"], ["b", "x"], ["c"], ["c", "x"]] * 2
    y = ["s1", "s1", "s2", "s2", "s3", "s3"] * 2
    model = LinearSVM().fit(X, y)
    assert model.predict([["b"]])[0] == "s2"
    single = LinearSVM().fit([["a"], ["b"]], ["only", "only"])
    assert single.predict_proba([["z"]]).tolist() == [[1.0]]


def test_svm_answers_the_training_distribution_below_its_minimum_of_instances():
    X, y = toy_data()  # 9 instances: 4 river, 5 money
    weights = [1.0] * len(y)
    river_context = [["bow=river", "bow=water"]]
    counted = systems.make("svm", min_instances=10).fit(X, y, sample_weight=weights)
    expected = Commonest().fit(X, y).predict_proba(river_context)
    assert np.allclose(counted.predict_proba(river_context), expected)
    assert counted.predict(river_context)[0] == MONEY
    # an instance tagged twice has two rows weighing half each: still one instance
    halves = systems.make("svm", min_instances=10).fit(X + X[:1], y + [MONEY],
                                                       sample_weight=[0.5] + [1.0] * 8 + [0.5])
    assert np.allclose(halves.predict_proba(river_context), halves.prior_)
    learnt = systems.make("svm", min_instances=9).fit(X, y, sample_weight=weights)
    assert learnt.predict(river_context)[0] == RIVER


def test_held_out_folds_keep_an_instance_s_rows_together_and_need_enough_instances():
    from wsd_classic.systems.base import held_out_folds

    X, y = toy_data(repeats=6)
    X, y = X + [X[0]], y + [MONEY]  # the first instance tagged twice: two identical rows
    folds = held_out_folds(X, 5, random_state=0)
    assert sorted(set(folds)) == [0, 1, 2, 3, 4]
    assert folds[0] == folds[-1]
    assert held_out_folds(X[:4], 5, random_state=0) is None
    assert np.array_equal(held_out_folds(X, 5, random_state=0), folds)


def test_svm_calibrates_on_decisions_of_models_that_never_saw_the_row():
    X, y = toy_data(repeats=6)
    model = LinearSVM(C=1.0).fit(X, y)
    folds = model.held_out_folds_
    y = np.array(y)
    for fold in sorted(set(folds)):
        train, test = np.flatnonzero(folds != fold), np.flatnonzero(folds == fold)
        alone = LinearSVM(C=1.0, calibrate=False).fit([X[i] for i in train], y[train])
        expected = np.full((len(test), 2), -np.inf)
        expected[:, np.searchsorted(model.classes_, alone.classes_)] = alone.decision_function(
            [X[i] for i in test])
        assert np.array_equal(model.held_out_decisions_[test], expected)
    assert model.held_out_params_ == alone.get_params()


def test_an_uncalibrated_svm_is_the_same_fit_without_temperature_or_prior_share():
    X, y = toy_data(repeats=6)
    calibrated = LinearSVM(C=1.0).fit(X, y)
    plain = LinearSVM(C=1.0, calibrate=False).fit(X, y)
    view = calibrated.uncalibrated()
    assert view.get_params() == plain.get_params()
    assert (view.temperature_, view.prior_share_) == (1.0, 0.0) != (
        calibrated.temperature_, calibrated.prior_share_)
    assert np.array_equal(view.predict_proba(X), plain.predict_proba(X))
    assert calibrated.calibrate  # the fitted model itself is left as it was


def test_svm_learns_from_weighted_blocks_and_keeps_them_through_its_state():
    from wsd_classic.features.weighted import Weighted

    names = ("emb:0", "emb:1")
    def context(x, y):  # the same binary name everywhere: only the values separate the senses
        return ["bow=the", Weighted(names, np.array([x, y], np.float32))]
    X = [context(1.0, 0.1), context(0.9, 0.0), context(0.1, 1.0), context(0.0, 0.8)] * 4
    y = [RIVER, RIVER, MONEY, MONEY] * 4
    model = LinearSVM(C=10.0).fit(X, y)
    assert set(model.vocabulary_) == {"bow=the", "emb:0", "emb:1"}
    assert list(model.predict([context(0.8, 0.2), context(0.2, 0.9)])) == [RIVER, MONEY]
    meta, arrays = model.get_state()
    restored = LinearSVM.from_state(model.get_params(), meta, arrays)
    assert np.array_equal(restored.predict_proba(X), model.predict_proba(X))


def test_feature_matrix_places_values_under_their_names_and_skips_unknown_ones():
    from wsd_classic.features.weighted import Weighted
    from wsd_classic.systems.base import feature_matrix

    block = Weighted(("emb:0", "emb:9", "emb:1"), np.array([0.5, 7.0, -2.0]))
    X = [["bow=x", block], ["bow=y"]]
    vocabulary = {"bow=x": 0, "emb:0": 1, "emb:1": 2}
    assert feature_matrix(X, vocabulary, weighted=True).toarray().tolist() == [
        [1.0, 0.5, -2.0], [0.0, 0.0, 0.0]]
    assert feature_matrix(X, vocabulary).toarray().tolist() == [[1.0, 0, 0], [0, 0, 0]]


def test_feature_matrix_scales_each_binary_part_to_unit_length_and_sorts_columns():
    from wsd_classic.features.weighted import Weighted
    from wsd_classic.systems.base import feature_matrix

    vocabulary = {"emb:0": 0, "bow=a": 1, "bow=b": 2, "bow=c": 3, "emb:1": 4}
    block = Weighted(("emb:0", "emb:1"), np.array([0.0, 3.0]))
    matrix = feature_matrix([["bow=c", block, "bow=a", "bow=b", "bow=a"], ["bow=a"]], vocabulary,
                            unit_binary=True, weighted=True)
    third = 1 / np.sqrt(3)
    assert np.allclose(matrix.toarray(), [[0, third, third, third, 3.0], [0, 1, 0, 0, 0]])
    assert matrix.has_canonical_format and matrix.nnz == 5  # the 0.0 is not stored


def test_a_stored_vocabularys_hashes_give_the_fitted_vocabularys_matrix_entry_for_entry():
    from wsd_classic.features.weighted import Weighted
    from wsd_classic.systems.base import HashedVocabulary, feature_matrix, name_hashes

    names = ["emb:0", "bow=a", "bow=b", "bow=c", "emb:1", "gloss=x", "syn:sat=up"]
    vocabulary = {name: column for column, name in enumerate(names)}
    hashed = HashedVocabulary(name_hashes(names))
    emb = Weighted(("emb:0", "emb:9", "emb:1"), np.array([0.0, 7.0, -2.5], np.float32))
    gloss = Weighted(("gloss=x", "gloss=y"), np.array([0.25, 0.5]))
    X = [["bow=c", emb, "bow=a", "bow=zz", "bow=a", gloss], [], ["bow=zz"], [gloss, "syn:sat=up"],
         ["bow=b", "bow=a", "bow=c", emb]]
    for unit_binary in (False, True):
        for weighted in (False, True):
            expected = feature_matrix(X, vocabulary, unit_binary, weighted)
            found = feature_matrix(X, hashed, unit_binary, weighted)
            for part in ("data", "indices", "indptr"):
                assert getattr(found, part).tobytes() == getattr(expected, part).tobytes(), part
            assert found.indices.dtype == np.int32 and found.shape == expected.shape
    assert feature_matrix([["bow=a"]], HashedVocabulary(name_hashes([]))).shape == (1, 0)


def test_a_stored_estimator_reads_its_names_only_when_asked_for():
    X, y = toy_data(repeats=6)
    model = LinearSVM().fit(X, y)
    restored = LinearSVM.from_state(model.get_params(), *model.get_state())
    restored.predict_proba(X)
    assert "fitted_vocabulary_" not in vars(restored)  # tagging looked its features up by hash
    assert restored.vocabulary_ == model.vocabulary_


def test_int32_sparse_indices_reach_liblinear():
    # NOTES.md: liblinear rejects int64-indexed sparse input; feature_matrix must build int32.
    from wsd_classic.systems.base import build_vocabulary, feature_matrix

    X, _ = toy_data()
    matrix = feature_matrix(X, build_vocabulary(X), unit_binary=True, weighted=True)
    assert matrix.indices.dtype == np.int32 and matrix.indptr.dtype == np.int32


def test_state_round_trip_gives_identical_predictions():
    X, y = toy_data(repeats=6)
    for name in (name for name, system in systems.SYSTEMS.items() if system.estimator):
        model = systems.make(name).fit(X, y)
        meta, arrays = model.get_state()
        restored = type(model).from_state(model.get_params(), meta, arrays)
        assert np.array_equal(restored.predict_proba(X), model.predict_proba(X)), name


def test_particles_restrict_candidates_to_matching_multiword_keys():
    classes = np.array(["call%2:32:00::", "call_for%2:32:00::", "call_up%2:32:00::"])
    proba = np.array([[0.5, 0.2, 0.3], [0.5, 0.2, 0.3], [0.1, 0.1, 0.8]])
    X = [["syn:sat=for"], [], ["syn:sat=off"]]
    restricted = restrict(proba, X, classes, plain=["call%2:32:00::"])
    assert restricted[0].tolist() == [0, 1, 0]
    assert restricted[1].tolist() == [1, 0, 0]
    assert restricted[2].tolist() == proba[2].tolist()  # nothing allowed: left unrestricted


def test_senses_that_no_particle_rules_out_are_all_allowed_whatever_the_particles():
    classes = np.array(["call%2:32:00::", "call%2:41:00::"])
    proba = np.array([[0.25, 0.5], [0.2, 0.2]])
    X = [["syn:sat=for"], ["bow=phone"]]
    assert restrict(proba, X, classes, plain=list(classes)).tolist() == [[1 / 3, 2 / 3],
                                                                         [0.5, 0.5]]
    # one sense never seen without particles: the row without them may not take it
    assert restrict(proba, X, classes, plain=["call%2:32:00::"])[1].tolist() == [1, 0]


def test_unknown_system_is_a_user_error():
    with pytest.raises(WsdError, match="unknown system"):
        systems.make("bert")


def test_lesk_picks_the_sense_whose_gloss_overlaps_the_context():
    # WordNet 3.0: bank%1:17:01:: "sloping land (especially the slope beside a body of water)",
    # bank%1:14:00:: "a financial institution that accepts deposits ...".
    X, y = toy_data()
    model = systems.make("lesk").fit(X, y)
    assert model.predict([["bow=slope", "bow=land"]])[0] == RIVER
    assert model.predict([["bow=financial", "bow=deposit"]])[0] == MONEY
    # no overlap at all: the commonest sense
    assert model.predict([["bow=zebra"]])[0] == MONEY


def test_lesk_corpus_also_uses_training_contexts_and_reports_unknown_keys():
    X, y = toy_data()
    X = [row + ["bow=heron"] if sense == RIVER else row for row, sense in zip(X, y)]
    X.append(["bow=jetty"])
    y.append("U")
    plain = systems.make("lesk").fit(X, y)
    corpus = systems.make("lesk-corpus").fit(X, y)
    assert plain.predict([["bow=heron"]])[0] == MONEY  # in no gloss: the commonest sense
    assert corpus.predict([["bow=heron"]])[0] == RIVER
    assert corpus.predict([["bow=jetty"]])[0] == "U"
    assert plain.unknown_senses_ == ["U"]


def test_svm_calibrates_on_as_many_folds_as_it_is_given():
    X, y = toy_data(repeats=6)
    for folds in (3, 5):
        model = LinearSVM(C=1.0, calibration_folds=folds).fit(X, y)
        assert sorted(set(model.held_out_folds_)) == list(range(folds))
        assert model.held_out_params_["calibration_folds"] == folds


def test_svm_evidence_sums_the_context_embedding_s_dimensions_into_one_named_piece():
    """``emb12`` tells a reader nothing: the dimensions' coefficient x value are summed under
    ``context embedding``, ranked with the binary features (coefficient x their value)."""
    from wsd_classic.features.embeddings import EVIDENCE_NAME
    from wsd_classic.features.weighted import Weighted

    names = tuple(f"emb{dimension}" for dimension in range(3))

    def context(word, values):
        return [f"bow={word}", "bow=the", Weighted(names, np.array(values, np.float32))]
    X = [context("river", [1.0, 0.2, 0.1]), context("water", [0.9, 0.0, 0.3]),
         context("money", [0.1, 1.0, -0.2]), context("loan", [0.0, 0.8, -0.1])] * 4
    y = [RIVER, RIVER, MONEY, MONEY] * 4
    model = LinearSVM(C=10.0, calibrate=False).fit(X, y)
    row = context("river", [0.8, 0.1, 0.2])
    [evidence] = model.explain([row])
    assert not any(name.startswith("emb") and name != EVIDENCE_NAME for name, _ in evidence)
    best = list(model.classes_).index(model.predict([row])[0])
    matrix = model._matrix([row])
    columns = {name: column for name, column in model.vocabulary_.items()}
    contribution = {name: model.coef_[best, columns[name]] * matrix[0, columns[name]]
                    for name in columns}
    embedded = sum(contribution[name] for name in names)
    expected = sorted([(name, value) for name, value in contribution.items()
                       if not name.startswith("emb") and value > 0]
                      + ([(EVIDENCE_NAME, embedded)] if embedded > 0 else []),
                      key=lambda item: -item[1])
    assert [name for name, _ in evidence] == [name for name, _ in expected]
    assert [score for _, score in evidence] == pytest.approx([score for _, score in expected])
    assert EVIDENCE_NAME in dict(evidence)
