"""The knowledge-based system's parts: SyntagNet's reader, the knowledge graph (its edges, npz
form and identity), personalised PageRank against a dense solution, the word-by-word walk's
linearity and reciprocity, a lexical-sample context's walk, and the graph without SyntagNet."""
from __future__ import annotations

from collections import Counter
from dataclasses import replace

import numpy as np
import pytest
import scipy.sparse

from wsd_classic import wordnet
from wsd_classic.corpora import registry, syntagnet
from wsd_classic.corpora.allwords import AllWordsCorpus, Sentence, Target
from wsd_classic.errors import WsdError
from wsd_classic.knowledge import graph as knowledge_graph, pagerank
from wsd_classic.knowledge.graph import RELATION_BIT, RELATIONS, KnowledgeGraph
from wsd_classic.knowledge.supervised_restart import SupervisedRestartWalk
from wsd_classic.knowledge.word_to_word import WalkSettings, WordToWord, contexts
from wsd_classic.preprocess.document import ProcessedInstance
from wsd_classic.systems.personalised_pagerank import PersonalisedPageRank, sentence_lexelts

from conftest import FIXTURES, assert_error_at

SYNTAGNET = FIXTURES / "syntagnet" / "collocations.yaml"


def test_syntagnet_reader_reads_pairs_and_undoubles_apostrophes():
    assert list(syntagnet.read_syntagnet(SYNTAGNET)) == [
        ("bank%1:17:01::", "river%1:17:00::"), ("bank%1:17:01::", "sit%2:35:00::"),
        ("coup_d'etat%1:04:00::", "stage%2:36:00::"),
        ("interest%1:21:00::", "rate%1:21:00::")]


def test_syntagnet_reader_names_a_malformed_line():
    assert_error_at(lambda path: list(syntagnet.read_syntagnet(path)),
                    FIXTURES / "syntagnet" / "malformed.yaml", 5, "not a SyntagNet line")


def test_syntagnet_is_optional_but_checked_when_present(tmp_path):
    assert syntagnet.located(tmp_path) is None
    (tmp_path / "syntagnet").mkdir()
    (tmp_path / "syntagnet" / "collocations.yaml").write_text("# SyntagNet 1.0\n")
    with pytest.raises(WsdError, match="SHA-256"):
        syntagnet.located(tmp_path)
    assert "CC BY-NC-SA 4.0" in registry.DATASETS["syntagnet"].source


# A miniature WordNet: real synsets (so that real sense keys find them), pointers of every
# relation the graph takes, and one (domain) it leaves out.
KEYS = ("bank%1:17:01::", "river%1:17:00::", "sit%2:35:00::", "coup_d'etat%1:04:00::",
        "stage%2:36:00::", "interest%1:21:00::", "rate%1:21:00::")
SYMBOLS = ("@", "#m", "&", "^", "=", "*", ">", "$", "!", "+", "\\", ";c")


def pointer_pair(number: int) -> tuple[int, int]:
    """The synsets pointer ``number`` joins: neighbours, then (from the 8th) every other one."""
    return number % len(KEYS), (number + 1 + number // len(KEYS)) % len(KEYS)


def miniature():
    located = [wordnet.synset_location(key) for key in KEYS]
    pointers = {location: [] for location in located}
    for number, symbol in enumerate(SYMBOLS):
        first, second = pointer_pair(number)
        pointers[located[first]].append((symbol, *located[second]))
    return [(location, wordnet.Synset((KEYS[number].partition("%")[0],),
                                      tuple(pointers[location]), "", ()))
            for number, location in enumerate(located)]


def test_graph_has_an_edge_for_each_relation_and_syntagnet_pair():
    graph = knowledge_graph.build(SYNTAGNET, miniature())
    relations = graph.relations
    assert graph.size == len(KEYS)
    assert (relations != relations.T).nnz == 0
    for number, symbol in enumerate(SYMBOLS[:-1]):
        first, second = pointer_pair(number)
        name = next(name for name, symbols in RELATIONS.items() if symbol in symbols)
        assert relations[first, second] & RELATION_BIT[name], (symbol, name)
    assert relations[pointer_pair(len(SYMBOLS) - 1)] == 0  # the domain pointer's
    syntagnet_pairs = {(KEYS.index(head), KEYS.index(partner))
                       for head, partner in syntagnet.read_syntagnet(SYNTAGNET)}
    for first, second in syntagnet_pairs:
        assert relations[first, second] & RELATION_BIT["syntagnet"]
    assert graph.header["edges_by_relation"]["syntagnet"] == len(syntagnet_pairs)
    assert graph.name == knowledge_graph.WITH_SYNTAGNET
    assert knowledge_graph.build(None, miniature()).name == knowledge_graph.WORDNET


def test_graph_round_trips_through_npz_with_its_identity(tmp_path):
    graph = knowledge_graph.build(SYNTAGNET, miniature())
    graph.save(tmp_path / "graph.npz")
    loaded = KnowledgeGraph.load(tmp_path / "graph.npz")
    assert (loaded.relations != graph.relations).nnz == 0
    assert loaded.header == graph.header
    assert loaded.node("bank%1:17:01::") == graph.node("bank%1:17:01::") == 0
    assert loaded.identity == knowledge_graph.identity(SYNTAGNET)
    assert knowledge_graph.identity(SYNTAGNET) != knowledge_graph.identity(None)


def test_damaged_graph_is_one_error(tmp_path):
    (tmp_path / "graph.npz").write_bytes(b"not an npz")
    with pytest.raises(WsdError, match="damaged knowledge graph"):
        KnowledgeGraph.load(tmp_path / "graph.npz")


def small_walk():
    """A weighted undirected graph of six nodes, one of them isolated."""
    rows, columns, weights = zip(*[(0, 1, 1.0), (1, 2, 2.0), (2, 0, 1.0), (2, 3, 1.0),
                                   (3, 4, 3.0)])
    adjacency = scipy.sparse.coo_matrix((weights, (rows, columns)), shape=(6, 6))
    return pagerank.transition(scipy.sparse.csr_matrix(adjacency + adjacency.T))


def test_pagerank_matches_the_dense_solution():
    walk, damping = small_walk(), 0.85
    restart = np.array([[0.5, 0.0], [0.0, 0.0], [0.0, 0.0], [0.5, 0.0], [0.0, 0.0],
                        [0.0, 1.0]])
    dense = walk.toarray().astype(float)
    exact = (1 - damping) * np.linalg.solve(np.eye(6) - damping * dense, restart)
    ranks = pagerank.personalised_pagerank(walk, restart, damping, iterations=200)
    np.testing.assert_allclose(ranks, exact, atol=1e-5)
    np.testing.assert_allclose(ranks.sum(axis=0), 1.0, atol=1e-5)
    assert ranks[5, 1] == pytest.approx(1.0)  # the isolated node keeps its mass


def test_pagerank_is_linear_in_its_personalisation():
    walk = small_walk()
    first, second = np.eye(6)[:, [0]], np.eye(6)[:, [4]]
    joint = pagerank.personalised_pagerank(walk, 0.3 * first + 0.7 * second, 0.85, 30)
    summed = (0.3 * pagerank.personalised_pagerank(walk, first, 0.85, 30)
              + 0.7 * pagerank.personalised_pagerank(walk, second, 0.85, 30))
    np.testing.assert_allclose(joint, summed, atol=1e-6)


def test_pagerank_walked_in_tiles_gives_the_whole_blocks_numbers(monkeypatch):
    """Tiles of columns, the restart added only where it has mass: the very floats of one
    product over the whole block with the restart added everywhere."""
    generator = np.random.default_rng(0)
    adjacency = scipy.sparse.random(300, 300, density=0.02, random_state=1, format="csr")
    walk = pagerank.transition(scipy.sparse.csr_matrix(adjacency + adjacency.T))
    restart = np.zeros((300, 2 * pagerank.TILE + 5), dtype=np.float32)
    for column in range(restart.shape[1]):
        restart[generator.integers(0, 300, 3), column] = generator.random(3)
    damped, whole = walk * np.float32(0.95), restart
    for _ in range(30):
        whole = damped @ whole + (1 - 0.95) * restart
    for tile in (pagerank.TILE, 7, restart.shape[1]):
        monkeypatch.setattr(pagerank, "TILE", tile)
        np.testing.assert_array_equal(pagerank.personalised_pagerank(walk, restart, 0.95, 30),
                                      whole)


@pytest.fixture(scope="module")
def wordnet_graph(tmp_path_factory):
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("WSD_CLASSIC_CACHE", str(tmp_path_factory.mktemp("cache")))
        return knowledge_graph.obtain(tmp_path_factory.mktemp("no-data"), quiet=True)


def corpus_of(*sentences: tuple[str, ...]) -> AllWordsCorpus:
    """Sentences of ``lemma.pos`` words, every word a target, all in one document."""
    targets = [Target(f"s{number}.t{position}", *word.rsplit(".", 1), number, position)
               for number, words in enumerate(sentences) for position, word in enumerate(words)]
    return AllWordsCorpus("test", [Sentence(f"s{number}", "d", words)
                                   for number, words in enumerate(sentences)], targets)


def test_word_to_word_sums_the_context_words_walks(wordnet_graph):
    corpus = corpus_of(("bank.n", "river.n", "water.n", "bank.n"), ("interest.n", "rate.n"))
    walker = WordToWord(wordnet_graph, WalkSettings(iterations=10))
    scores = walker.scores(corpus, corpus.targets)
    target = corpus.targets[0]
    context = contexts(corpus, [target], window=0)[0]
    assert context == Counter({"river.n": 1, "water.n": 1})  # its own lemma left out
    restarts = [walker.restart(lexelt) for lexelt in context]
    joint = walker.ranks([(np.concatenate([nodes for nodes, _ in restarts]),
                           np.concatenate([weights for _, weights in restarts]))])[:, 0]
    candidates = wordnet_graph.nodes(wordnet.wordnet_senses("bank", "n"))
    np.testing.assert_allclose(scores[target.id], joint[candidates], rtol=1e-4)
    distributions = walker.distributions(corpus)
    bank = distributions[target.id]
    assert list(bank) == list(wordnet.wordnet_senses("bank", "n"))
    assert sum(bank.values()) == pytest.approx(1.0)
    np.testing.assert_allclose(list(bank.values()),
                               scores[target.id] / scores[target.id].sum(), rtol=1e-6)
    assert distributions["s0.t1"] == {"river%1:17:00::": 1.0}


def test_walks_from_the_candidates_give_the_context_walks_scores(wordnet_graph):
    walker = WordToWord(wordnet_graph, WalkSettings(iterations=10))
    found = [Counter({"river.n": 2, "water.n": 1}), Counter({"rate.n": 1}), Counter()]
    nodes = [wordnet_graph.nodes(wordnet.wordnet_senses(lemma, "n"))
             for lemma in ("bank", "interest", "bank")]
    from_candidates = walker.reciprocal_scores(found, nodes)
    from_context = [np.zeros(len(own)) for own in nodes]
    for number, context in enumerate(found):
        for lexelt, count in context.items():
            from_context[number] += count * walker.ranks([walker.restart(lexelt)])[
                nodes[number], 0]
    for mine, theirs in zip(from_candidates, from_context):
        np.testing.assert_allclose(mine, theirs, rtol=1e-3, atol=1e-9)
    assert from_context[0].sum() > 0
    # fewer distinct candidates than context lexelts: context_scores walks from the candidates
    many = [Counter({f"{lemma}.n": 1 for lemma in ("river", "water", "money", "loan")})]
    np.testing.assert_array_equal(walker.context_scores(many, [nodes[0][:2]])[0],
                                  walker.reciprocal_scores(many, [nodes[0][:2]])[0])


def test_supervised_restart_walks_each_context_token_from_its_beliefs(wordnet_graph):
    corpus = corpus_of(("bank.n", "interest.n", "water.n", "interest.n"))
    # the two interests believe differently (the second in none of its senses: tag counts
    # + 1, as water, which has no belief); a second set believes nothing
    beliefs = {"s0.t1": {"interest%1:21:00::": 1.0}, "s0.t3": {"interest%1:21:00::": 0.0},
               "s0.t2": None}
    settings = WalkSettings(iterations=10)
    walker = SupervisedRestartWalk(wordnet_graph, settings, [beliefs, {}])
    believing, plain_set = walker.distribution_sets(corpus)
    plain = WordToWord(wordnet_graph, settings)
    assert len(plain.restart("interest.n")[0]) > 1
    restarts = [(wordnet_graph.nodes(("interest%1:21:00::",)), np.array([1.0])),
                plain.restart("interest.n"), plain.restart("water.n")]
    expected = walker.ranks(restarts).sum(axis=1)[
        wordnet_graph.nodes(wordnet.wordnet_senses("bank", "n"))]
    np.testing.assert_allclose(list(believing["s0.t0"].values()), expected / expected.sum(),
                               rtol=1e-4)
    # without beliefs, the walk of WordNet's tag counts
    for target, weights in plain.distributions(corpus).items():
        np.testing.assert_allclose(list(plain_set[target].values()), list(weights.values()),
                                   rtol=1e-4)
    # the belief moves the target's scores away from the tag counts' walk
    assert not np.allclose(list(believing["s0.t0"].values()),
                           list(plain_set["s0.t0"].values()), rtol=1e-3)


def test_a_target_without_context_gets_an_even_distribution(wordnet_graph):
    corpus = corpus_of(("bank.n",))
    weights = list(WordToWord(wordnet_graph).distributions(corpus)["s0.t0"].values())
    assert weights == [pytest.approx(1 / len(weights))] * len(wordnet.wordnet_senses("bank", "n"))


def test_missing_syntagnet_is_said_in_one_line(tmp_path, monkeypatch, capsys, wordnet_graph):
    monkeypatch.setenv("WSD_CLASSIC_CACHE", str(tmp_path / "cache"))
    knowledge_graph.graph_path(None).parent.mkdir(parents=True)
    wordnet_graph.save(knowledge_graph.graph_path(None))
    graph = knowledge_graph.obtain(tmp_path / "data")
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and "SyntagNet is not in the data directory" in lines[0]
    assert graph.name == knowledge_graph.WORDNET


def lexical_sample_context():
    """*The river flooded. We sat on the bank of the river and called on Paris.* as a
    lexical-sample context, its target *bank*."""
    words = ("The", "river", "flooded", ".", "We", "sat", "on", "the", "bank", "of", "the",
             "river", "and", "called", "on", "Paris", ".")
    lemmas = ("the", "river", "flood", ".", "we", "sit", "on", "the", "bank", "of", "the",
              "river", "and", "call", "on", "paris", ".")
    tags = ("DT", "NN", "VBD", ".", "PRP", "VBD", "IN", "DT", "NN", "IN", "DT", "NN", "CC",
            "VBD", "RP", "NNP", ".")
    stops = tuple(lemma in {"the", "we", "on", "of", "and"} for lemma in lemmas)
    return ProcessedInstance("bank.1", "bank.n", words, lemmas, tags, (0,) * 4 + (1,) * 13,
                             tuple(range(17)), ("dep",) * 17, stops, 8)


def test_a_lexical_sample_context_is_its_sentence_s_content_words():
    doc = lexical_sample_context()
    assert sentence_lexelts(doc) == Counter({"sit.v": 1, "river.n": 1, "call.v": 1,
                                             "paris.n": 1})
    assert sentence_lexelts(doc, window=1)["river.n"] == 2
    assert "flood.v" in sentence_lexelts(doc, window=1)


def test_lexical_sample_distributions_are_the_walk_s_over_the_candidates(wordnet_graph):
    doc = lexical_sample_context()
    scorer = PersonalisedPageRank(wordnet_graph, iterations=10)
    keys, weights = scorer.instance_distributions([doc])["bank.1"]
    assert keys == wordnet.wordnet_senses("bank", "n")
    assert weights.sum() == pytest.approx(1.0)
    restarts = [scorer.walker.restart(lexelt) for lexelt in sentence_lexelts(doc)]
    joint = scorer.walker.ranks([(np.concatenate([nodes for nodes, _ in restarts]),
                                  np.concatenate([share for _, share in restarts]))])[:, 0]
    expected = joint[wordnet_graph.nodes(keys)]
    np.testing.assert_allclose(weights, expected / expected.sum(), rtol=1e-3)
    # the target's particles add the phrasal verb's senses
    called = replace(doc, id="call.1", lexelt="call.v", target=13, sats=(14,))
    keys, _ = scorer.instance_distributions([called])["call.1"]
    assert set(wordnet.wordnet_senses("call_on", "v")) <= set(keys)


def test_walk_evidence_fills_the_ppr_group_of_every_side_and_names_the_walk(wordnet_graph):
    from wsd_classic.corpora.model import LexicalSample
    from wsd_classic.features.featurizer import Featurizer
    from wsd_classic.tasks import engine
    from wsd_classic.tasks.engine import FeaturizedCorpus

    scorer = PersonalisedPageRank(wordnet_graph, iterations=10)
    doc = lexical_sample_context()
    other = replace(doc, id="bank.2")
    sides = [FeaturizedCorpus(LexicalSample([]), {item.id: {"ppr": []}}, Featurizer())
             for item in (doc, other)]
    engine.add_walk_evidence(sides, [[doc], [other]], scorer)
    assert [side.walk for side in sides] == [scorer, scorer]
    block, = sides[1].features["bank.2"]["ppr"]
    assert block.names == tuple(f"ppr={key}" for key in wordnet.wordnet_senses("bank", "n"))
    np.testing.assert_allclose(block.values, sides[0].features["bank.1"]["ppr"][0].values)


def wide_context(identifier: str) -> ProcessedInstance:
    """A sentence of *bank* among many other nouns: more context lexelts than *bank* has
    senses."""
    words = ("bank", "river", "water", "money", "loan", "interest", "rate", "fish", "boat",
             "tree", "shore", "deposit", "account", "cash", "flood", "mud", "grass")
    count = len(words)
    return ProcessedInstance(identifier, "bank.n", words, words, ("NN",) * count, (0,) * count,
                             tuple(range(count)), ("dep",) * count, (False,) * count, 0)


def test_a_context_s_evidence_does_not_depend_on_the_contexts_walked_with_it(wordnet_graph):
    """Training walks a lexical sample's training and test contexts together, tagging the test
    contexts alone, plain text a batch at a time: each context must get the same block."""
    scorer = PersonalisedPageRank(wordnet_graph, iterations=10)
    doc = lexical_sample_context()
    alone = scorer.evidence([doc])["bank.1"]
    together = scorer.evidence([wide_context("wide.1"), doc, wide_context("wide.2")])["bank.1"]
    assert alone.names == together.names
    np.testing.assert_array_equal(alone.values, together.values)
