"""Safe stand-ins for ids that key and answer files cannot hold, and the map back to the corpus."""
import csv

from hypothesis import given
from hypothesis import strategies as st

from wsd_classic.corpora.keys import is_writable_sense, parse_tag
from wsd_classic.corpora.ids import is_safe_field, is_safe_sense, renamed, safe_ids, write_id_map
from wsd_classic.corpora.keys import check_field


def test_safe_ids_keep_their_spelling():
    ids = ["art.40001", "art%1:06:00::", "24/7%1:28:00::", "é.1", "U"]
    assert safe_ids(ids, "instance") == {value: value for value in ids}
    assert safe_ids(ids, "sense") == {value: value for value in ids}


def test_stand_ins_for_whitespace_comments_empty_and_weight_like_slashes():
    assert safe_ids([" kd 0001\t01303731: ", "a!!b", "!!!", ""], "instance") == {
        " kd 0001\t01303731: ": "kd_0001_01303731:", "a!!b": "a!_b", "!!!": "!_!", "": "_"}
    assert safe_ids(["pot/2", "a/b", "x y/1"], "sense") == {
        "pot/2": "pot_2", "a/b": "a_b", "x y/1": "x_y_1"}
    assert safe_ids(["pot/2"], "instance") == {"pot/2": "pot/2"}  # only senses carry weights


def test_a_stand_in_never_takes_an_existing_id():
    mapping = safe_ids(["a b", "a_b", "a  b", "a_b~2"], "instance")
    assert mapping == {"a b": "a_b~3", "a_b": "a_b", "a  b": "a_b~4", "a_b~2": "a_b~2"}
    assert renamed(mapping) == {"a_b~3": "a b", "a_b~4": "a  b"}


@given(st.lists(st.text(max_size=6), max_size=12), st.sampled_from(["instance", "sense"]))
def test_stand_ins_are_distinct_and_safe(values, kind):
    mapping = safe_ids(values, kind)
    assert len(set(mapping.values())) == len(mapping) == len(set(values))
    is_safe = is_safe_sense if kind == "sense" else is_safe_field
    assert all(is_safe(value) for value in mapping.values())
    for value in mapping.values():
        check_field(value)


def test_writable_senses_read_back_as_themselves():
    for sense in ("art%1:06:00::", "24/7%1:28:00::", "U"):
        assert is_writable_sense(sense) and parse_tag(sense) == (sense, None)
    assert not any(is_writable_sense(sense) for sense in ("pot/2", "a/b", "a/", "/"))


def test_the_map_lists_every_stand_in_and_reads_back_with_csv(tmp_path):
    path = tmp_path / "ids.tsv"
    write_id_map(path, [{"instance": {"kd_0002": "kd\t0002", "_": "", "x_y": 'x\n"y'}},
                        {"sense": {"pot_2": "pot/2"}, "lexelt": {}}])
    with open(path, newline="", encoding="utf-8") as stream:
        rows = list(csv.reader(stream, dialect="excel-tab"))
    assert rows == [["kind", "safe_id", "original_id"], ["instance", "_", ""],
                    ["instance", "kd_0002", "kd\t0002"], ["instance", "x_y", 'x\n"y'],
                    ["sense", "pot_2", "pot/2"]]


def test_the_map_is_written_even_without_stand_ins(tmp_path):
    path = tmp_path / "ids.tsv"
    path.write_text("stale\n")
    write_id_map(path, [{}, {"instance": {}}])
    assert path.read_text() == "kind\tsafe_id\toriginal_id\n"
