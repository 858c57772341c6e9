"""``bin/evaluate``: tag all-words datasets with the SemCor-trained systems and score them.

    bin/evaluate --task semcor [--datasets senseval2,senseval3,semeval2007] [--systems LIST]
                 [--data-dir DIR] [--models-dir DIR] [--out-dir DIR] [--jobs N]
    bin/evaluate --benchmark sensebench [--datasets ALL] [--systems LIST] ...
    bin/evaluate --benchmark ambistory [--data-dir DIR] [--models-dir DIR] [--out-dir DIR]

``--datasets`` takes registered names (senseval2, senseval3, semeval2007, semeval2013,
semeval2015, ALL, lexen-v1, and Maru et al.'s challenge sets 42D, hardEN, softEN, ALLamended,
S10amended, which a user puts in the data directory) and paths of ``NAME.data.xml`` files with
``NAME.gold.key.txt`` beside them. Keys go to ``results/semcor/<system>.<dataset>.key``, figures to
``results/semcor/scores.json``; the table shows micro P/R/F1 and the F1 macro-averaged over gold
senses (mF1, as the challenge sets report it) beside the published rows of Raganato et al.
(2017).
``--benchmark`` runs a benchmark of ``wsd_classic.benchmarks`` instead: ``sensebench`` writes
SenseBench baseline keys of the systems to ``results/sensebench/`` (default dataset ALL), and
``ambistory`` the AmbiStory predictions of the model ``bin/train --task ambistory`` saved.
"""
from __future__ import annotations

import argparse

from wsd_classic import settings
from wsd_classic.cli import entry_point
from wsd_classic.cli.options import add_location_options
from wsd_classic.errors import WsdError
from wsd_classic.report import table
from wsd_classic.benchmarks import ambistory, sensebench
from wsd_classic.tasks import catalogue
from wsd_classic.tasks.allwords_evaluation import evaluate, resolve_datasets
from wsd_classic.tasks.timing import StageTimer

DEFAULT_DATASETS = "senseval2,senseval3,semeval2007"


def parse_args(argv):
    parser = argparse.ArgumentParser(prog="evaluate", description=__doc__.split("\n")[0])
    all_words = catalogue.of_kind(catalogue.ALL_WORDS)
    parser.add_argument("--task", choices=all_words, default=all_words[0],
                        help=f"the all-words task (default {all_words[0]})")
    parser.add_argument("--benchmark", choices=[sensebench.BENCHMARK, ambistory.BENCHMARK],
                        help="run this benchmark instead of the all-words evaluation")
    parser.add_argument("--datasets",
                        help=f"comma-separated names or NAME.data.xml paths (default "
                             f"{DEFAULT_DATASETS}; with --benchmark {sensebench.BENCHMARK}: "
                             f"{sensebench.DEFAULT_DATASETS})")
    parser.add_argument("--systems", help="comma-separated (default: the task's systems)")
    add_location_options(parser, processes_for="spaCy")
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    return args


def _names(value: str, option: str) -> list[str]:
    names = [name.strip() for name in value.split(",") if name.strip()]
    if not names:
        raise WsdError(f"{option} names nothing")
    return names


@entry_point
def main(argv=None):
    args = parse_args(argv)
    if args.benchmark == ambistory.BENCHMARK:
        print(ambistory.evaluate_job(args.data_dir, settings.models_dir(args.models_dir),
                                     settings.results_dir(args.out_dir)))
        return
    task = catalogue.get(args.task)
    chosen = task.check_systems(_names(args.systems, "--systems") if args.systems
                                else task.systems)
    timer = StageTimer()
    default_datasets = (sensebench.DEFAULT_DATASETS if args.benchmark == sensebench.BENCHMARK
                        else DEFAULT_DATASETS)
    with timer.stage("locate"):
        datasets = resolve_datasets(_names(args.datasets or default_datasets, "--datasets"),
                                    args.data_dir)
    if args.benchmark == sensebench.BENCHMARK:
        with timer.stage("tag and score"):
            benchmark = sensebench.run(chosen, datasets, settings.models_dir(args.models_dir),
                                       settings.results_dir(args.out_dir), args.jobs)
        print(table.sensebench_table(benchmark.scores))
        print()
        print(f"key files, p002 indices and scores.json in {benchmark.out_dir}/")
        print(timer.summary())
        return
    with timer.stage("tag and score"):
        result = evaluate(chosen, datasets, settings.models_dir(args.models_dir),
                          settings.results_dir(args.out_dir), args.jobs, task)
    print(table.all_words_table(result.scores, [dataset.name for dataset in datasets]))
    print()
    print(f"keys and scores.json in {result.out_dir}/; tagging speed: " + ", ".join(
        f"{system} {rate:,.0f} targets/s" for system, rate in result.speed.items()))
    print(timer.summary())
