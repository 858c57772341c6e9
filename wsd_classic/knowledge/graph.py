"""The knowledge graph: one node per WordNet 3.0 synset, an undirected edge wherever WordNet
relates two synsets (or two of their senses) or SyntagNet pairs two of their senses, and, when
asked, from each synset to the senses of its gloss's words the project chose itself
(``knowledge.glosses``).

Each edge keeps which relations give it (a bit per ``RELATIONS`` entry), so the walk can weight
SyntagNet's and the gloss relations' edges apart from WordNet's and ``--explain`` can name them.
The graph is built once from WordNet's data files (and SyntagNet's collocations when the data
directory has them) and kept as a sparse matrix in an ``.npz`` (no pickle) whose header holds
its identity: the SHA-256 of everything that went in.
"""
from __future__ import annotations

import hashlib
import io
import json
import os
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import numpy as np
import scipy.sparse

from wsd_classic import settings, wordnet
from wsd_classic.atomic import write_atomically
from wsd_classic.corpora import syntagnet
from wsd_classic.corpora.registry import file_sha256
from wsd_classic.errors import WsdError
from wsd_classic.knowledge import glosses

FORMAT = "wsd-classic-knowledge-graph/1"
# The relations that give edges, by name, with WordNet's pointer symbols (wninput(5WN)); both
# directions of a relation give one undirected edge. Derivation and pertainymy relate senses:
# their edges join the senses' synsets. Domain pointers and participles give none.
RELATIONS = {
    "hypernymy": ("@", "~", "@i", "~i"),
    "meronymy": ("#m", "#s", "#p", "%m", "%s", "%p"),
    "similar": ("&",),
    "also": ("^",),
    "attribute": ("=",),
    "entailment": ("*",),
    "cause": (">",),
    "verb-group": ("$",),
    "antonymy": ("!",),
    "derivation": ("+",),
    "pertainymy": ("\\",),
    "syntagnet": (),
    "gloss": (),
}
RELATION_BIT = {name: 1 << number for number, name in enumerate(RELATIONS)}
POINTER_BIT = {symbol: RELATION_BIT[name]
               for name, symbols in RELATIONS.items() for symbol in symbols}
WORDNET_RELATIONS = sum(bit for name, bit in RELATION_BIT.items()
                        if name not in ("syntagnet", "gloss"))
# A graph without gloss relations keeps the identity it had before they could be added, so that
# the caches and model headers naming it stay valid.
BASE_RELATIONS = {name: symbols for name, symbols in RELATIONS.items() if name != "gloss"}
POS_CODES = "nvar"
# The graphs a run can build: WordNet alone, or with SyntagNet's pairs; either with gloss
# relations adds ``+gloss-<disambiguation>`` to its name.
WORDNET, WITH_SYNTAGNET = "wordnet", "wordnet+syntagnet"
ARRAYS = ("indptr", "indices", "relations", "node_pos", "node_offset")


@dataclass
class KnowledgeGraph:
    """``relations`` is the symmetric adjacency matrix (CSR, a node per synset), each entry the
    bits of the relations joining its two synsets; node ``i`` is the synset at
    ``node_offset[i]`` of data file ``POS_CODES[node_pos[i]]``. ``header``: its format,
    ``graph`` (``WORDNET`` or ``WITH_SYNTAGNET``, with ``+gloss-<disambiguation>`` when it
    holds gloss relations), ``identity`` and edge counts."""

    relations: scipy.sparse.csr_matrix
    node_pos: np.ndarray
    node_offset: np.ndarray
    header: dict = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.header["graph"]

    @property
    def identity(self) -> str:
        return self.header["identity"]

    @property
    def size(self) -> int:
        return len(self.node_offset)

    @cached_property
    def _node_of_location(self) -> dict[tuple[str, int], int]:
        return {(POS_CODES[pos], int(offset)): node
                for node, (pos, offset) in enumerate(zip(self.node_pos, self.node_offset))}

    def node(self, key: str) -> int | None:
        """The node of a sense key's synset, None for a key WordNet 3.0 lacks."""
        location = wordnet.synset_location(key)
        return None if location is None else self._node_of_location.get(location)

    def nodes(self, keys: Iterable[str]) -> np.ndarray:
        """The node of each key (every key one WordNet 3.0 has)."""
        return np.array([self.node(key) for key in keys], dtype=np.int64)

    def location(self, node: int) -> tuple[str, int]:
        return POS_CODES[self.node_pos[node]], int(self.node_offset[node])

    def weighted(self, syntagnet_weight: float = 1.0, gloss_weight: float = 1.0
                 ) -> scipy.sparse.csr_matrix:
        """The adjacency matrix with WordNet's edges at weight 1, SyntagNet's at
        ``syntagnet_weight`` and the gloss relations' at ``gloss_weight`` (an edge several
        give takes the largest)."""
        bits = self.relations.data
        weights = np.maximum.reduce([
            np.where(bits & WORDNET_RELATIONS, 1.0, 0.0),
            np.where(bits & RELATION_BIT["syntagnet"], syntagnet_weight, 0.0),
            np.where(bits & RELATION_BIT["gloss"], gloss_weight, 0.0)])
        return scipy.sparse.csr_matrix(
            (weights.astype(np.float32), self.relations.indices, self.relations.indptr),
            shape=self.relations.shape)

    # --- the npz form --------------------------------------------------------------------------

    def to_arrays(self) -> dict[str, np.ndarray]:
        """The graph as named arrays (its header as JSON bytes), as ``from_arrays`` reads them."""
        return {"indptr": self.relations.indptr, "indices": self.relations.indices,
                "relations": self.relations.data, "node_pos": self.node_pos,
                "node_offset": self.node_offset,
                "header": np.frombuffer(json.dumps(self.header, sort_keys=True).encode(),
                                        dtype=np.uint8)}

    @classmethod
    def from_arrays(cls, arrays) -> "KnowledgeGraph":
        header = json.loads(bytes(arrays["header"]).decode())
        if header.get("format") != FORMAT:
            raise WsdError(f"not a {FORMAT} graph (found {header.get('format')}): rebuild it")
        size = len(arrays["node_offset"])
        relations = scipy.sparse.csr_matrix(
            (arrays["relations"], arrays["indices"], arrays["indptr"]), shape=(size, size))
        return cls(relations, arrays["node_pos"], arrays["node_offset"], header)

    def save(self, path: Path) -> None:
        buffer = io.BytesIO()
        np.savez(buffer, **self.to_arrays())
        write_atomically(path, [buffer.getvalue()])

    @classmethod
    def load(cls, path: Path) -> "KnowledgeGraph":
        try:
            with np.load(path, allow_pickle=False) as arrays:
                return cls.from_arrays({name: arrays[name] for name in (*ARRAYS, "header")})
        except (OSError, ValueError, KeyError, json.JSONDecodeError) as error:
            raise WsdError(f"damaged knowledge graph ({type(error).__name__}): delete it to have "
                           "it rebuilt", path) from None


def wordnet_edges(located: list[tuple[tuple[str, int], wordnet.Synset]]
                  ) -> list[tuple[int, int, int]]:
    """WordNet's edges between the ``located`` synsets (as ``wordnet.located_synsets`` gives
    them), as ``(node, node, relation bit)``, node ``i`` being the ``i``-th synset; a pointer
    to a synset not among them gives none."""
    node_of = {location: node for node, (location, _) in enumerate(located)}
    return [(node, node_of[(pos, offset)], POINTER_BIT[symbol])
            for node, (_, synset) in enumerate(located)
            for symbol, pos, offset in synset.pointers
            if symbol in POINTER_BIT and (pos, offset) in node_of]


def syntagnet_edges(path: Path, node_of: dict[tuple[str, int], int]) -> list[tuple[int, int, int]]:
    """SyntagNet's pairs as edges between their senses' synsets (nodes by ``node_of``); a pair
    with a key WordNet 3.0 lacks gives none."""
    edges = []
    for head, partner in syntagnet.read_syntagnet(path):
        ends = [node_of.get(wordnet.synset_location(key)) for key in (head, partner)]
        if None not in ends and ends[0] != ends[1]:
            edges.append((*ends, RELATION_BIT["syntagnet"]))
    return edges


def build(syntagnet_path: Path | None,
          synsets: Iterable[tuple[tuple[str, int], wordnet.Synset]] | None = None,
          gloss: str | None = None, jobs: int = 1) -> KnowledgeGraph:
    """The graph of WordNet 3.0's synsets (``synsets``: these instead, located as
    ``wordnet.located_synsets`` gives them), with SyntagNet's pairs when ``syntagnet_path`` is
    given, and the gloss relations ``gloss`` (one of ``glosses.DISAMBIGUATIONS``) chooses when
    given, its walk (``ppr``) over the graph without them on ``jobs`` processes."""
    located = list(wordnet.located_synsets() if synsets is None else synsets)
    edges = wordnet_edges(located)
    locations = [location for location, _ in located]
    node_of = {location: node for node, location in enumerate(locations)}
    wordnet_count = len(edges)
    if syntagnet_path is not None:
        edges += syntagnet_edges(syntagnet_path, node_of)
    size = len(locations)
    relations = _relation_matrix(edges, size)
    if gloss is not None:
        base = KnowledgeGraph(relations, np.zeros(0), np.zeros(0)).weighted(
            glosses.WALK["syntagnet_weight"])
        edges += [(*pair, RELATION_BIT["gloss"]) for pair in glosses.gloss_edges(
            glosses.gloss_candidates(located), gloss, base, jobs)]
        relations = _relation_matrix(edges, size)
    merged = relations.data
    counts = {name: int(np.count_nonzero(merged & bit)) // 2 for name, bit in RELATION_BIT.items()
              if name != "gloss" or gloss is not None}
    header = {"format": FORMAT, "graph": graph_name(syntagnet_path, gloss),
              "identity": identity(syntagnet_path, gloss), "nodes": size,
              "edges": int(relations.nnz) // 2, "edges_by_relation": counts,
              "wordnet_pointers": wordnet_count}
    return KnowledgeGraph(relations, np.array([POS_CODES.index(pos) for pos, _ in locations],
                                              dtype=np.uint8),
                          np.array([offset for _, offset in locations], dtype=np.int32), header)


def graph_name(syntagnet_path: Path | None, gloss: str | None = None) -> str:
    name = WITH_SYNTAGNET if syntagnet_path else WORDNET
    return name if gloss is None else f"{name}+gloss-{gloss}"


def _relation_matrix(edges: list[tuple[int, int, int]], size: int) -> scipy.sparse.csr_matrix:
    """The symmetric matrix of ``edges`` (``(node, node, relation bit)``), the bits of each
    pair of synsets or-ed together."""
    first, second, bits = (np.array(column, dtype=np.int64) for column in zip(*edges))
    # Both directions of every edge, the bits of each pair of synsets or-ed together.
    rows, columns = np.concatenate([first, second]), np.concatenate([second, first])
    bits = np.concatenate([bits, bits])
    pair = rows * size + columns
    order = np.argsort(pair, kind="stable")
    pair, bits = pair[order], bits[order]
    starts = np.flatnonzero(np.r_[True, pair[1:] != pair[:-1]])
    merged = np.bitwise_or.reduceat(bits, starts).astype(np.uint16)
    unique = pair[starts]
    relations = scipy.sparse.csr_matrix(
        (merged, ((unique // size).astype(np.int32), (unique % size).astype(np.int32))),
        shape=(size, size))
    relations.sort_indices()
    return relations


def identity(syntagnet_path: Path | None, gloss: str | None = None) -> str:
    """The SHA-256 of what the graph is built from: its format and relations, WordNet's data
    files, SyntagNet's collocations (when used) and the gloss relations' derivation (when
    used: its disambiguation, the stop words and walk it reads)."""
    inputs = {"format": FORMAT, "relations": BASE_RELATIONS,
              "wordnet": {name: file_sha256(wordnet.checked_root() / name)
                          for name in (*wordnet.DATA_FILES.values(), "index.sense")},
              "syntagnet": file_sha256(syntagnet_path) if syntagnet_path else None}
    if gloss is not None:
        inputs["gloss"] = {"disambiguation": gloss, "relations": RELATIONS,
                           "longest": glosses.LONGEST, "word": glosses.WORD.pattern,
                           "stop_words": sorted(glosses.STOP_WORDS),
                           "walk": glosses.WALK if gloss == "ppr" else None}
    return hashlib.sha256(json.dumps(inputs, sort_keys=True).encode()).hexdigest()


def graph_path(syntagnet_path: Path | None, gloss: str | None = None) -> Path:
    return (settings.cache_dir() / "knowledge"
            / f"graph-{identity(syntagnet_path, gloss)[:16]}.npz")


def obtain(data_dir: str | os.PathLike | None = None, with_syntagnet: bool = True,
           quiet: bool = False, gloss: str | None = None, jobs: int = 1) -> KnowledgeGraph:
    """The knowledge graph, built once and kept in the cache: with SyntagNet when asked and the
    data directory has it, else WordNet's alone, which one line on stderr says (unless
    ``quiet``); with the gloss relations ``gloss`` chooses when given (built on ``jobs``
    processes)."""
    syntagnet_path = syntagnet.located(data_dir) if with_syntagnet else None
    if with_syntagnet and syntagnet_path is None and not quiet:
        print(f"note: SyntagNet is not in the data directory ({syntagnet.DATASET}/"
              f"{syntagnet.FILENAME}): the knowledge graph is WordNet's alone",
              file=sys.stderr)
    path = graph_path(syntagnet_path, gloss)
    if path.is_file():
        graph = KnowledgeGraph.load(path)
        if graph.identity == identity(syntagnet_path, gloss):
            return graph
    graph = build(syntagnet_path, gloss=gloss, jobs=jobs)
    path.parent.mkdir(parents=True, exist_ok=True)
    graph.save(path)
    return graph
