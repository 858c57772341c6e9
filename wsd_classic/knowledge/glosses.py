"""Gloss relations the project derives itself, as eXtended WordNet and UKB's best graph derive
theirs from disambiguated glosses: an edge from each synset to one sense of each content word
of its definition, that sense chosen by one of ``DISAMBIGUATIONS``:

- ``monosemous``: only the words WordNet gives one synset (no choice to make);
- ``first-sense``: each word's sense WordNet's sense-tagged corpora tag most often (its tag
  count; ties to WordNet's order, nouns first);
- ``ppr``: each word's sense the personalised walk over the graph without gloss relations
  ranks highest, the walk restarting at the defined synset (one walk per synset scores every
  candidate of every word of its gloss; ties and senses the walk never reaches to the first
  sense).

Gloss words are read from WordNet's data files alone (no tagger: the knowledge layer reads no
spaCy): lower-cased words, WordNet's collocations joined greedily (longest first, up to
``LONGEST`` words), each word's candidates the senses of its base form (``wordnet.morphy``)
under every part of speech WordNet has it as; stop words (``STOP_WORDS``) and the defined
synset's own words left out.
"""
from __future__ import annotations

import functools
import re
from collections.abc import Sequence

import numpy as np
import scipy.sparse
from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

from wsd_classic import wordnet
from wsd_classic.knowledge import pagerank
from wsd_classic.workers import in_workers

DISAMBIGUATIONS = ("monosemous", "first-sense", "ppr")
LONGEST = 4  # words a WordNet collocation in a gloss may span
WORD = re.compile(r"[a-z][a-z'-]*")
# scikit-learn's stop words list some content words that glosses use as such ("a charge for
# borrowing money": interest); those are gloss words here. The function words and light verbs
# (be, have, get) stay out.
CONTENT_WORDS = frozenset(
    "amount back bill bottom call cry describe detail empty fill find fire front full give "
    "interest keep mill mine move name part put serious show side sincere system take thick "
    "thin top whole".split())
STOP_WORDS = ENGLISH_STOP_WORDS - CONTENT_WORDS
# The disambiguating walk: a fixed derivation setting (part of the graph's identity), short
# so that the cold build stays within minutes: the candidates it ranks lie near its restart.
WALK = {"damping": 0.85, "iterations": 5, "syntagnet_weight": 0.5}
BLOCK = 256  # synsets walked at once

# A gloss word: the candidate nodes of its senses, most tagged first.
Candidates = np.ndarray


def gloss_words(definition: str, own: set[str]) -> list[tuple[tuple[str, str], ...]]:
    """The content words of ``definition``, each once, each as the ``(lemma, pos)`` pairs
    WordNet has it as (a word's base form under each part of speech, collocations joined by
    ``_``), without stop words and ``own`` (the defined synset's words)."""
    tokens = WORD.findall(definition.lower())
    found: dict[tuple[tuple[str, str], ...], None] = {}
    at = 0
    while at < len(tokens):
        for length in range(min(LONGEST, len(tokens) - at), 0, -1):
            phrase = "_".join(tokens[at:at + length])
            if length > 1 and tokens[at] in STOP_WORDS:
                continue
            lemmas = tuple((lemma, pos) for pos in wordnet.MORPHY_ORDER
                           if (lemma := wordnet.morphy(phrase, pos)) is not None
                           and lemma not in own)
            if lemmas or length == 1:
                break
        at += length
        if lemmas and phrase not in STOP_WORDS and phrase not in own:
            found[lemmas] = None
    return list(found)


@functools.lru_cache(maxsize=1 << 17)
def most_tagged_first(word: tuple[tuple[str, str], ...]) -> tuple[tuple[str, int], ...]:
    """The synsets (locations) of a gloss word's senses, most tagged first (ties in WordNet's
    order, the parts of speech as ``gloss_words`` gives them), each once."""
    index = wordnet.sense_index()
    keys = [key for lemma, pos in word for key in wordnet.wordnet_senses(lemma, pos)]
    ordered = sorted(keys, key=lambda key: -index.tag_count(key))
    return tuple(dict.fromkeys(wordnet.synset_location(key) for key in ordered))


def word_candidates(words: Sequence[tuple[tuple[str, str], ...]],
                    node_of: dict[tuple[str, int], int]) -> list[Candidates]:
    """The candidates of a gloss's words (``gloss_words``): their synsets (nodes by
    ``node_of``, those it lacks left out), most tagged first (``first-sense``'s order)."""
    found = []
    for word in words:
        nodes = [node_of[location] for location in most_tagged_first(word)
                 if location in node_of]
        if nodes:
            found.append(np.array(nodes, dtype=np.int64))
    return found


def gloss_candidates(located: Sequence[tuple[tuple[str, int], wordnet.Synset]]
                     ) -> list[list[Candidates]]:
    """For each of the ``located`` synsets (node ``i`` the ``i``-th), its gloss words'
    candidates (``word_candidates``), its own node left out of them."""
    node_of = {location: node for node, (location, _) in enumerate(located)}
    found = []
    for node, (_, synset) in enumerate(located):
        own = {word.lower() for word in synset.words}
        words = word_candidates(gloss_words(synset.definition, own), node_of)
        found.append([nodes[nodes != node] for nodes in words if (nodes != node).any()])
    return found


def gloss_edges(candidates: Sequence[Sequence[Candidates]], disambiguation: str,
                base: scipy.sparse.csr_matrix | None = None, jobs: int = 1
                ) -> list[tuple[int, int]]:
    """An edge ``(synset, sense)`` from each synset to the sense ``disambiguation`` chooses for
    each of its gloss words (``gloss_candidates``); ``base``: the weighted adjacency the
    ``ppr`` walk goes over."""
    if disambiguation == "monosemous":
        return [(node, int(nodes[0])) for node, words in enumerate(candidates)
                for nodes in words if len(nodes) == 1]
    if disambiguation == "first-sense":
        return [(node, int(nodes[0])) for node, words in enumerate(candidates)
                for nodes in words]
    if disambiguation != "ppr":
        raise ValueError(f"unknown gloss disambiguation {disambiguation!r}")
    walked = [node for node, words in enumerate(candidates)
              if any(len(nodes) > 1 for nodes in words)]
    blocks = [walked[start:start + BLOCK] for start in range(0, len(walked), BLOCK)]
    global _running
    _running = (pagerank.transition(base), candidates)
    try:
        chosen = {node: choice for block in in_workers(_walked_choices, blocks, jobs)
                  for node, choice in block}
    finally:
        _running = None
    return [(node, int(chosen[node][number] if len(nodes) > 1 else nodes[0]))
            for node, words in enumerate(candidates) for number, nodes in enumerate(words)]


# The walk and the candidates of the running ``gloss_edges``, for its forked workers to share.
_running = None


def _walked_choices(block: list[int]) -> list[tuple[int, list[int]]]:
    """For each synset of the block, its gloss words' senses the walk restarting at it ranks
    highest (the first, most tagged, among equals)."""
    walk, candidates = _running
    restart = np.zeros((walk.shape[0], len(block)), dtype=np.float32)
    restart[block, np.arange(len(block))] = 1.0
    ranks = pagerank.personalised_pagerank(walk, restart, WALK["damping"], WALK["iterations"])
    return [(node, [int(nodes[np.argmax(ranks[nodes, column])]) for nodes in candidates[node]])
            for column, node in enumerate(block)]
