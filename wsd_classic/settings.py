"""Where the project finds corpora, keeps models, results and caches.

Each location is resolved the same way: an explicit command-line value, then an environment
variable, then a default relative to the current directory (or the user's cache).
"""
from __future__ import annotations

import os
from pathlib import Path

DATA_ENV = "WSD_CLASSIC_DATA"
CACHE_ENV = "WSD_CLASSIC_CACHE"
NLTK_DATA_ENV = "WSD_CLASSIC_NLTK_DATA"
VECTORS_ENV = "WSD_CLASSIC_VECTORS"


def data_dir(explicit: str | os.PathLike | None = None) -> Path:
    """``--data-dir``, then ``$WSD_CLASSIC_DATA``, then ``./data``."""
    if explicit:
        return Path(explicit)
    if os.environ.get(DATA_ENV):
        return Path(os.environ[DATA_ENV])
    return Path("data")


def cache_dir() -> Path:
    """Preprocessing cache: ``$WSD_CLASSIC_CACHE`` or ``~/.cache/wsd-classic``."""
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "wsd-classic"


def nltk_data_dir() -> Path:
    """The private NLTK data root holding WordNet 3.0 (built by the installer)."""
    if os.environ.get(NLTK_DATA_ENV):
        return Path(os.environ[NLTK_DATA_ENV])
    return _data_home() / "nltk_data"


def vectors_dir() -> Path:
    """The pretrained word vectors in the project's own form (converted by the installer)."""
    if os.environ.get(VECTORS_ENV):
        return Path(os.environ[VECTORS_ENV])
    return _data_home() / "vectors"


def _data_home() -> Path:
    """Where the installer keeps what it prepares: ``$XDG_DATA_HOME/wsd-classic``."""
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "wsd-classic"


def models_dir(explicit: str | os.PathLike | None = None) -> Path:
    return Path(explicit) if explicit else Path("models")


def results_dir(explicit: str | os.PathLike | None = None) -> Path:
    return Path(explicit) if explicit else Path("results")
