"""The report's pictures as PNG bytes, drawn with matplotlib's object API on the Agg canvas (no
pyplot state, no display needed)."""
from __future__ import annotations

import io
import math
from collections.abc import Sequence
from dataclasses import dataclass

from matplotlib.figure import Figure

from wsd_classic.report.calibration import Calibration
from wsd_classic.scoring.learning_curve import LearningCurve

DPI = 100
POS_STYLE = {"n": ("nouns", "tab:blue", "o"), "v": ("verbs", "tab:red", "s"),
             "a": ("adjectives", "tab:green", "^"), "r": ("adverbs", "tab:purple", "D"),
             None: ("other", "tab:gray", "x")}


def _png(figure: Figure) -> bytes:
    buffer = io.BytesIO()
    # No "Software" stamp, so the same results give byte-identical pictures.
    figure.savefig(buffer, format="png", dpi=DPI, metadata={"Software": None})
    return buffer.getvalue()


@dataclass(frozen=True)
class LexeltPoint:
    name: str
    pos: str | None
    accuracy: float
    senses: int | None
    training_instances: int | None


def lexelt_accuracy(system: str, points: Sequence[LexeltPoint]) -> bytes:
    """Per-lexelt accuracy against senses seen in training and training size, by POS."""
    figure = Figure(figsize=(10, 4.2), layout="constrained")
    by_senses, by_size = figure.subplots(1, 2, sharey=True)
    for pos, (label, colour, marker) in POS_STYLE.items():
        chosen = [p for p in points if p.pos == pos and p.senses is not None]
        if not chosen:
            continue
        for axes, x in ((by_senses, [p.senses for p in chosen]),
                        (by_size, [p.training_instances for p in chosen])):
            axes.scatter(x, [100 * p.accuracy for p in chosen], c=colour, marker=marker,
                         label=label, alpha=0.75, s=28)
    by_senses.set_xlabel("senses in the training data")
    by_size.set_xlabel("training instances")
    by_senses.set_ylabel(f"{system}: fine-grained accuracy per lexelt (%)")
    for axes in (by_senses, by_size):
        axes.set_ylim(-2, 102)
        axes.grid(alpha=0.3)
    by_senses.legend(loc="lower left")
    return _png(figure)


def learning_curve(curve: LearningCurve) -> bytes:
    figure = Figure(figsize=(8, 4.2), layout="constrained")
    axes = figure.subplots()
    for system in curve.systems():
        points = curve.of(system)
        axes.plot([100 * p.fraction for p in points], [100 * p.fine for p in points],
                  marker="o", label=system)
    axes.set_xlabel("share of the training data (%)")
    axes.set_ylabel("fine-grained accuracy on the test set (%)")
    axes.set_xlim(0, 102)
    axes.grid(alpha=0.3)
    axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1))  # outside: never hides a curve
    return _png(figure)


def reliability(calibrations: Sequence[tuple[str, Calibration]]) -> bytes:
    """One reliability diagram per system: accuracy of the top sense per confidence bin (bars)
    against the diagonal of perfect calibration, with the share of instances per bin (grey)."""
    columns = min(3, len(calibrations))
    rows = math.ceil(len(calibrations) / columns)
    figure = Figure(figsize=(4 * columns, 3.8 * rows), layout="constrained")
    grid = figure.subplots(rows, columns, squeeze=False)
    for axes in grid.flat[len(calibrations):]:
        axes.set_visible(False)
    for axes, (name, result) in zip(grid.flat, calibrations):
        width = result.bins[0].high - result.bins[0].low
        lefts = [b.low for b in result.bins]
        axes.bar(lefts, [b.count / max(1, result.instances) for b in result.bins], width=width,
                 align="edge", color="lightgray", label="share of instances")
        axes.bar(lefts, [b.accuracy if b.count else 0 for b in result.bins], width=width,
                 align="edge", fill=False, edgecolor="tab:blue", linewidth=1.5, label="accuracy")
        axes.plot([0, 1], [0, 1], linestyle="--", color="black", linewidth=1)
        axes.set_xlim(0, 1)
        axes.set_ylim(0, 1)
        axes.set_title(f"{name}: ECE {result.ece:.3f}", fontsize=10)
        axes.set_xlabel("confidence of the top sense")
        axes.set_ylabel("accuracy")
    grid.flat[0].legend(loc="upper left", fontsize=8)
    return _png(figure)


@dataclass(frozen=True)
class RowF1:
    """One row's F1 (%) on one dataset; ``low`` and ``high`` its interval (None: published)."""

    label: str
    f1: float
    low: float | None = None
    high: float | None = None


def f1_intervals(panels: Sequence[tuple[str, Sequence[RowF1]]]) -> bytes:
    """One panel per dataset: each row's F1 with its 95% interval (bars), published figures
    as hollow diamonds, best at the top."""
    columns = min(3, len(panels))
    rows = math.ceil(len(panels) / columns)
    height = max(2.5, 0.35 * max(len(points) for _, points in panels) + 1.2)
    figure = Figure(figsize=(4.4 * columns, height * rows), layout="constrained")
    grid = figure.subplots(rows, columns, squeeze=False)
    for axes in grid.flat[len(panels):]:
        axes.set_visible(False)
    for axes, (name, points) in zip(grid.flat, panels):
        ordered = sorted(points, key=lambda point: point.f1)
        for y, point in enumerate(ordered):
            if point.low is None:
                axes.scatter([point.f1], [y], marker="D", facecolors="none",
                             edgecolors="tab:gray", zorder=3)
            else:
                axes.errorbar([point.f1], [y], xerr=[[point.f1 - point.low],
                                                     [point.high - point.f1]],
                              fmt="o", color="tab:blue", capsize=3)
        axes.set_yticks(range(len(ordered)), [point.label for point in ordered], fontsize=8)
        axes.set_title(name, fontsize=10)
        axes.set_xlabel("F1 (%)")
        axes.grid(axis="x", alpha=0.3)
    return _png(figure)
