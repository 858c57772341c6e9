"""The ``ppr`` system: knowledge-based, personalised PageRank word by word over the WordNet
(+ SyntagNet) graph (``knowledge.word_to_word``). It learns nothing from sense-annotated text:
its model is the graph and the walk's settings, so it tags without the data directory.

Unlike the estimators fitted per lexelt, it scores every target of a corpus at once from its
context (the other content words of its sentences), a context scorer: the Tagger hands it the
whole all-words corpus.
"""
from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

import numpy as np

from wsd_classic.corpora.allwords import AllWordsCorpus, Target
from wsd_classic.knowledge import graph as knowledge_graph
from wsd_classic.knowledge.graph import KnowledgeGraph
from wsd_classic.knowledge.word_to_word import WalkSettings, WordToWord, contexts

# The model file's arrays of the graph are stored under these names.
RESOURCE_PREFIX = "graph_"


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
        """With the graph its ``syntagnet`` parameter asks for, built from the data directory's
        SyntagNet, or WordNet's alone (saying so) when that is missing."""
        return cls(knowledge_graph.obtain(data_dir, WalkSettings(**params).syntagnet), **params)

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

    def explain(self, corpus: AllWordsCorpus, target: Target, best: str
                ) -> list[tuple[str, float]]:
        """The context senses and the edges that carried the most of the walk's mass to
        ``best``, the target's chosen sense, each with its share."""
        context, = contexts(corpus, [target], self.walker.settings.window)
        return self.walker.explain(context, best)


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
