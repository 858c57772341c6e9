#!/usr/bin/env python3
"""The AmbiStory row: run ``bin/train --task ambistory`` (features, choice on dev, ablation,
predictions for dev and the redacted test) and record its figures.

Needs the SemCor svm (``bin/train --task semcor``) under ``--models-dir``. The test labels are
not read: only the dev figures are measured; the test predictions are written ready to submit.
Writes bench/results/ambistory.json: the chosen setting, every candidate's dev figures, the dev
figures split open-ended / ended, each feature group's contribution (the chosen setting without
it and with it alone), how the meanings matched WordNet, and the time taken.

``--support-trial`` (after a run without it: it reads the saved rater and word spaces) asks
whether the rater gains from the support classifier's ``support`` group, which it does not read:
the saved rater's setting cross-validated on train with and without the group, on the folds that
chose it and on homonyms shuffled into folds with other seeds (``ambistory.TRIAL_SEEDS``), the
group's column out of fold on the same folds each time, and the classifier's held-out area under
the ROC curve. Dev and test are not read. Writes bench/results/ambistory_support.json.

    python bench/ambistory.py --models-dir DIR [--data-dir DIR] [--out-dir DIR] [--jobs N]
                              [--support-trial]
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wsd_classic import settings  # noqa: E402
from wsd_classic.benchmarks import ambistory  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--models-dir", type=Path, required=True)
    parser.add_argument("--data-dir", type=Path)
    parser.add_argument("--out-dir", type=Path, default=Path("/tmp/ambistory-results"))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--support-trial", action="store_true")
    args = parser.parse_args()
    started = time.perf_counter()
    models = settings.models_dir(args.models_dir)
    if args.support_trial:
        support_trial(args.data_dir, models, args.jobs, started)
        return
    report = ambistory.train_job(args.data_dir, models, args.out_dir, args.jobs)
    seconds = time.perf_counter() - started
    print(report)
    scores = json.loads((args.out_dir / ambistory.BENCHMARK / "scores.json").read_text())
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "ambistory.json").write_text(json.dumps(
        {**scores, "published_test_rows": ambistory.PUBLISHED,
         "test": "not scored: the labels are not in the data directory; the predictions for "
                 "test_redacted.json are written beside dev's",
         "report": report.splitlines(), "seconds": round(seconds, 1)},
        indent=2, sort_keys=True) + "\n")
    print(f"bench/results/ambistory.json written ({seconds:.0f}s)")


def support_trial(data_dir, models: Path, jobs: int, started: float) -> None:
    params = {name: value for name, value in ambistory.load_rater(models).get_params().items()
              if name not in ("groups", "cuts")}  # the cuts are fitted again on each partition
    spaces = ambistory.load_spaces(ambistory.model_paths(models)[2])
    train = ambistory.load_splits(data_dir, models, spaces, jobs, ("train",))["train"]
    trials = ambistory.support_trial(params, train)
    mean = {label: float(np.mean([trial[label]["key"] for trial in trials]))
            for label in ("without support", "with support")}
    seconds = time.perf_counter() - started
    for trial in trials:
        print(f"seed {trial['seed']}: support AUC {trial['support_auc']['ended']:.3f}; rho + "
              f"accuracy without {trial['without support']['key']:.3f}, with "
              f"{trial['with support']['key']:.3f}")
    print(f"mean: without {mean['without support']:.3f}, with {mean['with support']:.3f}")
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "ambistory_support.json").write_text(json.dumps(
        {"params": params, "support_c": ambistory.SUPPORT_C, "trials": trials,
         "mean_key": mean, "seconds": round(seconds, 1)}, indent=2, sort_keys=True) + "\n")
    print(f"bench/results/ambistory_support.json written ({seconds:.0f}s)")


if __name__ == "__main__":
    main()
