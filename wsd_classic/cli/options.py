"""Command-line options that several commands share."""
from __future__ import annotations

import argparse
import os
from pathlib import Path

from wsd_classic import settings


def add_location_options(parser: argparse.ArgumentParser, processes_for: str) -> None:
    """``--data-dir``, ``--models-dir``, ``--out-dir`` and ``--jobs`` (the processes that run
    ``processes_for``), as ``bin/train`` and ``bin/evaluate`` take them."""
    parser.add_argument("--data-dir", type=Path, help=f"corpora (default ${settings.DATA_ENV} "
                                                      "or ./data)")
    parser.add_argument("--models-dir", type=Path, help="root of saved models (default models/)")
    parser.add_argument("--out-dir", type=Path, help="root of results (default results/)")
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1),
                        help=f"processes for {processes_for} (default: 2)")
