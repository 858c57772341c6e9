"""``bin/score``: score an answer file with scorer2, or predictions with Raganato's scorer.

    bin/score KEY ANSWERS [--grain fine|coarse|mixed] [--sensemap FILE] [--minimal] [--json]
    bin/score --raganato GOLD PRED [--json]

The text output copies the original programs' (scorer2's four lines; Scorer.java's P=, R=, F1=)
so that figures can be compared with published ones at a glance; ``--json`` is for scripts.
"""
from __future__ import annotations

import argparse
import json

from wsd_classic.answers.senseval import read_answers
from wsd_classic.cli import entry_point
from wsd_classic.corpora.keys import read_key
from wsd_classic.corpora.sensemap import read_sensemap
from wsd_classic.scoring.raganato import RaganatoResult, score_raganato_files
from wsd_classic.scoring.scorer2 import GRAINS, Scorer2Result, score


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        description="Score SENSEVAL answers against a key as scorer2 does, or, with --raganato, "
                    "all-words predictions against a gold key as Raganato et al.'s scorer does.")
    parser.add_argument("key", metavar="KEY", help="the key file (with --raganato: GOLD)")
    parser.add_argument("answers", metavar="ANSWERS",
                        help="the answer file (with --raganato: PRED, the predictions)")
    parser.add_argument("--grain", choices=GRAINS,
                        help="scorer2 granularity (default fine; coarse and mixed need --sensemap)")
    parser.add_argument("--sensemap", metavar="FILE", help="scorer2 sensemap file")
    parser.add_argument("--minimal", action="store_true",
                        help="leave out key instances with several gold tags")
    parser.add_argument("--raganato", action="store_true",
                        help="use Raganato et al.'s all-words scorer")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    return parser


@entry_point
def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.raganato:
        if args.grain or args.sensemap or args.minimal:
            parser.error("--grain, --sensemap and --minimal are scorer2 options, "
                         "not --raganato ones")
        result = score_raganato_files(args.key, args.answers)
        print(json.dumps(_raganato_figures(result)) if args.json else _raganato_text(result))
        return 0
    grain = args.grain or "fine"
    if grain != "fine" and not args.sensemap:
        parser.error(f"--grain {grain} needs the sense groupings: --sensemap FILE")
    key = read_key(args.key)
    answers = read_answers(args.answers)
    sensemap = read_sensemap(args.sensemap) if args.sensemap else None
    result = score(key, answers, grain=grain, sensemap=sensemap, minimal=args.minimal)
    if args.json:
        print(json.dumps(_scorer2_figures(result)))
    else:
        print(_scorer2_text(result, args.answers, args.key))
    return 0


def _scorer2_figures(result: Scorer2Result) -> dict:
    return {"grain": result.grain, "precision": result.precision, "recall": result.recall,
            "attempted": result.attempted, "instances": result.instances,
            "answered": result.answered}


def _scorer2_text(result: Scorer2Result, answers_path: str, key_path: str) -> str:
    """scorer2's report, to the character."""
    minimal = " minimal" if result.minimal else ""
    correct, attempted, total = result.score_sum, result.attempted_sum, result.instances
    return "\n".join((
        f'{result.grain.capitalize()}-grained{minimal} score for "{answers_path}" '
        f'using key "{key_path}":',
        f" precision: {result.precision:.3f} ({correct:.2f} correct of {attempted:.2f} attempted)",
        f" recall: {result.recall:.3f} ({correct:.2f} correct of {total:.2f} in total)",
        f" attempted: {100 * result.attempted:.2f} % ({attempted:.2f} attempted of {total:.2f} "
        "in total)",
    ))


def _raganato_figures(result: RaganatoResult) -> dict:
    return {"scorer": "raganato", "precision": result.precision, "recall": result.recall,
            "f1": result.f1, "correct": result.correct, "answered": result.answered,
            "instances": result.instances}


def _raganato_text(result: RaganatoResult) -> str:
    """Scorer.java's report: percentages with one decimal."""
    return "\n".join(f"{name}=\t{100 * value:.1f}%" for name, value in
                     (("P", result.precision), ("R", result.recall), ("F1", result.f1)))
