"""The knowledge-based ``ppr`` system: its settings chosen on held-out SemCor files and
semeval2007, then its scores and time on Raganato's ALL.

    python -m bench ppr --tune [--register] [--jobs 2] [--data-dir DIR]
    python -m bench ppr --tune-gloss [--register] [--jobs 2] [--data-dir DIR]
    python -m bench ppr --score [--jobs 2] [--data-dir DIR]

``--tune`` walks the settings one at a time from UKB's ``ppr_w2w`` defaults (``STAGES``), each
stage deciding by the rule docs/choices.md states (``choose``), and scores every candidate on
the held-out SemCor files (every 5th file, sorted: ``ppr`` trains nothing, so it simply tags
them) and on the development set semeval2007; no other evaluation set is read. It writes
bench/results/ppr_tune.json, and with ``--register`` registers the chosen settings as
``semcor``'s ``ppr`` (``wsd_classic/tuned/semcor.json``). ``--tune-gloss`` compares the
registered walk's graph with the graphs holding gloss relations (``GLOSS_STAGE``: each
disambiguation of ``knowledge.glosses`` at each edge weight) on the same files, adds each one's
accuracy on the held-out targets of the unseen-senses study's removed senses, and chooses by
docs/choices.md's rule (``choose_gloss``): bench/results/ppr_gloss.json, and with
``--register`` the chosen walk as ``semcor``'s ``ppr`` when it is not the registered one.
``--score`` tags ALL once with the task's registered ``ppr``
through its model file (``bin/tag``'s path, the graph's load included), times it (CPU seconds
of this process and its workers, wall time, the machine's load) and scores ALL, ALL without
semeval2007 and each of the five sets: bench/results/ppr.json.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from bench.semcor_studies.held_out import (DEVELOPMENT_SET, HELD_OUT_EVERY, held_out_documents,
                                           held_out_targets)
from bench.semcor_studies.unseen_senses import SEED, SHARE, removed_senses
from wsd_classic import modelstore, tuned
from wsd_classic.atomic import write_json_atomically
from wsd_classic.corpora import registry
from wsd_classic.corpora.allwords import AllWordsCorpus, read_raganato_corpus, read_semcor_corpus
from wsd_classic.corpora.raganato import read_raganato_key
from wsd_classic.knowledge import glosses, graph as knowledge_graph
from wsd_classic.knowledge.word_to_word import WalkSettings
from wsd_classic.scoring.raganato import score_raganato
from wsd_classic.systems.personalised_pagerank import ppr_distributions
from wsd_classic.tasks import catalogue
from wsd_classic.tasks.allwords import as_lexical_sample, scorer_model
from wsd_classic.tasks.tagger import Tagger
from wsd_classic.wordnet import wordnet_senses

RESULTS = Path(__file__).resolve().parent / "results"
TASK = catalogue.SEMCOR
# UKB's ppr_w2w (damping 0.85, 30 iterations, dictionary weights from WordNet's counts), the
# target's sentence as context, on WordNet with SyntagNet's pairs as SyntagRank walks.
START = WalkSettings(window=0, damping=0.85, iterations=30, sense_counts=True, syntagnet=True,
                     syntagnet_weight=1.0)
# One setting at a time, in this order, each from the values chosen before it.
STAGES = (("syntagnet", (False, True)), ("syntagnet_weight", (0.5, 1.0, 2.0)),
          ("window", (0, 1)), ("damping", (0.7, 0.85, 0.95)), ("iterations", (15, 30)),
          ("sense_counts", (False, True)))
TIE = 0.1  # points of held-out accuracy within which two settings tie
# The gloss relations' candidates: each disambiguation at each weight of their edges.
GLOSS_STAGE = (("gloss", glosses.DISAMBIGUATIONS), ("gloss_weight", (0.25, 0.5)))
DEVELOPMENT_LOSS = 1.0  # points of semeval2007 F1 a chosen graph may lose
REMOVED_LOSS = 1.0  # points of the removed senses' accuracy a chosen graph may lose
FOLD = 0
SETS = ("senseval2", "senseval3", "semeval2007", "semeval2013", "semeval2015")


def held_out_semcor(data_dir) -> AllWordsCorpus:
    """SemCor's held-out files (the first of the ``HELD_OUT_EVERY`` sets) as one corpus."""
    corpus = read_semcor_corpus(registry.locate(TASK.dataset, data_dir))
    documents = held_out_documents(corpus, FOLD)
    return AllWordsCorpus(corpus.source, corpus.sentences, [
        target for target in corpus.targets
        if corpus.sentences[target.sentence].document in documents])


def best_keys(distributions: dict[str, dict[str, float]]) -> dict[str, str]:
    """Each target's best sense, ties to the one WordNet lists first."""
    return {target: max(weights, key=weights.get) for target, weights in distributions.items()}


def removed_targets(semcor: AllWordsCorpus) -> set[str]:
    """The ids of the held-out targets tagged with one of the senses the unseen-senses study
    removes from the other files (its seeded share: ``removed_senses``)."""
    training, _ = held_out_targets(semcor, FOLD)
    removed = removed_senses(as_lexical_sample(semcor, training), SHARE, SEED)
    documents = held_out_documents(semcor, FOLD)
    return {target.id for target in semcor.targets
            if semcor.sentences[target.sentence].document in documents
            and removed.intersection(target.keys)}


def evaluate(settings: WalkSettings, semcor: AllWordsCorpus, development: AllWordsCorpus,
             gold: dict, data_dir, jobs: int, removed: set[str] | None = None) -> dict:
    """Held-out accuracy and semeval2007's F1 of the walk ``settings`` (with ``removed``: also
    the accuracy on those held-out targets)."""
    started, cpu = time.perf_counter(), _cpu_seconds()
    graph = knowledge_graph.obtain(data_dir, settings.syntagnet, quiet=True,
                                   gloss=settings.gloss or None, jobs=jobs)
    obtained = {"graph_seconds": time.perf_counter() - started,
                "graph_cpu_seconds": _cpu_seconds() - cpu}
    started, cpu = time.perf_counter(), _cpu_seconds()
    held_out = best_keys(ppr_distributions(semcor, params=settings.to_dict(), graph=graph,
                                           jobs=jobs))
    right = sum(held_out[target.id] in target.keys for target in semcor.targets)
    seconds, cpu_seconds = time.perf_counter() - started, _cpu_seconds() - cpu
    answers = best_keys(ppr_distributions(development, params=settings.to_dict(), graph=graph,
                                          jobs=jobs))
    f1 = score_raganato(gold, {target: [key] for target, key in answers.items()}).f1
    result = {"settings": settings.to_dict(), "graph": graph.name,
              "held_out_semcor_accuracy": 100 * right / len(semcor.targets),
              "development_f1": 100 * f1, "held_out_seconds": seconds,
              "held_out_cpu_seconds": cpu_seconds, "load": os.getloadavg()[0], **obtained}
    if removed is not None:
        result["gloss_edges"] = graph.header["edges_by_relation"].get("gloss", 0)
        result["removed_senses_targets"] = len(removed)
        result["removed_senses_accuracy"] = 100 * sum(
            held_out[target.id] in target.keys for target in semcor.targets
            if target.id in removed) / len(removed)
        other = [target for target in semcor.targets
                 if not set(wordnet_senses(target.lemma, target.pos)[:1]) & set(target.keys)]
        result["other_senses_targets"] = len(other)
        result["other_senses_accuracy"] = 100 * sum(
            held_out[target.id] in target.keys for target in other) / len(other)
        print(f"  removed senses {result['removed_senses_accuracy']:.2f}, senses other than "
              f"WordNet's first {result['other_senses_accuracy']:.2f} "
              f"({result['gloss_edges']:,} gloss edges, "
              f"graph in {obtained['graph_seconds']:.0f} s)",
              file=sys.stderr, flush=True)
    print(f"{settings}: held out {result['held_out_semcor_accuracy']:.2f}, "
          f"{DEVELOPMENT_SET} {result['development_f1']:.1f} ({seconds:.0f} s)", file=sys.stderr)
    return result


def choose(setting: str, current, results: dict) -> object:
    """The stage's value by the rule fixed in docs/choices.md: ``sense_counts`` by semeval2007
    alone (kept unless it lowers its F1); ``iterations``: the fewest within ``TIE`` of the best
    held-out accuracy; otherwise the best held-out accuracy, the values within ``TIE`` of it
    tied, a tie broken by semeval2007's F1 and then the value in force."""
    if setting == "sense_counts":
        return (results[True]["development_f1"] >= results[False]["development_f1"])
    best = max(result["held_out_semcor_accuracy"] for result in results.values())
    tied = [value for value, result in results.items()
            if result["held_out_semcor_accuracy"] >= best - TIE]
    if setting == "iterations":
        return min(tied)
    top = max(results[value]["development_f1"] for value in tied)
    leaders = [value for value in tied if results[value]["development_f1"] == top]
    return current if current in leaders else leaders[0]


def tune(args) -> dict:
    semcor = held_out_semcor(args.data_dir)
    development_dir = registry.locate(DEVELOPMENT_SET, args.data_dir)
    development = read_raganato_corpus(development_dir / f"{DEVELOPMENT_SET}.data.xml")
    gold = read_raganato_key(development_dir / f"{DEVELOPMENT_SET}.gold.key.txt")
    measured: dict[WalkSettings, dict] = {}
    chosen, stages = START, []
    for setting, values in STAGES:
        if setting == "syntagnet_weight" and not chosen.syntagnet:
            continue
        results = {}
        for value in values:
            candidate = replace(chosen, **{setting: value})
            if candidate not in measured:
                measured[candidate] = evaluate(candidate, semcor, development, gold,
                                               args.data_dir, args.jobs)
            results[value] = measured[candidate]
        value = choose(setting, getattr(chosen, setting), results)
        chosen = replace(chosen, **{setting: value})
        stages.append({"setting": setting, "chosen": value,
                       "by_value": {json.dumps(key): result for key, result in results.items()}})
        print(f"{setting}: {value}", file=sys.stderr)
    return {"system": "ppr", "development_set": DEVELOPMENT_SET,
            "held_out_semcor": f"every {HELD_OUT_EVERY}th file (sorted), from the "
                               f"{FOLD}th: {len(semcor.targets):,} targets",
            "tie_points": TIE, "start": START.to_dict(), "stages": stages,
            "chosen": chosen.to_dict()}


def choose_gloss(registered: dict, results: dict[str, dict]) -> str | None:
    """The gloss variant docs/choices.md's rule takes (None: the registered graph stays): one
    whose held-out accuracy beats the registered graph's by more than ``TIE``, losing at most
    ``DEVELOPMENT_LOSS`` of semeval2007's F1 and ``REMOVED_LOSS`` of the removed senses'
    accuracy; of those the best held-out accuracy, those within ``TIE`` of it tied, a tie going
    to the better removed senses' accuracy, then semeval2007's F1, then the earlier variant."""
    eligible = [name for name, result in results.items()
                if result["held_out_semcor_accuracy"]
                > registered["held_out_semcor_accuracy"] + TIE
                and result["development_f1"] >= registered["development_f1"] - DEVELOPMENT_LOSS
                and result["removed_senses_accuracy"]
                >= registered["removed_senses_accuracy"] - REMOVED_LOSS]
    if not eligible:
        return None
    best = max(results[name]["held_out_semcor_accuracy"] for name in eligible)
    tied = [name for name in eligible if results[name]["held_out_semcor_accuracy"] >= best - TIE]
    return max(tied, key=lambda name: (results[name]["removed_senses_accuracy"],
                                       results[name]["development_f1"], -tied.index(name)))


def tune_gloss(args) -> dict:
    """The registered walk on the graph without gloss relations and on each graph with them
    (``GLOSS_STAGE``), on the held-out files, their removed senses' targets and semeval2007."""
    semcor = held_out_semcor(args.data_dir)
    development_dir = registry.locate(DEVELOPMENT_SET, args.data_dir)
    development = read_raganato_corpus(development_dir / f"{DEVELOPMENT_SET}.data.xml")
    gold = read_raganato_key(development_dir / f"{DEVELOPMENT_SET}.gold.key.txt")
    full = read_semcor_corpus(registry.locate(TASK.dataset, args.data_dir))
    removed = removed_targets(full)
    # The registered walk on the graph without gloss relations, whatever its graph.
    registered = replace(WalkSettings(**TASK.system_params("ppr")), gloss="", gloss_weight=1.0)
    baseline = evaluate(registered, semcor, development, gold, args.data_dir, args.jobs, removed)
    (gloss, disambiguations), (weight, weights) = GLOSS_STAGE
    results = {}
    for disambiguation in disambiguations:
        for value in weights:
            name = f"{disambiguation} at {value}"
            if args.variants and name not in args.variants:
                continue
            candidate = replace(registered, **{gloss: disambiguation, weight: value})
            results[name] = evaluate(
                candidate, semcor, development, gold, args.data_dir, args.jobs, removed)
    name = choose_gloss(baseline, results)
    chosen = registered if name is None else WalkSettings(**results[name]["settings"])
    print(f"gloss relations: {name or 'none (the registered graph stays)'}", file=sys.stderr)
    return {"system": "ppr", "development_set": DEVELOPMENT_SET,
            "held_out_semcor": f"every {HELD_OUT_EVERY}th file (sorted), from the "
                               f"{FOLD}th: {len(semcor.targets):,} targets",
            "removed_senses": f"the held-out targets of the senses the unseen-senses study "
                              f"removes ({SHARE:.0%}, seed {SEED}): {len(removed):,}",
            "tie_points": TIE, "development_loss_points": DEVELOPMENT_LOSS,
            "removed_loss_points": REMOVED_LOSS, "registered": baseline, "by_variant": results,
            "chosen_variant": name, "chosen": chosen.to_dict()}


def score(args) -> dict:
    """ALL tagged once by the registered ``ppr`` through its model file, and scored."""
    root = registry.locate("ALL", args.data_dir)
    gold = read_raganato_key(root / "ALL.gold.key.txt")
    with tempfile.TemporaryDirectory(prefix="ppr-") as scratch:
        trained = scorer_model("ppr", TASK, args.data_dir)
        modelstore.save(trained, Path(scratch))
        load_before, started, cpu = os.getloadavg(), time.perf_counter(), _cpu_seconds()
        tagger = Tagger.load("ppr", Path(scratch), TASK.name)
        loaded = time.perf_counter() - started
        tagged = tagger.tag(read_raganato_corpus(root / "ALL.data.xml"), args.jobs)
        seconds, cpu_seconds = time.perf_counter() - started, _cpu_seconds() - cpu
    answers = {answer.instance_id: [answer.key] for answer in tagged}
    parts = {"ALL": lambda target: True,
             f"ALL without {DEVELOPMENT_SET}": lambda target: not target.startswith(
                 DEVELOPMENT_SET + "."),
             **{name: (lambda target, name=name: target.startswith(name + "."))
                for name in SETS}}
    scores = {}
    for name, selected in parts.items():
        part = {target: keys for target, keys in gold.items() if selected(target)}
        result = score_raganato(part, {target: answers[target] for target in part})
        scores[name] = {"instances": len(part), "precision": 100 * result.precision,
                        "recall": 100 * result.recall, "f1": 100 * result.f1}
        print(f"{name}: F1 {scores[name]['f1']:.1f}", file=sys.stderr)
    return {"system": "ppr", "settings": trained.params, "graph": trained.info["graph"],
            "scores": scores,
            "time": {"targets": len(tagged), "jobs": args.jobs, "wall_seconds": seconds,
                     "cpu_seconds": cpu_seconds, "model_load_seconds": loaded,
                     "load_average_before": load_before, "load_average_after": os.getloadavg(),
                     "cores": os.cpu_count()}}


def _cpu_seconds() -> float:
    """CPU seconds of this process and of its finished child processes (the walks' workers)."""
    return sum(resource.getrusage(who).ru_utime + resource.getrusage(who).ru_stime
               for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--tune", action="store_true",
                      help="choose the settings on held-out SemCor files and semeval2007")
    mode.add_argument("--tune-gloss", action="store_true",
                      help="compare graphs with gloss relations on held-out SemCor files and "
                           "semeval2007")
    mode.add_argument("--score", action="store_true",
                      help="score the registered settings on ALL and its five sets, once")
    parser.add_argument("--register", action="store_true",
                        help="with --tune or --tune-gloss: register the chosen settings as "
                             "semcor's ppr")
    parser.add_argument("--variants", type=lambda text: text.split(","),
                        help="with --tune-gloss: only these variants ('first-sense at 0.25,...'), "
                             "beside the registered graph, for a supplementary figure")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--data-dir", type=Path)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    mode = "tune" if args.tune else "tune-gloss" if args.tune_gloss else "score"
    result = {"tune": tune, "tune-gloss": tune_gloss, "score": score}[mode](args)
    out = args.out or RESULTS / {"tune": "ppr_tune.json", "tune-gloss": "ppr_gloss.json",
                                 "score": "ppr.json"}[mode]
    write_json_atomically(out, result)
    print(f"wrote {out}", file=sys.stderr)
    if args.register and (mode == "tune" or mode == "tune-gloss" and result["chosen_variant"]
                          and not args.variants):
        written = tuned.register(TASK.name, "ppr", result["chosen"],
                                 f"python -m bench ppr --{mode}", out)
        print(f"registered ppr in {written}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
