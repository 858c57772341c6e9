"""``bin/vectors``: build (or find in the cache) the word vectors a task's embedding features read.

    bin/vectors [--task T] [--data-dir DIR]

``bin/train`` builds them on first need; this command does it alone and says where they are.
"""
from __future__ import annotations

import argparse
from pathlib import Path

from wsd_classic import settings
from wsd_classic.cli import entry_point
from wsd_classic.errors import WsdError
from wsd_classic.tasks import catalogue, vector_corpus


def parse_args(argv):
    parser = argparse.ArgumentParser(prog="vectors", description=__doc__.split("\n")[0])
    parser.add_argument("--task", default=catalogue.SENSEVAL2_LS.name,
                        help="whose vector settings (default senseval2-ls)")
    parser.add_argument("--data-dir", type=Path, help=f"corpora (default ${settings.DATA_ENV} "
                                                      "or ./data)")
    return parser.parse_args(argv)


@entry_point
def main(argv=None):
    args = parse_args(argv)
    task = catalogue.get(args.task)
    if task.embedding is None:
        raise WsdError(f"task {task.name} uses no word vectors")
    vectors = vector_corpus.obtain(task.embedding.vectors, args.data_dir)
    print(f"{len(vectors.words):,} words x {vectors.dimensions} (sha256 {vectors.identity[:12]}) "
          f"in {vector_corpus.cache_path(task.embedding.vectors, args.data_dir)}")
    return 0
