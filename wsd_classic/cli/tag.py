"""``bin/tag``: the sense distributions a trained system gives the words of new text.

    bin/tag [--task semcor|senseval2-ls|...] [--system svm] [--format text|jsonl|senseval]
            [--explain] [--models-dir DIR] [--output FILE] [FILE ...]  (stdin without FILE)
    bin/tag --scheduler tcp://HOST:8786|local:N [...] [FILE ...]  (on a Dask cluster's workers)
    bin/tag --senseval FILE.xml [--task ...] [--system ...]    (answer lines for its instances)
    bin/tag --raganato FILE.data.xml [--format key|jsonl]      (an all-words task's models)

Without ``--task``: the all-words models (every content word a target) when they are installed,
else the SENSEVAL-2 lexical sample's; the summary line says which task was used.
"""
from __future__ import annotations

import argparse
import contextlib
import sys
from pathlib import Path
from typing import Iterator

from wsd_classic import api, settings, systems
from wsd_classic.cli import entry_point
from wsd_classic.atomic import write_lines_atomically
from wsd_classic.corpora.ids import ID_MAP_SUFFIX, id_map_path, write_id_map
from wsd_classic.tasks import catalogue, distributed, tagging
from wsd_classic.tasks.timing import StageTimer


def parse_args(argv):
    parser = argparse.ArgumentParser(prog="tag", description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="*", metavar="FILE",
                        help="plain UTF-8 text files ('-' or none: standard input)")
    parser.add_argument("--task", help="the task the model was trained for (default: the "
                                       "all-words models when installed, else senseval2-ls; "
                                       "an all-words task with --raganato)")
    parser.add_argument("--system", default="svm", help=_systems_help(_models_root(argv)))
    parser.add_argument("--format", choices=sorted({*tagging.TEXT_FORMATS,
                                                    *tagging.RAGANATO_FORMATS}),
                        help="text (default), jsonl or senseval; key or jsonl with --raganato")
    parser.add_argument("--senseval", type=Path, metavar="FILE.xml",
                        help="tag the instances of a SENSEVAL lexical-sample file instead")
    parser.add_argument("--raganato", type=Path, metavar="FILE.data.xml",
                        help="tag the instances of a Raganato all-words file instead")
    parser.add_argument("--explain", action="store_true",
                        help="add the evidence behind each target's best sense")
    parser.add_argument("--models-dir", type=Path, help="root of saved models (default models/)")
    parser.add_argument("--output", "-o", type=Path,
                        help="write here (atomically) instead of standard output; with "
                             "--senseval, FILE.ids.tsv beside it maps replaced ids back")
    parser.add_argument("--jobs", type=int, default=1, help="spaCy processes (default 1)")
    parser.add_argument("--scheduler", type=distributed.check_scheduler,
                        metavar="ADDRESS|local:N",
                        help="tag plain text on the workers of the Dask scheduler at ADDRESS "
                             "(tcp://host:8786), or of N local worker processes (local:N); needs "
                             "pip install 'wsd-classic[dask]'")
    parser.add_argument("--quiet", "-q", action="store_true", help="no summary on stderr")
    args = parser.parse_args(argv)
    if args.senseval and args.raganato:
        parser.error("give --senseval or --raganato, not both")
    if (args.senseval or args.raganato) and args.files:
        parser.error("--senseval and --raganato take no text FILE")
    all_words = catalogue.of_kind(catalogue.ALL_WORDS)
    if args.raganato:
        args.task = args.task or all_words[0]
        args.format = args.format or "key"
        if args.task not in all_words:
            parser.error(f"--raganato tags with an all-words task's models: --task "
                         f"{' or '.join(all_words)}")
        if args.format not in tagging.RAGANATO_FORMATS:
            parser.error(f"--raganato writes {' or '.join(tagging.RAGANATO_FORMATS)}, "
                         f"not {args.format}")
    else:
        args.format = args.format or ("senseval" if args.senseval else "text")
        if args.format not in tagging.TEXT_FORMATS:
            parser.error(f"--format {args.format} is for --raganato only")
        if args.senseval and args.format != "senseval":
            parser.error("--senseval writes answer lines: --format senseval")
    if (args.senseval or args.raganato) and args.explain:
        parser.error("--explain applies to plain text input")
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    if args.scheduler and (args.senseval or args.raganato):
        parser.error("--scheduler applies to plain text input")
    if args.scheduler and args.jobs != 1:
        parser.error("--jobs applies without --scheduler (local:N starts N worker processes)")
    args.files = args.files or ["-"]
    return args


def _models_root(argv) -> Path:
    """``--models-dir`` from the command line, for the help: it lists what is installed there."""
    early = argparse.ArgumentParser(add_help=False)
    early.add_argument("--models-dir", type=Path)
    return settings.models_dir(early.parse_known_args(argv)[0].models_dir)


def _systems_help(models_root: Path) -> str:
    """What the task's systems are: those installed under ``models_root`` (unverified, as
    listing them must stay quick; bin/models verifies), then those bin/train makes."""
    by_task: dict[str, list[str]] = {}
    for entry in api.installed(models_root, verified=False):
        by_task.setdefault(entry.task, []).append(
            entry.system + (" (on request)" if entry.on_request else ""))
    found = "; ".join(f"{task}: {', '.join(names)}" for task, names in by_task.items())
    trainable = "; ".join(
        f"{name}: {', '.join([*task.systems, *(f'{system} (on request)' for system in task.on_request)])}"
        for name, task in catalogue.TASKS.items()
        if task.kind in (catalogue.ALL_WORDS, catalogue.LEXICAL_SAMPLE))
    return (f"one of the task's installed systems (default svm). Installed in {models_root}/: "
            f"{found or 'none'}. bin/train --task T [--systems LIST] makes: {trainable}")


@entry_point
def main(argv=None):
    args = parse_args(argv)
    models_root = settings.models_dir(args.models_dir)
    chosen_by_default = args.task is None
    if chosen_by_default:
        args.task = tagging.default_task(models_root)
    # An ad-hoc lexical sample (bin/train --train) has models but no catalogue entry.
    # Systems trained on request (combo, rank) tag as the task's default ones do.
    known = (catalogue.TASKS[args.task].systems + catalogue.TASKS[args.task].on_request
             if args.task in catalogue.TASKS else None)
    systems.check_systems([args.system], known)
    timer = StageTimer()
    counts = tagging.TagCounts()
    with contextlib.ExitStack() as cluster:
        if args.senseval:
            lines = tagging.tag_senseval_file(args.senseval, args.task, args.system, models_root,
                                              args.jobs, counts)
        elif args.raganato:
            lines = tagging.tag_raganato_file(args.raganato, args.task, args.system, models_root,
                                              args.format, args.jobs, counts)
        else:
            with timer.stage("load"):
                targets = _text_targets(args, models_root, counts, cluster,
                                        None if args.output else sys.stdout.flush)
            # closed before the cluster is, should anything stop the writing
            lines = cluster.enter_context(contextlib.closing(
                tagging.format_targets(targets, args.format)))
        with timer.stage("tag"):
            if args.output is not None:
                write_lines_atomically(args.output, lines)
            else:
                for line in lines:
                    sys.stdout.write(line + "\n")
                sys.stdout.flush()
    if args.senseval and args.output is not None:
        write_id_map(id_map_path(args.output), [counts.renamed_ids])
    if not args.quiet:
        if args.senseval and args.output is None and any(counts.renamed_ids.values()):
            print(f"tag: some ids of {args.senseval} cannot stand in an answer line and were "
                  "replaced; give --output FILE to get the map back beside it "
                  f"(FILE{ID_MAP_SUFFIX})", file=sys.stderr)
        for name in counts.empty:
            print(f"tag: {name}: no text to tag", file=sys.stderr)
        used = f"task {args.task}{' (the default)' if chosen_by_default else ''}, {args.system}"
        print(f"tag: {used}: {_summary(counts, timer)}", file=sys.stderr)
    return 0


def _text_targets(args, models_root, counts: tagging.TagCounts, cluster: contextlib.ExitStack,
                  on_pause) -> Iterator[tagging.TaggedTarget]:
    """The targets of the text files, tagged here or on the workers of ``--scheduler``'s
    cluster (kept open by ``cluster`` until the output is written); ``on_pause`` where the
    input paused, the answers before it written."""
    if args.scheduler is None:
        nlp = tagging.tagging_pipeline(args.task, args.system, models_root, args.explain)
        return tagging.tag_text(nlp, args.files, counts, jobs=args.jobs, on_pause=on_pause)
    client = cluster.enter_context(distributed.connected(args.scheduler))
    tagger = distributed.cluster_tagger(client, distributed.PipelineSpec(
        args.task, args.system, str(models_root.resolve()), args.explain))
    return tagging.tag_sources(args.files, counts, tagger, on_pause=on_pause)


def _summary(counts: tagging.TagCounts, timer: StageTimer) -> str:
    seconds = timer.seconds.get("tag", 0.0)
    rate = f", {counts.tokens / seconds:,.0f} tokens/s" if counts.tokens and seconds else ""
    tokens = f" in {counts.tokens:,} tokens" if counts.tokens else ""
    return (f"{counts.targets:,} targets{tokens} of {len(counts.documents)} document(s){rate}; "
            f"{timer.summary()}")
