#!/usr/bin/env python3
"""The AmbiStory row: run ``bin/train --task ambistory`` (features, choice by cross-validation on
train, ablation, predictions for dev and the redacted test) and record its figures.

Needs the SemCor svm (``bin/train --task semcor``) under ``--models-dir``. The test labels are
not read: only the dev figures are measured; the test predictions are written ready to submit.
Writes bench/results/ambistory.json: the chosen setting, every candidate's dev figures, the dev
figures split open-ended / ended, each feature group's contribution (the chosen setting without
it and with it alone), how the meanings matched WordNet, and the time taken.

``--support-trial`` (after a run without it: it reads the saved rater and word spaces) asks
whether the rater gains from the support classifier's ``support`` group, which it does not read:
the saved rater's setting cross-validated on train with and without the group, on the folds that
chose it and on homonyms shuffled into folds with other seeds (``ablation.TRIAL_SEEDS``), the
group's column out of fold on the same folds each time, and the classifier's held-out area under
the ROC curve. Dev and test are not read. Writes bench/results/ambistory_support.json.

``--ppr-trial`` asks whether the rater gains from ppr's columns (``bench.ambistory_ppr``: the
knowledge-based walk's distribution of the homonym with the story, and the setup alone, as
context), which it does not compute: the setting bench/results/ambistory.json records
cross-validated on train with and without them, on the partitions of the support trial. Dev
and test are not read. Writes bench/results/ambistory_ppr.json.

``--ceiling`` (after a run without it) measures what bounds the rater
(``benchmarks.ambistory.ceiling``): the shares of the ratings' variance that the setup, the
meaning, the ending and their interaction take, on train and dev; how well each of the saved
rater's components follows the humans' (held out on train, the chosen folds; on dev), and how
often it pairs a setup's two endings with its two meanings as they do; the dev figures of a
rater told which meaning each ending supports and nothing else; the saved rater's setting
fitted again with one more column, told which meaning each ending supports beyond the meaning
effect (the interaction's sign) or told the meaning effect, exact or blurred to agreements
0.3-0.7 (three noise draws each); and the saved rater's dev figures with the cuts that suit
dev best (a bound on the integer step, fitted on dev: it chooses nothing). All of these read
dev's ratings: they bound, and choose nothing. Writes bench/results/ambistory_ceiling.json.

``--vectors`` (needs no earlier run) chooses the word vectors of the rater's ``vectors`` space
(``VECTOR_CANDIDATES``: the self-trained word2vec vectors of ``bench/self_vectors.py``, GloVe,
spaCy md, or two side by side): for each, the rater chosen by cross-validation on train with its
cross-validated figures, and how the components of its held-out ratings follow the readers' (the
meaning effect, the interaction).
Dev and test are not read. Writes bench/results/ambistory_vectors.json.

``--check`` runs as without it but writes nothing to bench/results/: it compares the run's
chosen setting and dev figures with those recorded in bench/results/ambistory.json and exits
with status 1 if any differs (a run from a clean checkout must reproduce them).

    python -m bench ambistory --models-dir DIR [--data-dir DIR] [--out-dir DIR] [--jobs N]
                              [--support-trial | --ppr-trial | --ceiling | --vectors
                               | --check]
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from bench import ambistory_ppr, self_vectors
from wsd_classic import settings
from wsd_classic.benchmarks.ambistory import (
    ablation, ceiling, features, jobs, rater, selection, spaces, support)
from wsd_classic.features import pretrained_vectors
from wsd_classic.features.pretrained_vectors import GLOVE, SPACY_MD
from wsd_classic.features.word_vectors import WordVectors
from wsd_classic.report import references, table

RESULTS = Path(__file__).resolve().parent / "results"
# The word vectors ``--vectors`` compares: the self-trained ones and installed pretrained sets.
VECTOR_CANDIDATES = ((self_vectors.SOURCE,), (GLOVE.name,), (self_vectors.SOURCE, GLOVE.name),
                     (SPACY_MD.name,), (GLOVE.name, SPACY_MD.name))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--models-dir", type=Path, required=True)
    parser.add_argument("--data-dir", type=Path)
    parser.add_argument("--out-dir", type=Path, default=Path("/tmp/ambistory-results"))
    parser.add_argument("--jobs", type=int, default=2)
    analyses = parser.add_mutually_exclusive_group()
    analyses.add_argument("--support-trial", action="store_true")
    analyses.add_argument("--ppr-trial", action="store_true")
    analyses.add_argument("--ceiling", action="store_true")
    analyses.add_argument("--vectors", action="store_true")
    analyses.add_argument("--check", action="store_true")
    args = parser.parse_args()
    started = time.perf_counter()
    models = settings.models_dir(args.models_dir)
    if args.support_trial:
        support_trial(args.data_dir, models, args.jobs, started)
        return
    if args.ppr_trial:
        ppr_trial(args.data_dir, models, args.jobs, started)
        return
    if args.ceiling:
        measure_ceiling(args.data_dir, models, args.jobs, started)
        return
    if args.vectors:
        vector_trial(args.data_dir, models, args.jobs, started)
        return
    report = jobs.train_job(args.data_dir, models, args.out_dir, args.jobs)
    seconds = time.perf_counter() - started
    print(report)
    scores = json.loads((args.out_dir / jobs.BENCHMARK / "scores.json").read_text())
    if args.check:
        sys.exit(0 if reproduces(scores, json.loads((RESULTS / "ambistory.json").read_text()))
                 else 1)
    record("ambistory.json", {
        **scores, "published_test_rows": references.AMBISTORY,
        "test": "not scored: the labels are not in the data directory; the predictions for "
                "test_redacted.json are written beside dev's",
        "report": report.splitlines(), "seconds": round(seconds, 1)})


# What a run must reproduce of the recorded one: the choice, and the dev figures it leads to.
REPRODUCED = (("params",), ("dev", "spearman"), ("dev", "accuracy"),
              ("dev", "by_ending", "ended", "spearman"),
              ("dev", "by_ending", "open-ended", "spearman"))


def reproduces(measured: dict, recorded: dict) -> bool:
    """Whether ``measured`` has ``recorded``'s values at every path of ``REPRODUCED`` (floats to
    1e-9: the last digits of a sum may depend on the BLAS), saying which differ."""
    same = True
    for path in REPRODUCED:
        now, then = measured, recorded
        for key in path:
            now, then = now[key], then[key]
        if not _close(now, then):
            print(f"{'.'.join(path)}: {now} measured, {then} recorded", file=sys.stderr)
            same = False
    print("reproduces bench/results/ambistory.json" if same
          else "does NOT reproduce bench/results/ambistory.json")
    return same


def _close(now, then) -> bool:
    if isinstance(now, dict) and isinstance(then, dict):
        return now.keys() == then.keys() and all(_close(now[key], then[key]) for key in now)
    if isinstance(now, list) and isinstance(then, list):
        return len(now) == len(then) and all(map(_close, now, then))
    if isinstance(now, float) and isinstance(then, float):
        return abs(now - then) <= 1e-9
    return now == then


def record(name: str, figures: dict) -> None:
    """Write ``figures`` (with their ``seconds``) as bench/results/``name``."""
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / name).write_text(json.dumps(figures, indent=2, sort_keys=True) + "\n")
    print(f"bench/results/{name} written ({figures['seconds']:.0f}s)")


def refit_params(saved: rater.PlausibilityRater) -> dict:
    """The saved rater's setting to fit again: its groups are given apart, and its cuts are
    fitted again on each partition."""
    return {name: value for name, value in saved.get_params().items()
            if name not in ("groups", "cuts")}


def support_trial(data_dir, models: Path, processes: int, started: float) -> None:
    params = refit_params(jobs.load_rater(models))
    word_spaces = spaces.load_spaces(jobs.model_paths(models)[2])
    train = jobs.load_splits(data_dir, models, word_spaces, processes, ("train",))["train"]
    trials = ablation.support_trial(params, train)
    mean = {label: float(np.mean([trial[label]["key"] for trial in trials]))
            for label in ("without support", "with support")}
    seconds = time.perf_counter() - started
    for trial in trials:
        print(f"seed {trial['seed']}: support AUC {trial['support_auc']['ended']:.3f}; rho + "
              f"accuracy without {trial['without support']['key']:.3f}, with "
              f"{trial['with support']['key']:.3f}")
    print(f"mean: without {mean['without support']:.3f}, with {mean['with support']:.3f}")
    record("ambistory_support.json", {"params": params, "support_c": support.SUPPORT_C,
                                      "trials": trials, "mean_key": mean,
                                      "seconds": round(seconds, 1)})


def ppr_trial(data_dir, models: Path, processes: int, started: float) -> None:
    recorded = json.loads((RESULTS / "ambistory.json").read_text())["params"]
    params = {name: value for name, value in recorded.items() if name not in ("groups", "cuts")}
    train = jobs.load_splits(data_dir, models, spaces.build_spaces(data_dir), processes,
                             ("train",))["train"]
    walked = time.perf_counter()
    columns = ambistory_ppr.ppr_matrix(train.samples, processes, data_dir)
    walk_seconds = time.perf_counter() - walked
    trials = ambistory_ppr.column_trial(params, train, columns, "ppr")
    mean = {label: float(np.mean([trial[label]["key"] for trial in trials]))
            for label in ("without ppr", "with ppr")}
    for trial in trials:
        print(f"seed {trial['seed']}: rho + accuracy without {trial['without ppr']['key']:.3f}, "
              f"with {trial['with ppr']['key']:.3f}")
    print(f"mean: without {mean['without ppr']:.3f}, with {mean['with ppr']:.3f}")
    record("ambistory_ppr.json", {
        "params": params, "features": list(ambistory_ppr.PPR_FEATURES), "trials": trials,
        "mean_key": mean, "ppr_seconds": round(walk_seconds, 1),
        "seconds": round(time.perf_counter() - started, 1)})


def components_text(agreement: dict) -> str:
    """Spearman's rho of each component of a rater's ratings with the readers'."""
    return ", ".join(f"{part} {'n/a' if rho is None else f'{rho:.3f}'}"
                     for part, rho in agreement.items())


def candidate_vectors(sources: Sequence[str], data_dir) -> list[WordVectors]:
    """The vectors of a candidate's ``sources``: the self-trained ones (built and cached on first
    need) and installed pretrained sets by name."""
    return [self_vectors.obtain(self_vectors.CHOSEN, data_dir)
            if source == self_vectors.SOURCE else pretrained_vectors.load(source)
            for source in sources]


def choose_vectors(data_dir, models_root: Path, processes: int = 1,
                   candidates: Sequence[tuple[str, ...]] = VECTOR_CANDIDATES) -> list[dict]:
    """Per candidate word vectors of the ``vectors`` space, the rater chosen by cross-validation
    on train (``selection.choose``) with its cross-validated figures, and how its held-out
    ratings' components follow the readers' (``ceiling.component_agreement``). Nothing but train
    is read."""
    word_spaces = spaces.text_spaces(data_dir)
    trials = []
    for sources in candidates:
        word_spaces["vectors"] = spaces.stem_space(candidate_vectors(sources, data_dir))
        train = jobs.load_splits(data_dir, Path(models_root), word_spaces, processes,
                                 ("train",))["train"]
        params, candidate_settings = selection.choose(train)
        best = max(candidate_settings, key=lambda setting: setting["key"])
        held_out = selection.held_out_predictions(params, features.RATER_GROUPS, train,
                                                  selection.homonym_folds(train.samples))
        trials.append({"sources": list(sources), "params": params, "cv": best["cv"],
                       "key": best["key"],
                       "component_rho": ceiling.component_agreement(train.samples, held_out),
                       "settings": candidate_settings})
    return trials


def vector_trial(data_dir, models: Path, processes: int, started: float) -> None:
    trials = choose_vectors(data_dir, models, processes)
    best = max(trials, key=lambda trial: trial["key"])
    seconds = time.perf_counter() - started
    for trial in trials:
        print(f"{','.join(trial['sources'])}: cross-validated rho {table.rho_text(trial['cv'])} "
              f"accuracy {trial['cv']['accuracy']:.3f} (key {trial['key']:.3f}); components "
              f"against the readers': {components_text(trial['component_rho'])}")
    print(f"best: {','.join(best['sources'])}")
    record("ambistory_vectors.json", {"trials": trials, "best": best["sources"],
                                      "seconds": round(seconds, 1)})


def measure_ceiling(data_dir, models: Path, processes: int, started: float) -> None:
    saved = jobs.load_rater(models)
    word_spaces = spaces.load_spaces(jobs.model_paths(models)[2])
    splits = jobs.load_splits(data_dir, models, word_spaces, processes, ("train", "dev"))
    train, dev = splits["train"], splits["dev"]
    predicted = {"train (held out)": selection.held_out_predictions(
                     refit_params(saved), saved.groups, train,
                     selection.homonym_folds(train.samples)),
                 "dev": saved.predict(dev.matrix)}
    dev_cuts = rater.fit_cuts(predicted["dev"], dev)
    figures = {
        "variance_shares": {name: ceiling.variance_shares(split.samples)
                            for name, split in splits.items()},
        "rater_component_rho": {
            name: ceiling.component_agreement(split.samples, predicted[name])
            for name, split in zip(predicted, (train, dev))},
        "rater_pairing_agreement": {
            name: ceiling.pairing_agreement(split.samples, predicted[name])
            for name, split in zip(predicted, (train, dev))},
        "role_oracle_dev": ceiling.role_oracle(train.samples, dev.samples),
        "told_rater_dev": told_raters(refit_params(saved), saved.groups, train, dev),
        "rater_dev": selection.score_split(dev, saved.predict_ratings(dev.matrix)).as_dict(),
        "rater_dev_with_cuts_fitted_on_dev": {
            "cuts": list(dev_cuts), **selection.score_split(dev, rater.as_integers(
                predicted["dev"], "thresholds", None, dev_cuts)).as_dict()},
        "seconds": round(time.perf_counter() - started, 1)}
    for name, shares in figures["variance_shares"].items():
        print(f"{name}: variance shares " + ", ".join(
            f"{part} {share:.3f}" for part, share in shares["shares"].items())
            + f" ({shares['setups']} complete setups)")
    for name, agreement in figures["rater_component_rho"].items():
        print(f"rater, {name}: rho per component {components_text(agreement)}")
    for name, share in figures["rater_pairing_agreement"].items():
        print(f"rater, {name}: endings paired with meanings as the humans do in {share:.3f} "
              "of the setups")
    shown = {label: figures[label] for label in
             ("role_oracle_dev", "rater_dev", "rater_dev_with_cuts_fitted_on_dev")}
    shown.update((f"rater told {told}, dev", outcome)
                 for told, outcome in figures["told_rater_dev"].items())
    for label, outcome in shown.items():
        print(f"{label}: rho {table.rho_text(outcome)} accuracy {outcome['accuracy']:.3f}")
    record("ambistory_ceiling.json", figures)


def told_raters(params: dict, groups: tuple[str, ...], train: features.FeaturizedSplit,
                dev: features.FeaturizedSplit) -> dict[str, dict]:
    """Dev figures of the rater told each oracle column (``ceiling.oracle_column``),
    and told the meaning effect blurred to each of ``BLURRED_AGREEMENTS`` (mean over
    ``BLUR_SEEDS``, the train and dev draws apart)."""
    outcomes = {}
    for component in ("pairing", "meaning"):
        outcomes[component] = ceiling.told_rater(
            params, groups, train, dev, ceiling.oracle_column(train.samples, component),
            ceiling.oracle_column(dev.samples, component))
    meanings = {name: ceiling.oracle_column(split.samples, "meaning")
                for name, split in (("train", train), ("dev", dev))}
    for agreement in ceiling.BLURRED_AGREEMENTS:
        draws = [ceiling.told_rater(
            params, groups, train, dev,
            ceiling.blurred(train.samples, meanings["train"], agreement, seed),
            ceiling.blurred(dev.samples, meanings["dev"], agreement, seed + 1000))
            for seed in ceiling.BLUR_SEEDS]
        outcomes[f"meaning effect at agreement {agreement}"] = {
            name: float(np.mean([draw[name] for draw in draws]))
            for name in ("spearman", "accuracy", "samples")}
    return outcomes


if __name__ == "__main__":
    main()
