#!/usr/bin/env python3
"""The training cost of each feature group and system on the SENSEVAL-2 training data: CPU
seconds to fit every lexelt (one process, so the figure does not depend on what else the machine
runs) and the size of the fitted state (JSON metadata plus arrays, what the model file packs).
Configurations: svm with the base groups, with emb, with gloss and with both (the registered
svm), dlist, lesk-corpus and combo. Accuracy comes
from the cross-validations (bench/tune_gloss.py, bench/tune_combo.py) and the test run
(bench/senseval2_ls.py). Writes bench/results/ablation.json.

    python -m bench ablation [--data-dir DIR] [--jobs 2]
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from bench.cv import cv_parser, training_corpus
from wsd_classic import systems
from wsd_classic.tasks import engine

BASE = ("bow", "colloc", "pos", "syntax")
CONFIGURATIONS = {
    "svm, base groups": ("svm", BASE),
    "svm + emb": ("svm", (*BASE, "emb")),
    "svm + gloss": ("svm", (*BASE, "gloss")),
    "svm (+ emb + gloss)": ("svm", None),
    "dlist": ("dlist", None),
    "lesk-corpus": ("lesk-corpus", None),
    "combo": ("combo", None),
}


def state_bytes(model) -> int:
    meta, arrays = model.get_state()
    return len(json.dumps(meta).encode()) + sum(array.nbytes for array in arrays.values())


def main() -> int:
    args = cv_parser(__doc__.split("\n")[0]).parse_args()
    corpus = training_corpus(args.data_dir, args.jobs)
    results = {}
    for label, (system, groups) in CONFIGURATIONS.items():
        data = engine.lexelt_rows(corpus, groups or systems.get(system).feature_groups)
        started = time.process_time()
        models = [systems.make(system).fit(X, y, sample_weight=weights)
                  for _, X, y, weights in data]
        seconds = time.process_time() - started
        results[label] = {"system": system, "groups": list(groups or systems.get(system)
                                                             .feature_groups),
                          "train_cpu_seconds": seconds,
                          "state_megabytes": sum(map(state_bytes, models)) / 1e6}
        print(f"{label}: {seconds:.1f} CPU s, {results[label]['state_megabytes']:.1f} MB",
              flush=True)
    out = Path(__file__).resolve().parent / "results" / "ablation.json"
    out.write_text(json.dumps({"lexelts": len(corpus.sample.lexelts), "results": results},
                              indent=2) + "\n")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
