"""Tuned values as data: every parameter, map, weight and coefficient a study chose.

One JSON file per scope beside this module (``<scope>.json``: a task's name, ``systems`` for the
registry's defaults, ``features`` for the feature groups), each setting as

    {"value": <JSON>, "evidence": [{"command": ..., "results": ..., "sha256": ...}]}

where ``command`` is the bench command that measured it, ``results`` the results file it wrote
(relative to the repository) and ``sha256`` that file's SHA-256 when the value was registered.
Code reads values with ``value``; the bench scripts write them with ``register`` when asked
(``--register``), so re-tuning is one command and a diff. JSON arrays are read as tuples, so a
value compares and hashes as the literal it replaced did.
"""
from __future__ import annotations

import functools
import hashlib
import json
import os
from pathlib import Path

from wsd_classic.atomic import write_json_atomically

DIRECTORY = Path(__file__).resolve().parent
# The repository the evidence paths are relative to (a checkout: the package's parent).
REPOSITORY = DIRECTORY.parent.parent


def _frozen(item):
    if isinstance(item, list):
        return tuple(_frozen(element) for element in item)
    if isinstance(item, dict):
        return {key: _frozen(element) for key, element in item.items()}
    return item


@functools.cache
def _scope(scope: str) -> dict:
    path = DIRECTORY / f"{scope}.json"
    if not path.is_file():
        raise KeyError(f"no tuned values for {scope!r} ({path} is missing)")
    return json.loads(path.read_text(encoding="utf-8"))


def scopes() -> list[str]:
    return sorted(path.stem for path in DIRECTORY.glob("*.json"))


def entries(scope: str) -> dict[str, dict]:
    """Every setting of ``scope`` with its value and evidence, as stored."""
    return _scope(scope)


def value(scope: str, setting: str):
    """The registered value of ``setting`` in ``scope`` (arrays as tuples)."""
    entries_ = _scope(scope)
    if setting not in entries_:
        raise KeyError(f"no tuned value {setting!r} in {DIRECTORY / f'{scope}.json'}")
    return _frozen(entries_[setting]["value"])


def file_sha256(path: str | os.PathLike) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def evidence(command: str, results: str | os.PathLike) -> dict:
    """A piece of evidence: the command and its results file, fingerprinted now."""
    path = Path(results).resolve()
    return {"command": command, "results": path.relative_to(REPOSITORY).as_posix(),
            "sha256": file_sha256(path)}


def register(scope: str, setting: str, new_value, command: str,
             results: str | os.PathLike) -> Path:
    """Store ``new_value`` as ``setting`` of ``scope`` with its evidence, replacing the old
    entry; returns the settings file written."""
    path = DIRECTORY / f"{scope}.json"
    stored = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    stored[setting] = {"value": new_value, "evidence": [evidence(command, results)]}
    write_json_atomically(path, stored)
    _scope.cache_clear()
    return path
