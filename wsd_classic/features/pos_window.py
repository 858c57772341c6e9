"""Parts of speech P-3 … P3 around the target (the target's own tag included), within its sentence."""
from __future__ import annotations

from wsd_classic.features.collocations import OUTSIDE
from wsd_classic.preprocess.document import ProcessedInstance

WIDTH = 3


def pos_window(doc: ProcessedInstance) -> list[str]:
    sentence = doc.target_sentence
    features = []
    for offset in range(-WIDTH, WIDTH + 1):
        position = doc.target + offset
        tag = doc.tags[position] if position in sentence else OUTSIDE
        features.append(f"pos{offset}={tag}")
    return features
