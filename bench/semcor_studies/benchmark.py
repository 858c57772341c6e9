"""The benchmark itself: every system trained on SemCor, timed, its memory measured, and scored
on every evaluation set (it chooses nothing)."""
from __future__ import annotations

import os
import platform
import resource
import sys
import tempfile
import time
from pathlib import Path

from joblib.externals.loky import get_reusable_executor

from wsd_classic import modelstore, settings, systems
from wsd_classic.corpora import registry
from wsd_classic.report.references import RAGANATO_2017, RAGANATO_SOURCE
from wsd_classic.tasks import allwords
from wsd_classic.tasks.allwords_evaluation import resolve_datasets
from wsd_classic.tasks.timing import StageTimer, cpu_seconds

from .held_out import TASK, tag_all


def peak_memory_mb() -> dict[str, float]:
    """Peak RSS of this process and of its waited-for children (kilobytes on Linux)."""
    get_reusable_executor().shutdown(wait=True)  # joblib's workers count once they have exited
    return {"main": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "children": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024}


def train_all(semcor_root: Path, names: list[str], models_root: Path, jobs: int) -> dict:
    trainable = [name for name in names if systems.get(name).estimator is not None]
    started, cpu = time.perf_counter(), cpu_seconds()
    timer = StageTimer()
    with timer.stage("word vectors"):
        featurizer = TASK.featurizer(trainable)
    data = allwords.prepare_training(semcor_root, featurizer=featurizer, jobs=jobs, timer=timer)
    report = {"prepare_seconds": time.perf_counter() - started,
              "prepare_cpu_seconds": cpu_seconds() - cpu,
              "prepare_stages": {name: {"seconds": seconds, "cpu_seconds": timer.cpu[name]}
                                 for name, seconds in timer.seconds.items()},
              "info": data.info, "systems": {}}
    for name in trainable:
        started, cpu = time.perf_counter(), cpu_seconds()
        trained = allwords.train_system(name, data, jobs)
        trained_seconds, trained_cpu = time.perf_counter() - started, cpu_seconds() - cpu
        started, cpu = time.perf_counter(), cpu_seconds()
        path = modelstore.save(trained, models_root)
        report["systems"][name] = {
            "train_seconds": trained_seconds, "train_cpu_seconds": trained_cpu,
            "save_seconds": time.perf_counter() - started,
            "save_cpu_seconds": cpu_seconds() - cpu,
            "model_bytes": path.stat().st_size, "lexelts": len(trained.models)}
        print(f"trained {name} in {trained_seconds:.1f}s", file=sys.stderr)
    return report


def benchmark(args) -> dict:
    names = TASK.check_systems(args.systems.split(","))
    datasets = resolve_datasets(args.datasets.split(","), args.data_dir)
    semcor_root = registry.locate(TASK.dataset, args.data_dir)
    with tempfile.TemporaryDirectory(prefix="semcor-bench-") as scratch:
        if not args.warm_cache:
            os.environ[settings.CACHE_ENV] = str(Path(scratch) / "cache")
        models_root = args.models_dir or Path(scratch) / "models"
        started, cpu = time.perf_counter(), cpu_seconds()
        training = train_all(semcor_root, names, models_root, args.jobs)
        training["seconds"] = time.perf_counter() - started
        training["cpu_seconds"] = cpu_seconds() - cpu
        training["peak_memory_mb"] = peak_memory_mb()
        tagging = tag_all(names, datasets, models_root, args.jobs)
    return {"machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                        "platform": platform.platform()},
            "jobs": args.jobs, "cold_cache": not args.warm_cache,
            "context_sentences": TASK.context.sentences,
            "training": training, "tagging": tagging, "peak_memory_mb": peak_memory_mb(),
            "published_f1": RAGANATO_2017, "published_source": RAGANATO_SOURCE}


def summary(result: dict) -> str:
    training = result["training"]
    lines = [f"training: {training['seconds']:.0f}s, {training['cpu_seconds']:.0f} CPU-s (SemCor "
             f"read and preprocessed in {training['prepare_seconds']:.0f}s, "
             f"{training['prepare_cpu_seconds']:.0f} CPU-s; " + ", ".join(
                 f"{name} {figures['train_seconds']:.0f}s, {figures['train_cpu_seconds']:.0f} "
                 f"CPU-s, {figures['model_bytes'] / 1e6:.0f} MB"
                 for name, figures in training["systems"].items()) + ")",
             "preparation: " + ", ".join(
                 f"{name} {figures['seconds']:.0f}s, {figures['cpu_seconds']:.0f} CPU-s"
                 for name, figures in training["prepare_stages"].items()),
             "peak memory (MB): " + ", ".join(f"{who} {mb:,.0f}" for who, mb in
                                              result["peak_memory_mb"].items())]
    for name, figures in result["tagging"].items():
        lines.append(f"{name}: " + ", ".join(
            f"{dataset} F1 {100 * scores['f1']:.1f} ({scores['targets_per_second']:,.0f}/s)"
            for dataset, scores in figures["datasets"].items()))
    return "\n".join(lines)
