"""``bin/train --task ambistory`` and ``bin/evaluate --benchmark ambistory``: featurize the three
files, choose the rater by cross-validation on train, record the ablation, save the rater and
write the predictions for dev and the redacted test."""
from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from wsd_classic import modelstore
from wsd_classic.atomic import write_json_atomically, write_lines_atomically
from wsd_classic.benchmarks.ambistory import spaces as word_spaces
from wsd_classic.benchmarks.ambistory.ablation import ablation
from wsd_classic.benchmarks.ambistory.features import FEATURES, FeaturizedSplit, featurize
from wsd_classic.benchmarks.ambistory.rater import PlausibilityRater
from wsd_classic.benchmarks.ambistory.results import by_ending
from wsd_classic.benchmarks.ambistory.selection import (choose, homonym_folds, score_split,
                                                        with_dev_figures)
from wsd_classic.benchmarks.ambistory.spaces import (VECTOR_SOURCES, WordSpace, load_spaces,
                                                     save_spaces)
from wsd_classic.benchmarks.ambistory.stories import ALL_WORDS_TASK, TASK, WSD_SYSTEM
from wsd_classic.benchmarks.ambistory.support import add_support, fill_support, support_gaps
from wsd_classic.corpora import registry
from wsd_classic.corpora.ambistory import read_ambistory
from wsd_classic.errors import WsdError
from wsd_classic.report.table import ambistory_table, rho_text
from wsd_classic.scoring.ambistory import prediction_lines, score_intervals
from wsd_classic.tasks import staging
from wsd_classic.tasks.timing import StageTimer

BENCHMARK = TASK.name
DATASET = TASK.dataset  # its name in corpora.registry
SPLITS = {"train": "train.json", "dev": "dev.json", "test": "test_redacted.json"}


def load_splits(data_dir, models_root: Path, spaces: dict[str, WordSpace], jobs: int,
                names: Sequence[str] = tuple(SPLITS)) -> dict[str, FeaturizedSplit]:
    root = registry.locate(DATASET, data_dir)
    splits = {}
    for name in names:
        samples = read_ambistory(root / SPLITS[name])
        splits[name] = featurize(samples, models_root, spaces, jobs)
    for name in ("train", "dev"):
        if name in splits and any(sample.choices is None for sample in splits[name].samples):
            raise WsdError(f"the {name} file has samples without ratings", root / SPLITS[name])
    return splits


def model_paths(models_root: Path) -> tuple[Path, Path, Path]:
    """The rater's description, its training matrix and the word spaces."""
    directory = Path(models_root) / BENCHMARK
    return directory / "rater.json", directory / "rater.npz", directory / "spaces.npz"


def train_job(data_dir, models_root, results_root, jobs: int = 1) -> str:
    """``bin/train --task ambistory``: featurize the three files, choose the rater by
    cross-validation on train, record the ablation, save the rater and write the predictions;
    returns the report."""
    svm_path = modelstore.model_path(models_root, ALL_WORDS_TASK, WSD_SYSTEM)
    if not svm_path.is_file():  # said before minutes of word spaces, not after
        raise WsdError(f"no all-words {WSD_SYSTEM}: run bin/train --task {ALL_WORDS_TASK} first",
                       svm_path)
    timer = StageTimer()
    with timer.stage("word spaces"):
        spaces = word_spaces.build_spaces(data_dir)
    with timer.stage("featurize (spaCy, svm, WordNet)"):
        splits = load_splits(data_dir, Path(models_root), spaces, jobs)
    train, dev = splits["train"], splits["dev"]
    with timer.stage("support classifier"):
        add_support(train, (dev, splits["test"]), homonym_folds(train.samples))
    with timer.stage("choose by cross-validation on train"):
        params, trials = choose(train)
    with timer.stage("dev figures of every candidate (a check)"):
        trials = with_dev_figures(trials, train, dev)
    with timer.stage("ablation"):
        groups = ablation(params, train, dev)
    json_path, matrix_path, spaces_path = model_paths(models_root)
    with staging.exclusive(Path(models_root), BENCHMARK), \
            staging.staged_directory(json_path.parent) as stage:
        np.savez(stage / matrix_path.name, matrix=train.matrix, ratings=train.ratings(),
                 support_gaps=support_gaps(train.samples))
        save_spaces(stage / spaces_path.name, spaces)
        write_json_atomically(stage / json_path.name, {
            "params": params, "features": list(FEATURES), "wsd_system": WSD_SYSTEM,
            "word_vectors": list(VECTOR_SOURCES),
            "story_context_sentences": TASK.context.sentences,
            "training": "AmbiStory train.json",
            "chosen_on": "AmbiStory train.json, cross-validated by homonym",
            "training_sha256": registry.file_sha256(
                registry.locate(DATASET, data_dir) / SPLITS["train"])})
    with timer.stage("predict and score"):
        outcome = _predict_and_write(splits, load_rater(Path(models_root)), Path(results_root),
                                     {"selection": trials, "ablation": groups,
                                      "meanings": _matching_report(splits)})
    lines = [_matching_report(splits), f"chosen by cross-validation on train: {params}",
             "dev figures per feature group (chosen setting): " + "; ".join(
                 f"{name} rho {rho_text(figures)} acc {figures['accuracy']:.3f}"
                 for name, figures in groups.items()),
             outcome, timer.summary()]
    return "\n".join(lines)


def evaluate_job(data_dir, models_root, results_root, jobs: int = 1) -> str:
    """``bin/evaluate --benchmark ambistory``: the saved rater's predictions and dev scores."""
    timer = StageTimer()
    with timer.stage("featurize (spaCy, svm, WordNet)"):
        spaces = load_spaces(model_paths(models_root)[2])
        splits = load_splits(data_dir, Path(models_root), spaces, jobs, ("dev", "test"))
    rater = load_rater(Path(models_root))
    if "support" in rater.groups:  # else the support classifier's column goes unread
        matrix, _, gaps = saved_training(models_root)
        fill_support(matrix, gaps, splits.values())
    with timer.stage("predict and score"):
        outcome = _predict_and_write(splits, rater, Path(results_root), {})
    return "\n".join([_matching_report(splits), outcome, timer.summary()])


def saved_training(models_root: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The saved rater's training matrix (its support column out of fold), the mean ratings and
    the support classifier's gaps."""
    json_path, matrix_path, spaces_path = model_paths(models_root)
    if not all(path.is_file() for path in (json_path, matrix_path, spaces_path)):
        raise WsdError("no AmbiStory rater: run bin/train --task ambistory first", json_path)
    description = json.loads(json_path.read_text())
    if description.get("features") != list(FEATURES):
        raise WsdError("the saved rater has other features than this version computes: train it "
                       "again (bin/train --task ambistory)", json_path)
    with np.load(matrix_path, allow_pickle=False) as saved:
        return saved["matrix"], saved["ratings"], saved["support_gaps"]


def load_rater(models_root: Path) -> PlausibilityRater:
    matrix, ratings, _ = saved_training(models_root)
    description = json.loads(model_paths(models_root)[0].read_text())
    return PlausibilityRater(**description["params"]).fit(matrix, ratings)


def _predict_and_write(splits: dict[str, FeaturizedSplit], rater: PlausibilityRater,
                       results_root: Path, extra: dict) -> str:
    out_dir = results_root / BENCHMARK
    scores = {}
    with staging.exclusive(results_root, BENCHMARK), staging.staged_directory(out_dir) as stage:
        for name in ("dev", "test"):
            split = splits[name]
            values = rater.predict(split.matrix)
            integers = rater.predict_ratings(split.matrix)
            ids = [sample.id for sample in split.samples]
            write_lines_atomically(stage / f"{name}.predictions.jsonl", prediction_lines(
                {key: int(value) for key, value in zip(ids, integers)}))
            write_lines_atomically(stage / f"{name}.ratings.jsonl", (
                json.dumps({"id": key, "rating": round(float(value), 4)})
                for key, value in zip(ids, values)))
            if name == "dev":
                predicted = {key: int(value) for key, value in zip(ids, integers)}
                scores[name] = {**score_split(split, integers).as_dict(),
                                "ci95": score_intervals(predicted, {
                                    sample.id: sample.choices for sample in split.samples}),
                                "by_ending": by_ending(split, integers)}
        write_json_atomically(stage / "scores.json",
                              {**scores, **extra, "params": rater.get_params()})
    return ambistory_table(scores["dev"]) + f"\npredictions (dev, test) in {out_dir}/; the " \
        "test figures are not computed here: the data directory holds only the redacted test file"


def _matching_report(splits: dict[str, FeaturizedSplit]) -> str:
    parts = []
    for name, split in splits.items():
        counts = ", ".join(f"{count} {how}" for how, count in sorted(split.matches.items()))
        parts.append(f"{name} {counts}" + (f", {split.untargeted} with the homonym not found "
                                           "in the sentence (no wsd features)"
                                           if split.untargeted else ""))
    shown = [line for split in splits.values() for line in split.unmatched][:3]
    return ("judged meanings to WordNet 3.0 synsets: " + "; ".join(parts)
            + (f" (e.g. {'; '.join(shown)})" if shown else ""))
