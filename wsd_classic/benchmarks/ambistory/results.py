"""The dev figures split by ending (the table beside the published test rows is
``report.table.ambistory_table``)."""
from __future__ import annotations

from collections import Counter

import numpy as np

from wsd_classic.benchmarks.ambistory.features import FeaturizedSplit
from wsd_classic.benchmarks.ambistory.selection import score_split


def by_ending(split: FeaturizedSplit, integers: np.ndarray) -> dict[str, dict]:
    """Figures on the open-ended stories and on the stories with an ending (Table 7's split)."""
    figures = {}
    for label, wanted in (("open-ended", False), ("ended", True)):
        chosen = [index for index, sample in enumerate(split.samples)
                  if bool(sample.ending) == wanted]
        part = FeaturizedSplit([split.samples[i] for i in chosen], split.matrix[chosen],
                               Counter(), [])
        figures[label] = score_split(part, integers[chosen]).as_dict()
    return figures
