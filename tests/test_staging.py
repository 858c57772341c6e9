"""Output directories swap in whole; the lock makes a second run wait."""
import os
import subprocess
import sys
import time

import pytest

from wsd_classic.tasks.staging import exclusive, recover, staged_directory


def test_success_replaces_the_directory_and_keeps_untouched_files(tmp_path):
    final = tmp_path / "task"
    final.mkdir()
    (final / "other.ans").write_text("kept")
    (final / "svm.ans").write_text("old")
    with staged_directory(final) as stage:
        (stage / "svm.ans.tmp").write_text("new")
        os.replace(stage / "svm.ans.tmp", stage / "svm.ans")
        assert (final / "svm.ans").read_text() == "old"  # nothing visible before the end
    assert (final / "svm.ans").read_text() == "new"
    assert (final / "other.ans").read_text() == "kept"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["task"]


def test_failure_leaves_the_directory_as_before(tmp_path):
    final = tmp_path / "task"
    final.mkdir()
    (final / "svm.ans").write_text("old")
    with pytest.raises(RuntimeError):
        with staged_directory(final) as stage:
            (stage / "half.ans").write_text("half")
            raise RuntimeError("killed")
    assert sorted(p.name for p in final.iterdir()) == ["svm.ans"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["task"]


def test_recover_undoes_a_swap_interrupted_between_the_two_renames(tmp_path):
    final = tmp_path / "task"
    old = tmp_path / ".task.old"
    old.mkdir()
    (old / "svm.ans").write_text("previous")
    (tmp_path / ".task.staging-999").mkdir()
    recover(final)
    assert (final / "svm.ans").read_text() == "previous"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["task"]


def test_a_second_holder_waits_for_the_lock(tmp_path):
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import sys, time; from wsd_classic.tasks.staging import exclusive\n"
         f"with exclusive({str(tmp_path)!r}, 'task'):\n"
         "    print('locked', flush=True); time.sleep(1.5)"],
        stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "locked"
    start = time.perf_counter()
    with exclusive(tmp_path, "task"):
        waited = time.perf_counter() - start
    holder.wait()
    assert waited > 0.5


def test_ctrl_c_wrapped_in_a_library_error_is_reported_as_an_interrupt(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("WSD_CLASSIC_CACHE", str(tmp_path))
    from wsd_classic.cli import entry_point

    @entry_point
    def main(argv=None):
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt:
            raise ValueError("Can't close the ZIP file while there is an open writing handle")

    assert main([]) == 130
    assert capsys.readouterr().err.strip().endswith(": interrupted")

    @entry_point
    def failing(argv=None):
        raise ValueError("a real bug")

    assert failing([]) == 70  # a bug, not an interrupt (tests/test_internal_errors.py)
