"""No dead code: ``python -m vulture`` (configured in pyproject.toml) finds nothing in the package
and the benchmarks, and it does find a function nothing calls."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from conftest import REPO


def vulture(root: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "vulture"], cwd=root, capture_output=True,
                          text=True)


def test_vulture_finds_no_dead_code():
    result = vulture(REPO)
    assert (result.returncode, result.stdout) == (0, ""), result.stdout + result.stderr


def test_vulture_finds_a_function_nothing_calls(tmp_path):
    for name in ("wsd_classic", "bench"):
        shutil.copytree(REPO / name, tmp_path / name,
                        ignore=shutil.ignore_patterns("__pycache__", "results"))
    for name in ("pyproject.toml", "vulture_whitelist.py"):
        shutil.copy(REPO / name, tmp_path / name)
    atomic = tmp_path / "wsd_classic" / "atomic.py"
    atomic.write_text(atomic.read_text() + "\n\ndef forgotten_helper():\n    return 1\n")
    result = vulture(tmp_path)
    assert result.returncode == 3, result.stdout + result.stderr
    assert result.stdout == ("wsd_classic/atomic.py:"
                             f"{len(atomic.read_text().splitlines()) - 1}: unused function "
                             "'forgotten_helper' (60% confidence)\n")
