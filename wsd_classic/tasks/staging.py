"""Output directories that change all at once, and a lock so that runs do not interleave.

A run builds the new content of ``models/<task>/`` or ``results/<task>/`` in a staging directory
beside it (starting from a copy of what is there, so other systems' files survive) and swaps it
in when everything is written. Killed at any point, the directory is either as before or
complete: on Linux the swap is one atomic exchange of the two directories; elsewhere it is two
renames, and a swap interrupted between them is undone by the next run (``recover``), which also
removes stale staging directories.
"""
from __future__ import annotations

import contextlib
import ctypes
import errno
import fcntl
import json
import os
import shutil
import sys
from collections.abc import Iterable
from pathlib import Path

from wsd_classic.systems import SYSTEMS


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
    try:
        # inside the try: a Ctrl-C during the copy must not leave a partial copy behind
        if final.exists():
            shutil.copytree(final, staging, copy_function=os.link)
        else:
            staging.mkdir()
        yield staging
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    if final.exists() and _exchange(staging, final):
        shutil.rmtree(staging, ignore_errors=True)  # it holds the previous content now
        return
    old = _old(final)
    if final.exists():
        os.rename(final, old)
    os.rename(staging, final)
    shutil.rmtree(old, ignore_errors=True)


_AT_FDCWD = -100
_RENAME_EXCHANGE = 2


def _exchange(first: Path, second: Path) -> bool:
    """Swap two directories in one atomic step (Linux ``renameat2``); False where unsupported."""
    rename = getattr(ctypes.CDLL(None, use_errno=True), "renameat2", None)
    if rename is None:
        return False
    if rename(_AT_FDCWD, os.fsencode(first), _AT_FDCWD, os.fsencode(second),
              _RENAME_EXCHANGE) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP):  # an old kernel or file system
        return False
    raise OSError(code, os.strerror(code), os.fspath(second))


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


def previous_scores(path: Path, keep: Iterable[str] = ()) -> dict:
    """What an earlier run's ``scores.json`` holds of registered systems other than ``keep``
    (their files remain beside this run's); nothing if it is missing or unreadable."""
    try:
        previous = json.loads(Path(path).read_text())
    except (OSError, ValueError):
        return {}
    if not isinstance(previous, dict):
        return {}
    keep = set(keep)
    return {system: figures for system, figures in previous.items()
            if system in SYSTEMS and system not in keep and isinstance(figures, dict)}
