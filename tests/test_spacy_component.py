"""The ``wsd_classic`` spaCy component, on the tiny models ``conftest.tiny_models`` trains."""
from __future__ import annotations

import subprocess
import sys
from importlib.metadata import entry_points

import pytest

from wsd_classic.corpora.lexsample import read_lexical_sample
from wsd_classic.errors import WsdError
from wsd_classic.preprocess.pipeline import load_spacy
from wsd_classic.features.featurizer import ContextRule
from wsd_classic.spacy_component import make_wsd_tagger
from wsd_classic.tasks import engine

from conftest import FIXTURES, REPO


@pytest.fixture(scope="module")
def base_nlp():
    return load_spacy.__wrapped__()


def _pipeline(tiny_models, system="svm", explain=False):
    root, task, _ = tiny_models
    nlp = load_spacy.__wrapped__()
    nlp.add_pipe("wsd_classic", config={"task": task, "system": system, "models_dir": str(root),
                                        "explain": explain})
    return nlp


@pytest.fixture(scope="module")
def nlp(tiny_models):
    return _pipeline(tiny_models)


def test_the_factory_is_an_entry_point_spacy_finds_without_an_import(tiny_models):
    root, task, _ = tiny_models
    [point] = [point for point in entry_points(group="spacy_factories")
               if point.name == "wsd_classic"]
    assert point.load() is make_wsd_tagger
    # A user's script: spaCy and a pipeline, no import of wsd_classic's component module.
    script = (
        "from wsd_classic.preprocess.pipeline import load_spacy\n"
        "nlp = load_spacy()\n"
        f"nlp.add_pipe('wsd_classic', config={{'task': {task!r}, 'models_dir': {str(root)!r}}})\n"
        "doc = nlp('She put the money in the bank.')\n"
        "print([(t.text, t._.wsd_lexelt) for t in doc if t._.wsd_senses])\n")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            cwd=REPO, timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[('bank', 'bank.n')]"


def test_a_phrasal_verb_takes_its_particle_as_a_satellite(nlp):
    doc = nlp("The union called off the strike.")
    called = doc[2]
    assert called._.wsd_lexelt == "call.v"
    assert [doc[i].text for i in called._.wsd_particles] == ["off"]
    senses = called._.wsd_senses
    assert senses[0][0] == "call_off%2:41:00::"
    assert sum(weight for _, weight in senses) == pytest.approx(1.0)
    assert [w for _, w in senses] == sorted((w for _, w in senses), reverse=True)
    assert doc[3]._.wsd_senses is None  # the particle is part of the target, not one itself


def test_targets_match_lemma_and_coarse_part_of_speech(nlp):
    doc = nlp("Three banks lent money to bright students. They bank on good luck.")
    targets = {(token.text, token.pos_): token._.wsd_lexelt for token in doc._.wsd_targets}
    assert targets[("banks", "NOUN")] == "bank.n"
    assert targets[("bright", "ADJ")] == "bright.a"
    assert not any(text == "bank" for text, _ in targets)  # the verb is not bank.n


def test_text_without_targets_gets_nothing(nlp):
    doc = nlp("Nothing in this sentence was ever seen in training.")
    assert doc._.wsd_targets == []
    assert all(token._.wsd_senses is None and token._.wsd_lexelt is None for token in doc)


def test_distributions_are_those_the_training_code_path_gives(nlp, tiny_models, tmp_path,
                                                               monkeypatch):
    """One code path: a context tagged by the component gets exactly the distribution
    ``engine.tag`` (what bin/train and bin/tag --senseval use) gives it."""
    root, task, _ = tiny_models
    from wsd_classic import modelstore

    monkeypatch.setenv("WSD_CLASSIC_CACHE", str(tmp_path))
    sample = read_lexical_sample(FIXTURES / "tag_test.xml")
    trained = modelstore.load(root, task, "svm")
    expected = {instance: weights for _, instance, weights
                in engine.tag(trained, engine.featurize(sample, trained.featurizer))}
    assert sorted(expected) == ["bank.x1", "bank.x2", "call.x1"]  # yew.n: no model, no answer
    for instance in sample.instances():
        if instance.id not in expected:
            continue
        doc = nlp(instance.text)
        target = next(t for t in doc if t.idx == instance.head[0])
        got = dict(target._.wsd_senses)
        want = {sense: weight for sense, weight in expected[instance.id].items() if weight > 0}
        assert got.keys() == want.keys()
        for sense, weight in want.items():
            assert got[sense] == pytest.approx(weight, abs=1e-9)


def test_the_given_context_is_whole_sentences_ending_with_the_target_s(base_nlp):
    sentence = "The quiet river ran past the old town and under the long stone bridge. "
    doc = base_nlp(sentence * 30 + "Then it reached the sea.")
    target = doc[-2]
    rule = ContextRule()
    window = rule.span(target)
    assert window.end == target.sent.end
    assert window.start == window[0].sent.start
    assert target.i - window.start <= rule.tokens_before
    previous = doc[window.start - 1].sent
    assert target.i - previous.start > rule.tokens_before


def test_a_sentence_rule_takes_whole_sentences_on_each_side(base_nlp):
    doc = base_nlp("One cat sat. Two dogs ran. The bank was closed. Three birds sang. Four fish "
                   "swam.")
    target = next(token for token in doc if token.text == "bank")
    assert ContextRule(sentences=0).span(target).text == "The bank was closed."
    assert ContextRule(sentences=1).span(target).text == (
        "Two dogs ran. The bank was closed. Three birds sang.")


def test_pipe_and_call_agree(nlp):
    texts = ["She called her brother on the phone.", "No target here.",
             "The art of conversation and the bank of the river."]
    piped = [[(t.i, t._.wsd_senses) for t in doc._.wsd_targets] for doc in nlp.pipe(texts)]
    called = [[(t.i, t._.wsd_senses) for t in nlp(text)._.wsd_targets] for text in texts]
    assert piped == called
    assert [len(targets) for targets in piped] == [1, 0, 2]


def test_pipe_batches_by_tokens_and_keeps_every_doc_in_order(nlp, monkeypatch):
    """Batches close at ``BATCH_TOKENS`` tokens (here after every second doc, or the first
    long one): each doc comes out once, in order, annotated as on its own."""
    from wsd_classic import spacy_component

    texts = ["She called her brother.", "The bank of the river.", "No target.",
             "The art of conversation and the bank of the river and the art of war.", "Art."]
    monkeypatch.setattr(spacy_component, "BATCH_TOKENS", 9)
    piped = [(doc.text, [(t.i, t._.wsd_senses) for t in doc._.wsd_targets])
             for doc in nlp.pipe(texts)]
    called = [(text, [(t.i, t._.wsd_senses) for t in nlp(text)._.wsd_targets]) for text in texts]
    assert piped == called


def test_dlist_explains_with_the_rule_that_fired(tiny_models):
    from wsd_classic import modelstore

    root, task, _ = tiny_models
    doc = _pipeline(tiny_models, "dlist", explain=True)("I called my mother on the phone.")
    [(feature, strength)] = doc[1]._.wsd_evidence
    model = modelstore.load(root, task, "dlist").models["call.v"]
    assert strength == pytest.approx(model.strength_[model.vocabulary_[feature]]) and strength > 0
    # The rule's favourite sense is the answer.
    rule_senses = model.distribution_[model.vocabulary_[feature]]
    assert doc[1]._.wsd_senses[0][0] == model.classes_[rule_senses.argmax()] == "call%2:32:01::"


def test_svm_explains_with_the_features_that_add_most(tiny_models):
    doc = _pipeline(tiny_models, "svm", explain=True)("The union called off the strike.")
    evidence = doc[2]._.wsd_evidence
    assert 1 <= len(evidence) <= 5
    scores = [score for _, score in evidence]
    assert scores == sorted(scores, reverse=True) and min(scores) > 0
    assert "syn:sat=off" in [name for name, _ in evidence] or \
        "syn:prt=off" in [name for name, _ in evidence]


def test_explaining_a_system_without_evidence_is_refused(tiny_models):
    with pytest.raises(WsdError, match="commonest system cannot explain"):
        _pipeline(tiny_models, "commonest", explain=True)


def test_a_missing_model_is_refused_when_the_pipe_is_added(tiny_models, tmp_path):
    nlp = load_spacy.__wrapped__()
    with pytest.raises(WsdError, match="no semcor/svm model"):
        nlp.add_pipe("wsd_classic", config={"models_dir": str(tmp_path)})
