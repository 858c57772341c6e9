"""Personalised PageRank over a weighted undirected graph, for a block of personalisation
vectors at once.

Written here rather than taken from networkx or igraph: those walk one personalisation at a
time, and the word-by-word walk needs thousands; one sparse-times-dense product per iteration
serves a whole block of them (scipy.sparse).
"""
from __future__ import annotations

import numpy as np
import scipy.sparse

# Personalisations a product advances together: a tile's dense ranks (nodes x TILE float32)
# stay in the processor's cache across a product, where a whole block's do not.
TILE = 32


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
    theirs. Each column's arithmetic is its own, so walking the columns ``TILE`` at a time
    gives the very numbers a whole block's product would."""
    damped = walk * np.float32(damping)
    teleport = np.ascontiguousarray(personalisation, dtype=np.float32)
    ranks = np.empty_like(teleport)
    for start in range(0, teleport.shape[1], TILE):
        ranks[:, start:start + TILE] = _tile_ranks(damped, teleport[:, start:start + TILE],
                                                   damping, iterations)
    return ranks


def _tile_ranks(damped: scipy.sparse.csr_matrix, teleport: np.ndarray, damping: float,
                iterations: int) -> np.ndarray:
    """``personalised_pagerank`` of one tile, ``damped`` the walk times the damping. The
    restart is added only where the personalisation has mass (a few nodes per column): adding
    its zeros everywhere else would change no rank and cost a pass over the tile."""
    rows, columns = np.nonzero(teleport)
    restart = (1 - damping) * teleport[rows, columns]
    rank = np.ascontiguousarray(teleport)
    for _ in range(iterations):
        rank = damped @ rank
        rank[rows, columns] += restart
    return rank
