"""The ``hybrid`` system: the svm's and ppr's distributions mixed per target.

The mixing rule on hand-computed numbers; the system trained on the miniature SemCor of
``test_allwords`` (with the svm in the same run, whose models it takes), its settings the
task's, and tagging a Raganato file and plain text end to end.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from wsd_classic import modelstore
from wsd_classic.cli import tag as tag_cli
from wsd_classic.corpora.allwords import Target, read_raganato_corpus, read_semcor_corpus
from wsd_classic.knowledge.supervised_restart import SupervisedRestartWalk
from wsd_classic.systems.hybrid import HybridSVM, Mixture, mixed, sharpened
from wsd_classic.systems.svm import LinearSVM
from wsd_classic.tasks import allwords, catalogue
from wsd_classic.tasks.tagger import Tagger
from wsd_classic.wordnet import wordnet_senses

pytestmark = pytest.mark.filterwarnings("ignore:The multilingual functions are not available")

FIXTURES = Path(__file__).parent / "fixtures"
SEMCOR = FIXTURES / "allwords_semcor"
DATASET = FIXTURES / "allwords_sample.data.xml"
TASK = catalogue.SEMCOR


# --- the mixing rule ---------------------------------------------------------------------------

def test_mixture_of_a_target_by_hand():
    svm = np.array([[0.8, 0.2, 0.0]])
    ppr = np.array([[0.2, 0.3, 0.5]])
    # ppr squared: 0.04, 0.09, 0.25 over 0.38; half of each
    assert sharpened(ppr, 2.0) == pytest.approx(np.array([[0.04, 0.09, 0.25]]) / 0.38)
    expected = [0.4 + 0.02 / 0.38, 0.1 + 0.045 / 0.38, 0.125 / 0.38]
    assert mixed(svm, ppr, np.array([0.5]), 2.0)[0] == pytest.approx(expected)
    assert mixed(svm, ppr, np.array([0.0]), 2.0)[0] == pytest.approx(svm[0])
    assert mixed(svm, ppr, np.array([1.0]), 1.0)[0] == pytest.approx(ppr[0])


def test_sharpening_keeps_padding_at_zero_and_tiny_probabilities_alive():
    rows = sharpened(np.array([[1e-200, 2e-200, 0.0]]), 16.0)
    assert rows[0, 2] == 0.0 and rows.sum() == pytest.approx(1.0)
    assert rows[0, 1] / rows[0, 0] == pytest.approx(2.0 ** 16)


def test_ppr_weight_by_part_of_speech_support_and_svm_confidence():
    mixture = Mixture({"n": 0.6, "v": 0.4, "a": 0.2, "r": 0.0}, scarce_below=5, scarce_weight=1.0,
                      gate=0.9)
    weights = mixture.ppr_weights(np.array(["n", "v", "a", "n", "n"]),
                                  np.array([10.0, 10.0, 10.0, 2.0, 10.0]),
                                  np.array([0.5, 0.5, 0.5, 0.5, 0.95]))
    assert weights.tolist() == [0.6, 0.4, 0.2, 1.0, 0.0]


def test_unseen_only_mixture_gives_ppr_mass_to_the_svms_unseen_senses_alone():
    svm = np.array([[0.8, 0.2, 0.0], [0.5, 0.5, 0.0]])
    ppr = np.array([[0.2, 0.3, 0.5], [0.6, 0.4, 0.0]])
    mixture = Mixture.uniform(0.5, unseen_only=True)
    rows = mixture.mix(svm, ppr, np.array(["n", "n"]), np.array([10.0, 10.0]))
    # ppr's mass on the third candidate (0.5), half of it, moves there
    assert rows[0] == pytest.approx([0.8 * 0.75, 0.2 * 0.75, 0.25])
    assert rows[1] == pytest.approx(svm[1])  # every candidate seen: the svm's
    assert mixture.mix(svm, ppr, np.array(["n", "n"]), np.array([10.0, 10.0]))[0] != (
        pytest.approx(Mixture.uniform(0.5).mix(svm, ppr, np.array(["n", "n"]),
                                               np.array([10.0, 10.0]))[0]))


# --- the estimator -----------------------------------------------------------------------------

ROWS = [["bow=river"], ["bow=river", "bow=water"], ["bow=money"], ["bow=loan", "bow=money"]]
SENSES = ["river", "river", "money", "money"]


def test_hybrid_takes_the_svm_fitted_on_the_same_rows_with_its_parameters():
    svm = LinearSVM(C=1.0, calibrate=False).fit(ROWS, SENSES)
    hybrid = HybridSVM(C=1.0, calibrate=False, ppr_weights=(0.5,) * 4).fit(
        ROWS, SENSES, fitted_members={"svm": svm})
    assert hybrid.coef_ is svm.coef_
    other = HybridSVM(C=3.0, calibrate=False).fit(ROWS, SENSES, fitted_members={"svm": svm})
    assert other.coef_ is not svm.coef_
    assert other.predict_proba([["bow=money"]]).argmax() == list(other.classes_).index("money")


# --- the system, trained and tagging -----------------------------------------------------------

@pytest.fixture(scope="module")
def models_root(tmp_path_factory):
    root = tmp_path_factory.mktemp("models")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("WSD_CLASSIC_CACHE", str(tmp_path_factory.getbasetemp() / "cache"))
        report = allwords.train_semcor(SEMCOR, ["svm", "hybrid"], root)
    assert "hybrid: HybridSVM estimators for " in report
    return root


def test_hybrid_model_holds_the_tasks_mixture_the_svms_models_and_the_graph(models_root):
    trained = modelstore.load(models_root, TASK.name, "hybrid")
    svm = modelstore.load(models_root, TASK.name, "svm")
    registered = TASK.system_params("hybrid")
    for name in ("ppr_weights", "power", "scarce_below", "scarce_weight", "gate", "C"):
        assert trained.params[name] == json.loads(json.dumps(registered[name]))
    assert trained.info["graph"]["nodes"] > 100_000
    assert trained.resources
    assert set(trained.models) == set(svm.models)
    lexelt = "bank.n"
    assert np.array_equal(trained.models[lexelt].coef_, svm.models[lexelt].coef_)
    # SemCor's instances of the lexelt, WordNet's examples (which the svm also reads) not
    # counted
    semcor = read_semcor_corpus(SEMCOR)
    assert trained.models[lexelt].support_ == sum(
        target.lexelt == lexelt for target in semcor.targets)
    assert trained.discourse_weight == TASK.discourse_weights["hybrid"]


def test_hybrid_tags_a_raganato_file_with_the_mixture_of_svm_and_ppr(models_root):
    corpus = read_raganato_corpus(DATASET)
    hybrid = Tagger.load("hybrid", models_root)
    svm = Tagger(modelstore.load(models_root, TASK.name, "svm"), discourse_weight=0.0)
    own, ppr = svm.distributions(corpus), hybrid.scorer.distributions(corpus)
    mixture = hybrid.scorer.mixture
    found = Tagger(hybrid.trained, discourse_weight=0.0).distributions(corpus)
    for target in corpus.targets:
        candidates = wordnet_senses(target.lemma, target.pos)
        weights = np.array([(own.get(target.id) or {}).get(key, 0.0) for key in candidates])
        svm_row = weights / weights.sum() if weights.sum() else np.eye(len(candidates))[0]
        ppr_row = np.array([ppr[target.id][key] for key in candidates])
        support = hybrid.trained.models[target.lexelt].support_ \
            if target.lexelt in hybrid.trained.models else 0.0
        weight = mixture.ppr_weights(np.array([target.pos]), np.array([support]),
                                     np.array([svm_row.max()]))
        expected = mixed(svm_row[None], ppr_row[None], weight, mixture.power)[0]
        assert [found[target.id][key] for key in candidates] == pytest.approx(expected)
    answers = hybrid.tag(corpus)
    assert [answer.instance_id for answer in answers] == [t.id for t in corpus.targets]
    for answer, target in zip(answers, corpus.targets):
        assert answer.key in wordnet_senses(target.lemma, target.pos)
        assert sum(weight for _, weight in answer.senses) == pytest.approx(1.0)


def test_hybrid_tags_plain_text(models_root, tmp_path, capsys):
    text = tmp_path / "text.txt"
    text.write_text("The river flooded the bank near the old mill.\n", encoding="utf-8")
    assert tag_cli.main(["--models-dir", str(models_root), "--task", TASK.name, "--system",
                         "hybrid", "--format", "jsonl", str(text)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    bank = next(line for line in lines if line["lexelt"] == "bank.n")
    senses = bank["senses"]
    assert len(senses) == len(wordnet_senses("bank", "n"))
    assert sum(sense["weight"] for sense in senses) == pytest.approx(1.0)


def test_a_lemma_the_svm_never_saw_mixes_wordnets_first_sense_with_ppr(models_root):
    tagger = Tagger.load("hybrid", models_root)
    target = Target("t0", "peculiarity", "n", 0, 0)
    candidates = wordnet_senses("peculiarity", "n")
    ppr = {"t0": dict(zip(candidates, np.full(len(candidates), 1 / len(candidates))))}
    found = tagger.scorer.mixed_distributions([target], {}, ppr, {})["t0"]
    # no model: support 0, and the svm's distribution all on WordNet's first sense
    [weight] = tagger.scorer.mixture.ppr_weights(np.array(["n"]), np.zeros(1), np.ones(1))
    assert found[candidates[0]] == pytest.approx(1 - weight + weight / len(candidates))


def test_supervised_restart_walks_from_the_svms_beliefs_about_the_context(models_root):
    corpus = read_raganato_corpus(DATASET)
    tagger = Tagger(Tagger.load("hybrid", models_root).trained, discourse_weight=0.0)
    svm = Tagger(modelstore.load(models_root, TASK.name, "svm"), discourse_weight=0.0)
    own = svm.distributions(corpus)
    plain = tagger.scorer.distributions(corpus)
    tagger.scorer.supervised_restart = True
    walked = SupervisedRestartWalk(tagger.scorer.graph, tagger.scorer.ppr.walker.settings,
                                   [own]).distribution_sets(corpus)[0]
    assert tagger.scorer.distributions(corpus) == plain  # no beliefs given: ppr's walk
    assert any(walked[target] != plain[target] for target in plain)
    support = {lexelt: model.support_ for lexelt, model in tagger.trained.models.items()}
    found = tagger.distributions(corpus)
    expected = tagger.scorer.mixed_distributions(corpus.targets, own, walked, support)
    assert found.keys() == expected.keys()
    for target, weights in expected.items():
        assert found[target] == pytest.approx(weights)
