"""``bin/train``: train the systems, tag the test set, score it and print the comparison table.

    bin/train --task senseval2-ls [--systems LIST] [--data-dir DIR] [--models-dir DIR]
              [--out-dir DIR] [--jobs N]
    bin/train --train X.xml [--train-key K0] [--test Y.xml --key K | --split 2:1 --seed S]
              [--sensemap FILE]
    bin/train ... --learning-curve [FRACTIONS]   (instead: accuracy vs. share of training data)
    bin/train --task semcor [--systems mfs,wn1,svm,dlist] [--data-dir DIR] [--models-dir DIR]
              [--jobs N]   (all-words models; bin/evaluate scores them)
    bin/train --task ambistory [--data-dir DIR] [--models-dir DIR] [--out-dir DIR]
              (AmbiStory plausibility rater, on the SemCor svm of --task semcor)
"""
from __future__ import annotations

import argparse
from pathlib import Path

from wsd_classic import settings
from wsd_classic.cli import entry_point
from wsd_classic.cli.options import add_location_options
from wsd_classic.errors import WsdError
from wsd_classic.report import table
from wsd_classic.tasks import allwords, catalogue, learning_curve, lexical_sample_run


def parse_args(argv):
    parser = argparse.ArgumentParser(prog="train", description=__doc__.split("\n")[0])
    source = parser.add_argument_group("what to train on")
    source.add_argument("--task", help=f"a registered task: {', '.join(catalogue.TASKS)}")
    source.add_argument("--train", type=Path, help="a SENSEVAL lexical-sample training XML file")
    source.add_argument("--train-key", type=Path,
                        help="the training file's answers as a key file, when its XML has none")
    source.add_argument("--test", type=Path, help="its test XML file (with --key)")
    source.add_argument("--key", type=Path, help="the test set's key file")
    source.add_argument("--sensemap", type=Path, help="sense groupings for coarse scoring")
    source.add_argument("--split", help="no test set: split the training data, e.g. 2:1")
    source.add_argument("--seed", type=int, default=0, help="seed of --split (default 0)")
    parser.add_argument("--systems", help="comma-separated (default: the task's systems: " + "; ".join(
        f"{name}: {','.join(task.systems)}" + (f" (also {','.join(task.on_request)})"
                                              if task.on_request else "")
        for name, task in catalogue.TASKS.items()) + ")")
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
    if args.key is not None and args.test is None:
        parser.error("--key is the test set's key (with --test); the training file's answers "
                     "go with --train-key")
    if args.train_key is not None and (args.train is None or args.learning_curve is not None):
        parser.error("--train-key goes with --train, and not with --learning-curve")
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    return args


@entry_point
def main(argv=None):
    args = parse_args(argv)
    if args.task is not None:
        task = catalogue.get(args.task)
    else:
        task = catalogue.lexical_sample_files(
            args.train, args.test, args.key, args.sensemap,
            catalogue.parse_split(args.split) if args.split is not None else None, args.seed,
            args.train_key)
    chosen = task.check_systems(name.strip() for name in args.systems.split(",")
                                if name.strip()) if args.systems else list(task.systems)
    if not chosen:
        raise WsdError("--systems names no system")
    models_root = settings.models_dir(args.models_dir)
    if task.kind != catalogue.LEXICAL_SAMPLE and args.learning_curve is not None:
        raise WsdError(f"--learning-curve is for lexical samples, not --task {task.name}")
    if task.kind == catalogue.PLAUSIBILITY:
        from wsd_classic.benchmarks import ambistory  # its scipy.stats and trees, only when asked

        print(ambistory.train_job(args.data_dir, models_root, settings.results_dir(args.out_dir),
                                  args.jobs))
        return
    if task.kind == catalogue.ALL_WORDS:
        print(allwords.train_all_words(task, chosen, models_root, args.data_dir, args.jobs))
        return
    run = lexical_sample_run.TaskRun.of(task, args.data_dir)
    results_root = settings.results_dir(args.out_dir)
    if args.learning_curve is not None:
        fractions = learning_curve.parse_fractions(args.learning_curve)
        curve_run = learning_curve.execute(run, chosen, fractions, results_root, args.jobs)
        print("\n".join([table.learning_curve_table(curve_run.curve), "",
                         f"learning curve in {curve_run.path}", curve_run.timer.summary()]))
        return
    result = lexical_sample_run.execute(run, chosen, models_root, results_root, args.jobs)
    print("\n".join([table.lexical_sample_table(result.scores, task.published), "",
                     *(f"note: {note}" for note in result.notes),
                     f"answers and scores.json in {result.out_dir}/, "
                     f"models in {result.models_dir}/", result.timer.summary()]))
