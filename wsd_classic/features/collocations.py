"""Local collocations: the 11 word windows of Ng & Lee (1996) / IMS around the target.

A window ``(i, j)`` is the lower-cased word sequence from offset i to j, the target itself written
``_``; positions outside the target's sentence are written ``∅`` (the window is still emitted, as
"nothing there" is itself evidence).
"""
from __future__ import annotations

from wsd_classic.preprocess.document import ProcessedInstance

WINDOWS = ((-1, -1), (1, 1), (-2, -2), (2, 2), (-2, -1), (-1, 1), (1, 2), (-3, -1), (-2, 1),
           (-1, 2), (1, 3))
OUTSIDE = "∅"


def collocations(doc: ProcessedInstance) -> list[str]:
    sentence = doc.target_sentence
    features = []
    for start, end in WINDOWS:
        words = []
        for offset in range(start, end + 1):
            position = doc.target + offset
            if offset == 0:
                words.append("_")
            elif position in sentence:
                words.append(doc.words[position].lower())
            else:
                words.append(OUTSIDE)
        features.append(f"col{start},{end}={' '.join(words)}")
    return features
