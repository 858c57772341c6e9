#!/usr/bin/env python3
"""Choose the gloss group's scale and related synsets by cross-validation on SENSEVAL-2 training.

The svm is cross-validated as ``bench/cv.py`` does (per lexelt, 5 folds, the test set never
read) on its feature groups without ``gloss`` (the baseline) and with ``gloss`` at each
``--scales`` value for the default relations, then with each relation set at the best scale.
Writes bench/results/tune_gloss.json.

    python -m bench tune_gloss [--scales 0.25,0.5,1,2] [--folds 5] [--jobs 2] [--data-dir DIR]
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path


from bench.cv import cross_validate, cv_parser, lexelt_rows, training_corpus
from wsd_classic.features import gloss
from wsd_classic.features.weighted import Weighted
from wsd_classic.preprocess.cache import processed

RELATION_SETS = {
    "none": (),
    "hypernyms": ("@", "@i", "&", "$", "^"),
    "hypernyms+derived": ("@", "@i", "&", "$", "^", "+"),
    "hypernyms+derived+hyponyms": ("@", "@i", "&", "$", "^", "+", "~", "~i"),
}
BASE_GROUPS = ("bow", "colloc", "pos", "syntax")


def main() -> int:
    parser = cv_parser(__doc__.split("\n")[0])
    parser.add_argument("--scales", default="0.25,0.5,1,2")
    args = parser.parse_args()
    corpus = training_corpus(args.data_dir, args.jobs)
    docs = {doc.id: doc for doc in processed(list(corpus.sample.instances()), jobs=args.jobs)}
    base = lexelt_rows(corpus, BASE_GROUPS)

    def evaluate(label: str, relations: tuple[str, ...] | None, scale: float) -> dict:
        blocks = {}
        if relations is not None:
            for instance_id, doc in docs.items():
                found = gloss.similarities(doc, relations)
                blocks[instance_id] = [] if found is None else [
                    Weighted(found[0].names, scale * found[1])]
        data = [rows._replace(X=[row + blocks.get(instance, [])
                                 for row, instance in zip(rows.X, rows.instances)])
                for rows in base]
        start = time.perf_counter()
        accuracy = cross_validate("svm", {}, data, args.folds, args.jobs)
        result = {"setting": label, "relations": relations, "scale": scale, "accuracy": accuracy,
                  "seconds": time.perf_counter() - start}
        print(f"{label}: CV accuracy {100 * accuracy:.2f}", flush=True)
        return result

    results = [evaluate("svm without gloss", None, 0.0)]
    default = RELATION_SETS["hypernyms+derived"]
    for scale in (float(value) for value in args.scales.split(",")):
        results.append(evaluate(f"gloss scale {scale}", default, scale))
    best_scale = max(results[1:], key=lambda row: row["accuracy"])["scale"]
    for name, relations in RELATION_SETS.items():
        if relations != default:
            results.append(evaluate(f"gloss {name} scale {best_scale}", relations, best_scale))
    best = max(results, key=lambda row: row["accuracy"])
    out = Path(__file__).resolve().parent / "results" / "tune_gloss.json"
    out.write_text(json.dumps({"folds": args.folds, "system": "svm", "results": results,
                               "best": best}, indent=2) + "\n")
    print(f"best: {best['setting']} ({100 * best['accuracy']:.2f}); wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
