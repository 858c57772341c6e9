"""Real-valued features: a block of named values that a feature group adds to a row.

Most groups emit binary feature names (value 1). A group whose features carry values (context
embeddings, gloss similarities) emits one ``Weighted`` block instead: its names are shared by
every row of the group (one tuple, so a corpus's table holds each name once) and its values are
that instance's. Systems that read only names (dlist, lesk) never list such groups.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True, eq=False)
class Weighted:
    names: tuple[str, ...]
    values: np.ndarray

    def __post_init__(self):
        if len(self.names) != len(self.values):
            raise ValueError(f"{len(self.names)} names for {len(self.values)} values")


def binary_names(features: Iterable) -> Iterator[str]:
    """The binary feature names of a row, its ``Weighted`` blocks left out."""
    return (feature for feature in features if isinstance(feature, str))
