"""``bin/report``: the comparison table with confidence intervals, significance tests, calibration
and pictures, from saved results (nothing is retrained).

    bin/report [--task senseval2-ls|semcor|sensebench|ambistory|NAME] [--format html|md] [--out DIR]
               [--results-dir DIR] [--data-dir DIR] [--key FILE] [--sensemap FILE]
               [--training FILE]

NAME is the results folder of a ``bin/train --train`` run; its key is the ``test.key`` that
``--split`` writes there, or ``--key``.
"""
from __future__ import annotations

import argparse
from pathlib import Path

from wsd_classic import settings
from wsd_classic.cli import entry_point
from wsd_classic.atomic import write_atomically
from wsd_classic.errors import WsdError
from wsd_classic.report import html, markdown
from wsd_classic.tasks import catalogue
from wsd_classic.tasks.timing import StageTimer

STEM = "report"


def parse_args(argv):
    parser = argparse.ArgumentParser(prog="report", description=__doc__.split("\n")[0])
    default = catalogue.of_kind(catalogue.LEXICAL_SAMPLE)[0]
    parser.add_argument("--task", default=default,
                        help=f"a registered task ({', '.join(catalogue.TASKS)}; default "
                             f"{default}), a benchmark (sensebench, ambistory), or the results "
                             "folder name of a bin/train --train run")
    parser.add_argument("--format", choices=("html", "md"), default="html",
                        help="html (one self-contained file, the default) or md (Markdown with "
                             "PNG files beside it)")
    parser.add_argument("--out", type=Path,
                        help="where to write the report (default: the task's results folder)")
    parser.add_argument("--results-dir", type=Path,
                        help="root of the results bin/train wrote (default results/)")
    parser.add_argument("--data-dir", type=Path,
                        help=f"corpora (default ${settings.DATA_ENV} or ./data)")
    parser.add_argument("--key", type=Path, help="the test key (default: the registered one, or "
                                                 "the results folder's test.key)")
    parser.add_argument("--sensemap", type=Path, help="sense groupings for coarse scoring "
                                                      "(default: the registered one, if any)")
    parser.add_argument("--training", type=Path,
                        help="training key or XML file, for the per-lexelt training sizes "
                             "(default: the registered one, if any)")
    return parser.parse_args(argv)


def _lexical_sample_files(args, task_dir: Path) -> tuple[Path, Path | None, Path | None]:
    """The key, sensemap and training file: explicit options, else the registered task's files,
    else the ``test.key`` a ``--split`` run leaves in its results folder."""
    key, sensemap, training = args.key, args.sensemap, args.training
    task = catalogue.TASKS.get(args.task)
    if task is not None and task.files is not None:
        key = key or task.path("key", args.data_dir)
        sensemap = sensemap or task.path("sensemap", args.data_dir)
        training = training or task.path("training_key", args.data_dir)
    elif key is None:
        key = task_dir / "test.key"
        if not key.is_file():
            raise WsdError(f"no key for task {args.task}: test.key (written by bin/train --split) "
                           "is not there; give --key FILE", task_dir)
    return key, sensemap, training


def write_report(document, out_dir: Path, output_format: str) -> Path:
    """Write the document (and, for Markdown, its figures); returns the report's path."""
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise WsdError(f"cannot create the output folder: {error.strerror or error}",
                       out_dir) from None
    if output_format == "html":
        path = out_dir / f"{STEM}.html"
        write_atomically(path, [html.render(document).encode("utf-8")])
        return path
    for figure in document.figures():
        write_atomically(out_dir / markdown.figure_filename(STEM, figure), [figure.png])
    path = out_dir / f"{STEM}.md"
    write_atomically(path, [markdown.render(document, STEM).encode("utf-8")])
    return path


@entry_point
def main(argv=None):
    args = parse_args(argv)
    # Imported here so that --help and option errors answer at once, without matplotlib/SciPy.
    from wsd_classic.benchmarks.report import BENCHMARKS, benchmark_document
    from wsd_classic.report import allwords, compose, lexsample

    timer = StageTimer()
    task_dir = settings.results_dir(args.results_dir) / args.task
    summary = []
    task = catalogue.TASKS.get(args.task)
    if args.task in BENCHMARKS:
        with timer.stage("read"):
            document = benchmark_document(args.task, task_dir)
    elif task is not None and task.kind == catalogue.ALL_WORDS:
        with timer.stage("score"):
            document = compose.all_words_document(allwords.load(task_dir, args.data_dir))
    else:
        if not task_dir.is_dir():
            raise WsdError(f"no results for task {args.task}: run bin/train first", task_dir)
        with timer.stage("score"):
            key, sensemap, training = _lexical_sample_files(args, task_dir)
            results = lexsample.load(args.task, task_dir, key, sensemap, training,
                                     published=task is not None and task.published)
        with timer.stage("draw"):
            document = compose.lexical_sample_document(results)
        for system in results.systems:
            calibration = f", ECE {system.calibration.ece:.3f}" if system.calibration else ""
            fine = compose.recall_with_interval(system.score("fine"))
            summary.append(f"{system.name}: fine R {fine}{calibration}")
    with timer.stage("write"):
        path = write_report(document, args.out or task_dir, args.format)
    print("\n".join([*summary, f"report written to {path}", timer.summary()]))
