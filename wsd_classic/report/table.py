"""The plain-text tables ``bin/train`` prints: the comparison of systems, the learning curve."""
from __future__ import annotations

from wsd_classic.report.references import SENSEVAL2_LS
from wsd_classic.scoring.learning_curve import LearningCurve

POS_NAMES = (("n", "nouns"), ("v", "verbs"), ("a", "adj."))


def _percent(figures: dict | None, field: str = "recall") -> str:
    if not figures or figures.get(field) is None:
        return "-"
    return f"{100 * figures[field]:.1f}"


def lexical_sample_table(scores: dict[str, dict], with_references: bool) -> str:
    """Our systems (top sense: precision, recall, attempted, coarse recall, recall by POS) sorted
    by fine recall, then the published rows with their sources."""
    header = (f"{'system':<38} {'P':>6} {'R':>6} {'att.':>6} {'coarse R':>9} "
              + " ".join(f"{name:>6}" for _, name in POS_NAMES))
    lines = ["Fine-grained scores (%) of the top sense, as scorer2 computes them", header,
             "-" * len(header)]
    ranked = sorted(scores.items(), key=lambda item: -item[1]["fine"]["recall"])
    for name, figures in ranked:
        by_pos = figures.get("by_pos", {})
        lines.append(
            f"{name + ' (ours)':<38} {_percent(figures['fine'], 'precision'):>6} "
            f"{_percent(figures['fine']):>6} {_percent(figures['fine'], 'attempted'):>6} "
            f"{_percent(figures.get('coarse')):>9} "
            + " ".join(f"{_percent(by_pos.get(pos)):>6}" for pos, _ in POS_NAMES))
    if with_references:
        lines.append("published (fine-grained recall):")
        for reference in sorted(SENSEVAL2_LS, key=lambda ref: -ref.fine):
            lines.append(f"{reference.name:<38} {'':>6} {reference.fine:>6.1f}   [{reference.source}]")
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
