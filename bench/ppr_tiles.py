"""The walk's tile width: CPU seconds of one block of ``ppr``'s walks for each width.

    python -m bench ppr_tiles [--widths 16 32 64 256] [--rounds 5] [--data-dir DIR] [--out FILE]

Walks one block (``word_to_word.BLOCK``, 256) of restarts, those of the development set
semeval2007's first distinct lexelts, over the graph of ``semcor``'s registered ``ppr`` walk,
with ``pagerank.TILE`` set to each width in turn, the widths interleaved round after round in
one process (the same load for all; CPU time, the median and the least of each width's rounds).
A width equal to the block is one product over the whole block per step. Every width's ranks
must equal the first's to the bit, else the study fails. Writes bench/results/ppr_tiles.json.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from bench.semcor_studies.held_out import DEVELOPMENT_SET
from bench.tag import write_results
from wsd_classic.corpora import registry
from wsd_classic.corpora.allwords import read_raganato_corpus
from wsd_classic.knowledge import pagerank, word_to_word
from wsd_classic.systems.personalised_pagerank import PersonalisedPageRank
from wsd_classic.tasks import catalogue

REPO = Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--widths", type=int, nargs="+", default=[16, 32, 64, 256])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--data-dir", type=Path)
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "ppr_tiles.json")
    args = parser.parse_args()
    params = catalogue.SEMCOR.system_params("ppr")
    walker = PersonalisedPageRank.built(params, args.data_dir).walker
    corpus = read_raganato_corpus(registry.locate(DEVELOPMENT_SET, args.data_dir)
                                  / f"{DEVELOPMENT_SET}.data.xml")
    lexelts = sorted({target.lexelt for target in corpus.targets})[:word_to_word.BLOCK]
    restarts = [walker.restart(lexelt) for lexelt in lexelts]
    load_before = os.getloadavg()
    seconds: dict[int, list[float]] = {width: [] for width in args.widths}
    first = None
    for _ in range(args.rounds):
        for width in args.widths:
            pagerank.TILE = width
            started = time.process_time()
            ranks = walker.ranks(restarts)
            seconds[width].append(time.process_time() - started)
            first = ranks if first is None else first
            if not np.array_equal(ranks, first):
                print(f"ppr_tiles: width {width} changed the ranks", file=sys.stderr)
                return 1
    results = {"walks": len(restarts), "nodes": walker.graph.size,
               "nonzeros": int(walker.walk.nnz), "walk": params,
               "restarts": f"{DEVELOPMENT_SET}'s first {len(restarts)} lexelts (sorted)",
               "cpu_s": {str(width): {"rounds": values, "median": statistics.median(values),
                                      "least": min(values)}
                         for width, values in seconds.items()},
               "identical_ranks": True,
               "machine": {"cpus": os.cpu_count(), "load_average_before": load_before,
                           "load_average_after": os.getloadavg()}}
    out = write_results(results, args.out)
    for width, values in seconds.items():
        print(f"tile {width:>4}: median {statistics.median(values):.2f}, least {min(values):.2f} "
              f"CPU-s", file=sys.stderr)
    print(f"results in {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
