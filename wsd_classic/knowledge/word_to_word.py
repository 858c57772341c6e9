"""Personalised PageRank word by word (UKB's ``ppr_w2w``, Agirre, López de Lacalle & Soroa
2014): each target's candidate synsets scored by a walk over the knowledge graph that restarts
at the senses of the other content words of its context.

PageRank is linear in its personalisation, so the walk of a context is the sum of the walks of
its words: one walk per distinct context lexelt (``lemma.pos``), reused for every target whose
window holds it, gives each target's word-by-word score exactly; the walks go through the graph
in blocks, one sparse-times-dense product per iteration for a whole block.
"""
from __future__ import annotations

import sys
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass

import numpy as np
import scipy.sparse
from tqdm import tqdm

from wsd_classic import wordnet
from wsd_classic.corpora.allwords import AllWordsCorpus, Target
from wsd_classic.knowledge import pagerank
from wsd_classic.knowledge.graph import RELATIONS, KnowledgeGraph
from wsd_classic.workers import in_workers

# Personalisation vectors walked together: a block's dense matrices take 2 x 4 bytes x 117,659
# synsets x 256 = 240 MB.
BLOCK = 256
EXPLAINED = 3  # context senses and edges ``explain`` names


@dataclass(frozen=True)
class WalkSettings:
    """``window``: the sentences on each side of the target's, within its document, whose
    content words are its context; ``damping`` and ``iterations`` of the walk;
    ``sense_counts``: a context word's senses share its restart mass by WordNet's tag counts
    + 1 (else evenly); ``syntagnet``: whether the graph holds SyntagNet's pairs (when the data
    directory has them); ``syntagnet_weight``: the weight of their edges, WordNet's being 1;
    ``gloss``: the gloss relations' disambiguation (``glosses.DISAMBIGUATIONS``; empty: none),
    ``gloss_weight`` the weight of their edges."""

    window: int = 0
    damping: float = 0.85
    iterations: int = 30
    sense_counts: bool = True
    syntagnet: bool = True
    syntagnet_weight: float = 1.0
    gloss: str = ""
    gloss_weight: float = 1.0

    def to_dict(self) -> dict:
        return asdict(self)


def candidates(target: Target) -> tuple[str, ...]:
    return wordnet.wordnet_senses(target.lemma, target.pos)


def context_words(corpus: AllWordsCorpus, targets: Sequence[Target],
                  window: int) -> list[list[Target]]:
    """For each of ``targets``, the corpus's targets in its window of sentences within its
    document whose lexelt is not its own."""
    by_sentence: dict[int, list[Target]] = defaultdict(list)
    for target in corpus.targets:
        by_sentence[target.sentence].append(target)
    documents = [sentence.document for sentence in corpus.sentences]
    return [[word
             for sentence in range(max(0, target.sentence - window),
                                   min(len(documents), target.sentence + window + 1))
             if documents[sentence] == documents[target.sentence]
             for word in by_sentence[sentence] if word.lexelt != target.lexelt]
            for target in targets]


def contexts(corpus: AllWordsCorpus, targets: Sequence[Target],
             window: int) -> list[Counter]:
    """For each of ``targets``, the lexelts of the corpus's targets in its window of sentences
    (how often each occurs), its own lexelt left out."""
    return [Counter(word.lexelt for word in words)
            for words in context_words(corpus, targets, window)]


class WordToWord:
    """The word-by-word walk of ``settings`` over ``graph``."""

    def __init__(self, graph: KnowledgeGraph, settings: WalkSettings = WalkSettings()):
        self.graph = graph
        self.settings = settings
        adjacency = graph.weighted(settings.syntagnet_weight, settings.gloss_weight)
        self.walk = pagerank.transition(adjacency)
        # the nodes' weighted degrees, which the reciprocal walk reads for every batch
        self.degree = np.asarray(adjacency.sum(axis=0)).ravel()

    def restart(self, lexelt: str) -> tuple[np.ndarray, np.ndarray]:
        """The nodes of the lexelt's senses and the share of a unit of restart mass each gets."""
        keys = wordnet.wordnet_senses(*lexelt.rsplit(".", 1))
        if self.settings.sense_counts:
            index = wordnet.sense_index()
            weights = np.array([index.tag_count(key) + 1.0 for key in keys])
        else:
            weights = np.ones(len(keys))
        return self.graph.nodes(keys), weights / weights.sum()

    def ranks(self, restarts: Sequence[tuple[np.ndarray, np.ndarray]]) -> np.ndarray:
        """The walk's ranks (nodes x restarts) for a block of restart distributions."""
        block = np.zeros((self.graph.size, len(restarts)), dtype=np.float32)
        columns = np.repeat(np.arange(len(restarts)), [len(nodes) for nodes, _ in restarts])
        np.add.at(block, (np.concatenate([nodes for nodes, _ in restarts]), columns),
                  np.concatenate([weights for _, weights in restarts]))
        return pagerank.personalised_pagerank(self.walk, block, self.settings.damping,
                                              self.settings.iterations)

    def distributions(self, corpus: AllWordsCorpus, targets: Sequence[Target] | None = None,
                      jobs: int = 1, progress: bool | None = None
                      ) -> dict[str, dict[str, float]]:
        """Each target's distribution over all its WordNet 3.0 candidates (WordNet's order,
        weights summing to 1), by target id: its candidates' ranks in the walk restarting at
        the senses of its context's other content words (``contexts``), normalised. A target
        whose candidates the walk never reaches (no context) gets an even distribution.
        ``targets``: those to score (all the corpus's when None); the context is always every
        content word the corpus has."""
        targets = corpus.targets if targets is None else targets
        ambiguous = [target for target in targets if len(candidates(target)) > 1]
        return self.normalised(targets, self.scores(corpus, ambiguous, jobs, progress))

    @staticmethod
    def normalised(targets: Sequence[Target], scores: dict[str, np.ndarray]
                   ) -> dict[str, dict[str, float]]:
        """Each target's ``scores`` as a distribution over its candidates, even where it has
        none or they sum to 0."""
        found = {}
        for target in targets:
            keys = candidates(target)
            own = scores.get(target.id)
            total = 0.0 if own is None else float(own.sum())
            weights = own / total if total > 0 else np.full(len(keys), 1.0 / len(keys))
            found[target.id] = dict(zip(keys, weights.tolist()))
        return found

    def scores(self, corpus: AllWordsCorpus, targets: Sequence[Target], jobs: int = 1,
               progress: bool | None = None) -> dict[str, np.ndarray]:
        """The summed ranks of each target's candidates over its context's walks, by id."""
        totals = self.summed_ranks(corpus, targets, jobs, progress)
        return {target.id: total for target, total in zip(targets, totals)}

    def summed_ranks(self, corpus: AllWordsCorpus, targets: Sequence[Target], jobs: int = 1,
                     progress: bool | None = None) -> list[np.ndarray]:
        """The summed ranks of each target's candidates over its context's walks (the walks of
        ``target_contexts``' keys), in the order of ``targets``."""
        return self.context_scores(self.target_contexts(corpus, targets),
                                   [self.graph.nodes(candidates(target)) for target in targets],
                                   jobs, progress)

    def target_contexts(self, corpus: AllWordsCorpus, targets: Sequence[Target]
                        ) -> list[Counter]:
        """Each target's walks, by their key (``restart``'s argument: here a context lexelt),
        with the restart mass each carries (how often the lexelt is in the target's window)."""
        return contexts(corpus, targets, self.settings.window)

    def context_scores(self, found: Sequence[Counter], nodes: Sequence[np.ndarray],
                       jobs: int = 1, progress: bool | None = None) -> list[np.ndarray]:
        """For each context (the lexelts of its content words, how often each occurs), the
        summed ranks of its ``nodes`` over the walks of its lexelts: one walk per distinct
        lexelt of all the contexts, or, when the contexts share fewer distinct nodes than
        lexelts (a lexical sample's few lexelts), one walk per node (``reciprocal_scores``)."""
        users: dict[str, list[tuple[int, int]]] = defaultdict(list)
        for number, context in enumerate(found):
            for lexelt, count in context.items():
                users[lexelt].append((number, count))
        lexelts = sorted(users)
        if len(np.unique(np.concatenate([np.zeros(0, np.int64), *nodes]))) < len(lexelts):
            return self.reciprocal_scores(found, nodes, jobs, progress)
        blocks = [lexelts[start:start + BLOCK] for start in range(0, len(lexelts), BLOCK)]
        global _running
        _running = (self, users, nodes)
        totals = [np.zeros(len(own), dtype=np.float64) for own in nodes]
        bar = tqdm(total=len(lexelts), desc="ppr walks", unit="word",
                   disable=not (sys.stderr.isatty() if progress is None else progress),
                   file=sys.stderr)
        try:
            for block, partial in zip(blocks, in_workers(_block_scores, blocks, jobs)):
                for number, values in partial.items():
                    totals[number] += values
                bar.update(len(block))
        finally:
            _running = None
            bar.close()
        return totals

    def reciprocal_scores(self, found: Sequence[Counter], nodes: Sequence[np.ndarray],
                          jobs: int = 1, progress: bool | None = None) -> list[np.ndarray]:
        """``context_scores`` from the other end: one walk restarting at each distinct node.

        On an undirected graph the walk is reciprocal: with ``d`` the nodes' weighted degrees,
        ``d_u`` times the rank of ``c`` in the walk restarting at ``u`` equals ``d_c`` times the
        rank of ``u`` in the walk restarting at ``c`` (every power of the transition times
        ``diag(d)`` is symmetric, and so is the walk's polynomial in it). So a context's score
        for ``c`` is ``d_c`` times the sum, over its restart nodes ``u``, of their restart mass
        times the rank of ``u`` in ``c``'s walk over ``d_u``; an isolated ``c`` keeps the mass
        that restarts at itself."""
        distinct, inverse = np.unique(np.concatenate([np.zeros(0, np.int64), *nodes]),
                                      return_inverse=True)
        restarts = {lexelt: self.restart(lexelt)
                    for lexelt in sorted({lexelt for context in found for lexelt in context})}
        rows, columns, mass = [], [], []
        for number, context in enumerate(found):
            for lexelt, count in context.items():
                restart_nodes, shares = restarts[lexelt]
                rows += [number] * len(restart_nodes)
                columns += restart_nodes.tolist()
                mass += (count * shares).tolist()
        restart = scipy.sparse.csr_matrix((mass, (rows, columns)),
                                          shape=(len(found), self.graph.size))
        over_degree = restart @ scipy.sparse.diags(
            np.divide(1.0, self.degree, out=np.zeros_like(self.degree), where=self.degree > 0))
        blocks = [distinct[start:start + BLOCK] for start in range(0, len(distinct), BLOCK)]
        global _running
        _running = (self, over_degree)
        given = np.zeros((len(found), len(distinct)))
        bar = tqdm(total=len(distinct), desc="ppr walks", unit="sense",
                   disable=not (sys.stderr.isatty() if progress is None else progress),
                   file=sys.stderr)
        try:
            at = 0
            for block, values in zip(blocks, in_workers(_reciprocal_block, blocks, jobs)):
                given[:, at:at + len(block)] = values
                at += len(block)
                bar.update(len(block))
        finally:
            _running = None
            bar.close()
        given *= self.degree[distinct]
        isolated = self.degree[distinct] == 0
        given[:, isolated] = restart[:, distinct[isolated]].toarray()
        totals, at = [], 0
        for number, own in enumerate(nodes):
            totals.append(given[number, inverse[at:at + len(own)]])
            at += len(own)
        return totals

    def explain(self, context: Counter, best: str) -> list[tuple[str, float]]:
        """What carried the walk's mass to ``best`` (a sense key): the context senses whose
        own walks give it the most (their share of its score), then the edges into it that
        carried the most (their share of the mass arriving over edges)."""
        lexelts = list(context)
        senses = [(lexelt, key, node, share * context[lexelt])
                  for lexelt in lexelts
                  for key, node, share in zip(wordnet.wordnet_senses(*lexelt.rsplit(".", 1)),
                                              *self.restart(lexelt))]
        if not senses:
            return []
        target = self.graph.node(best)
        single = self.ranks([(np.array([node]), np.array([1.0]))
                             for _, _, node, _ in senses])[target]
        given = np.array([weight for *_, weight in senses]) * single
        evidence = [(f"context {senses[i][1]}", float(given[i] / given.sum()))
                    for i in np.argsort(-given)[:EXPLAINED] if given[i] > 0]
        joint = self.ranks([self._joint_restart(senses)])[:, 0]
        row = slice(self.walk.indptr[target], self.walk.indptr[target + 1])
        neighbours = self.walk.indices[row]
        # an isolated synset's loop to itself is no edge
        carried = np.where(neighbours != target, self.walk.data[row] * joint[neighbours], 0.0)
        relation_bits = self.graph.relations[target, neighbours].toarray().ravel()
        for i in np.argsort(-carried)[:EXPLAINED]:
            if carried[i] > 0:
                evidence.append((f"edge {_relation_names(relation_bits[i])} "
                                 f"{self._describe(neighbours[i])}",
                                 float(carried[i] / carried.sum())))
        return evidence

    def _joint_restart(self, senses) -> tuple[np.ndarray, np.ndarray]:
        nodes = np.array([node for _, _, node, _ in senses])
        weights = np.array([weight for *_, weight in senses])
        return nodes, weights / weights.sum()

    def _describe(self, node: int) -> str:
        """A synset by its first word and location: ``bank.n@08420278``."""
        pos, offset = self.graph.location(node)
        return f"{wordnet.synset_at(pos, offset).words[0]}.{pos}@{offset:08d}"


# The walk, its context users and candidate nodes of the running ``scores``, for its forked
# workers to share rather than receive with every block.
_running = None


def _block_scores(block: list[str]) -> dict[int, np.ndarray]:
    """The ranks the walks of a block of context lexelts give their targets' candidates."""
    walker, users, nodes = _running
    ranks = walker.ranks([walker.restart(lexelt) for lexelt in block])
    partial: dict[int, np.ndarray] = {}
    for column, lexelt in enumerate(block):
        for number, count in users[lexelt]:
            values = count * ranks[nodes[number], column].astype(np.float64)
            if number in partial:
                partial[number] += values
            else:
                partial[number] = values
    return partial


def _reciprocal_block(block: np.ndarray) -> np.ndarray:
    """Contexts x the block's nodes: each context's restart mass over the degrees, summed
    against the ranks of the walks restarting at the block's nodes."""
    walker, over_degree = _running
    ranks = walker.ranks([(np.array([node]), np.array([1.0])) for node in block])
    return np.asarray(over_degree @ ranks.astype(np.float64))


def _relation_names(bits: int) -> str:
    return "+".join(name for number, name in enumerate(RELATIONS) if bits & (1 << number))
