"""The word-by-word walk with a supervised restart: each context word's restart mass shared
among its senses by a supervised system's distribution for that very word (the svm's beliefs
about the context) instead of WordNet's tag counts.

The restarts differ from token to token; by linearity a token's walk is the sum of its senses'
walks weighted by its belief, so the walks are one per distinct context sense, and several sets
of beliefs about the same corpus (an svm trained on different data) share them.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

import numpy as np

from wsd_classic import wordnet
from wsd_classic.corpora.allwords import AllWordsCorpus, Target
from wsd_classic.knowledge.graph import KnowledgeGraph
from wsd_classic.knowledge.word_to_word import (WalkSettings, WordToWord, candidates,
                                                context_words)

Beliefs = Mapping[str, Mapping[str, float] | None]


class SupervisedRestartWalk(WordToWord):
    """``WordToWord`` whose context tokens restart at their senses in the proportions of a set
    of ``beliefs`` (token id -> {sense key: weight}); a token with no belief, or none on its
    candidates, restarts as ``WordToWord``'s do (tag counts + 1)."""

    def __init__(self, graph: KnowledgeGraph, settings: WalkSettings,
                 belief_sets: Sequence[Beliefs]):
        super().__init__(graph, settings)
        self.belief_sets = belief_sets
        self.walks = 0  # the walks of the last ``target_contexts``, for its cost

    def distribution_sets(self, corpus: AllWordsCorpus, jobs: int = 1,
                          progress: bool | None = None) -> list[dict[str, dict[str, float]]]:
        """For each set of beliefs, each target's distribution over its WordNet candidates
        (as ``WordToWord.distributions``), by target id."""
        targets = [target for target in corpus.targets if len(candidates(target)) > 1]
        totals = self.summed_ranks(corpus, targets * len(self.belief_sets), jobs, progress)
        found = []
        for number in range(len(self.belief_sets)):
            scores = dict(zip((target.id for target in targets),
                              totals[number * len(targets):(number + 1) * len(targets)]))
            found.append(self.normalised(corpus.targets, scores))
        return found

    def target_contexts(self, corpus: AllWordsCorpus, targets: Sequence[Target]
                        ) -> list[Counter]:
        """Each target's context senses (their nodes) with the restart mass its context's
        tokens give each; ``targets`` are the corpus's ambiguous targets once per set of
        beliefs."""
        count = len(targets) // len(self.belief_sets)
        words = context_words(corpus, targets[:count], self.settings.window)
        found = []
        for beliefs in self.belief_sets:
            shares = {}
            for context in words:
                mass: Counter = Counter()
                for word in context:
                    if word.id not in shares:
                        shares[word.id] = self.shares(word, beliefs.get(word.id))
                    for node, share in zip(*shares[word.id]):
                        mass[int(node)] += float(share)
                found.append(mass)
        self.walks = len({node for mass in found for node in mass})
        return found

    def shares(self, word: Target, belief: Mapping[str, float] | None
               ) -> tuple[np.ndarray, np.ndarray]:
        """The nodes of a context token's senses and its belief's share of each."""
        keys = wordnet.wordnet_senses(word.lemma, word.pos)
        weights = np.array([(belief or {}).get(key, 0.0) for key in keys], dtype=float)
        if weights.sum() <= 0:
            return super().restart(word.lexelt)
        return self.graph.nodes(keys), weights / weights.sum()

    def restart(self, key: int) -> tuple[np.ndarray, np.ndarray]:
        """A context sense's walk: all its restart mass on its node."""
        return np.array([key]), np.array([1.0])
