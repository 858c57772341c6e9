"""The dev figures as the task reports them, split by ending, beside the published test rows."""
from __future__ import annotations

from collections import Counter

import numpy as np

from wsd_classic.benchmarks.ambistory.features import FeaturizedSplit
from wsd_classic.benchmarks.ambistory.selection import score_split
from wsd_classic.report.references import AMBISTORY, AMBISTORY_SOURCE

# The published test rows (Spearman, accuracy within SD), from the one list of published rows.
PUBLISHED, PUBLISHED_SOURCE = AMBISTORY, AMBISTORY_SOURCE


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


def rho_text(figures: dict) -> str:
    return "n/a" if figures["spearman"] is None else f"{figures['spearman']:.3f}"


def results_table(dev: dict) -> str:
    lines = ["AmbiStory: Spearman's rho and accuracy within SD (the task's scoring)",
             f"{'':<34}{'rho':>7}{'acc':>7}",
             f"{'classic rater (ours), dev':<34}{rho_text(dev):>7}{dev['accuracy']:>7.3f}"]
    for label, figures in dev["by_ending"].items():
        lines.append(f"{'  ' + label:<34}{rho_text(figures):>7}{figures['accuracy']:>7.3f}")
    lines.append(f"published, {PUBLISHED_SOURCE}:")
    for system, (rho, accuracy) in PUBLISHED.items():
        lines.append(f"{system:<34}{'n/a' if rho is None else f'{rho:.3f}':>7}{accuracy:>7.3f}")
    return "\n".join(lines)
