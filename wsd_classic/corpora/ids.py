"""Safe ids: lexelt names, instance ids and sense ids that key and answer files can hold.

Those files are lines of whitespace-separated fields with ``!!`` comments, and an answer's sense
may end in ``/weight``; public corpora nevertheless use ids with spaces (``"sjm 01303731:"``),
empty ones, ``!!`` in them, or senses such as ``x/2``. The lexical-sample reader gives each such
id a stand-in that reads back as one field (whitespace runs become ``_``, ``!!`` becomes ``!_``,
a weight-like ``/`` becomes ``_``), numbered ``~2``, ``~3``, ... when the stand-in is already an
id of the same kind. Ids that are already safe keep their spelling, so keys written elsewhere
still match them. ``write_id_map`` records every stand-in beside a run's outputs, so each answer
stays traceable to the corpus.
"""
from __future__ import annotations

import csv
import io
import os
from collections.abc import Iterable, Mapping
from pathlib import Path

from wsd_classic.atomic import write_atomically
from wsd_classic.corpora.keys import COMMENT, check_field, is_writable_sense

KINDS = ("lexelt", "instance", "sense")
ID_MAP_NAME = "ids.tsv"
ID_MAP_SUFFIX = "." + ID_MAP_NAME


def is_safe_field(value: str) -> bool:
    try:
        check_field(value)
    except ValueError:
        return False
    return True


def is_safe_sense(value: str) -> bool:
    return is_safe_field(value) and is_writable_sense(value)


def _stand_in(value: str, kind: str) -> str:
    token = "_".join(value.split()) or "_"
    while COMMENT in token:
        token = token.replace(COMMENT, "!_")
    if kind == "sense" and not is_safe_sense(token):
        token = token.replace("/", "_")
    return token


def safe_ids(originals: Iterable[str], kind: str) -> dict[str, str]:
    """Each distinct original id of one kind -> its safe id; distinct ids stay distinct."""
    originals = list(dict.fromkeys(originals))
    is_safe = is_safe_sense if kind == "sense" else is_safe_field
    taken = {value for value in originals if is_safe(value)}
    safe = {}
    for value in originals:
        if value in taken:
            safe[value] = value
            continue
        base = candidate = _stand_in(value, kind)
        number = 2
        while candidate in taken:
            candidate = f"{base}~{number}"
            number += 1
        taken.add(candidate)
        safe[value] = candidate
    return safe


def renamed(mapping: Mapping[str, str]) -> dict[str, str]:
    """Safe id -> original id, for the ids that needed a stand-in."""
    return {safe: original for original, safe in mapping.items() if safe != original}


def id_map_path(answers: str | os.PathLike) -> Path:
    """Where the id map of an answer file written by ``bin/tag --senseval`` goes."""
    return Path(f"{os.fspath(answers)}{ID_MAP_SUFFIX}")


def write_id_map(path: str | os.PathLike,
                 maps: Iterable[Mapping[str, Mapping[str, str]]]) -> None:
    """Write ``kind, safe id, original id`` rows (tab-separated, CSV quoting for originals with
    tabs, quotes or line breaks) for every stand-in of ``maps`` (each: kind -> safe -> original).

    The file is written even when no id was renamed, so a stale one never outlives its run.
    """
    rows = sorted({(kind, safe, original) for id_map in maps
                   for kind, pairs in id_map.items() for safe, original in pairs.items()},
                  key=lambda row: (KINDS.index(row[0]), row[1]))
    text = io.StringIO()
    writer = csv.writer(text, dialect="excel-tab", lineterminator="\n")
    writer.writerow(("kind", "safe_id", "original_id"))
    writer.writerows(rows)
    write_atomically(path, [text.getvalue().encode("utf-8")])
