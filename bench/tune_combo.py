#!/usr/bin/env python3
"""Choose the combination's form, default weights and shrinkage on the SENSEVAL-2 training data
only.

1. Default parameters, for each of ``--pools`` (``combination.POOLS``): every lexelt's held-out
   evidence (the combination's own inner folds over all its training instances) is pooled over
   the lexelts, and the pool's parameters are fitted to minimise the pooled log-loss.
2. Pool and shrinkage: per lexelt, 5 outer folds as ``bench/cv.py`` makes them; on each, the
   members are stacked on the training part once and the combiner of each pool fitted with each
   ``--shrinkages`` value (``inf``: the default parameters as they are); the top sense is scored
   on the held-out part.
3. Calibration: the expected calibration error of the top sense (15 bins, as ``bin/report``)
   over the best pool and shrinkage's held-out distributions, pooled over the lexelts; the
   top-sense map (``combination.fit_top_sense_map``) fitted on all of them, for the registry;
   and the error with the map, cross-fitted: the held-out distributions in 5 random parts, each
   mapped by the curve fitted on the other four.
``--svm`` gives the svm member other parameters (e.g. ``tol=0.001``). ``--ppr`` adds the
knowledge-based ``ppr``'s distribution as a component (``combination.PPR_PREFIX``): each training
instance's, the walk of ``semcor``'s registered ``ppr`` over the content words of the target's
sentence (``PersonalisedPageRank.instance_distributions``), computed once per run; the run
also scores ppr alone (its top sense among the lexelt's senses) on the same held-out folds. Each configuration's
accuracy comes with its folds' accuracies and their standard error. The test set is never read.
Writes bench/results/tune_combo.json (or ``--out``).

    python -m bench tune_combo [--pools linear,geometric] [--shrinkages 0,1,10,100,inf]
                               [--svm NAME=NUMBER,...] [--ppr] [--folds 5] [--jobs 2]
                               [--out FILE]
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import numpy as np
from joblib import Parallel, delayed

from bench.cv import (LexeltRows, cv_parser, instance_folds, lexelt_rows, number_settings,
                      training_corpus)
from wsd_classic import systems, tuned
from wsd_classic.features.weighted import Weighted
from wsd_classic.tasks import catalogue, engine
from wsd_classic.report.calibration import expected_calibration_error
from wsd_classic.systems.combination import (EVIDENCE, LOG_SMOOTHING, POOLS, fit_params,
                                             fit_top_sense_map, mapped_top_sense, ppr_values)
from wsd_classic.systems.personalised_pagerank import PersonalisedPageRank

# Pooled defaults are registered to 3 decimals: a re-run that moves them by less leaves the
# settings file as it was.
DEFAULT_PARAMS_DIGITS = 3


def lexelt_evidence(X, y, weights, params: dict):
    """The lexelt's held-out evidence over all its training instances (combo's ``params``)."""
    return systems.make("combo", **params).fit_members(X, y, weights)


def ppr_blocks(docs, data_dir, jobs: int) -> tuple[dict[str, Weighted], dict]:
    """Each context's ``ppr`` block (``combination.PPR_PREFIX`` + sense key: its probability),
    by instance id, from the walk ``semcor`` registered; and the walk's settings and time."""
    params = catalogue.SEMCOR.system_params("ppr")
    started = time.perf_counter()
    scorer = PersonalisedPageRank.built(params, data_dir)
    blocks = scorer.evidence(docs, jobs)
    return blocks, {"walk": params, "graph": scorer.graph.name,
                    "seconds": time.perf_counter() - started}


def with_ppr(rows: LexeltRows, blocks: dict[str, Weighted]) -> LexeltRows:
    """The lexelt's rows, each with its instance's ``ppr`` block."""
    return rows._replace(X=[[*row, blocks[instance]]
                            for row, instance in zip(rows.X, rows.instances)])


def ppr_alone(rows: LexeltRows, folds: int) -> tuple[np.ndarray, np.ndarray]:
    """Per fold, the held-out instances whose top ppr sense among the lexelt's training senses
    (ties to the fold's commonest) is right, and their count."""
    correct, scored = np.zeros(folds), np.zeros(folds)
    for fold, (train, test) in enumerate(instance_folds(rows.instances, folds)):
        classes = np.array(sorted({rows.y[row] for row in train}))
        counts = np.array([sum(rows.weights[row] for row in train if rows.y[row] == sense)
                           for sense in classes])
        values = ppr_values([rows.X[instance[0]] for instance in test], classes)
        best = np.lexsort((-counts[None, :].repeat(len(test), 0), -values), axis=1)[:, 0]
        correct[fold] = sum(classes[choice] in {rows.y[row] for row in instance}
                            for choice, instance in zip(best, test))
        scored[fold] = len(test)
    return correct, scored


def pooled_params(evidences, pool: str, used: np.ndarray | None = None) -> np.ndarray:
    """The parameters of form ``pool`` minimising the log-loss pooled over the lexelts (senses
    padded to the largest lexelt's count, padding not allowed), of the ``used`` components
    (None: all but ppr's)."""
    if used is None:
        used = np.array([name != "ppr" for name in EVIDENCE])
    evidences = [item for item in evidences if len(item[2])]
    width = max(item[0].shape[1] for item in evidences)
    rows = sum(len(item[2]) for item in evidences)
    evidence = np.zeros((rows, width, evidences[0][0].shape[2]))
    allowed = np.zeros((rows, width), dtype=bool)
    truth, weights, at = np.zeros(rows, int), np.zeros(rows), 0
    for lexelt_evidence_, lexelt_allowed, lexelt_truth, lexelt_weights in evidences:
        end = at + len(lexelt_truth)
        evidence[at:end, :lexelt_evidence_.shape[1]] = lexelt_evidence_
        allowed[at:end, :lexelt_allowed.shape[1]] = lexelt_allowed
        truth[at:end], weights[at:end], at = lexelt_truth, lexelt_weights, end
    return fit_params(evidence, allowed, truth, weights, used,
                      np.asarray(POOLS[pool].start, float), 0.0, pool)


def fitted_combiner(model, evidence, shrinkage: float):
    """``model`` (a combo with its members fitted) with its combiner fitted on their held-out
    ``evidence``, shrunk to its defaults by ``shrinkage`` (``inf``: the defaults as they are)."""
    if np.isinf(shrinkage):
        return model.fit_combiner(*(part[:0] for part in evidence), shrinkage=0.0)
    return model.fit_combiner(*evidence, shrinkage=shrinkage)


def lexelt_cv(rows: LexeltRows, folds: int, configurations: list[tuple[str, tuple, float]],
              params: dict):
    """Correct held-out instances per configuration (pool, its defaults, shrinkage) and fold,
    the count of instances per fold and, per configuration, each held-out instance's
    distribution with the mask of its gold senses (combo's ``params``)."""
    correct = np.zeros((len(configurations), folds))
    held_out = [[] for _ in configurations]
    scored = np.zeros(folds)
    for fold, (train, test) in enumerate(instance_folds(rows.instances, folds)):
        # top_sense_map: the distributions the map is fitted on
        model = systems.make("combo", **params, top_sense_map=())
        stacked = model.fit_members([rows.X[row] for row in train],
                                    [rows.y[row] for row in train],
                                    [rows.weights[row] for row in train])
        for column, (pool, default, shrinkage) in enumerate(configurations):
            fitted_combiner(model.set_params(pool=pool, default_params=default), stacked,
                            shrinkage)
            fold_held_out = [
                (proba, np.isin(model.classes_, [rows.y[row] for row in instance]))
                for proba, instance in zip(
                    model.predict_proba([rows.X[instance[0]] for instance in test]), test)]
            correct[column, fold] += sum(gold[proba.argmax()] for proba, gold in fold_held_out)
            held_out[column] += fold_held_out
        scored[fold] += len(test)
    return correct, scored, held_out


def top_sense(held_out) -> tuple[np.ndarray, np.ndarray]:
    """The top sense's probability and whether it is right, per held-out distribution."""
    return (np.array([proba.max() for proba, _ in held_out]),
            np.array([gold[proba.argmax()] for proba, gold in held_out]))


def held_out_ece(held_out) -> float:
    """Expected calibration error of the top sense over the held-out distributions."""
    return expected_calibration_error(*top_sense(held_out))


def cross_fitted_map_ece(held_out, parts: int = 5) -> float:
    """The error of the top-sense map on distributions its curve was not fitted on."""
    part = np.random.default_rng(0).integers(0, parts, len(held_out))
    mapped = list(held_out)
    for number in range(parts):
        curve = fit_top_sense_map(*top_sense([pair for pair, p in zip(held_out, part)
                                              if p != number]))
        for index in np.flatnonzero(part == number):
            proba, gold = held_out[index]
            mapped[index] = (mapped_top_sense(proba[None, :], curve)[0], gold)
    return held_out_ece(mapped)


def registered_combo(best: dict, defaults: dict, calibration: dict, ppr: bool = False) -> dict:
    """combo's values as registered: the best pool and shrinkage, that pool's pooled defaults
    and the top-sense map fitted over its held-out distributions (and ``ppr`` when it is a
    component)."""
    return {"pool": best["pool"], "shrinkage": best["shrinkage"],
            "default_params": [round(value, DEFAULT_PARAMS_DIGITS)
                               for value in defaults[best["pool"]]],
            "top_sense_map": calibration["top_sense_map"], **({"ppr": True} if ppr else {})}


def main() -> int:
    parser = cv_parser(__doc__.split("\n")[0])
    parser.add_argument("--pools", default=",".join(POOLS))
    parser.add_argument("--shrinkages", default="0,1,10,100,inf")
    parser.add_argument("--svm", default="", metavar="NAME=NUMBER,...",
                        help="the svm member's parameters over the registered ones")
    parser.add_argument("--ppr", action="store_true",
                        help="add ppr's distribution as one more component")
    parser.add_argument("--out", type=Path,
                        default=Path(__file__).resolve().parent / "results" / "tune_combo.json")
    parser.add_argument("--register", nargs="?", const=catalogue.SENSEVAL2_LS.name,
                        metavar="SCOPE", help="store the best pool, its shrinkage, pooled "
                        "defaults and top-sense map as combo's values in "
                        "wsd_classic/tuned/SCOPE.json (default: senseval2-ls; systems: the "
                        "registry's defaults)")
    args = parser.parse_args()
    svm = number_settings(args.svm)
    params = {**({"member_params": {"svm": svm}} if svm else {}),
              **({"ppr": True} if args.ppr else {})}
    used = np.array([name != "ppr" or args.ppr for name in EVIDENCE])
    pools = args.pools.split(",")
    unknown = [pool for pool in pools if pool not in POOLS]
    if unknown:
        parser.error(f"unknown pool {', '.join(unknown)}; known: {', '.join(POOLS)}")
    shrinkages = [float(value) for value in args.shrinkages.split(",")]
    corpus = training_corpus(args.data_dir, args.jobs)
    data = lexelt_rows(corpus, systems.get("combo").feature_groups)
    ppr = None
    if args.ppr:
        blocks, ppr = ppr_blocks(engine.analyse(corpus.sample, args.jobs, "spaCy (train)"),
                                 args.data_dir, args.jobs)
        data = [with_ppr(rows, blocks) for rows in data]
        alone = [ppr_alone(rows, args.folds) for rows in data]
        ppr["alone_accuracy"] = float(sum(c.sum() for c, _ in alone)
                                      / sum(n.sum() for _, n in alone))
        ppr["alone_fold_accuracies"] = (sum(c for c, _ in alone)
                                        / sum(n for _, n in alone)).tolist()
        print(f"ppr's evidence: {ppr['seconds']:.0f}s; ppr alone, CV accuracy "
              f"{100 * ppr['alone_accuracy']:.2f}", flush=True)
    start = time.perf_counter()
    evidences = Parallel(n_jobs=args.jobs)(
        delayed(lexelt_evidence)(rows.X, rows.y, rows.weights, params) for rows in data)
    defaults = {pool: tuple(float(value) for value in pooled_params(evidences, pool, used))
                for pool in pools}
    pooled_seconds = time.perf_counter() - start
    for pool, default in defaults.items():
        print(f"{pool} pool: pooled parameters "
              f"{dict(zip(POOLS[pool].parameters, np.round(default, 3)))}", flush=True)
    print(f"({pooled_seconds:.0f}s)", flush=True)
    start = time.perf_counter()
    configurations = [(pool, defaults[pool], shrinkage) for pool in pools
                      for shrinkage in shrinkages]
    outcomes = Parallel(n_jobs=args.jobs)(
        delayed(lexelt_cv)(rows, args.folds, configurations, params) for rows in data)
    per_fold = sum(n for _, n, _ in outcomes)
    correct = sum(c for c, _, _ in outcomes)
    accuracy = correct.sum(axis=1) / per_fold.sum()
    fold_accuracies = correct / per_fold
    results = [{"pool": pool, "shrinkage": shrinkage if np.isfinite(shrinkage) else "inf",
                "accuracy": float(value), "fold_accuracies": folds.tolist(),
                "fold_standard_error": float(np.std(folds, ddof=1) / np.sqrt(len(folds)))}
               for (pool, _, shrinkage), value, folds in zip(configurations, accuracy,
                                                             fold_accuracies)]
    for row in results:
        print(f"{row['pool']} pool, shrinkage {row['shrinkage']}: CV accuracy "
              f"{100 * row['accuracy']:.2f}")
    best = max(results, key=lambda row: row["accuracy"])
    held_out = [pair for _, _, per_configuration in outcomes
                for pair in per_configuration[results.index(best)]]
    confidence, correct = top_sense(held_out)
    calibration = {"pool": best["pool"], "shrinkage": best["shrinkage"],
                   "held_out_ece": held_out_ece(held_out),
                   "mean_confidence": float(confidence.mean()),
                   "accuracy": float(correct.mean()),
                   "top_sense_map": fit_top_sense_map(confidence, correct),
                   "held_out_ece_mapped": cross_fitted_map_ece(held_out),
                   "instances": len(held_out)}
    print(f"held-out ECE of the top sense, {best['pool']} pool at shrinkage "
          f"{best['shrinkage']}: {calibration['held_out_ece']:.4f} (mean probability "
          f"{confidence.mean():.4f}, right {correct.mean():.4f}); with the top-sense map, "
          f"cross-fitted: {calibration['held_out_ece_mapped']:.4f}\ntop-sense map "
          f"{calibration['top_sense_map']}")
    out = args.out
    out.write_text(json.dumps({
        "folds": args.folds, "svm": svm, "ppr": ppr,
        "default_params": {pool: dict(zip(POOLS[pool].parameters, default))
                           for pool, default in defaults.items()},
        "log_smoothing": LOG_SMOOTHING, "pooled_seconds": pooled_seconds,
        "cv_seconds": time.perf_counter() - start, "instances": int(per_fold.sum()),
        "results": results, "best": best, "calibration": calibration}, indent=2) + "\n")
    print(f"best: {best['pool']} pool, shrinkage {best['shrinkage']} "
          f"({100 * best['accuracy']:.2f}); wrote {out}")
    if args.register:
        written = tuned.register(args.register, "combo",
                                 registered_combo(best, defaults, calibration, args.ppr),
                                 " ".join(["python -m bench tune_combo", *sys.argv[1:]]), out)
        print(f"registered combo in {written}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
