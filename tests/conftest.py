"""Shared test set-up: where the corpora are, and running the command-line tools."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def shared_data() -> Path:
    return Path(os.environ.get("WSD_CLASSIC_DATA", REPO.parent / "shared" / "data"))


@pytest.fixture
def run_command(tmp_path):
    """Run ``bin/NAME args`` with a private cache; returns the CompletedProcess."""

    def run(name, *args, env=None, stdin=None):
        environment = {**os.environ, "WSD_CLASSIC_CACHE": str(tmp_path / "cache"), **(env or {})}
        return subprocess.run([str(REPO / "bin" / name), *map(str, args)], capture_output=True,
                              text=True, env=environment, input=stdin, cwd=tmp_path, timeout=600)

    return run


def assert_one_line_error(result, *fragments):
    """Non-zero exit, exactly one stderr line, no traceback, and the fragments in it."""
    assert result.returncode != 0, result.stdout
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
