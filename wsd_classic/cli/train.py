"""``bin/train``: train the systems, tag the test set, score it and print the comparison table.

    bin/train --task senseval2-ls [--systems LIST] [--data-dir DIR] [--models-dir DIR]
              [--out-dir DIR] [--jobs N]
    bin/train --train X.xml [--test Y.xml --key K | --split 2:1 --seed S] [--sensemap FILE]
    bin/train ... --learning-curve [FRACTIONS]   (instead: accuracy vs. share of training data)
    bin/train --task semcor [--systems mfs,wn1,svm,dlist] [--data-dir DIR] [--models-dir DIR]
              [--jobs N]   (all-words models; bin/evaluate scores them)
    bin/train --task ambistory [--data-dir DIR] [--models-dir DIR] [--out-dir DIR]
              (AmbiStory plausibility rater, on the SemCor svm of --task semcor)
"""
from __future__ import annotations

import argparse
from pathlib import Path

from wsd_classic import settings, systems
from wsd_classic.benchmarks import ambistory
from wsd_classic.cli import entry_point
from wsd_classic.cli.options import add_location_options
from wsd_classic.corpora import registry
from wsd_classic.errors import WsdError
from wsd_classic.tasks import allwords, learning_curve, lexical_sample_run


def parse_args(argv):
    parser = argparse.ArgumentParser(prog="train", description=__doc__.split("\n")[0])
    source = parser.add_argument_group("what to train on")
    source.add_argument("--task", help=f"a registered task: senseval2-ls, or {allwords.TASK} "
                                       "(all-words, trained on SemCor), "
                                       f"{ambistory.BENCHMARK} (SemEval-2026 Task 5 ratings)")
    source.add_argument("--train", type=Path, help="a SENSEVAL lexical-sample training XML file")
    source.add_argument("--test", type=Path, help="its test XML file (with --key)")
    source.add_argument("--key", type=Path, help="the test set's key file")
    source.add_argument("--sensemap", type=Path, help="sense groupings for coarse scoring")
    source.add_argument("--split", help="no test set: split the training data, e.g. 2:1")
    source.add_argument("--seed", type=int, default=0, help="seed of --split (default 0)")
    parser.add_argument("--systems",
                        help=f"comma-separated (default {','.join(systems.SYSTEMS)}; with --task "
                             f"{allwords.TASK}: {','.join(allwords.SYSTEMS)})")
    add_location_options(parser, processes_for="spaCy and training")
    parser.add_argument(
        "--learning-curve", nargs="?", metavar="FRACTIONS",
        const=",".join(f"{fraction:g}" for fraction in learning_curve.DEFAULT_FRACTIONS),
        help="instead of the usual run, train on these nested stratified shares of the training "
             "data (default %(const)s), score each on the test set and write "
             "learning_curve.json to the results; no model or answer file is saved")
    args = parser.parse_args(argv)
    if (args.task is None) == (args.train is None):
        parser.error("give either --task or --train")
    if args.train is not None and (args.test is None) == (args.split is None):
        parser.error("with --train give either --test (and --key) or --split")
    if args.test is not None and args.key is None:
        parser.error("--test needs --key")
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    if args.task in (allwords.TASK, ambistory.BENCHMARK) and args.learning_curve is not None:
        parser.error(f"--learning-curve is for lexical samples, not --task {args.task}")
    return args


@entry_point
def main(argv=None):
    args = parse_args(argv)
    if args.task == allwords.TASK:
        print(_train_all_words(args))
        return
    if args.task == ambistory.BENCHMARK:
        print(ambistory.train_job(args.data_dir, settings.models_dir(args.models_dir),
                                  settings.results_dir(args.out_dir), args.jobs))
        return
    chosen = systems.check_systems(name.strip() for name in
                                   (args.systems or ",".join(systems.SYSTEMS)).split(",")
                                   if name.strip())
    if not chosen:
        raise WsdError("--systems names no system")
    models_root = settings.models_dir(args.models_dir)
    results_root = settings.results_dir(args.out_dir)
    if args.task is not None:
        run = lexical_sample_run.registered_task(args.task, args.data_dir)
    elif args.split is not None:
        run = lexical_sample_run.split_task(args.train, args.split, args.seed, args.sensemap)
    else:
        run = lexical_sample_run.file_task(args.train, args.test, args.key, args.sensemap)
    if args.learning_curve is not None:
        fractions = learning_curve.parse_fractions(args.learning_curve)
        print(learning_curve.execute(run, chosen, fractions, results_root, args.jobs))
        return
    report = lexical_sample_run.execute(run, chosen, models_root, results_root, args.jobs)
    print(report)


def _train_all_words(args) -> str:
    chosen = allwords.check_systems(
        [name.strip() for name in args.systems.split(",") if name.strip()] if args.systems
        else allwords.SYSTEMS)
    if not chosen:
        raise WsdError("--systems names no system")
    return allwords.train_semcor(registry.locate(allwords.SEMCOR_DATASET, args.data_dir), chosen,
                                 settings.models_dir(args.models_dir), args.jobs)
