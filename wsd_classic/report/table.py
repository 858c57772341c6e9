"""The plain-text comparison table ``bin/train`` prints."""
from __future__ import annotations

from wsd_classic.report.references import SENSEVAL2_LS

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
