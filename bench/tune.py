#!/usr/bin/env python3
"""Choose the systems' hyperparameters by cross-validation on the SENSEVAL-2 training data only.

For each candidate setting, every lexelt's annotated training instances are split into K folds
(shuffled, fixed seed); the system is trained on K-1 folds and its top sense scored on the held
out fold (correct when it is one of the instance's gold tags). The mean over all held-out
instances picks the setting. The test set is never read. Writes bench/results/tune.json.

    python bench/tune.py [--folds 5] [--jobs 2] [--data-dir DIR]
"""
from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from pathlib import Path

import numpy as np
from joblib import Parallel, delayed
from sklearn.model_selection import KFold

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wsd_classic.tasks import catalogue  # noqa: E402
from wsd_classic import systems  # noqa: E402
from wsd_classic.corpora import registry  # noqa: E402
from wsd_classic.corpora.lexsample import read_lexical_sample  # noqa: E402
from wsd_classic.tasks import engine  # noqa: E402

GRIDS = {
    "svm": {"C": [0.3, 1.0, 3.0, 10.0, 30.0]},
    "dlist": {"alpha": [0.3, 1.0, 2.0, 4.0, 8.0, 16.0], "min_count": [1, 2, 3, 4]},
}


def settings_of(grid: dict) -> list[dict]:
    names = sorted(grid)
    return [dict(zip(names, values)) for values in itertools.product(*(grid[n] for n in names))]


def lexelt_cv(system: str, params: dict, X, y, weights, gold, folds: int) -> tuple[float, int]:
    """Correct held-out instances and their count for one lexelt (rows grouped by instance)."""
    instances = sorted(set(gold))
    correct = 0
    if len(instances) < folds:
        return 0.0, 0
    rows_of = {instance: [r for r, g in enumerate(gold) if g == instance] for instance in instances}
    splitter = KFold(folds, shuffle=True, random_state=0)
    for train_index, test_index in splitter.split(instances):
        train_rows = [r for i in train_index for r in rows_of[instances[i]]]
        model = systems.make(system, **params).fit(
            [X[r] for r in train_rows], [y[r] for r in train_rows],
            sample_weight=[weights[r] for r in train_rows])
        for i in test_index:
            rows = rows_of[instances[i]]
            predicted = model.predict([X[rows[0]]])[0]
            correct += predicted in {y[r] for r in rows}
    return float(correct), len(instances)


def cv_parser(description: str) -> argparse.ArgumentParser:
    """The options every cross-validation on the SENSEVAL-2 training data takes."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--data-dir")
    return parser


def training_corpus(data_dir, jobs: int):
    """The SENSEVAL-2 training sample, featurized (the test set is never read)."""
    directory = registry.locate(catalogue.SENSEVAL2_LS.dataset, data_dir)
    sample = read_lexical_sample(directory / "eng-lex-sample.training.xml")
    return engine.featurize(sample, jobs=jobs, description="spaCy (train)")


def lexelt_rows(corpus, groups) -> list[tuple]:
    """Per lexelt: X, y, sample weights and each row's instance id (rows of ``groups``)."""
    data = []
    for lexelt in corpus.sample.lexelts:
        annotated = [instance for instance in lexelt.instances if instance.answers]
        X, y, weights = engine.training_rows(corpus, annotated, groups)
        gold = [instance.id for instance in annotated for _ in dict.fromkeys(instance.answers)]
        data.append((X, y, weights, gold))
    return data


def main() -> int:
    parser = cv_parser(__doc__.split("\n")[0])
    parser.add_argument("--systems", default=",".join(GRIDS))
    args = parser.parse_args()
    corpus = training_corpus(args.data_dir, args.jobs)
    results = {}
    for system in args.systems.split(","):
        data = lexelt_rows(corpus, systems.get(system).feature_groups)
        results[system] = []
        for params in settings_of(GRIDS[system]):
            start = time.perf_counter()
            outcomes = Parallel(n_jobs=args.jobs)(
                delayed(lexelt_cv)(system, params, X, y, w, g, args.folds) for X, y, w, g in data)
            correct = sum(c for c, _ in outcomes)
            total = sum(n for _, n in outcomes)
            accuracy = correct / total
            results[system].append({"params": params, "accuracy": accuracy,
                                    "seconds": time.perf_counter() - start})
            print(f"{system} {params}: CV accuracy {100 * accuracy:.2f}", flush=True)
        best = max(results[system], key=lambda row: row["accuracy"])
        print(f"{system}: best {best['params']} ({100 * best['accuracy']:.2f})", flush=True)
    out = Path(__file__).resolve().parent / "results" / "tune.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    # Systems not tuned in this call keep their earlier results.
    previous = json.loads(out.read_text())["results"] if out.is_file() else {}
    results = {**previous, **results}
    out.write_text(json.dumps({"folds": args.folds, "results": results,
                               "best": {s: max(r, key=lambda row: row["accuracy"])["params"]
                                        for s, r in results.items()}}, indent=2) + "\n")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
