"""``bin/compare``: your all-words predictions beside the classic rows, in a paper's table.

    bin/compare --dataset FILE.data.xml|NAME [--gold FILE.gold.key.txt]
                --predictions LABEL=FILE [--predictions LABEL=FILE ...]
                [--systems LIST|none] [--format md|csv|latex|html] [-o OUT]
                [--models-dir DIR] [--data-dir DIR] [--semcor DIR] [--jobs N]

``--dataset`` (repeatable) takes a registered name (ALL, senseval2, ..., lexen-v1, 42D, ...) or a
``*.data.xml`` path; ``--gold`` gives its gold key (once per dataset, in order), else the
registered one or ``NAME.gold.key.txt`` beside it. A predictions file is in Raganato's key
format, SenseBench's one key a line, or ``bin/tag``'s JSON lines; with several datasets, give
``LABEL=FILE`` once per dataset, in their order. The classic rows are every installed all-words
model (``--systems`` picks; ``none`` for no classic row), tagged once per dataset and cached.
docs/compare.md describes every figure.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from wsd_classic import settings
from wsd_classic.atomic import write_atomically
from wsd_classic.cli import entry_point
from wsd_classic.errors import WsdError

FORMATS = ("md", "csv", "latex", "html")


def parse_args(argv):
    parser = argparse.ArgumentParser(prog="compare", description=__doc__.split("\n")[0])
    parser.add_argument("--dataset", action="append", required=True, metavar="FILE|NAME",
                        help="a *.data.xml file or a registered dataset name (repeatable)")
    parser.add_argument("--gold", action="append", type=Path, default=[], metavar="FILE",
                        help="the dataset's gold key (once per --dataset, in order)")
    parser.add_argument("--predictions", action="append", default=[], metavar="LABEL=FILE",
                        help="a row of predictions (repeatable; once per dataset)")
    parser.add_argument("--systems", help="comma-separated classic rows (default: every "
                                          "installed all-words system; none: no classic row)")
    parser.add_argument("--format", choices=FORMATS, default="md",
                        help="md (default), csv (one line per figure), latex (booktabs) or "
                             "html (with a picture)")
    parser.add_argument("-o", "--output", type=Path, metavar="OUT",
                        help="write here, whole or not at all (default: standard output)")
    parser.add_argument("--models-dir", type=Path, help="root of saved models (default models/)")
    parser.add_argument("--data-dir", type=Path,
                        help=f"corpora (default ${settings.DATA_ENV} or ./data)")
    parser.add_argument("--semcor", type=Path, metavar="DIR",
                        help="SemCor 3.0 for the seen / unseen splits (default: the registered, "
                             "verified copy in the data directory)")
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1),
                        help="processes for spaCy when a classic row is tagged (default: 2)")
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    return args


def _predictions(values: list[str]) -> dict[str, list[Path]]:
    """``LABEL=FILE`` values, each label's files in the order given."""
    found: dict[str, list[Path]] = {}
    for value in values:
        label, sign, path = value.partition("=")
        if not sign or not label.strip() or not path:
            raise WsdError(f"--predictions {value!r}: expected LABEL=FILE")
        found.setdefault(label.strip(), []).append(Path(path))
    return found


def _systems(value: str | None) -> list[str] | None:
    if value is None:
        return None
    names = [name.strip() for name in value.split(",") if name.strip()]
    if not names:
        raise WsdError("--systems names nothing (none: no classic row)")
    return [] if names == ["none"] else names


@entry_point
def main(argv=None):
    args = parse_args(argv)
    # Imported here so that --help and option errors answer at once, without spaCy and SciPy.
    from wsd_classic.report import comparison as tables
    from wsd_classic.tasks import comparison

    predictions = _predictions(args.predictions)
    models_root = settings.models_dir(args.models_dir)
    datasets = comparison.resolve_datasets(args.dataset, args.gold, args.data_dir)
    classic = comparison.classic_systems(_systems(args.systems), models_root)
    if not predictions and not classic:
        raise WsdError("nothing to compare: give --predictions LABEL=FILE or classic --systems")
    result = comparison.compare(datasets, predictions, classic, models_root, args.data_dir,
                                args.semcor, args.jobs)
    text = tables.render(result, args.format)
    if args.output is None:
        sys.stdout.write(text)
    else:
        write_atomically(args.output, [text.encode("utf-8")])
        print(f"{args.format} table written to {args.output}", file=sys.stderr)
