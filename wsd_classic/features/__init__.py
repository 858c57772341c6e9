"""Feature extractors: each maps a ``ProcessedInstance`` to a list of binary feature names (or
``Weighted`` blocks of real values, ``features.weighted``).

Names carry their group's prefix (``bow=``, ``col-1,1=``, ``pos-1=``, ``syn:head=``,
``gloss=``, ``ppr=``) so groups can be combined per system and a feature explains itself in ``--explain``
output.
"""
from __future__ import annotations

from typing import Callable, Iterable

from wsd_classic.errors import WsdError
from wsd_classic.features.bag_of_words import bag_of_words
from wsd_classic.features.collocations import collocations
from wsd_classic.features.embeddings import without_vectors
from wsd_classic.features.gloss import gloss_evidence
from wsd_classic.features.pos_window import pos_window
from wsd_classic.features.syntax import syntactic_relations
from wsd_classic.preprocess.document import ProcessedInstance

def without_walks(doc: ProcessedInstance) -> list:
    """The ``ppr`` group's stand-in: the knowledge-based walk's probabilities of the candidates
    come from walks over many contexts at once, which a lexical-sample run and the Tagger add
    to the contexts' features when a model reads them (``tasks.engine.add_walk_evidence``);
    elsewhere the group gives nothing."""
    return []


EXTRACTORS: dict[str, Callable[[ProcessedInstance], list[str]]] = {
    "bow": bag_of_words,
    "colloc": collocations,
    "pos": pos_window,
    "syntax": syntactic_relations,
    # Needs word vectors: a featurizer given them reads them (``featurizer.Featurizer``).
    "emb": without_vectors,
    "gloss": gloss_evidence,
    "ppr": without_walks,
}
ALL_GROUPS = tuple(EXTRACTORS)
# The prefix every name of a group starts with (a ``Weighted`` block's names too).
PREFIXES = {"bow": "bow=", "colloc": "col", "pos": "pos", "syntax": "syn:", "emb": "emb",
            "gloss": "gloss=", "ppr": "ppr="}


def select_groups(row, groups: Iterable[str]) -> list:
    """The features of ``row`` (names and ``Weighted`` blocks) that belong to ``groups``."""
    prefixes = tuple(PREFIXES[group] for group in groups)
    return [feature for feature in row
            if (feature if isinstance(feature, str) else feature.names[0]).startswith(prefixes)]


def check_groups(groups: Iterable[str]) -> tuple[str, ...]:
    groups = tuple(groups)
    unknown = [group for group in groups if group not in EXTRACTORS]
    if unknown:
        raise WsdError(f"unknown feature group {', '.join(unknown)}; known: {', '.join(EXTRACTORS)}")
    return groups
