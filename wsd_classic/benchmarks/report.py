"""The benchmarks' saved results (``results/sensebench/``, ``results/ambistory/``) as
``bin/report`` documents: the figures their runs recorded, intervals included, beside the
published rows."""
from __future__ import annotations

import json
from pathlib import Path

from wsd_classic.benchmarks import ambistory, sensebench
from wsd_classic.errors import WsdError
from wsd_classic.report.document import Document, Section, Table
from wsd_classic.report.references import AMBISTORY, AMBISTORY_SOURCE
from wsd_classic.report.table import rho_text

BENCHMARKS = (sensebench.BENCHMARK, ambistory.BENCHMARK)


def _scores(task_dir: Path, command: str) -> dict:
    path = Path(task_dir) / "scores.json"
    if not path.is_file():
        raise WsdError(f"no scores: run {command} first", path)
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise WsdError(f"cannot read the scores: {error}", path) from None


def _percent_interval(figures: dict) -> str:
    low, high = figures["ci95"]
    return f"{100 * figures['accuracy']:.1f} [{100 * low:.1f}, {100 * high:.1f}]"


def benchmark_document(benchmark: str, task_dir: Path) -> Document:
    if benchmark == sensebench.BENCHMARK:
        return _sensebench(_scores(task_dir, "bin/evaluate --benchmark sensebench"))
    return _ambistory(_scores(task_dir, "bin/train --task ambistory"))


def _sensebench(scores: dict) -> Document:
    sections = [Section("How these figures were computed", (
        "Each system's key file holds one WordNet 3.0 key per instance; an answer is right when "
        "it is a gold key or a key of the same synset (SenseBench's rule). Accuracy in %, with "
        "its 95% percentile bootstrap interval (instances resampled); McNemar's exact test "
        "against the system with the best overall accuracy.",))]
    for dataset in next(iter(scores.values())):
        ranked = sorted(scores, key=lambda system: -scores[system][dataset]["overall"]["accuracy"])
        parts = list(scores[ranked[0]][dataset]["parts"])
        rows = []
        for system in ranked:
            entry = scores[system][dataset]
            test = entry["mcnemar"]
            rows.append((system, _percent_interval(entry["overall"]),
                         *(_percent_interval(entry["parts"][part]) for part in parts),
                         "best" if test["against"] == system else f"{test['p_value']:.2g}"))
        sections.append(Section(dataset, (Table(
            f"SenseBench accuracy on {dataset} [95% CI]",
            ("System", "Overall", *parts, "McNemar p vs best"), tuple(rows)),)))
    return Document("SenseBench baseline rows", tuple(sections))


def _ambistory(scores: dict) -> Document:
    dev = scores["dev"]
    rho_low, rho_high = dev["ci95"]["spearman"]
    rows = [("classic rater (ours), dev", f"{dev['spearman']:.3f} [{rho_low:.3f}, {rho_high:.3f}]",
             f"{dev['accuracy']:.3f} [{dev['ci95']['accuracy'][0]:.3f}, "
             f"{dev['ci95']['accuracy'][1]:.3f}]")]
    rows += [(f"dev, {label} stories", rho_text(figures), f"{figures['accuracy']:.3f}")
             for label, figures in dev["by_ending"].items()]
    published = [(f"{system} ({AMBISTORY_SOURCE})",
                  "n/a" if rho is None else f"{rho:.3f}", f"{accuracy:.3f}")
                 for system, (rho, accuracy) in AMBISTORY.items()]
    table = Table("Spearman's rho and accuracy within SD [95% CI]", ("System", "rho", "accuracy"),
                  tuple(rows + published), published=frozenset(
                      range(len(rows), len(rows) + len(published))))
    ablation = Table("Dev figures of the chosen setting by feature group",
                     ("Features", "rho", "accuracy"),
                     tuple((name, rho_text(figures), f"{figures['accuracy']:.3f}")
                           for name, figures in scores.get("ablation", {}).items()))
    return Document("AmbiStory (SemEval-2026 Task 5) ratings", (
        Section("How these figures were computed", (
            "Scores as the task's scoring.py computes them, on the development set; intervals "
            "are 95% percentile bootstrap intervals (samples resampled). The published rows are "
            "on the test set, whose labels this run never read.",
            f"Setting chosen by cross-validation on train: {scores.get('params')}.")),
        Section("Results", (table,)),
        Section("Feature groups", (ablation,)),
    ))
