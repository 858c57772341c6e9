"""Feature extractors on hand-built analyses, so every expected feature is known in advance."""
from wsd_classic.features import check_groups
from wsd_classic.features.bag_of_words import bag_of_words
from wsd_classic.features.collocations import collocations
from wsd_classic.features.pos_window import pos_window
from wsd_classic.features.syntax import syntactic_relations
from wsd_classic.errors import WsdError
from wsd_classic.preprocess.document import ProcessedInstance

import pytest

from conftest import plain_row


def make_doc(target=3, sats=()):
    # "He called up his friends . Art was dull ."  (two sentences)
    words = ("He", "quickly", "called", "up", "his", "friends", ".", "Art", "was", "dull", ".")
    return ProcessedInstance(
        id="x.1", lexelt="call.v", words=words,
        lemmas=("he", "quickly", "call", "up", "his", "friend", ".", "art", "be", "dull", "."),
        tags=("PRP", "RB", "VBD", "RP", "PRP$", "NNS", ".", "NN", "VBD", "JJ", "."),
        sentences=(0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1),
        heads=(2, 2, 2, 2, 5, 2, 2, 8, 8, 8, 8),
        deps=("nsubj", "advmod", "ROOT", "prt", "poss", "dobj", "punct", "nsubj", "ROOT",
              "acomp", "punct"),
        stops=(True, False, False, True, True, False, False, False, True, False, False),
        target=target, sats=sats)


def test_bag_of_words_keeps_content_lemmas_of_whole_context_but_not_the_target():
    doc = make_doc(target=2, sats=(3,))
    assert bag_of_words(doc) == ["bow=art", "bow=dull", "bow=friend", "bow=quickly"]


def test_targets_sharing_a_context_lose_only_their_own_lemma_unless_it_recurs():
    """Targets of one running-text context share its tuples (and its lemma counts): each
    target's own lemma goes, and stays when another content word of the context has it."""
    from dataclasses import replace

    doc = make_doc(target=2)
    twice = replace(doc, lemmas=doc.lemmas[:9] + ("friend", "."))  # "dull" read as "friend"
    answers = {}
    for context in (doc, twice, doc):
        for target in (2, 5, 7):
            answers.setdefault((context is doc, target), []).append(
                bag_of_words(replace(context, target=target)))
    assert answers[(True, 5)][0] == ["bow=art", "bow=call", "bow=dull", "bow=quickly"]
    assert answers[(False, 5)] == [["bow=art", "bow=call", "bow=friend", "bow=quickly"]]
    assert answers[(False, 7)] == [["bow=call", "bow=friend", "bow=quickly"]]
    assert all(len(set(map(tuple, found))) == 1 for found in answers.values())


def test_collocations_are_the_eleven_ims_windows_bounded_by_the_sentence():
    doc = make_doc(target=2)
    features = dict(name.split("=", 1) for name in collocations(doc))
    assert len(features) == 11
    assert features["col-1,-1"] == "quickly"
    assert features["col1,1"] == "up"
    assert features["col-2,1"] == "he quickly _ up"
    assert features["col-3,-1"] == "∅ he quickly"
    assert features["col1,3"] == "up his friends"


def test_collocations_do_not_cross_into_the_next_sentence():
    doc = make_doc(target=5)  # "friends", followed by "." then the next sentence
    features = dict(name.split("=", 1) for name in collocations(doc))
    assert features["col1,3"] == ". ∅ ∅"


def test_pos_window_includes_the_target_tag_and_pads_outside_the_sentence():
    doc = make_doc(target=8)
    assert pos_window(doc) == ["pos-3=∅", "pos-2=∅", "pos-1=NN", "pos0=VBD", "pos1=JJ",
                               "pos2=.", "pos3=∅"]


def test_syntax_of_a_verb_with_particle_and_object():
    features = set(syntactic_relations(make_doc(target=2, sats=(3,))))
    assert {"syn:rel=ROOT", "syn:voice=active", "syn:left=quickly", "syn:leftpos=RB",
            "syn:right=up", "syn:rightpos=RP", "syn:dobj=friend", "syn:prt=up",
            "syn:sat=up"} <= features


def test_syntax_of_a_noun_names_its_head_and_side():
    features = set(syntactic_relations(make_doc(target=7)))
    assert {"syn:head=be", "syn:headpos=VBD", "syn:rel=nsubj", "syn:headside=right",
            "syn:headvoice=active"} <= features


def test_unknown_feature_groups_are_rejected():
    with pytest.raises(WsdError, match="unknown feature group"):
        check_groups(["bow", "ngrams"])


def test_a_table_made_on_two_worker_processes_equals_the_one_made_here(monkeypatch):
    from dataclasses import replace

    from conftest import fixture_embedding
    from wsd_classic.features import featurizer as featurizer_module
    from wsd_classic.features.featurizer import Featurizer

    monkeypatch.setattr(featurizer_module, "PARALLEL_MIN_CONTEXTS", 2)
    docs = [replace(make_doc(target), id=f"d{number}", lexelt="bank.n")
            for number, target in enumerate([0, 1, 2, 3, 4, 5, 3, 2, 1])]
    featurizer = Featurizer(embedding=fixture_embedding())
    here, forked = featurizer.table(docs, jobs=1), featurizer.table(docs, jobs=2)
    assert list(forked) == [doc.id for doc in docs]
    assert {key: plain_row(features) for key, features in forked.items()} == {
        key: plain_row(features) for key, features in here.items()}
    assert featurizer_module._SHARED is None
