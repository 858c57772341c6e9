"""``bin/train``: train the systems, tag the test set, score it and print the comparison table.

    bin/train --task senseval2-ls [--systems LIST] [--data-dir DIR] [--models-dir DIR]
              [--out-dir DIR] [--jobs N]
    bin/train --train X.xml [--test Y.xml --key K | --split 2:1 --seed S] [--sensemap FILE]
"""
from __future__ import annotations

import argparse
import os
from pathlib import Path

from wsd_classic import settings, systems
from wsd_classic.cli import entry_point
from wsd_classic.errors import WsdError
from wsd_classic.tasks import lexical_sample_run


def parse_args(argv):
    parser = argparse.ArgumentParser(prog="train", description=__doc__.split("\n")[0])
    source = parser.add_argument_group("what to train on")
    source.add_argument("--task", help="a registered task: senseval2-ls")
    source.add_argument("--train", type=Path, help="a SENSEVAL lexical-sample training XML file")
    source.add_argument("--test", type=Path, help="its test XML file (with --key)")
    source.add_argument("--key", type=Path, help="the test set's key file")
    source.add_argument("--sensemap", type=Path, help="sense groupings for coarse scoring")
    source.add_argument("--split", help="no test set: split the training data, e.g. 2:1")
    source.add_argument("--seed", type=int, default=0, help="seed of --split (default 0)")
    parser.add_argument("--systems", default=",".join(systems.SYSTEMS),
                        help=f"comma-separated (default {','.join(systems.SYSTEMS)})")
    parser.add_argument("--data-dir", type=Path, help=f"corpora (default ${settings.DATA_ENV} "
                                                      "or ./data)")
    parser.add_argument("--models-dir", type=Path, help="root of saved models (default models/)")
    parser.add_argument("--out-dir", type=Path, help="root of results (default results/)")
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1),
                        help="processes for spaCy and training (default: 2)")
    args = parser.parse_args(argv)
    if (args.task is None) == (args.train is None):
        parser.error("give either --task or --train")
    if args.train is not None and (args.test is None) == (args.split is None):
        parser.error("with --train give either --test (and --key) or --split")
    if args.test is not None and args.key is None:
        parser.error("--test needs --key")
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    return args


@entry_point
def main(argv=None):
    args = parse_args(argv)
    chosen = systems.check_systems(name.strip() for name in args.systems.split(",") if name.strip())
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
    report = lexical_sample_run.execute(run, chosen, models_root, results_root, args.jobs)
    print(report)
