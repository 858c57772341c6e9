"""The last line of defence: a bug in any command is one line, exit status 70, the traceback in a
file, and no output left behind."""
import os
import re
import subprocess
import sys
import textwrap

import pytest

from conftest import FIXTURES, REPO
from wsd_classic.cli import INTERNAL_ERROR_DIR, INTERNAL_ERROR_STATUS, entry_point

LINE = re.compile(r"^(?P<program>\S+): internal error: (?P<summary>.+) \(details: (?P<file>.+)\)$")


@entry_point
def _buggy(argv=None):
    raise KeyError("no such thing\nacross two lines")


def test_a_bug_is_one_line_exit_70_and_a_traceback_file(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("WSD_CLASSIC_CACHE", str(tmp_path / "cache"))
    assert _buggy([]) == INTERNAL_ERROR_STATUS == 70
    error = capsys.readouterr().err
    assert len(error.splitlines()) == 1 and "Traceback" not in error
    match = LINE.match(error.strip())
    assert match, error
    assert match["summary"] == "KeyError: 'no such thing\\nacross two lines'"
    report = match["file"]
    assert os.path.dirname(report) == str(tmp_path / "cache" / INTERNAL_ERROR_DIR)
    text = open(report, encoding="utf-8").read()
    assert text.startswith("Traceback") and "in _buggy" in text and "KeyError" in text


def test_the_traceback_goes_to_the_temporary_directory_when_the_cache_is_unwritable(
        tmp_path, monkeypatch, capsys):
    blocked = tmp_path / "cache"
    blocked.write_text("a file where the cache directory should be")
    monkeypatch.setenv("WSD_CLASSIC_CACHE", str(blocked))
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)  # re-read TMPDIR
    assert _buggy([]) == 70
    match = LINE.match(capsys.readouterr().err.strip())
    assert os.path.dirname(match["file"]) == str(tmp_path / "tmp")


def test_a_long_message_is_cut(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("WSD_CLASSIC_CACHE", str(tmp_path / "cache"))

    @entry_point
    def verbose(argv=None):
        raise ValueError("x" * 10_000)

    assert verbose([]) == 70
    line = capsys.readouterr().err.strip()
    assert len(line) < 600 and line.count("\n") == 0


def test_a_bug_in_bin_train_leaves_no_output(tmp_path):
    """The answers writer fails after the models were saved: neither is left behind."""
    script = textwrap.dedent("""
        import sys
        from wsd_classic.tasks import lexical_sample_run

        def broken(*args, **kwargs):
            raise RuntimeError("simulated bug")

        lexical_sample_run.write_answers = broken
        from wsd_classic.__main__ import run
        sys.exit(run("train"))
    """)
    result = subprocess.run(
        [sys.executable, "-c", script, "--train", str(FIXTURES / "lexsample_variants" /
                                                      "senseval3.xml"),
         "--split", "2:1", "--systems", "commonest", "--jobs", "1",
         "--models-dir", str(tmp_path / "m"), "--out-dir", str(tmp_path / "r")],
        capture_output=True, text=True, timeout=600, cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(REPO), "WSD_CLASSIC_CACHE": str(tmp_path / "cache")})
    assert result.returncode == 70, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    match = LINE.match(lines[0])
    assert match and match["program"] == "train" and match["summary"] == (
        "RuntimeError: simulated bug")
    assert "in broken" in open(match["file"], encoding="utf-8").read()
    for root in (tmp_path / "m", tmp_path / "r"):
        left = [path.name for path in root.rglob("*")] if root.exists() else []
        assert left in ([], [".senseval3.lock"]), left  # the run lock is no output


@pytest.fixture(autouse=True)
def _no_reports_in_the_real_cache(monkeypatch, tmp_path):
    monkeypatch.setenv("WSD_CLASSIC_CACHE", str(tmp_path / "cache"))
