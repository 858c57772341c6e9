"""The import layers hold: import-linter's contracts in setup.cfg (``lint-imports``) are kept by
the package, and they catch an import that points back up the layers."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from conftest import REPO

LINT_IMPORTS = ("import sys; from importlinter.cli import lint_imports_command; "
                "sys.exit(lint_imports_command())")


def lint_imports(root: Path) -> subprocess.CompletedProcess:
    """``lint-imports`` on the package under ``root``, with setup.cfg's contracts."""
    return subprocess.run([sys.executable, "-c", LINT_IMPORTS, str(REPO / "setup.cfg"),
                           "--no-cache"], cwd=root, capture_output=True, text=True)


def test_the_package_keeps_its_import_contracts():
    result = lint_imports(REPO)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Contracts: 3 kept, 0 broken." in result.stdout


def lint_imports_with(tmp_path: Path, module: str, line: str) -> subprocess.CompletedProcess:
    """``lint_imports`` on a copy of the package with ``line`` added to ``module`` (a path in
    it)."""
    for package in ("wsd_classic", "bench"):
        shutil.copytree(REPO / package, tmp_path / package,
                        ignore=shutil.ignore_patterns("__pycache__", "results"))
    changed = tmp_path / "wsd_classic" / module
    changed.write_text(f"{changed.read_text()}\n{line}\n")
    result = lint_imports(tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    return result


def test_an_import_back_up_the_layers_breaks_the_contract(tmp_path):
    result = lint_imports_with(tmp_path, "corpora/model.py", "from wsd_classic.report import table")
    assert "wsd_classic.corpora is not allowed to import wsd_classic.report" in result.stdout


def test_an_import_cycle_between_sibling_modules_breaks_the_contract(tmp_path):
    result = lint_imports_with(tmp_path, "corpora/keys.py",
                               "from wsd_classic.corpora import lexsample")
    assert "No cycles are allowed in wsd_classic.corpora" in result.stdout
    assert "Contracts: 2 kept, 1 broken." in result.stdout  # the layers allow it


def test_the_package_importing_bench_breaks_the_contract(tmp_path):
    result = lint_imports_with(tmp_path, "tasks/engine.py", "from bench import cv")
    assert "wsd_classic.tasks.engine -> bench.cv" in result.stdout
