"""wsd-classic: the reference classical supervised word sense disambiguation system.

``wsd_classic.load(task, system)`` gives a trained system to tag text from Python (docs/api.md).
"""

__version__ = "0.1.0"

from wsd_classic.errors import WsdError  # noqa: E402  (the API's one error type)

__all__ = ["WsdError", "installed", "load"]


def __getattr__(name: str):
    """``load`` and ``installed`` from ``wsd_classic.api``, imported on first use: importing
    the package (which every command and worker does) should not load spaCy."""
    if name in ("load", "installed"):
        from wsd_classic import api

        return getattr(api, name)
    raise AttributeError(f"module 'wsd_classic' has no attribute {name!r}")
