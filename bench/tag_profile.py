"""Where one ``bin/tag`` run's CPU goes, stage by stage. Writes bench/results/tag-profile.json.

    python -m bench tag_profile [--task semcor] [--system svm] [--models-dir models]
                                [--contexts 600] [--repeat 1] [--batch N] [--out FILE]

Runs ``bin/tag --format jsonl`` in this process on the first ``--contexts`` SENSEVAL-2 test
contexts as plain text, ``--repeat`` times in one file (output to /dev/null), with the functions below wrapped so that each
stage's CPU time is counted exclusively (a stage's time excludes the stages it calls). What no
wrapper claims is spaCy's pipeline, reading the input and the command's own work. Wrapping adds
a little CPU to each call; the stages are coarse (per lexelt, per target or per batch), so it
stays small beside them. ``--batch N``: a batch of the tagging closes at N characters and N
tokens instead of ``tagging.BATCH_CHARS`` and ``spacy_component.BATCH_TOKENS`` (what larger
batches would cost and save).
"""
from __future__ import annotations

import contextlib
import os
import resource
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from bench.tag import write_contexts, write_results
from bench.tag_scale import run_arguments
from wsd_classic import modelstore, settings, spacy_component
from wsd_classic.cli import tag as tag_cli
from wsd_classic.features import embeddings, featurizer, gloss
from wsd_classic.knowledge import pagerank, word_to_word
from wsd_classic.systems import hybrid
from wsd_classic.tasks import tagger, tagging

REPO = Path(__file__).resolve().parent.parent
# (owner, attribute, stage)
STAGES = [
    (tagging, "tagging_pipeline", "start-up: spaCy and the model loaded"),
    (modelstore.LazyModels, "_build", "estimators built (per lexelt)"),
    (embeddings._Source, "gloss_embeddings", "gloss embeddings (per lexelt)"),
    (gloss, "signatures", "gloss signatures (per lexelt)"),
    (tagger.ContextCache, "__init__", "featurizing: a doc's analysis"),
    (tagger.ContextCache, "instance", "featurizing: each target's features"),
    (tagger.Tagger, "_features", "featurizing: each target's features"),
    (featurizer, "row", "featurizing: each target's features"),
    (tagger.Tagger, "predict", "prediction (per lexelt and batch)"),
    (tagger.Tagger, "decided", "decisions and the discourse pull"),
    (tagging, "_tagged", "writing"),
    (tagging, "jsonl_line", "writing"),
    (pagerank, "personalised_pagerank", "ppr: the walks' products"),
    (word_to_word.WordToWord, "distributions", "ppr: contexts, restarts and sums"),
    (hybrid.HybridScorer, "mixed_distributions", "hybrid: the mixture"),
]
REST = "spaCy's pipeline, reading the input, the command"


class StageClock:
    """Exclusive CPU seconds per stage of the wrapped functions."""

    def __init__(self):
        self.seconds: dict[str, float] = defaultdict(float)
        self.stack: list[list] = []

    def wrap(self, owner, attribute: str, stage: str) -> None:
        original = getattr(owner, attribute)

        def wrapper(*args, **kwargs):
            now = time.process_time()
            if self.stack:
                self.seconds[self.stack[-1][0]] += now - self.stack[-1][1]
            self.stack.append([stage, now])
            try:
                return original(*args, **kwargs)
            finally:
                end = time.process_time()
                self.seconds[stage] += end - self.stack.pop()[1]
                if self.stack:
                    self.stack[-1][1] = end

        setattr(owner, attribute, wrapper)


def count_walks() -> list[int]:
    """The personalisations each later ``personalised_pagerank`` call walks, appended to the
    list returned."""
    walks: list[int] = []
    original = pagerank.personalised_pagerank

    def counted(walk, personalisation, *rest):
        walks.append(personalisation.shape[1])
        return original(walk, personalisation, *rest)

    pagerank.personalised_pagerank = counted
    return walks


def main() -> int:
    parser = run_arguments(__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--batch", type=int)
    parser.add_argument("--out", type=Path,
                        help="default bench/results/tag-profile.json (tag-profile-Nx.json with "
                             "--repeat N)")
    args = parser.parse_args()
    args.out = args.out or REPO / "bench" / "results" / (
        "tag-profile.json" if args.repeat == 1 else f"tag-profile-{args.repeat}x.json")
    load_before = os.getloadavg()
    if args.batch:
        tagging.BATCH_CHARS = spacy_component.BATCH_TOKENS = args.batch
    walks = count_walks()
    clock = StageClock()
    for owner, attribute, stage in STAGES:
        clock.wrap(owner, attribute, stage)
    with tempfile.TemporaryDirectory() as scratch:
        text = Path(scratch) / "contexts.txt"
        write_contexts(settings.data_dir(args.data_dir), text, args.contexts)
        text.write_text(text.read_text(encoding="utf-8") * args.repeat, encoding="utf-8")
        start = time.process_time()
        with open(os.devnull, "w") as sink, contextlib.redirect_stdout(sink):
            tag_cli.main(["--task", args.task, "--system", args.system, "--models-dir",
                          str(args.models_dir), "--format", "jsonl", "-q", str(text)])
        total = time.process_time() - start
    stages = dict(sorted(clock.seconds.items(), key=lambda item: -item[1]))
    stages[REST] = total - sum(stages.values())
    usage = resource.getrusage(resource.RUSAGE_SELF)
    results = {"task": args.task, "system": args.system, "contexts": args.contexts,
               "repeat": args.repeat, "batch_chars": tagging.BATCH_CHARS,
               "batch_tokens": spacy_component.BATCH_TOKENS,
               "cpu_s": total, "stages_cpu_s": stages, "ppr_walks": sum(walks),
               "ppr_walk_blocks": len(walks),
               "process_cpu_s": usage.ru_utime + usage.ru_stime,
               "peak_rss_mb": usage.ru_maxrss / 1024,
               "machine": {"cpus": os.cpu_count(), "load_average_before": load_before,
                           "load_average_after": os.getloadavg()}}
    out = write_results(results, args.out)
    for stage, seconds in stages.items():
        print(f"{stage:<50} {seconds:6.2f} CPU-s", file=sys.stderr)
    print(f"{'in all (after imports)':<50} {total:6.2f} CPU-s; peak {results['peak_rss_mb']:,.0f} "
          f"MB; results in {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
