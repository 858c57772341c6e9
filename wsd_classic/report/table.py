"""The plain-text tables ``bin/train`` prints: the comparison of systems, the learning curve."""
from __future__ import annotations

from wsd_classic.report.references import SENSEVAL2_LS
from wsd_classic.scoring.learning_curve import LearningCurve

POS_NAMES = (("n", "nouns"), ("v", "verbs"), ("a", "adj."))
# The system column's least width; a longer name widens it.
NAME_WIDTH = 38


def _percent(figures: dict | None, field: str = "recall") -> str:
    if not figures or figures.get(field) is None:
        return "-"
    return f"{100 * figures[field]:.1f}"


def lexical_sample_table(scores: dict[str, dict], with_references: bool) -> str:
    """Our systems (top sense: precision, recall, attempted, coarse recall, recall by POS) sorted
    by fine recall, then the published rows with their sources."""
    references = sorted(SENSEVAL2_LS, key=lambda ref: -ref.fine) if with_references else []
    width = max([NAME_WIDTH, *(len(name) + len(" (ours)") for name in scores),
                 *(len(reference.name) for reference in references)])
    header = (f"{'system':<{width}} {'P':>6} {'R':>6} {'att.':>6} {'coarse R':>9} "
              + " ".join(f"{name:>6}" for _, name in POS_NAMES))
    lines = ["Fine-grained scores (%) of the top sense, as scorer2 computes them", header,
             "-" * len(header)]
    ranked = sorted(scores.items(), key=lambda item: -item[1]["fine"]["recall"])
    for name, figures in ranked:
        by_pos = figures.get("by_pos", {})
        lines.append(
            f"{name + ' (ours)':<{width}} {_percent(figures['fine'], 'precision'):>6} "
            f"{_percent(figures['fine']):>6} {_percent(figures['fine'], 'attempted'):>6} "
            f"{_percent(figures.get('coarse')):>9} "
            + " ".join(f"{_percent(by_pos.get(pos)):>6}" for pos, _ in POS_NAMES))
    if references:
        lines.append("published (fine-grained recall):")
        for reference in references:
            lines.append(f"{reference.name:<{width}} {'':>6} {reference.fine:>6.1f}   "
                         f"[{reference.source}]")
    return "\n".join(lines)


def learning_curve_table(curve: LearningCurve) -> str:
    """Fine-grained recall (%) per system (rows) and fraction (columns)."""
    points = curve.points
    fractions = sorted({point.fraction for point in points})
    sizes = {point.fraction: point.training_instances for point in points}
    header = f"{'system':<14}" + "".join(f"{f'{fraction:g} ({sizes[fraction]})':>14}"
                                         for fraction in fractions)
    lines = ["Fine-grained recall (%) of the top sense by share of the training data "
             "(training instances)", header, "-" * len(header)]
    for name in dict.fromkeys(point.system for point in points):
        recall = {point.fraction: point.fine for point in points if point.system == name}
        lines.append(f"{name:<14}" + "".join(f"{100 * recall[fraction]:>14.1f}"
                                             for fraction in fractions))
    return "\n".join(lines)
