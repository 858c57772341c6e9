"""Which senses an instance can have, given the particles of a phrasal verb.

SENSEVAL-2 marks phrasal verbs with satellites (``<head sats=…>`` → ``call … for``): every such
training instance carries a multiword key (``call_for%2:…``), and the other instances never
carry those keys. So a head with particles may only take keys whose lemma contains them, and a
head without may only take senses seen without particles — unless that leaves nothing, in which
case nothing is restricted. The particles reach the systems as ``syn:sat=`` features.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np


SAT_PREFIX = "syn:sat="


def particles(features: Sequence) -> tuple[str, ...]:
    return tuple(sorted(name[len(SAT_PREFIX):] for name in features
                        if isinstance(name, str) and name.startswith(SAT_PREFIX)))


def senses_seen_without_particles(X, y) -> list[str]:
    return sorted({sense for features, sense in zip(X, y) if not particles(features)})


def _lemma_words(sense: str) -> list[str]:
    return sense.partition("%")[0].split("_") if "%" in sense else []


def _multiword(sense: str) -> bool:
    return len(_lemma_words(sense)) > 1


def _allowed(sense: str, found: tuple[str, ...], plain: set[str]) -> bool:
    if not found:
        return sense in plain
    lemma_words = _lemma_words(sense)
    return len(lemma_words) > 1 and all(particle in lemma_words for particle in found)


def allowed_mask(X, classes: np.ndarray, plain: Sequence[str]) -> np.ndarray:
    """Boolean (instances × classes): the senses each instance may take; all, if none is left."""
    plain = set(plain)
    if all(sense in plain and not _multiword(sense) for sense in classes):
        # every sense without particles, none with: all allowed, whatever the particles (a
        # row with some allows none, so all), and the rows need not be searched for them
        return np.ones((len(X), len(classes)), dtype=bool)
    found = [particles(features) for features in X]
    if not any(found):  # one row serves all (the usual case: all-words training has none)
        mask = np.tile([sense in plain for sense in classes], (len(X), 1)).reshape(
            len(X), len(classes))
    else:
        mask = np.array([[_allowed(sense, row, plain) for sense in classes] for row in found],
                        dtype=bool).reshape(len(X), len(classes))
    mask[~mask.any(axis=1)] = True
    return mask


def restrict(proba: np.ndarray, X, classes: np.ndarray, plain: Sequence[str]) -> np.ndarray:
    """``proba`` with disallowed senses zeroed and rows renormalised.

    A row whose allowed senses all have probability 0 spreads its mass evenly over them.
    """
    mask = allowed_mask(X, classes, plain)
    kept = proba * mask
    totals = kept.sum(axis=1, keepdims=True)
    even = mask / mask.sum(axis=1, keepdims=True)
    return np.where(totals > 0, kept / np.where(totals > 0, totals, 1), even)
