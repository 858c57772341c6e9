"""The ``ppr`` system: knowledge-based, personalised PageRank word by word over the WordNet
(+ SyntagNet) graph (``knowledge.word_to_word``). It learns nothing from sense-annotated text:
its model is the graph and the walk's settings, so it tags without the data directory.

Unlike the estimators fitted per lexelt, it scores every target of a corpus at once from its
context (the other content words of its sentences), a context scorer: the Tagger hands it the
whole all-words corpus.
"""
from __future__ import annotations

import os
from collections import Counter
from collections.abc import Mapping, Sequence

import numpy as np

from wsd_classic.corpora.allwords import AllWordsCorpus, Target, wordnet_lemma
from wsd_classic.features import PREFIXES
from wsd_classic.features.gloss import candidate_keys, target_particles
from wsd_classic.features.weighted import Weighted
from wsd_classic.knowledge import graph as knowledge_graph
from wsd_classic.knowledge.graph import KnowledgeGraph
from wsd_classic.knowledge.word_to_word import WalkSettings, WordToWord, contexts
from wsd_classic.pos import PENN_POS
from wsd_classic.preprocess.document import ProcessedInstance

# The model file's arrays of the graph are stored under these names.
RESOURCE_PREFIX = "graph_"
# The feature group a lexical-sample context's ``evidence`` fills.
WALK_GROUP = "ppr"


class PersonalisedPageRank:
    """The walk of ``params`` (``WalkSettings``' fields) over the ``knowledge`` graph."""

    def __init__(self, knowledge: KnowledgeGraph, **params):
        settings = WalkSettings(**params)
        self.params = settings.to_dict()
        self.walker = WordToWord(knowledge, settings)

    @property
    def graph(self) -> KnowledgeGraph:
        return self.walker.graph

    @classmethod
    def built(cls, params: Mapping, data_dir: str | os.PathLike | None = None
              ) -> "PersonalisedPageRank":
        """With the graph its ``syntagnet`` and ``gloss`` parameters ask for, built from the data
        directory's SyntagNet, or WordNet's alone (saying so) when that is missing."""
        settings = WalkSettings(**params)
        return cls(knowledge_graph.obtain(data_dir, settings.syntagnet,
                                          gloss=settings.gloss or None), **params)

    def resources(self) -> dict[str, np.ndarray]:
        """What a model file keeps of it besides its parameters: the graph's arrays."""
        return {RESOURCE_PREFIX + name: array for name, array in self.graph.to_arrays().items()}

    @classmethod
    def from_resources(cls, params: Mapping, arrays: Mapping[str, np.ndarray]
                       ) -> "PersonalisedPageRank":
        graph = KnowledgeGraph.from_arrays({name[len(RESOURCE_PREFIX):]: array
                                            for name, array in arrays.items()
                                            if name.startswith(RESOURCE_PREFIX)})
        return cls(graph, **params)

    def distributions(self, corpus: AllWordsCorpus, targets: Sequence[Target] | None = None,
                      jobs: int = 1, progress: bool | None = None
                      ) -> dict[str, dict[str, float]]:
        """Each target's distribution over all its WordNet 3.0 candidates, in WordNet's order,
        summing to 1, by target id (``WordToWord.distributions``)."""
        return self.walker.distributions(corpus, targets, jobs, progress)

    def instance_distributions(self, docs: Sequence[ProcessedInstance], jobs: int = 1,
                               progress: bool | None = None
                               ) -> dict[str, tuple[tuple[str, ...], np.ndarray]]:
        """For each lexical-sample context, by id: its target's WordNet 3.0 candidates (those of
        its lemma and, for a phrasal verb, of the lemma joined to its particles, as the gloss
        group's) and their weights summing to 1, from the walk restarting at the senses of the
        content words of its sentences (``sentence_lexelts``); even where the walk reaches no
        candidate. The walks start from the candidates (``WordToWord.reciprocal_scores``), so
        that a context's weights do not depend on the others walked with it: a lexical
        sample's training and tagging, and any batch of plain text, give it the same ones."""
        keys = [candidate_keys(doc.lexelt, target_particles(doc)) for doc in docs]
        totals = self.walker.reciprocal_scores(
            [sentence_lexelts(doc, self.walker.settings.window) for doc in docs],
            [self.graph.nodes(own) for own in keys], jobs, progress)
        found = {}
        for doc, own, total in zip(docs, keys, totals):
            mass = float(total.sum())
            found[doc.id] = (own, total / mass if mass > 0
                             else np.full(len(own), 1.0 / max(len(own), 1)))
        return found

    def evidence(self, docs: Sequence[ProcessedInstance], jobs: int = 1,
                 progress: bool | None = None) -> dict[str, Weighted]:
        """Each context's ``ppr`` group, by id: one block, ``ppr=<sense key>`` per candidate
        with its weight (``instance_distributions``)."""
        return {identifier: Weighted(tuple(PREFIXES[WALK_GROUP] + key for key in keys), weights)
                for identifier, (keys, weights)
                in self.instance_distributions(docs, jobs, progress).items()}

    def explain(self, corpus: AllWordsCorpus, target: Target, best: str
                ) -> list[tuple[str, float]]:
        """The context senses and the edges that carried the most of the walk's mass to
        ``best``, the target's chosen sense, each with its share."""
        context, = contexts(corpus, [target], self.walker.settings.window)
        return self.walker.explain(context, best)


def sentence_lexelts(doc: ProcessedInstance, window: int = 0) -> Counter:
    """The lexelts (``lemma.pos``, as WordNet 3.0 spells the lemma) of the content words of the
    target's sentence and the ``window`` sentences on each side of it that the context holds,
    how often each occurs: words WordNet has for their part of speech, stop words, the target,
    its particles and its own lexelt left out."""
    own = {doc.target, *doc.sats}
    sentence = doc.sentences[doc.target]
    found: Counter = Counter()
    for index, lemma in enumerate(doc.lemmas):
        if (index in own or doc.stops[index] or abs(doc.sentences[index] - sentence) > window):
            continue
        pos = PENN_POS.get(doc.tags[index][:2])
        spelt = wordnet_lemma(lemma, pos) if pos else None
        if spelt:
            found[f"{spelt}.{pos}"] += 1
    del found[doc.lexelt]
    return found


def ppr_distributions(corpus: AllWordsCorpus, targets: Sequence[Target] | None = None, *,
                      params: Mapping | None = None, graph: KnowledgeGraph | None = None,
                      data_dir: str | os.PathLike | None = None, jobs: int = 1,
                      progress: bool | None = None) -> dict[str, dict[str, float]]:
    """``ppr``'s distribution for each of ``targets`` (all of ``corpus``'s when None; the
    context is always every content word of the corpus): ``{target id: {key: weight}}`` over
    all the target's WordNet 3.0 candidates, in WordNet's order, summing to 1. ``params``: the
    walk's (``catalogue.SEMCOR.system_params("ppr")`` for the registered ones; None:
    ``WalkSettings``' defaults); ``graph``: a graph already loaded (else built or read from the
    cache, from the data directory's SyntagNet when the parameters ask for it)."""
    params = {} if params is None else dict(params)
    system = (PersonalisedPageRank(graph, **params) if graph is not None
              else PersonalisedPageRank.built(params, data_dir))
    return system.distributions(corpus, targets, jobs, progress)
