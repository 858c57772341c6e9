"""The plain-text tables the commands print: ``bin/train``'s comparison of systems and learning
curve, ``bin/evaluate``'s all-words and SenseBench figures, the AmbiStory benchmark's."""
from __future__ import annotations

from wsd_classic.report.references import (AMBISTORY, AMBISTORY_SOURCE, RAGANATO_2017,
                                           RAGANATO_SOURCE, SENSEVAL2_LS)
from wsd_classic.scoring.learning_curve import LearningCurve

POS_NAMES = (("n", "nouns"), ("v", "verbs"), ("a", "adj."))
# The system column's least width; a longer name widens it.
NAME_WIDTH = 38
DATASET_COLUMN = 26  # width of one dataset's "P R F1 mF1" group


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


def all_words_table(scores: dict[str, dict[str, dict]], datasets: list[str]) -> str:
    """P/R/F1 and macro F1 over senses (%) of our systems per dataset, best F1 on the first
    dataset first, then the published F1 of Raganato et al. (2017) where it exists. Figures
    kept from a run that did not compute the macro F1 show "-" there."""
    header = f"{'system':<16}" + "".join(f"{name:>{DATASET_COLUMN}}" for name in datasets)
    subheader = f"{'':<16}" + f"{'P':>8}{'R':>6}{'F1':>6}{'mF1':>6}" * len(datasets)
    lines = ["All-words WSD, Raganato et al.'s scorer (%; mF1: macro F1 over gold senses)",
             header, subheader, "-" * len(header)]
    ranked = sorted(scores.items(), key=lambda item: -item[1][datasets[0]]["f1"])
    for system, figures in ranked:
        lines.append(f"{system + ' (ours)':<16}" + "".join(
            f"{100 * figures[name]['precision']:>8.1f}{100 * figures[name]['recall']:>6.1f}"
            f"{100 * figures[name]['f1']:>6.1f}" + _macro_column(figures[name])
            for name in datasets))
    published = [(system, row) for system, row in RAGANATO_2017.items()
                 if any(name in row for name in datasets)]
    if published:
        lines.append(f"published F1 [{RAGANATO_SOURCE}]:")
        for system, row in published:
            lines.append(f"{system:<16}" + "".join(
                f"{row[name]:>{DATASET_COLUMN}.1f}" if name in row else f"{'-':>{DATASET_COLUMN}}"
                for name in datasets))
    return "\n".join(lines)


def _macro_column(figures: dict) -> str:
    macro = figures.get("macro_f1")
    return f"{'-':>6}" if macro is None else f"{100 * macro:>6.1f}"


def sensebench_table(scores: dict[str, dict[str, dict]]) -> str:
    """Accuracy (%) with its 95% interval per system and dataset (parts indented), best first,
    and McNemar's p-value against the best system."""
    lines = ["SenseBench accuracy (%; a key is right when it is a gold key or names the same "
             "synset), 95% bootstrap interval, McNemar against the best system"]
    for dataset in next(iter(scores.values())):
        lines.append(f"{dataset}:")
        ranked = sorted(scores, key=lambda system: -scores[system][dataset]["overall"]["accuracy"])
        parts = list(scores[ranked[0]][dataset]["parts"])
        lines.append(f"  {'system':<8}{'overall':>22}" + "".join(f"{p:>14}" for p in parts)
                     + f"{'McNemar p':>12}")
        for system in ranked:
            entry = scores[system][dataset]
            overall = entry["overall"]
            low, high = overall["ci95"]
            test = entry["mcnemar"]
            versus = "best" if test["against"] == system else f"{test['p_value']:.2g}"
            lines.append(f"  {system:<8}{100 * overall['accuracy']:>8.1f} "
                         f"[{100 * low:5.1f}, {100 * high:5.1f}]"
                         + "".join(f"{100 * entry['parts'][p]['accuracy']:>14.1f}" for p in parts)
                         + f"{versus:>12}")
    return "\n".join(lines)


def rho_text(figures: dict) -> str:
    return "n/a" if figures["spearman"] is None else f"{figures['spearman']:.3f}"


def ambistory_table(dev: dict) -> str:
    lines = ["AmbiStory: Spearman's rho and accuracy within SD (the task's scoring)",
             f"{'':<34}{'rho':>7}{'acc':>7}",
             f"{'classic rater (ours), dev':<34}{rho_text(dev):>7}{dev['accuracy']:>7.3f}"]
    for label, figures in dev["by_ending"].items():
        lines.append(f"{'  ' + label:<34}{rho_text(figures):>7}{figures['accuracy']:>7.3f}")
    lines.append(f"published, {AMBISTORY_SOURCE}:")
    for system, (rho, accuracy) in AMBISTORY.items():
        lines.append(f"{system:<34}{'n/a' if rho is None else f'{rho:.3f}':>7}{accuracy:>7.3f}")
    return "\n".join(lines)
