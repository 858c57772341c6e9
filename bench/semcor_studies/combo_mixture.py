"""``--tune-combo-mixture``: combo's registered mixture defaults against defaults pooled over
SemCor's held-out evidence, per shrinkage and pool; the members are stacked once per training
set and only the combiner refitted."""
from __future__ import annotations

import sys

import numpy as np
from bench.tune_combo import fitted_combiner, pooled_params

from wsd_classic import systems
from wsd_classic.modelstore import TrainedSystem
from wsd_classic.systems.combination import POOLS
from wsd_classic.tasks import allwords, engine
from wsd_classic.workers import in_workers
from wsd_classic.tasks.tagger import Tagger

from .held_out import (TASK, accuracy, development_set, held_out_split, score_dataset,
                       semcor_training, tuning_result)

# Rows of held-out evidence the pooled mixture is fitted on: a seeded sample, since the pooled
# arrays are padded to the widest lexelt's senses.
POOLED_ROWS = 50_000


def _stack_lexelt(job: tuple):
    """A combo of ``params`` with its members fitted on one lexelt's ``X, y, weights``, and their
    held-out evidence."""
    params, X, y, weights = job
    model = systems.make("combo", **params)
    return model, model.fit_members(X, y, weights)


def stacked_combo(data: allwords.TrainingData, jobs: int) -> dict[str, tuple]:
    """Per lexelt, combo (the task's parameters) with its members fitted and their held-out
    evidence, as ``train_system`` would train it before fitting the combiner."""
    params = TASK.system_params("combo")
    featurized = (data.featurized_with(data.examples) if "combo" in TASK.wordnet_examples
                  else data.featurized)
    rows = engine.lexelt_rows(featurized, systems.get("combo").feature_groups)
    stacked = in_workers(_stack_lexelt, [(params, X, y, weights) for _, X, y, weights in rows],
                         jobs)
    return {item: pair for (item, *_), pair in zip(rows, stacked)}


def pooled_defaults(stacked: dict[str, tuple], pool: str) -> tuple[float, ...]:
    """The parameters of form ``pool`` minimising the log-loss pooled over a seeded sample of
    ``POOLED_ROWS`` rows of every lexelt's held-out evidence."""
    evidences = [evidence for _, evidence in stacked.values() if len(evidence[2])]
    share = min(1.0, POOLED_ROWS / sum(len(evidence[2]) for evidence in evidences))
    generator = np.random.default_rng(0)
    sampled = []
    for evidence in evidences:
        keep = generator.random(len(evidence[2])) < share
        if keep.any():
            sampled.append(tuple(part[keep] for part in evidence))
    return tuple(float(value) for value in pooled_params(sampled, pool))


def combined(stacked: dict[str, tuple], pool: str, default: tuple, shrinkage: float,
             featurizer) -> TrainedSystem:
    """The trained combo of the stacked lexelts with each combiner fitted as given (``inf``:
    the defaults as they are)."""
    models = {item: fitted_combiner(model.set_params(pool=pool, default_params=default,
                                                     shrinkage=shrinkage), evidence, shrinkage)
              for item, (model, evidence) in stacked.items()}
    return TrainedSystem(TASK.name, "combo", models, featurizer=featurizer, kind=TASK.kind)


def tune_combo_mixture(args) -> dict:
    """combo's mixture on SemCor: its registered defaults against defaults pooled over SemCor's
    held-out evidence, and each other pool of ``--combo-pools`` from its own pooled defaults,
    each with per-lexelt fits shrunk to them by each of the shrinkages (inf: the defaults
    alone). Held-out SemCor accuracy (the defaults pooled on the training files only) and
    development F1 (pooled on all of SemCor, the parameters registered when chosen)."""
    development = development_set(args.data_dir)
    shrinkages = [float(value) for value in args.tune_combo_mixture.split(",")]
    data = semcor_training(args.data_dir, args.jobs,
                           featurizer=TASK.featurizer(["combo"]))
    registered = tuple(TASK.system_params("combo")["default_params"])
    registered_pool = TASK.system_params("combo")["pool"]
    pools = dict.fromkeys([registered_pool, *filter(None, args.combo_pools.split(","))])
    unknown = [pool for pool in pools if pool not in POOLS]
    if unknown:
        raise SystemExit(f"--combo-pools: unknown pool {', '.join(unknown)}; known: "
                         f"{', '.join(POOLS)}")
    results, pooled = {}, {}

    def evaluate(stage: str, stacked: dict, score) -> None:
        pooled[stage] = {pool: pooled_defaults(stacked, pool) for pool in pools}
        print(f"{stage}: pooled defaults {pooled[stage]}", file=sys.stderr, flush=True)
        candidates = [(registered_pool, "registered", registered),
                      *((pool, TASK.name, pooled[stage][pool]) for pool in pools)]
        for pool, defaults, default in candidates:
            for shrinkage in shrinkages:
                label = (f"{defaults} defaults, shrinkage {shrinkage:g}" if pool == registered_pool
                         else f"{pool} pool, {defaults} defaults, shrinkage {shrinkage:g}")
                trained = combined(stacked, pool, default, shrinkage, data.featurized.featurizer)
                results.setdefault(label, {"pool": pool, "defaults": defaults, "shrinkage": (
                    shrinkage if np.isfinite(shrinkage) else "inf")})
                results[label][stage] = score(trained)
                print(f"{label}: {results[label]}", file=sys.stderr, flush=True)

    subset, testing = held_out_split(data, 0)
    evaluate("held_out_semcor_accuracy", stacked_combo(subset, args.jobs),
             lambda trained: accuracy(trained, data.corpus, testing, args.jobs))
    del subset
    evaluate("development_f1", stacked_combo(data, args.jobs),
             lambda trained: score_dataset(Tagger(
                 trained, systems.get("combo").back_off, discourse_weight=0.0), development[0],
                 args.jobs)["f1"])
    return {**tuning_result("mixture", results, "combo"), "folds": 1,
            "pooled_rows": POOLED_ROWS,
            "pooled_defaults": {stage: {pool: dict(zip(POOLS[pool].parameters, values))
                                        for pool, values in by_pool.items()}
                                for stage, by_pool in pooled.items()},
            "registered_defaults": dict(zip(POOLS[registered_pool].parameters, registered)),
            "parameters": TASK.system_params("combo"),
            "wordnet_examples": len(data.examples.sample)}
