"""The word-by-word walk with a supervised restart: each context word's restart mass shared
among its senses by a supervised system's distribution for that very word (the svm's beliefs
about the context) instead of WordNet's tag counts.

The restarts differ from token to token, so the walks are one per context token rather than
one per distinct context lexelt; a target's score is still the sum of its context's walks.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence

import numpy as np

from wsd_classic import wordnet
from wsd_classic.corpora.allwords import AllWordsCorpus, Target
from wsd_classic.knowledge.graph import KnowledgeGraph
from wsd_classic.knowledge.word_to_word import WalkSettings, WordToWord, context_words


class SupervisedRestartWalk(WordToWord):
    """``WordToWord`` whose walks restart at a context token's senses in the proportions of
    ``beliefs`` (target id -> {sense key: weight}); a token with no belief, or none on its
    candidates, restarts as ``WordToWord`` does (tag counts + 1)."""

    def __init__(self, graph: KnowledgeGraph, settings: WalkSettings,
                 beliefs: Mapping[str, Mapping[str, float] | None]):
        super().__init__(graph, settings)
        self.beliefs = beliefs
        self.tokens: dict[str, Target] = {}

    def context_users(self, corpus: AllWordsCorpus, targets: Sequence[Target]
                      ) -> dict[str, list[tuple[int, int]]]:
        """Each context token's id and the targets (numbers in ``targets``) whose context
        holds it."""
        users: dict[str, list[tuple[int, int]]] = defaultdict(list)
        for number, words in enumerate(context_words(corpus, targets, self.settings.window)):
            for word in words:
                users[word.id].append((number, 1))
                self.tokens[word.id] = word
        return users

    def restart(self, key: str) -> tuple[np.ndarray, np.ndarray]:
        """The nodes of the token's senses (``key``: its id) and its belief's share of each."""
        token = self.tokens[key]
        keys = wordnet.wordnet_senses(token.lemma, token.pos)
        belief = self.beliefs.get(token.id) or {}
        shares = np.array([belief.get(sense, 0.0) for sense in keys], dtype=float)
        if shares.sum() <= 0:
            return super().restart(token.lexelt)
        return self.graph.nodes(keys), shares / shares.sum()
