"""The sense ranker (``systems.sense_ranking``, system ``rank``) on the miniature SemCor: every
WordNet candidate a class, the svm member's answers without coefficients, the ranker's and the
back-off's distributions with them, the model file, and the explanation of an unseen sense."""
from __future__ import annotations

import functools
import json
from pathlib import Path

import numpy as np
import pytest

from wsd_classic import modelstore
from wsd_classic.cli import tag as tag_cli
from wsd_classic.features.gloss import candidate_keys
from wsd_classic.features.weighted import Weighted
from wsd_classic.systems.sense_ranking import (
    PAIR_FEATURES, RELATIVES, SenseRanker, glove_mean, lexicographer_file, pair_model)
from wsd_classic.systems.svm import LinearSVM
from wsd_classic.tasks import allwords, catalogue

pytestmark = pytest.mark.filterwarnings("ignore:The multilingual functions are not available")

SEMCOR = Path(__file__).parent / "fixtures" / "allwords_semcor"
FIRST_SENSE = np.zeros(len(PAIR_FEATURES))
FIRST_SENSE[PAIR_FEATURES.index("first")] = 10.0


@functools.lru_cache(maxsize=1)
def trained_data() -> allwords.TrainingData:
    return allwords.prepare_training(
        SEMCOR, featurizer=catalogue.SEMCOR.featurizer(["svm"]))


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("WSD_CLASSIC_CACHE", str(tmp_path_factory.getbasetemp() / "cache"))
        data = trained_data()
        svm = allwords.train_system("svm", data)
        rank = allwords.train_system("rank", data, params={"coef": None},
                                     fitted={"svm": svm})
    training = data.featurized_with(data.examples)
    lexelt = next(lexelt for lexelt in training.sample.lexelts if lexelt.item == "bank.n")
    rows = training.rows(lexelt.instances, rank.models["bank.n"].feature_groups)
    return svm, rank, rows


def test_every_wordnet_candidate_is_a_class_and_the_svm_member_is_reused(trained):
    svm, rank, _ = trained
    model = rank.models["bank.n"]
    assert set(candidate_keys("bank.n")) <= set(model.classes_)
    assert model.svm_ is svm.models["bank.n"]
    unseen = model.weights_ == 0
    assert unseen.any() and not set(model.classes_[unseen]) & set(model.svm_classes_)


def test_without_coefficients_it_answers_as_the_svm(trained):
    svm, rank, rows = trained
    model, member = rank.models["bank.n"], svm.models["bank.n"]
    proba = model.predict_proba(rows)
    columns = np.searchsorted(model.classes_, member.classes_)
    assert np.allclose(proba[:, columns], member.predict_proba(rows))
    assert np.allclose(np.delete(proba, columns, axis=1), 0)


def test_coefficients_score_candidates_and_the_back_off_mixes_by_training_weight(trained):
    _, rank, rows = trained
    model = rank.models["bank.n"]
    model.set_params(coef=tuple(FIRST_SENSE))
    ranked = model.predict_proba(rows)
    assert (model.classes_[ranked.argmax(axis=1)] == candidate_keys("bank.n")[0]).all()
    assert np.allclose(ranked.sum(axis=1), 1)
    model.set_params(svm_half_weight=4.0)
    seen = model.weights_.sum()
    assert np.allclose(model.predict_proba(rows),
                       seen / (seen + 4) * model.svm_proba(rows) + 4 / (seen + 4) * ranked)
    model.set_params(coef=None, svm_half_weight=None)


def test_model_file_gives_the_same_distributions(trained, tmp_path):
    svm, _, rows = trained
    rank = allwords.train_system("rank", trained_data(), params={"coef": FIRST_SENSE.tolist(),
                                                                 "svm_half_weight": 2.0},
                                 fitted={"svm": svm})
    modelstore.save(rank, tmp_path)
    loaded = modelstore.load(tmp_path, rank.task, "rank").models["bank.n"]
    assert loaded.svm_half_weight == 2.0
    assert np.allclose(loaded.predict_proba(rows), rank.models["bank.n"].predict_proba(rows))
    assert np.allclose(loaded.centroids_, rank.models["bank.n"].centroids_)


def test_an_unseen_sense_is_explained_by_the_ranker_evidence(trained):
    _, rank, rows = trained
    model = rank.models["bank.n"]
    unseen_first = np.zeros(len(PAIR_FEATURES))
    unseen_first[PAIR_FEATURES.index("unseen")] = 10.0
    svm_evidence = model.explain(rows[:1])
    assert svm_evidence == model.svm_.explain(rows[:1])  # without coefficients: the svm's
    model.set_params(coef=tuple(unseen_first))
    try:
        best = model.classes_[model.predict_proba(rows[:1]).argmax()]
        evidence = model.explain(rows[:1])[0]
    finally:
        model.set_params(coef=None)
    assert best not in model.svm_classes_
    share_unseen = (model.weights_ == 0).mean()
    assert evidence == [("rank:unseen", pytest.approx(10 * (1 - share_unseen)))]


def test_lexicographer_file_is_read_from_the_key():
    assert lexicographer_file("bank%1:17:01::") == 17
    assert lexicographer_file("fine%5:00:00:superior:02") == 0


def test_pair_model_learns_which_feature_marks_the_gold_pair():
    rng = np.random.default_rng(0)
    features = rng.normal(size=(400, len(PAIR_FEATURES)))
    gold = features[:, 0] + 0.1 * rng.normal(size=400) > 0
    coef = pair_model(features, gold, [0, 1, 2])
    assert coef[0] > 1 and abs(coef[1]) < coef[0] / 4 and (coef[3:] == 0).all()


def test_bin_tag_explains_an_answer_no_training_instance_shows(tmp_path, capsys, monkeypatch):
    # Coefficients that prefer any candidate SemCor never tagged: every answer of a trained
    # lexelt is then a sense without training instances, and its evidence the ranker's.
    unseen_first = [0.0] * len(PAIR_FEATURES)
    unseen_first[PAIR_FEATURES.index("unseen")] = 10.0
    monkeypatch.setitem(catalogue.SEMCOR.params, "rank",
                        {**catalogue.SEMCOR.params["rank"], "coef": unseen_first})
    monkeypatch.setenv("WSD_CLASSIC_CACHE", str(tmp_path / "cache"))
    allwords.train_semcor(SEMCOR, ["rank"], tmp_path / "models")
    text = tmp_path / "text.txt"
    text.write_text("The river flooded the bank near the old mill.\n")
    status = tag_cli.main(["--task", "semcor", "--system", "rank", "--models-dir",
                           str(tmp_path / "models"), "--format", "jsonl", "--explain", str(text)])
    captured = capsys.readouterr()
    assert status == 0, captured.err
    records = [json.loads(line) for line in captured.out.splitlines()]
    bank = next(record for record in records if record["lexelt"] == "bank.n")
    assert bank["evidence"][0]["feature"] == "rank:unseen"
    assert bank["evidence"][0]["score"] > 0


def context(*values: float) -> list:
    return [Weighted(tuple(f"emb{index}" for index in range(len(values))),
                     np.array(values, dtype=np.float32))]


def test_relatives_contexts_come_from_other_lexelts_rows_only():
    bank = ("bank%1:14:00::", "bank%1:17:01::")
    rows = [("bank.n", [context(1, 0, 0), context(0, 1, 0)], list(bank), [1.0, 1.0]),
            # a synset mate of the money bank, and its hypernym, in other lexelts
            ("depository_financial_institution.n", [context(0, 0, 2), context(0, 0, 2)],
             ["depository_financial_institution%1:14:00::"] * 2, [1.0, 1.0]),
            ("financial_institution.n", [context(3, 4, 0)], ["financial_institution%1:14:00::"],
             [1.0])]
    relatives = SenseRanker.shared_fit_params(rows)["bank.n"]["relatives"]
    mates, neighbours, lexicographer_file = (RELATIVES.index(name) for name in (
        "synset mates", "neighbours", "lexicographer file"))
    # the money bank: its mate's two rows (not bank.n's own), its hypernym's, and every other
    # lexelt's noun.group row (lexicographer file 14)
    assert np.allclose(relatives[bank[0]][mates], [0, 0, 1])
    assert np.allclose(relatives[bank[0]][neighbours], [0.6, 0.8, 0])
    assert np.allclose(relatives[bank[0]][lexicographer_file],
                       np.array([0.6, 0.8, 2]) / np.linalg.norm([0.6, 0.8, 2]))
    # the river bank has no relative in these rows; its lexicographer file (17) neither
    assert not relatives[bank[1]].any()
    assert set(relatives) >= set(candidate_keys("bank.n"))
    model = SenseRanker().fit(*rows[0][1:3], relatives=relatives)
    features, candidates = model.pair_features([context(0, 0, 1)])
    column = PAIR_FEATURES.index("synset mates")
    money = list(model.classes_).index(bank[0])
    assert features[0, money, column] == pytest.approx(1.0)
    assert features[0, money, column + 1] == pytest.approx(0.0)  # the best of the candidates
    assert features[0, money, column + 2] == 1.0 and candidates.all()


def test_glove_signature_similarity_prefers_the_sense_whose_signature_the_context_shares():
    bank = list(candidate_keys("bank.n"))
    model = SenseRanker().fit([context(1, 0)] * len(bank), bank)
    rows = [[*context(1, 0), "bow=river", "bow=water", "bow=slope", "bow=land"],
            [*context(1, 0), "bow=money", "bow=deposit", "bow=financial", "bow=loan"]]
    features, _ = model.pair_features(rows)
    signature = features[:, :, PAIR_FEATURES.index("glove signature")]
    river, money = (list(model.classes_).index(key) for key in ("bank%1:17:01::", "bank%1:14:00::"))
    assert signature[0, river] > signature[0, money] and signature[1, money] > signature[1, river]
    lead = features[:, :, PAIR_FEATURES.index("glove signature - best")]
    assert lead.max(axis=1) == pytest.approx([0, 0]) and (lead <= 0).all()
    assert np.linalg.norm(glove_mean(["river", "bank"])) == pytest.approx(1, abs=1e-6)
    assert not glove_mean(["zzzqqq"]).any()


def test_the_svm_gate_keeps_the_svm_where_it_is_confident(trained):
    _, rank, rows = trained
    model = rank.models["bank.n"]
    model.set_params(coef=tuple(FIRST_SENSE))
    try:
        ranked, svm = model.rank_proba(rows), model.svm_proba(rows)
        model.set_params(svm_gate=0.0)
        assert np.allclose(model.predict_proba(rows), svm)
        model.set_params(svm_gate=1.01)
        assert np.allclose(model.predict_proba(rows), ranked)
        gate = float(np.median(svm.max(axis=1)))
        model.set_params(svm_gate=gate)
        confident = svm.max(axis=1) >= gate
        assert np.allclose(model.predict_proba(rows)[confident], svm[confident])
        assert np.allclose(model.predict_proba(rows)[~confident], ranked[~confident])
    finally:
        model.set_params(coef=None, svm_gate=None)


def test_bin_train_hands_the_svm_it_trained_to_the_ranker(tmp_path, monkeypatch):
    fits = []
    original = LinearSVM.fit

    def counted(self, *args, **kwargs):
        fits.append(self)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(LinearSVM, "fit", counted)
    monkeypatch.setenv("WSD_CLASSIC_CACHE", str(tmp_path / "cache"))
    allwords.train_semcor(SEMCOR, ["svm"], tmp_path / "alone")
    alone = len(fits)
    allwords.train_semcor(SEMCOR, ["svm", "rank"], tmp_path / "both")
    assert alone and len(fits) == 2 * alone
