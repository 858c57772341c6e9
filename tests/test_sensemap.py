"""scorer2 sensemap files: groups, subsumer chains and their counts."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import assert_error_at

from wsd_classic import settings
from wsd_classic.corpora.sensemap import read_sensemap

SENSEMAP = Path(os.environ.get(settings.DATA_ENV) or "/work/shared/data") / "senseval2-ls" / \
    "eng-lex-sample.training.senses"


def _sensemap(tmp_path, text):
    path = tmp_path / "test.senses"
    path.write_text(text)
    return path


def test_chain_gives_top_ancestors_and_counts(tmp_path):
    sensemap = read_sensemap(_sensemap(tmp_path, "g 3 p 2 gp\np 2 gp\nlone\n"))
    assert sensemap.top("g") == "gp"
    assert sensemap.ancestors("g") == ("p", "gp")
    assert sensemap.counts("g") == (3, 2)
    assert sensemap.ancestors("p") == ("gp",)


def test_listed_alone_or_absent_a_sense_is_its_own_group(tmp_path):
    sensemap = read_sensemap(_sensemap(tmp_path, "g 3 p\nlone\n"))
    for tag in ("lone", "absent", "U", "p"):
        assert sensemap.top(tag) == tag
        assert sensemap.ancestors(tag) == ()
        assert sensemap.counts(tag) == ()


@pytest.mark.parametrize("text", ["s\ns 4 p\n", "s 4 p\ns\n", "s 4 p\ns 4 p\n"])
def test_a_bare_or_identical_repeat_adds_nothing(tmp_path, text):
    sensemap = read_sensemap(_sensemap(tmp_path, text))
    assert (sensemap.top("s"), sensemap.counts("s"), len(sensemap)) == ("p", (4,), 1)


@pytest.mark.parametrize("text, line, message", [
    ("s 4 p\ns 2 q\n", 2, "different chain at line 1"),
    ("a\ns 4\n", 2, "expected 'sense"),                  # truncated: count without subsumer
    ("s x p\n", 1, "positive whole count"),
    ("s 0 p\n", 1, "positive whole count"),
    ("s -2 p\n", 1, "positive whole count"),
    ("s 2 p 3 s\n", 1, "among its own subsumers"),
    ("", 1, "no sensemap lines"),
])
def test_malformed_sensemap_names_file_and_line(tmp_path, text, line, message):
    assert_error_at(read_sensemap, _sensemap(tmp_path, text), line, message)


@pytest.mark.skipif(not SENSEMAP.is_file(), reason=f"{SENSEMAP} not found")
def test_real_sensemap():
    sensemap = read_sensemap(SENSEMAP)
    assert len(sensemap) == 598          # 603 lines, five senses listed twice
    assert sensemap.top("air%1:15:00::") == "air%1:27:00::"
    assert sensemap.counts("air%1:15:00::") == (4,)
    assert sensemap.top("pull%2:35:01::") == "pull%2:35:00::"   # bare repeat on line 380
    assert sensemap.top("attack%5:00:00:offensive:03") == "attack%5:00:00:offensive:03"
