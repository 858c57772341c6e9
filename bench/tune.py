#!/usr/bin/env python3
"""Choose the systems' hyperparameters by cross-validation on the SENSEVAL-2 training data only.

Each candidate setting is cross-validated per lexelt as ``bench/cv.py`` does (K folds of the
annotated training instances; the top sense scored on each held-out instance); the mean over
all held-out instances picks the setting. The test set is never read. Writes
bench/results/tune.json.

``--emb`` instead cross-validates the svm with embedding features (``features.embeddings``) for
each ``STRATEGY:WINDOW:SCALE[:C[:GLOSS]]`` given (GLOSS: the scale of the context's cosines with
the candidates' gloss embeddings, 0 by default), on the task's vectors or, with ``--sources``,
on other sources (``self``: the self-trained vectors of ``bench/self_vectors.py``, with
``--vectors`` some of their word2vec settings changed, e.g. ``dimensions=200,epochs=20``;
installed pretrained ones; or both, e.g. ``self,glove-6b-50d``), with ``--svm`` other svm
parameters (e.g. ``tol=0.001``), and adds the rows to bench/results/tune_emb.json.

    python -m bench tune [--folds 5] [--jobs 2] [--data-dir DIR]
    python -m bench tune --emb exponential:10:1,fractional:10:1,exponential:10:1:10:1 [--vectors dimensions=200] [--sources glove-6b-50d] [--svm tol=0.001]
"""
from __future__ import annotations

import dataclasses
import itertools
import json
import sys
import time
from pathlib import Path

from bench.cv import (cross_validate, cv_parser, fold_accuracy, lexelt_rows,
                number_settings, training_corpus)
from wsd_classic.tasks import catalogue
from wsd_classic import systems
from wsd_classic.features.embeddings import ContextEmbedding, EmbeddingRule
from wsd_classic.preprocess.cache import processed
from bench.self_vectors import CHOSEN, given_vectors

GRIDS = {
    "svm": {"C": [0.3, 1.0, 3.0, 10.0, 30.0]},
    "dlist": {"alpha": [0.3, 1.0, 2.0, 4.0, 8.0, 16.0], "min_count": [1, 2, 3, 4]},
}


def settings_of(grid: dict) -> list[dict]:
    names = sorted(grid)
    return [dict(zip(names, values)) for values in itertools.product(*(grid[n] for n in names))]


def tune_embeddings(args, corpus) -> None:
    """Rows of tune_emb.json: one per (vectors, strategy, window, scale, C)."""
    registered = catalogue.SENSEVAL2_LS.embedding
    vector_settings = CHOSEN.replaced(args.vectors)
    sources = tuple(args.sources.split(",")) if args.sources else registered.sources
    started = time.perf_counter()
    vectors = given_vectors(sources, vector_settings, args.data_dir)
    vector_seconds = time.perf_counter() - started
    docs = list(processed(list(corpus.sample.instances()), jobs=args.jobs))
    out = Path(__file__).resolve().parent / "results" / "tune_emb.json"
    rows = json.loads(out.read_text())["results"] if out.is_file() else []
    for setting in args.emb.split(","):
        strategy, window, scale, *c_and_gloss = setting.split(":")
        c, gloss_scale = (c_and_gloss + [None, None])[:2]
        rule = EmbeddingRule(strategy, int(window), float(scale), float(gloss_scale or 0),
                             sources)
        embedding = ContextEmbedding(rule, vectors)
        for doc in docs:
            corpus.features[doc.id]["emb"] = embedding(doc)
        params = {**catalogue.SENSEVAL2_LS.system_params("svm"), **({"C": float(c)} if c else {}),
                  **number_settings(args.svm)}
        start = time.perf_counter()
        data = lexelt_rows(corpus, systems.get("svm").feature_groups)
        measured = fold_accuracy("svm", params, data, args.folds, args.jobs)
        accuracy = measured.accuracy
        rows.append({"vectors": dataclasses.asdict(vector_settings), "vectors_sha256":
                     vectors and vectors.identity, "sources": list(sources),
                     "pretrained_sha256": [pretrained.identity
                                           for pretrained in embedding.pretrained],
                     "strategy": strategy, "window": int(window),
                     "scale": float(scale), "gloss": rule.gloss, "params": params,
                     "accuracy": accuracy, "fold_accuracies": measured.folds,
                     "fold_standard_error": measured.standard_error,
                     "groups": list(systems.get("svm").feature_groups),
                     "seconds": time.perf_counter() - start,
                     "vector_seconds": vector_seconds})
        print(f"svm emb {setting} {args.vectors} {','.join(sources)}: CV accuracy "
              f"{100 * accuracy:.2f} (folds' standard error {100 * measured.standard_error:.2f})",
              flush=True)
        out.write_text(json.dumps({"folds": args.folds, "results": rows,
                                   "best": max(rows, key=lambda row: row["accuracy"])},
                                  indent=2) + "\n")
    print(f"wrote {out}")


def main() -> int:
    parser = cv_parser(__doc__.split("\n")[0])
    parser.add_argument("--systems", default=",".join(GRIDS))
    parser.add_argument("--emb", metavar="STRATEGY:WINDOW:SCALE[:C[:GLOSS]],...")
    parser.add_argument("--vectors", default="", metavar="NAME=VALUE,...",
                        help="with --emb and the self source: word2vec settings changed from "
                             "bench/self_vectors.py's")
    parser.add_argument("--sources", default="", metavar="SOURCE,...",
                        help="the embedding's sources (default: the task's)")
    parser.add_argument("--svm", default="", metavar="NAME=NUMBER,...",
                        help="with --emb: svm parameters over the task's")
    args = parser.parse_args()
    corpus = training_corpus(args.data_dir, args.jobs)
    if args.emb:
        tune_embeddings(args, corpus)
        return 0
    results = {}
    for system in args.systems.split(","):
        data = lexelt_rows(corpus, systems.get(system).feature_groups)
        results[system] = []
        for params in settings_of(GRIDS[system]):
            start = time.perf_counter()
            accuracy = cross_validate(system, params, data, args.folds, args.jobs)
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
