#!/usr/bin/env python3
"""The AmbiStory row: run ``bin/train --task ambistory`` (features, choice on dev, ablation,
predictions for dev and the redacted test) and record its figures.

Needs the SemCor svm (``bin/train --task semcor``) under ``--models-dir``. The test labels are
not read: only the dev figures are measured; the test predictions are written ready to submit.
Writes bench/results/ambistory.json: the chosen setting, every candidate's dev figures, the dev
figures split open-ended / ended, each feature group's contribution (the chosen setting without
it and with it alone), how the meanings matched WordNet, and the time taken.

    python bench/ambistory.py --models-dir DIR [--data-dir DIR] [--out-dir DIR] [--jobs N]
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

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
    args = parser.parse_args()
    started = time.perf_counter()
    report = ambistory.train_job(args.data_dir, settings.models_dir(args.models_dir),
                                 args.out_dir, args.jobs)
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


if __name__ == "__main__":
    main()
