"""``python -m bench semcor --tune-hybrid``: the svm and ``ppr`` combined, on three tables.

The svm's distribution over each target's WordNet candidates is computed once per table and
kept on disk (``--hybrid-tables``, by default in the cache's ``bench/hybrid``):

- ``held_out``: the first set of held-out SemCor files (every 5th file), the svm trained on
  the others;
- ``removed``: the same targets, the svm trained without a seeded 15 % of the polysemous
  lexelts' senses (``unseen_senses.removed_senses``, the unseen-senses study's removal);
- ``development``: semeval2007, the svm trained on all of SemCor (or read from
  ``--models-dir``).

``ppr``'s distributions over the same targets are computed once per table too; every form of
the mixture is then scored from the two without training anything. The selection rule is
docs/choices.md's ("The hybrid"). Writes bench/results/semcor_hybrid.json.
"""
from __future__ import annotations

import hashlib
import json
import sys
import time
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from wsd_classic import modelstore, settings
from wsd_classic.atomic import write_json_atomically
from wsd_classic.corpora import registry
from wsd_classic.corpora.allwords import AllWordsCorpus, read_raganato_corpus, read_semcor_corpus
from wsd_classic.corpora.semcor import PARTS
from wsd_classic.corpora.raganato import read_raganato_key
from wsd_classic.scoring.statistics import mcnemar
from wsd_classic.tasks import allwords
from wsd_classic.tasks.allwords_evaluation import resolve_datasets
from wsd_classic.systems.hybrid import POS_LETTERS, Mixture, sharpened
from wsd_classic.systems.personalised_pagerank import ppr_distributions
from wsd_classic.tasks.tagger import Tagger
from wsd_classic.wordnet import wordnet_senses

from .held_out import (TASK, development_set, held_out_split, held_out_targets,
                       semcor_training)
from .unseen_senses import SEED, SHARE, removed_senses, sense_counts, without_senses

TABLES = ("held_out", "removed", "development")


def tables_dir(args) -> Path:
    return args.hybrid_tables or settings.cache_dir() / "bench" / "hybrid"


def svm_rows(tagger: Tagger, corpus: AllWordsCorpus, gold: dict[str, tuple[str, ...]],
             training: allwords.TrainingData, jobs: int) -> list[dict]:
    """Each target of ``corpus``: its document, lexelt, gold keys, WordNet candidates, the svm's
    weights of them (None: no model of the lexelt), its lexelt's training instances
    (``support``) and the fewest training instances of one of its gold keys."""
    started = time.perf_counter()
    raw = tagger.distributions(corpus, jobs)
    support = allwords.semcor_support(training)
    counts = sense_counts(training.featurized.sample)
    rows = []
    for target in corpus.targets:
        candidates = wordnet_senses(target.lemma, target.pos)
        weights = raw.get(target.id)
        keys = gold[target.id]
        rows.append({"id": target.id, "document": corpus.sentences[target.sentence].document,
                     "lexelt": target.lexelt, "keys": list(keys), "candidates": list(candidates),
                     "svm": None if weights is None else [weights.get(key, 0.0)
                                                         for key in candidates],
                     "support": support.get(target.lexelt, 0),
                     "gold_support": min(counts[key] for key in keys)})
    print(f"svm distributions of {len(rows):,} targets in {time.perf_counter() - started:.0f}s",
          file=sys.stderr, flush=True)
    return rows


def trained_svm(training: allwords.TrainingData, jobs: int):
    started = time.perf_counter()
    trained = allwords.train_system("svm", training, jobs)
    print(f"svm trained in {time.perf_counter() - started:.0f}s", file=sys.stderr, flush=True)
    return trained


def collect_svm(args) -> dict[str, Path]:
    """The svm's table of each of ``TABLES`` missing from ``tables_dir``, computed and saved."""
    directory = tables_dir(args)
    paths = {name: directory / f"{name}.svm.json" for name in TABLES}
    if all(path.is_file() for path in paths.values()):
        return paths
    directory.mkdir(parents=True, exist_ok=True)
    data = semcor_training(args.data_dir, args.jobs,
                           featurizer=TASK.featurizer(["svm"]))
    subset, testing = held_out_split(data, 0)
    held_out = held_out_corpus_of(data.corpus)
    gold = {target.id: target.keys for target in testing}
    if not paths["held_out"].is_file():
        tagger = Tagger(trained_svm(subset, args.jobs), discourse_weight=0.0)
        write_json_atomically(paths["held_out"], {
            "rows": svm_rows(tagger, held_out, gold, subset, args.jobs)})
    if not paths["removed"].is_file():
        removed = removed_senses(subset.featurized.sample, SHARE, SEED)
        reduced = without_senses(subset, removed)
        tagger = Tagger(trained_svm(reduced, args.jobs), discourse_weight=0.0)
        write_json_atomically(paths["removed"], {
            "removed_senses": sorted(removed),
            "rows": svm_rows(tagger, held_out, gold, reduced, args.jobs)})
    if not paths["development"].is_file():
        [dataset] = development_set(args.data_dir)
        if args.models_dir and modelstore.model_path(args.models_dir, TASK.name, "svm").is_file():
            trained = modelstore.load(args.models_dir, TASK.name, "svm")
        else:
            trained = trained_svm(data, args.jobs)
        write_json_atomically(paths["development"], {
            "rows": svm_rows(Tagger(trained, discourse_weight=0.0),
                             read_raganato_corpus(dataset.data),
                             read_raganato_key(dataset.gold), data, args.jobs)})
    return paths


def held_out_corpus_of(corpus: AllWordsCorpus) -> AllWordsCorpus:
    """SemCor's sentences with the first set of held-out targets only."""
    return AllWordsCorpus(corpus.source, corpus.sentences, held_out_targets(corpus, 0)[1])


def load_rows(path: Path) -> dict:
    return json.loads(path.read_text())


def ppr_params() -> dict:
    """The hybrid's walk."""
    return TASK.system_params("hybrid")["walk"]


def table_corpora(args, names: Collection[str]) -> dict[str, AllWordsCorpus]:
    """The corpus of each table of ``names`` (``held_out`` and ``removed`` share theirs)."""
    corpora = {}
    if {"held_out", "removed"} & set(names):
        corpus = held_out_corpus_of(read_semcor_corpus(
            registry.locate(TASK.dataset, args.data_dir), PARTS))
        corpora.update({name: corpus for name in ("held_out", "removed") if name in names})
    if "development" in names:
        [dataset] = development_set(args.data_dir)
        corpora["development"] = read_raganato_corpus(dataset.data)
    return corpora


def collect_ppr(args, params: dict | None = None) -> dict[str, Path]:
    """ppr's distributions over the targets of each of ``TABLES`` (held_out and removed share
    theirs), computed and saved once per walk (``params``: the hybrid's when None)."""
    params = ppr_params() if params is None else params
    key = hashlib.sha256(json.dumps(params, sort_keys=True).encode()).hexdigest()[:12]
    directory = tables_dir(args)
    paths = {"held_out": directory / f"held_out.ppr-{key}.json",
             "development": directory / f"development.ppr-{key}.json"}
    paths["removed"] = paths["held_out"]
    corpora = table_corpora(args, [name for name in ("held_out", "development")
                                   if not paths[name].is_file()])
    for name, corpus in corpora.items():
        started = time.perf_counter()
        found = ppr_distributions(corpus, params=params, data_dir=args.data_dir, jobs=args.jobs)
        print(f"ppr on {name}: {len(found):,} targets in {time.perf_counter() - started:.0f}s",
              file=sys.stderr, flush=True)
        directory.mkdir(parents=True, exist_ok=True)
        write_json_atomically(paths[name], {"params": params, "distributions": found})
    return paths


# --- scoring the mixtures from the tables --------------------------------------------------------

RARE = 3
WEIGHTS = tuple(round(0.1 * step, 1) for step in range(11))
POWERS = (1.0, 2.0, 4.0, 8.0, 16.0)
SCARCE_WEIGHTS = (0.5, 0.75, 1.0)
SCARCE_BELOW = (1, 5, 20)
GATES = (0.5, 0.7, 0.9)
SVM_FLOOR = 1e-3  # the log-linear mixture's floor under the svm's probabilities
TIE = 0.001  # 0.1 point of accuracy


@dataclass
class Table:
    """One table's targets as rows of padded arrays over their candidates (WordNet's order):
    the svm's distribution (WordNet's first sense where it has no model), ppr's, which
    candidates are gold and which are candidates at all; each target's part of speech, its
    lemma's SemCor training instances and the svm's probability of its best sense; and the
    subsets scored (by name, a mask over the targets)."""

    svm: np.ndarray
    ppr: np.ndarray
    gold: np.ndarray
    pos: np.ndarray
    support: np.ndarray
    svm_best: np.ndarray
    subsets: dict[str, np.ndarray]
    units: np.ndarray

    def accuracy(self, distributions: np.ndarray, within: np.ndarray | None = None) -> float:
        """The share of targets (of ``within``) whose best candidate is gold; ties go to the
        candidate WordNet lists first, as ``engine.decide``'s."""
        right = self.gold[np.arange(len(self.gold)), distributions.argmax(axis=1)]
        right = right if within is None else right[within]
        return float(right.mean()) if len(right) else 0.0

    def restricted(self, mask: np.ndarray) -> "Table":
        return Table(self.svm[mask], self.ppr[mask], self.gold[mask], self.pos[mask],
                     self.support[mask], self.svm_best[mask],
                     {name: subset[mask] for name, subset in self.subsets.items()},
                     self.units[mask])


def table(rows: list[dict], ppr: dict[str, dict[str, float]],
          removed: set[str] | None = None) -> Table:
    """The ``Table`` of ``svm_rows``' rows and ppr's distributions; with ``removed`` (the
    removed senses), the subsets of their targets and of rare senses' (``RARE``)."""
    width = max(len(row["candidates"]) for row in rows)
    svm, ppr_rows, gold = (np.zeros((len(rows), width)) for _ in range(3))
    for number, row in enumerate(rows):
        candidates = row["candidates"]
        own = np.array(row["svm"]) if row["svm"] is not None else np.zeros(len(candidates))
        if own.sum() > 0:
            svm[number, :len(candidates)] = own / own.sum()
        else:
            svm[number, 0] = 1.0  # the svm's back-off: WordNet's first sense
        ppr_rows[number, :len(candidates)] = [ppr[row["id"]][key] for key in candidates]
        gold[number, :len(candidates)] = [key in row["keys"] for key in candidates]
    subsets = {}
    if removed is not None:
        subsets = {"removed": np.array([bool(removed.intersection(row["keys"])) for row in rows]),
                   "rare": np.array([row["gold_support"] <= RARE for row in rows])}
    units = {}
    return Table(svm, ppr_rows, gold.astype(bool),
                 np.array([row["lexelt"].rsplit(".", 1)[1] for row in rows]),
                 np.array([row["support"] for row in rows]), svm.max(axis=1), subsets,
                 np.array([units.setdefault((row["document"], row["lexelt"]), len(units))
                           for row in rows]))


def linear(tables: dict[str, Table], mixture: Mixture) -> dict[str, np.ndarray]:
    return {name: mixture.mix(t.svm, t.ppr, t.pos, t.support) for name, t in tables.items()}


def log_linear(tables: dict[str, Table], weight: float, power: float) -> dict[str, np.ndarray]:
    """p_svm^(1 - w) (p_ppr^a)^w, the svm floored at ``SVM_FLOOR`` (for comparison)."""
    found = {}
    for name, t in tables.items():
        with np.errstate(divide="ignore"):
            scores = ((1 - weight) * np.log(np.maximum(t.svm, SVM_FLOOR))
                      + weight * np.log(sharpened(t.ppr, power)))
        found[name] = scores
    return found


def figures(tables: dict[str, Table], distributions: dict[str, np.ndarray]) -> dict:
    """H, R, B, C and D (docs/choices.md) of one setting's distributions, in %."""
    removed = tables["removed"]
    return {"H": 100 * tables["held_out"].accuracy(distributions["held_out"]),
            "R": 100 * removed.accuracy(distributions["removed"], removed.subsets["removed"]),
            "B": 100 * removed.accuracy(distributions["removed"], removed.subsets["rare"]),
            "C": 100 * removed.accuracy(distributions["removed"]),
            "D": 100 * tables["development"].accuracy(distributions["development"])}


def chosen(results: dict[str, dict], baseline: str = "svm",
           candidates: Collection[str] | None = None) -> str:
    """docs/choices.md's rule: among the ``candidates`` (all when None) keeping at least half
    of the best gain on removed senses (R) of any setting over ``baseline``'s, the best
    held-out accuracy (H); within ``TIE`` of it, the best R, then B, then D."""
    floor = results[baseline]["R"] + (max(r["R"] for r in results.values())
                                       - results[baseline]["R"]) / 2
    eligible = {label: r for label, r in results.items()
                if r["R"] >= floor and (candidates is None or label in candidates)}
    best = max(r["H"] for r in eligible.values())
    return max((label for label, r in eligible.items() if r["H"] >= best - 100 * TIE),
               key=lambda label: (eligible[label]["R"], eligible[label]["B"],
                                  eligible[label]["D"]))


def linear_settings() -> dict[str, Mixture]:
    return {f"linear w={weight:g} a={power:g}": Mixture.uniform(weight, power=power)
            for power in POWERS for weight in WEIGHTS}


def gated_settings() -> dict[str, Mixture]:
    settings = {}
    for power in POWERS:
        for weight in WEIGHTS:
            for below in SCARCE_BELOW:
                for scarce in SCARCE_WEIGHTS:
                    settings[f"support w={weight:g} a={power:g} below {below}: {scarce:g}"] = (
                        Mixture.uniform(weight, power=power, scarce_below=below,
                                        scarce_weight=scarce))
            for gate in GATES:
                settings[f"confidence w={weight:g} a={power:g} gate {gate:g}"] = (
                    Mixture.uniform(weight, power=power, gate=gate))
    return settings


def per_pos_settings(tables: dict[str, Table]) -> tuple[dict[str, Mixture], dict]:
    """At each power, one weight per part of speech, each chosen by the rule (``chosen``) on
    that part of speech's targets of every table; and those choices."""
    settings, choices = {}, {}
    for power in POWERS:
        weights = {}
        for letter in POS_LETTERS:
            own = {name: t.restricted(t.pos == letter) for name, t in tables.items()}
            results = {f"{weight:g}": figures(own, linear(own, Mixture.uniform(
                weight, power=power))) for weight in WEIGHTS}
            weights[letter] = float(chosen(results, baseline="0"))
        label = f"per part of speech a={power:g}"
        settings[label], choices[label] = Mixture(weights, power=power), weights
    return settings, choices


def pulled(t: Table, distributions: np.ndarray, weight: float) -> np.ndarray:
    """The distributions pulled towards the mean of the others of their discourse unit (one
    lexelt in one document) by ``weight``: ``systems.discourse``'s rule on the table's rows."""
    sums = np.zeros((t.units.max() + 1, distributions.shape[1]))
    np.add.at(sums, t.units, distributions)
    sizes = np.bincount(t.units)[t.units][:, None]
    others = (sums[t.units] - distributions) / np.maximum(sizes - 1, 1)
    return np.where(sizes > 1, (1 - weight) * distributions + weight * others, distributions)


def scored_forms(tables: dict[str, Table]) -> tuple[dict, dict, dict]:
    """The svm, ppr and forms 1 to 5 of docs/choices.md's "The hybrid" on ``tables``: the
    figures of every setting, the settings that are candidates (the log-linear ones are for
    comparison only) and the per-part-of-speech weights chosen."""
    settings = {"svm": Mixture.uniform(0.0), "ppr": Mixture.uniform(1.0),
                **linear_settings(), **gated_settings()}
    by_pos, pos_choices = per_pos_settings(tables)
    settings.update(by_pos)
    results = {label: figures(tables, linear(tables, mixture))
               for label, mixture in settings.items()}
    for power in POWERS:
        for weight in WEIGHTS[1:-1]:
            results[f"log-linear w={weight:g} a={power:g}"] = figures(
                tables, log_linear(tables, weight, power))
    return results, settings, pos_choices


def tune_hybrid(args) -> dict:
    """Every candidate of docs/choices.md's "The hybrid" scored on the three tables, and the
    rule's choice."""
    started = time.perf_counter()
    svm_paths, ppr_paths = collect_svm(args), collect_ppr(args)
    loaded = {name: load_rows(path) for name, path in svm_paths.items()}
    removed = set(loaded["removed"]["removed_senses"])
    tables = {name: table(content["rows"], load_rows(ppr_paths[name])["distributions"],
                          removed if name == "removed" else None)
              for name, content in loaded.items()}
    results, settings, pos_choices = scored_forms(tables)
    choice = chosen(results, candidates=settings)
    registered = settings[choice]
    discourse = {}
    held_out = tables["held_out"]
    for label, mixture in (("svm", settings["svm"]), (choice, registered)):
        own = linear({"held_out": held_out}, mixture)["held_out"]
        discourse[label] = {f"{weight:g}": 100 * held_out.accuracy(pulled(
            held_out, own, weight)) for weight in (0.0, TASK.discourse_weights["svm"])}
    for label in ("svm", "ppr", choice):
        print(f"{label}: {results[label]}", file=sys.stderr)
    return {
        "protocol": {
            "held_out": "every 5th SemCor file (sorted), the first set; the svm trained on the "
                        "rest",
            "removed": f"the same targets, the svm trained without {SHARE:.0%} of the "
                       f"polysemous lexelts' senses (seed {SEED})",
            "development": "semeval2007, the svm trained on all of SemCor",
            "figures": "H held-out accuracy, R removed senses' accuracy, B rare senses' "
                       f"(at most {RARE} training instances), C all of the removed table, "
                       "D semeval2007 F1 (no discourse pull), in %",
            "ppr": ppr_params(),
            "targets": {name: len(t.gold) for name, t in tables.items()},
            "removed_targets": int(tables["removed"].subsets["removed"].sum()),
            "rare_targets": int(tables["removed"].subsets["rare"].sum())},
        "rule": "best H among settings with R >= R_svm + (R_max - R_svm) / 2; within 0.1 "
                "point of H, the best R, then B, then D (docs/choices.md)",
        "results": results, "per_part_of_speech_weights": pos_choices, "chosen": choice,
        "registered": {
            "ppr_weights": [registered.weights[letter] for letter in POS_LETTERS],
            "power": registered.power, "scarce_below": registered.scarce_below,
            "scarce_weight": registered.scarce_weight, "gate": registered.gate,
            "walk": ppr_params()},
        "held_out_with_discourse": discourse, "seconds": time.perf_counter() - started}


# --- the chosen hybrid scored once on ALL --------------------------------------------------------

EVALUATION_SETS = ("senseval2", "senseval3", "semeval2007", "semeval2013", "semeval2015")


def score_hybrid(args) -> dict:
    """The svm and the hybrid of ``--models-dir`` (``bin/train --task semcor --systems
    svm,hybrid``) tag Raganato's ALL once through ``bin/evaluate``'s Tagger; F1 on ALL, on ALL
    without semeval2007 and on each set, and McNemar's test of the two on each."""
    [dataset] = resolve_datasets(["ALL"], args.data_dir)
    gold = read_raganato_key(dataset.gold)
    corpus = read_raganato_corpus(dataset.data)
    right, timing = {}, {}
    for system in ("svm", "hybrid"):
        started = time.perf_counter()
        answers = Tagger.load(system, args.models_dir).tag(corpus, args.jobs)
        timing[system] = time.perf_counter() - started
        right[system] = {answer.instance_id: answer.key in gold[answer.instance_id]
                         for answer in answers}
    parts = {"ALL": "", "ALL without semeval2007": "semeval2007.",
             **{name: name + "." for name in EVALUATION_SETS}}
    scores = {}
    for part, prefix in parts.items():
        if part == "ALL without semeval2007":
            ids = [target for target in gold if not target.startswith(prefix)]
        else:
            ids = [target for target in gold if target.startswith(prefix)]
        test = mcnemar([right["svm"][target] for target in ids],
                       [right["hybrid"][target] for target in ids])
        scores[part] = {"instances": len(ids),
                        **{f"{system} F1": 100 * sum(right[system][target] for target in ids)
                           / len(ids) for system in right},
                        "mcnemar_p": test.p_value}
        print(f"{part}: " + ", ".join(f"{name} {value:.1f}" for name, value
                                      in scores[part].items() if name.endswith("F1")),
              file=sys.stderr)
    hybrid = modelstore.load(args.models_dir, TASK.name, "hybrid")
    return {"systems": ["svm", "hybrid"], "hybrid_params": hybrid.params,
            "graph": hybrid.info.get("graph"), "scores": scores, "tagging_seconds": timing,
            "note": "every target is answered, so F1 = precision = recall = accuracy"}
