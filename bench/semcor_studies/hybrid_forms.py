"""``python -m bench semcor --tune-hybrid-forms``: the hybrid's further forms (docs/choices.md,
"The hybrid, further forms") on ``--tune-hybrid``'s three svm tables: the earlier forms over
UKB's walk, over ppr's registered walk and over a walk whose restart follows the svm's beliefs
about the context; the unseen-sense mixture and the stacked model over each walk. The rule
chooses among them all. Writes bench/results/semcor_hybrid_forms.json.
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
import time

import numpy as np

from wsd_classic.atomic import write_json_atomically
from wsd_classic.knowledge.supervised_restart import SupervisedRestartWalk
from wsd_classic.knowledge.word_to_word import WalkSettings
from wsd_classic.systems.hybrid import POS_LETTERS, Mixture
from wsd_classic.systems.personalised_pagerank import PersonalisedPageRank

from .held_out import TASK
from .hybrid import (POWERS, TABLES, WEIGHTS, Table, chosen, collect_ppr, collect_svm,
                     figures, linear, load_rows, pulled, scored_forms, table, table_corpora,
                     tables_dir)
from .hybrid_stacking import document_folds, stacked_scores

UKB_WALK = {"damping": 0.85, "iterations": 30, "sense_counts": True, "syntagnet": True,
            "syntagnet_weight": 1.0, "window": 0}


def walks() -> dict[str, dict]:
    """The walks compared, by label: UKB's defaults and ppr's registered one."""
    return {"ukb": UKB_WALK, "registered": TASK.system_params("ppr")}


def collect_supervised(args, loaded: dict[str, dict], params: dict) -> tuple[dict, dict]:
    """ppr's distributions over each table's targets from the supervised restart (the table's
    own svm beliefs about the context; held_out and removed, one corpus, share their walks),
    computed and saved once per walk and svm tables; and the cost of each corpus's walks."""
    key = hashlib.sha256(json.dumps(params, sort_keys=True).encode()).hexdigest()[:12]
    path = tables_dir(args) / f"supervised-{key}.json"
    if not path.is_file():
        graph = PersonalisedPageRank.built(params, args.data_dir).graph
        corpora = table_corpora(args, TABLES)
        found, cost = {}, {}
        for names in (("held_out", "removed"), ("development",)):
            belief_sets = [{row["id"]: (None if row["svm"] is None
                                        else dict(zip(row["candidates"], row["svm"])))
                            for row in loaded[name]["rows"]} for name in names]
            walker = SupervisedRestartWalk(graph, WalkSettings(**params), belief_sets)
            started, cpu = time.perf_counter(), time.process_time()
            found.update(zip(names, walker.distribution_sets(corpora[names[0]], args.jobs)))
            cost[" and ".join(names)] = {
                "seconds": time.perf_counter() - started,
                "parent_cpu_seconds": time.process_time() - cpu,
                "walks": walker.walks,
                "load": os.getloadavg()[0]}
            print(f"supervised ppr on {names}: {cost}", file=sys.stderr, flush=True)
        write_json_atomically(path, {"params": params, "cost": cost, "distributions": found})
    content = load_rows(path)
    return content["distributions"], content["cost"]


def unseen_settings() -> dict[str, Mixture]:
    return {f"unseen w={weight:g} a={power:g}": Mixture.uniform(weight, power=power,
                                                                 unseen_only=True)
            for power in POWERS for weight in WEIGHTS[1:]}


def tune_hybrid_forms(args) -> dict:
    """Every further form of docs/choices.md's "The hybrid, further forms" on the three
    tables, and the rule's choice among them and the earlier forms."""
    started = time.perf_counter()
    svm_paths = collect_svm(args)
    loaded = {name: load_rows(path) for name, path in svm_paths.items()}
    removed = set(loaded["removed"]["removed_senses"])
    ppr = {label: {name: load_rows(path)["distributions"]
                   for name, path in collect_ppr(args, params).items()}
           for label, params in walks().items()}
    ppr["supervised"], cost = collect_supervised(args, loaded, walks()["registered"])
    widths = {name: np.array([len(row["candidates"]) for row in content["rows"]])
              for name, content in loaded.items()}
    folds = {name: document_folds(loaded[name]["rows"]) for name in ("held_out", "removed")}
    results = {}
    candidates = {}
    per_pos = {}
    by_walk = {}
    for walk, distributions in ppr.items():
        tables = {name: table(content["rows"], distributions[name],
                              removed if name == "removed" else None)
                  for name, content in loaded.items()}
        by_walk[walk] = tables
        own, settings, per_pos[walk] = scored_forms(tables)
        if not results:  # the svm's figures, whatever the walk
            results["svm"] = own["svm"]
            candidates["svm"] = {"walk": walk, "mixture": settings["svm"]}
        del own["svm"], settings["svm"]
        results.update({f"{walk}: {label}": figures_ for label, figures_ in own.items()})
        candidates.update({f"{walk}: {label}": {"walk": walk, "mixture": mixture}
                           for label, mixture in settings.items()})
        print(f"{walk}: earlier forms scored", file=sys.stderr, flush=True)
    for walk, tables in by_walk.items():
        for label, mixture in unseen_settings().items():
            results[f"{walk}: {label}"] = figures(tables, linear(tables, mixture))
            candidates[f"{walk}: {label}"] = {"walk": walk, "mixture": mixture}
    for walk, tables in by_walk.items():
        for name, with_removed in (("stacked on held out", False),
                                   ("stacked on held out and removed", True)):
            results[f"{walk}: {name}"] = figures(
                tables, stacked_scores(tables, widths, folds, with_removed))
            candidates[f"{walk}: {name}"] = {"walk": walk, "stacked": name}
        print(f"{walk}: stacked scored", file=sys.stderr, flush=True)
    choice = chosen(results, candidates=candidates)
    best = {}
    for prefix in ("svm", *(f"{walk}: {form}" for walk in ppr
                            for form in ("ppr", "linear", "support", "confidence",
                                         "per part of speech", "log-linear", "unseen",
                                         "stacked"))):
        own = {label: r for label, r in results.items() if label.startswith(prefix)}
        best[prefix] = max(own, key=lambda label: own[label]["H"])
    for label in ("svm", choice):
        print(f"{label}: {results[label]}", file=sys.stderr)
    with_discourse = {label: discourse_figures(by_walk[candidates[label]["walk"]],
                                               candidates[label]["mixture"])
                      for label in ("svm", choice) if "mixture" in candidates[label]}
    return {
        "protocol": {
            "tables": "bench/results/semcor_hybrid.json's three: held_out, removed, "
                      "development (the svm trained anew on the same files)",
            "walks": {**walks(), "supervised": {
                **walks()["registered"],
                "restart": "each context token's senses by the table's svm distribution "
                           "(tag counts + 1 where the svm has no model)"}},
            "supervised_cost": cost,
            "targets": {name: len(rows["rows"]) for name, rows in loaded.items()}},
        "rule": "docs/choices.md, 'The hybrid, further forms': best H among candidates with "
                "R >= R_svm + (R_max - R_svm) / 2 (R_max over every setting); within 0.1 "
                "point of H the best R, then B, then D",
        "results": results, "best_by_H_of_each_form": best,
        "per_part_of_speech_weights": per_pos, "chosen": choice,
        "with_discourse": with_discourse,
        "registered": registration(candidates[choice]),
        "seconds": time.perf_counter() - started}


def discourse_figures(tables: dict[str, Table], mixture: Mixture) -> dict[str, float]:
    """H and D (%) of a mixture with one sense per discourse at the hybrid's weight, as
    ``bin/evaluate`` tags (the default rule's semeval2007 figure)."""
    weight = TASK.discourse_weights["hybrid"]
    found = linear(tables, mixture)
    return {"weight": weight, **{figure: 100 * tables[name].accuracy(
        pulled(tables[name], found[name], weight))
        for figure, name in (("H", "held_out"), ("D", "development"))}}


def registration(candidate: dict) -> dict | None:
    """The hybrid's registered value for a chosen mixture over any of the walks (None for the
    stacked form, which the hybrid cannot run)."""
    mixture = candidate.get("mixture")
    if mixture is None:
        return None
    supervised = candidate["walk"] == "supervised"
    return {"ppr_weights": [mixture.weights[letter] for letter in POS_LETTERS],
            "power": mixture.power, "scarce_below": mixture.scarce_below,
            "scarce_weight": mixture.scarce_weight, "gate": mixture.gate,
            "unseen_only": mixture.unseen_only, "supervised_restart": supervised,
            "walk": walks()["registered" if supervised else candidate["walk"]]}
