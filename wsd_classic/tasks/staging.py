"""Output directories that change all at once, and a lock so that runs do not interleave.

A run builds the new content of ``models/<task>/`` or ``results/<task>/`` in a staging directory
beside it (starting from a copy of what is there, so other systems' files survive) and swaps it
in when everything is written. Killed at any point, the directory is either as before or
complete: an interrupted swap is undone by the next run (``recover``), and stale staging
directories are removed.
"""
from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import sys
from pathlib import Path


def _old(final: Path) -> Path:
    return final.parent / f".{final.name}.old"


def _staging_dirs(final: Path):
    return final.parent.glob(f".{final.name}.staging-*")


def recover(final: Path) -> None:
    """Finish or undo what an interrupted run left around ``final``."""
    old = _old(final)
    if old.exists():
        if final.exists():
            shutil.rmtree(old)
        else:
            os.rename(old, final)
    for staging in _staging_dirs(final):
        shutil.rmtree(staging, ignore_errors=True)


@contextlib.contextmanager
def staged_directory(final: Path):
    """Yield a staging copy of ``final``; on success it replaces ``final``, on error it vanishes."""
    final = Path(final)
    final.parent.mkdir(parents=True, exist_ok=True)
    recover(final)
    staging = final.parent / f".{final.name}.staging-{os.getpid()}"
    if final.exists():
        shutil.copytree(final, staging, copy_function=os.link)
    else:
        staging.mkdir()
    try:
        yield staging
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    old = _old(final)
    if final.exists():
        os.rename(final, old)
    os.rename(staging, final)
    shutil.rmtree(old, ignore_errors=True)


@contextlib.contextmanager
def exclusive(directory: Path, name: str):
    """Hold an exclusive lock on ``directory/.name.lock``; a second holder waits, and says so.

    ``flock`` locks die with their process, so a killed run never leaves a stale lock.
    """
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    with open(directory / f".{name}.lock", "a+") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print(f"waiting for another run writing {directory / name} to finish ...",
                  file=sys.stderr, flush=True)
            fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
