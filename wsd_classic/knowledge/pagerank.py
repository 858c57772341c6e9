"""Personalised PageRank over a weighted undirected graph, for a block of personalisation
vectors at once.

Written here rather than taken from networkx or igraph: those walk one personalisation at a
time, and the word-by-word walk needs thousands; one sparse-times-dense product per iteration
serves a whole block of them (scipy.sparse).
"""
from __future__ import annotations

import numpy as np
import scipy.sparse


def transition(adjacency: scipy.sparse.csr_matrix) -> scipy.sparse.csr_matrix:
    """The random walk of a weighted adjacency matrix: entry ``[i, j]`` is the chance of a step
    from node ``j`` to node ``i``, each column summing to 1. A node without edges keeps its mass
    (a loop to itself), so that the walk stays linear in its personalisation."""
    degree = np.asarray(adjacency.sum(axis=0)).ravel()
    isolated = degree == 0
    scale = np.divide(1.0, degree, out=np.zeros_like(degree), where=~isolated)
    return scipy.sparse.csr_matrix(
        adjacency @ scipy.sparse.diags(scale) + scipy.sparse.diags(isolated.astype(float)),
        dtype=np.float32)


def personalised_pagerank(walk: scipy.sparse.csr_matrix, personalisation: np.ndarray,
                          damping: float, iterations: int) -> np.ndarray:
    """The PageRank of each column of ``personalisation`` (nodes x vectors) on the ``walk``
    (``transition``'s): ``iterations`` steps of ``x <- damping * W x + (1 - damping) * v``
    from ``x = v``. Linear in ``v``: the PageRank of a sum of personalisations is the sum of
    theirs."""
    damped = walk * np.float32(damping)
    teleport = np.ascontiguousarray(personalisation, dtype=np.float32)
    restart = (1 - damping) * teleport
    rank = teleport
    for _ in range(iterations):
        rank = damped @ rank
        rank += restart
    return rank
