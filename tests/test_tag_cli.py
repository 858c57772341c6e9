"""``bin/tag`` on plain text, on SENSEVAL XML and on bad input; the streaming text reader.

Models are the tiny ones ``conftest.tiny_models`` trains (art.n, bank.n, bright.a, call.v).
Most runs call ``main`` in-process (one spaCy load per run, not per interpreter); the error cases
run ``bin/tag`` itself, where a traceback would show.
"""
from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
import tracemalloc

import pytest

from wsd_classic import modelstore, wordnet
from wsd_classic.answers.senseval import answer_line, read_answers
from wsd_classic.corpora.lexsample import read_lexical_sample
from wsd_classic.tasks import engine
from wsd_classic.tasks.text_input import read_blocks

from conftest import FIXTURES, assert_one_line_error

TEXT = ("Our bank raised its rates again.\n"
        "The union called off the strike, and I called my mother on the phone.\n"
        "\n"
        "Modern art filled the museum. Nothing else happened.\n")


@pytest.fixture
def text_file(tmp_path):
    path = tmp_path / "news.txt"
    path.write_text(TEXT, encoding="utf-8")
    return path


def test_jsonl_gives_every_target_with_its_place_and_distribution(tag, text_file):
    status, out, _ = tag("--format", "jsonl", text_file)
    assert status == 0
    records = [json.loads(line) for line in out.splitlines()]
    assert [(r["text"], r["lexelt"], r["line"], r["sentence"]) for r in records] == [
        ("bank", "bank.n", 1, 1), ("called", "call.v", 2, 2), ("called", "call.v", 2, 2),
        ("art", "art.n", 4, 3)]
    for record in records:
        assert record["doc"] == str(text_file)
        assert TEXT[record["start"]:record["end"]] == record["text"]
        weights = [sense["weight"] for sense in record["senses"]]
        assert sum(weights) == pytest.approx(1.0) and weights == sorted(weights, reverse=True)
        for sense in record["senses"]:
            assert sense["gloss"] == wordnet.gloss(sense["key"])
    assert records[1]["senses"][0]["key"] == "call_off%2:41:00::"
    assert records[1]["particles"] == [{"start": TEXT.index("off"), "end": TEXT.index("off") + 3,
                                        "text": "off"}]
    assert records[2]["senses"][0]["key"] == "call%2:32:01::" and "particles" not in records[2]
    assert records[0]["senses"][0]["gloss"].startswith("a financial institution")


def test_text_marks_the_target_and_shows_glossed_senses(tag, text_file):
    status, out, _ = tag(text_file)
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == f"{text_file}:1: Our [[bank]] raised its rates again."
    assert lines[1].split()[:3] == ["bank.n", lines[1].split()[1], "bank%1:14:00::"]
    assert "financial institution" in lines[1]
    marked = [line for line in lines if not line.startswith(" ")]
    assert marked[1] == (f"{text_file}:2: The union [[called]] [[off]] the strike, and I called "
                         "my mother on the phone.")
    assert len(marked) == 4


def test_senseval_lines_read_back_as_answers(tag, text_file, tmp_path):
    second = tmp_path / "second.txt"
    second.write_text("Bright students sat on the bank.\n", encoding="utf-8")
    status, out, _ = tag("--format", "senseval", text_file, second, "-o", tmp_path / "out.ans")
    assert status == 0 and out == ""
    answers = read_answers(tmp_path / "out.ans")
    assert [(a.lexelt, a.instance) for a in answers] == [
        ("bank.n", f"{text_file}.1"), ("call.v", f"{text_file}.2"), ("call.v", f"{text_file}.3"),
        ("art.n", f"{text_file}.4"), ("bright.a", f"{second}.1"), ("bank.n", f"{second}.2")]
    for answer in answers:
        assert sum(weight for _, weight in answer.senses) == pytest.approx(1.0)


def test_explain_adds_the_evidence(tag, text_file):
    status, out, _ = tag("--format", "jsonl", "--system", "dlist", "--explain", text_file)
    assert status == 0
    for record in map(json.loads, out.splitlines()):
        [rule] = record["evidence"]
        assert rule["score"] > 0 and "=" in rule["feature"]
    status, out, _ = tag("--format", "senseval", "--explain", text_file)
    assert status == 0
    assert all(" !! " in line for line in out.splitlines())
    status, out, _ = tag("--explain", text_file)
    assert status == 0 and out.count("    evidence: ") == 4


def test_standard_input_is_read_when_no_file_is_given(tag, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(TEXT.encode())))
    status, out, _ = tag("--format", "jsonl")
    assert status == 0
    assert [json.loads(line)["doc"] for line in out.splitlines()] == ["stdin"] * 4


def test_senseval_xml_is_tagged_by_the_training_code_path(tag, tiny_models, tmp_path,
                                                          monkeypatch):
    root, task, _ = tiny_models
    monkeypatch.setenv("WSD_CLASSIC_CACHE", str(tmp_path))
    status, out, err = tag("--senseval", FIXTURES / "tag_test.xml")
    assert status == 0
    trained = modelstore.load(root, task, "svm")
    corpus = engine.featurize(read_lexical_sample(FIXTURES / "tag_test.xml"), trained.featurizer)
    assert out.splitlines() == [answer_line(lexelt, instance, weights) for lexelt, instance, weights
                                in engine.tag(trained, corpus)]
    assert [line.split()[1] for line in out.splitlines()] == ["bank.x1", "bank.x2", "call.x1"]
    assert "3 targets" in err


def test_a_long_single_line_is_cut_into_blocks_with_exact_offsets(tag, tmp_path, monkeypatch):
    monkeypatch.setattr("wsd_classic.tasks.text_input.MAX_BLOCK_CHARS", 300)
    text = " ".join(["The bank by the river was bright in the sun."] * 40)
    path = tmp_path / "line.txt"
    path.write_text(text, encoding="utf-8")
    status, out, _ = tag("--format", "jsonl", path)
    assert status == 0
    records = [json.loads(line) for line in out.splitlines()]
    assert len(records) == 80
    assert all(text[r["start"]:r["end"]] == r["text"] for r in records)
    assert [r["sentence"] for r in records[::2]] == list(range(1, 41))


# --- bad input: one line on stderr, a clear exit status, never a traceback -----------------


@pytest.fixture
def tag_result(tag, monkeypatch):
    """``tag`` as a CompletedProcess, with ``stdin`` as standard input (for the checks in
    conftest); in-process, an uncaught exception would fail the test as a traceback would."""

    def run(*args, stdin=b""):
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
        return subprocess.CompletedProcess(args, *tag(*args))

    return run


@pytest.fixture
def tag_command(tiny_models, run_command):
    root, task, _ = tiny_models

    def run(*args, models=root, stdin=None):
        return run_command("tag", "--task", task, "--models-dir", models, *args, stdin=stdin)

    return run


def test_empty_input_is_an_empty_result(tag_command, tag_result, tmp_path):
    (tmp_path / "empty.txt").write_bytes(b"")
    for result in (tag_command(stdin=""), tag_result(tmp_path / "empty.txt")):
        assert result.returncode == 0 and result.stdout == ""
        assert "no text to tag" in result.stderr and "Traceback" not in result.stderr


def test_text_without_targets_is_an_empty_result(tag_result):
    result = tag_result("--format", "jsonl", stdin=b"Nothing here was ever trained on.\n")
    assert result.returncode == 0 and result.stdout == ""
    assert "0 targets" in result.stderr


def test_non_utf8_bytes_are_refused_with_file_line_and_offset(tag_result, tmp_path):
    path = tmp_path / "latin1.txt"
    path.write_bytes("first line\nle caf\u00e9 est ferm\u00e9\n".encode("latin-1"))
    assert_one_line_error(tag_result(path), f"{path}:2:", "not UTF-8", "byte offset 17")
    result = tag_result(stdin=b"ok\n\xc3(\n")
    assert_one_line_error(result, "stdin:2:", "not UTF-8", "byte 0xc3 at byte offset 3")


def test_binary_data_is_refused(tag_result, tmp_path):
    path = tmp_path / "image.png"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    assert_one_line_error(tag_result(path), f"{path}:3:", "binary", "byte offset 8")


def test_a_ten_megabyte_line_without_spaces_does_not_blow_up(tag_command, tmp_path):
    path = tmp_path / "one-line.txt"
    path.write_bytes(b"x" * 10_000_000)
    result = tag_command(path)
    assert result.returncode == 0 and result.stdout == "", result.stderr


@pytest.mark.parametrize("args, fragments", [
    (("--system", "bogus"), ("unknown system bogus",)),
    (("--task", "nonexistent"), ("no nonexistent/svm model", "installed:")),
    (("missing.txt",), ("missing.txt", "cannot read")),
])
def test_unknown_system_task_or_file(tag_result, args, fragments):
    assert_one_line_error(tag_result(*args, stdin=b"The bank.\n"), *fragments)


@pytest.mark.parametrize("args, message", [
    (("--format", "key"), "--format key is for --raganato only"),
    (("--senseval", "x.xml", "--format", "jsonl"), "--senseval writes answer lines"),
    (("--raganato", "x.xml", "--task", "senseval2-ls"), "--raganato tags with an all-words task's models"),
    (("--senseval", "x.xml", "--explain"), "--explain applies to plain text input"),
])
def test_option_combinations_that_make_no_sense(tag, args, message, capsys):
    with pytest.raises(SystemExit) as exit_status:
        tag(*args)
    assert exit_status.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1].startswith(f"tag: error: {message}")


def test_a_tampered_model_is_refused(tag_command, tiny_models, tmp_path):
    root, task, _ = tiny_models
    shutil.copytree(root, tmp_path / "models")
    path = modelstore.model_path(tmp_path / "models", task, "svm")
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x01
    path.write_bytes(bytes(data))
    result = tag_command(models=tmp_path / "models", stdin="The bank.\n")
    assert_one_line_error(result, str(path), "SHA-256")


def test_a_missing_file_is_refused_before_any_output(tag_result, text_file, tmp_path):
    result = tag_result(text_file, tmp_path / "missing.txt")
    assert_one_line_error(result, "missing.txt", "No such file")
    assert result.stdout == ""


def test_output_file_is_not_left_half_written(tag_result, tmp_path):
    (tmp_path / "good.txt").write_text("The bank was bright.\n")
    (tmp_path / "bad.txt").write_bytes(b"fine\n\xff\n")
    out = tmp_path / "out.jsonl"
    result = tag_result("--format", "jsonl", "-o", out, tmp_path / "good.txt", tmp_path / "bad.txt")
    assert_one_line_error(result, "bad.txt:2:")
    assert not out.exists() and list(tmp_path.glob(".out.jsonl*")) == []


# --- the streaming reader ----------------------------------------------------------------------


def test_blocks_are_paragraphs_and_tile_the_text(tmp_path):
    text = "\ufeffOne para-\ngraph here.\n\n  \nSecond one.\r\n\r\nThird.\n"
    path = tmp_path / "t.txt"
    path.write_bytes(text.encode("utf-8"))
    blocks = list(read_blocks(str(path)))
    body = text.removeprefix("\ufeff")
    assert [b.text.strip() for b in blocks] == ["One para-\ngraph here.", "Second one.", "Third."]
    assert [b.line for b in blocks] == [1, 5, 7]
    for block in blocks:
        assert body[block.offset:block.offset + len(block.text)] == block.text


def test_a_long_line_is_cut_at_sentence_ends_then_spaces_then_anywhere(tmp_path):
    path = tmp_path / "t.txt"
    path.write_text("Aaa bbb. Ccc ddd eee fff ggg hhh iii. " + "w " * 40 + "z" * 70)
    blocks = list(read_blocks(str(path), max_chars=50))
    assert blocks[0].text == "Aaa bbb. Ccc ddd eee fff ggg hhh iii. "
    assert all(len(b.text) <= 50 for b in blocks)
    assert blocks[-2].text.endswith("w ") or blocks[-2].text.startswith("z")
    assert "".join(b.text for b in blocks) == path.read_text()


def test_reading_a_ten_megabyte_line_keeps_memory_flat(tmp_path):
    path = tmp_path / "big.txt"
    with open(path, "w") as out:
        for _ in range(310_000):
            out.write("The bank of the river is bright. ")
    tracemalloc.start()
    try:
        total = sum(len(block.text) for block in read_blocks(str(path)))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert total == path.stat().st_size
    assert peak < 1_000_000  # blocks of 5,000 characters and 64 KiB reads, not the 10 MB file


def test_a_multibyte_character_split_across_reads_is_decoded(tmp_path, monkeypatch):
    monkeypatch.setattr("wsd_classic.tasks.text_input.READ_BYTES", 3)
    path = tmp_path / "t.txt"
    path.write_text("caf\u00e9 \u2014 na\u00efve\n", encoding="utf-8")
    assert "".join(b.text for b in read_blocks(str(path))) == "caf\u00e9 \u2014 na\u00efve\n"


def test_help_lists_the_systems_installed_in_the_models_directory(tiny_models, capsys,
                                                                   monkeypatch):
    from wsd_classic.cli import tag as tag_cli

    root, task, _ = tiny_models
    monkeypatch.setenv("COLUMNS", "1000")  # no line breaks inside the path
    with pytest.raises(SystemExit):
        tag_cli.main(["--models-dir", str(root), "--help"])
    help_text = capsys.readouterr().out
    assert (f"Installed in {root}/: semcor: wn1; {task}: commonest, dlist, svm." in help_text)
    assert "semcor: mfs, wn1, svm, dlist, combo (on request), rank (on request)" in help_text
