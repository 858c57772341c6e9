"""Gloss relations the project derives itself: the words read from a gloss, the edges each
disambiguation gives on a miniature WordNet, the graph's identity and name with them, their
edge weight, and the rule that chooses a gloss graph."""
from __future__ import annotations

import numpy as np
import pytest

from bench.ppr import choose_gloss
from wsd_classic import wordnet
from wsd_classic.knowledge import glosses, graph as knowledge_graph
from wsd_classic.knowledge.graph import RELATION_BIT

from conftest import FIXTURES

SYNTAGNET = FIXTURES / "syntagnet" / "collocations.yaml"


def test_gloss_words_join_collocations_and_leave_out_stop_words_and_own_words():
    words = glosses.gloss_words("the slope beside a large body of water; rivers, fishing",
                                {"slope"})
    assert (("body_of_water", "n"),) in words
    assert (("large", "n"), ("large", "a"), ("large", "r")) in words
    assert not any(lemma in ("the", "a", "beside", "of", "slope", "water") for word in words
                   for lemma, _ in word)
    # an inflected form as its base form, under each part of speech WordNet has it as
    assert (("river", "n"),) in words
    assert (("fishing", "n"), ("fish", "v")) in words


# A miniature WordNet of real synsets: the rate synset's gloss names *interest*, one synset
# here, and *bank*, two: the river bank (WordNet's most tagged) and the financial institution,
# which WordNet relates to interest here, and interest to rate.
KEYS = ("bank%1:17:01::", "bank%1:14:00::", "river%1:17:00::", "interest%1:21:00::",
        "rate%1:21:00::")
RIVER_BANK, MONEY_BANK, RIVER, INTEREST, RATE = range(len(KEYS))
DEFINITIONS = {RATE: "the interest a bank pays on a rate", RIVER_BANK: "land beside a river",
               MONEY_BANK: "an institution", RIVER: "a stream", INTEREST: "a charge"}
POINTERS = {RATE: [INTEREST], INTEREST: [MONEY_BANK, RATE], MONEY_BANK: [INTEREST],
            RIVER_BANK: [RIVER], RIVER: [RIVER_BANK]}


def miniature():
    located = [wordnet.synset_location(key) for key in KEYS]
    return [(location, wordnet.Synset(
        (KEYS[node].partition("%")[0],),
        tuple(("@", *located[other]) for other in POINTERS[node]), DEFINITIONS[node], ()))
        for node, location in enumerate(located)]


def gloss_pairs(graph) -> set[tuple[int, int]]:
    rows, columns = np.nonzero(graph.relations.toarray() & RELATION_BIT["gloss"])
    return set(zip(rows.tolist(), columns.tolist()))


def undirected(*pairs):
    return {*pairs, *((second, first) for first, second in pairs)}


def test_each_disambiguation_gives_its_gloss_edges():
    assert wordnet.sense_index().tag_count(KEYS[RIVER_BANK]) > wordnet.sense_index().tag_count(
        KEYS[MONEY_BANK])
    built = {name: knowledge_graph.build(None, miniature(), gloss=name)
             for name in glosses.DISAMBIGUATIONS}
    # the rate's own word is no gloss word of it; interest has one synset here, bank two
    assert gloss_pairs(built["monosemous"]) == undirected((RATE, INTEREST),
                                                          (RIVER_BANK, RIVER))
    assert gloss_pairs(built["first-sense"]) == undirected(
        (RATE, INTEREST), (RATE, RIVER_BANK), (RIVER_BANK, RIVER))
    # the walk from the rate reaches the financial bank through interest
    assert gloss_pairs(built["ppr"]) == undirected(
        (RATE, INTEREST), (RATE, MONEY_BANK), (RIVER_BANK, RIVER))
    for name, graph in built.items():
        assert graph.name == f"{knowledge_graph.WORDNET}+gloss-{name}"
        assert graph.header["edges_by_relation"]["gloss"] == len(gloss_pairs(graph)) // 2
    # an edge WordNet gives as well keeps both relations
    assert built["ppr"].relations[RATE, INTEREST] & RELATION_BIT["hypernymy"]
    assert "gloss" not in knowledge_graph.build(None, miniature()).header["edges_by_relation"]


def test_gloss_edges_take_their_own_weight():
    graph = knowledge_graph.build(None, miniature(), gloss="first-sense")
    weighted = graph.weighted(syntagnet_weight=0.5, gloss_weight=0.25)
    assert weighted[RATE, RIVER_BANK] == pytest.approx(0.25)  # a gloss edge alone
    assert weighted[RATE, INTEREST] == pytest.approx(1.0)  # WordNet's edge as well
    assert graph.weighted()[RATE, RIVER_BANK] == pytest.approx(1.0)


def test_identity_changes_with_the_gloss_disambiguation(tmp_path):
    identities = {knowledge_graph.identity(SYNTAGNET, name)
                  for name in (None, *glosses.DISAMBIGUATIONS)}
    assert len(identities) == 1 + len(glosses.DISAMBIGUATIONS)
    assert knowledge_graph.graph_path(SYNTAGNET, "ppr") != knowledge_graph.graph_path(SYNTAGNET)
    graph = knowledge_graph.build(SYNTAGNET, miniature(), gloss="ppr")
    assert graph.identity == knowledge_graph.identity(SYNTAGNET, "ppr")
    graph.save(tmp_path / "graph.npz")
    loaded = knowledge_graph.KnowledgeGraph.load(tmp_path / "graph.npz")
    assert loaded.header == graph.header
    assert gloss_pairs(loaded) == gloss_pairs(graph)


def figures(held_out, development, removed):
    return {"held_out_semcor_accuracy": held_out, "development_f1": development,
            "removed_senses_accuracy": removed}


def test_a_gloss_graph_is_chosen_only_when_it_beats_the_registered_one_by_the_rule():
    registered = figures(62.0, 55.0, 54.0)
    assert choose_gloss(registered, {"a": figures(62.1, 56.0, 60.0)}) is None  # within the tie
    assert choose_gloss(registered, {"a": figures(63.0, 53.9, 60.0)}) is None  # semeval2007
    assert choose_gloss(registered, {"a": figures(63.0, 55.0, 52.9)}) is None  # removed senses
    found = {"a": figures(62.5, 54.5, 53.5), "b": figures(63.0, 54.0, 55.0),
             "c": figures(62.95, 55.0, 56.0)}
    assert choose_gloss(registered, found) == "c"  # tied with b on held out, better R
