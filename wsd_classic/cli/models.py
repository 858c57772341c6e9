"""``bin/models``: the trained models installed under a models directory, each verified.

    bin/models [--models-dir DIR] [--json]

One row per ``<task>/<system>/model.npz``: its lexelts, creation time, the SHA-256 of the training
file (first 12 digits), the wsd-classic/spaCy/scikit-learn versions it was made with and its size.
A file that fails verification is listed with what is wrong and makes the exit status 1. Below
the table: the systems ``bin/tag`` runs without a model file (``wn1``), and each task's systems
trained on request only, marked when installed (``--json``: ``on_request`` in each record).
"""
from __future__ import annotations

import argparse
import json

from wsd_classic import api, modelstore, settings
from wsd_classic.cli import entry_point
from wsd_classic.tasks import catalogue

SHOWN_VERSIONS = ("wsd-classic", "spacy", "scikit-learn")


def parse_args(argv):
    parser = argparse.ArgumentParser(prog="models", description=__doc__.split("\n")[0])
    parser.add_argument("--models-dir", help="root of saved models (default models/)")
    parser.add_argument("--json", action="store_true", help="one JSON object per model")
    return parser.parse_args(argv)


@entry_point
def main(argv=None):
    args = parse_args(argv)
    root = settings.models_dir(args.models_dir)
    found = modelstore.installed(root)
    if args.json:
        for model in found:
            print(json.dumps({"task": model.task, "system": model.system,
                              "lexelts": model.lexelts, "created": model.created,
                              "training_sha256": model.training_sha256,
                              "versions": model.versions, "bytes": model.size,
                              "path": str(model.path), "problem": model.problem,
                              "on_request": model.system in _on_request(model.task)}))
        return 1 if any(model.problem for model in found) else 0
    if not found:
        print(f"no models in {root}/ (train some with bin/train --models-dir {root})")
    else:
        rows = [[model.task, model.system, *_described(model), _size(model.size),
                 "ok" if model.problem is None else f"UNUSABLE: {model.problem}"]
                for model in found]
        print(_aligned(["task", "system", "lexelts", "created", "training sha256",
                        "versions (" + " / ".join(SHOWN_VERSIONS) + ")", "size", "status"], rows))
    print("\n".join(["", *_others(found)]))
    return 1 if any(model.problem for model in found) else 0


def _on_request(task: str) -> tuple[str, ...]:
    return catalogue.TASKS[task].on_request if task in catalogue.TASKS else ()


def _others(found: list[modelstore.InstalledModel]) -> list[str]:
    """The systems bin/tag takes without a model file, and each task's systems trained on
    request only, installed or not."""
    free = ", ".join(f"{entry.task}/{entry.system}" for entry in api.without_model_file())
    lines = [f"bin/tag needs no model file for: {free}"]
    usable = {(model.task, model.system) for model in found if model.problem is None}
    for name, task in catalogue.TASKS.items():
        if task.on_request:
            listed = ", ".join(system + (" (installed)" if (name, system) in usable else "")
                               for system in task.on_request)
            lines.append(f"{name} on request (bin/train --task {name} --systems "
                         f"{','.join(task.on_request)}): {listed}")
    return lines


def _aligned(header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(row[column]) for row in [header, *rows]) for column in range(len(header))]
    return "\n".join("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip()
                     for row in [header, *rows])


def _described(model: modelstore.InstalledModel) -> list[str]:
    if model.problem is not None:
        return ["-"] * 4
    versions = " / ".join(model.versions.get(name, "?") for name in SHOWN_VERSIONS)
    return [str(model.lexelts), model.created, model.training_sha256[:12] or "-", versions]


def _size(size: int) -> str:
    for unit in ("B", "KB", "MB"):
        if size < 1024 or unit == "MB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
