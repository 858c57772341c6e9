"""SemCor 3.0 tag-file reader, on a hand-written miniature corpus and on the real one."""
from __future__ import annotations

import collections

import pytest
from conftest import FIXTURES, assert_error_at, shared_data

from wsd_classic.corpora.semcor import SemcorToken, read_semcor, read_semcor_file
from wsd_classic.errors import WsdError
from wsd_classic.wordnet import DEBIAN_WORDNET

MINI_SEMCOR = FIXTURES / "semcor_corpus"
SEMCOR = shared_data() / "semcor-3.0"
needs_semcor = pytest.mark.skipif(
    not SEMCOR.is_dir(), reason=f"SemCor 3.0 not found at {SEMCOR} (set WSD_CLASSIC_DATA)")


def test_sentences_in_part_then_file_order():
    sentences = list(read_semcor(MINI_SEMCOR, parts=("brownv", "brown1")))
    assert [(s.part, s.document, s.number) for s in sentences] == [
        ("brownv", "br-z13", "1"), ("brown1", "br-z11", "1"), ("brown1", "br-z11", "2"),
        ("brown1", "br-z12", "1")]


def test_tokens_of_a_sentence():
    first = read_semcor_file(MINI_SEMCOR / "brown1" / "tagfiles" / "br-z11")[0]
    assert first.part is None
    assert [token.text for token in first.tokens] == [
        "The", "Harbor_Town_Council", "said", "year", "&", "took_place", "."]
    assert first.tokens[0] == SemcorToken("The", pos="DT")
    assert first.tokens[2] == SemcorToken("said", "VB", "say", (1,), ("2:32:00::",))
    assert first.tokens[4] == SemcorToken("&")
    assert first.tokens[1].sense_keys == ("group%1:03:00::",)


def test_several_senses_and_their_keys():
    year = read_semcor_file(MINI_SEMCOR / "brown1" / "tagfiles" / "br-z11")[0].tokens[3]
    assert year.wnsn == (2, 1)
    assert year.sense_keys == ("year%1:28:02::", "year%1:28:01::")


def test_unquoted_and_quoted_attributes_and_sense_key_repairs():
    second = read_semcor_file(MINI_SEMCOR / "brown1" / "tagfiles" / "br-z11")[1]
    several, such, west, was, guilt, _ = second.tokens
    assert several.sense_keys == ("several%5:00:00:some:00",)  # "some(a)" in the file
    assert such.wnsn == (0,) and such.sense_keys == ("such%5:00:01:specified:00",)
    assert west.sense_keys == ("west%3:00:00::",)  # after sep="-"
    assert was.sense_keys == ()  # cmd=done ot=notag: annotated as having no sense
    assert (guilt.lemma, guilt.sense_keys) == (None, ())  # cmd=tag: never annotated


def test_brownv_tags_only_verbs():
    (sentence,) = read_semcor(MINI_SEMCOR, parts=("brownv",))
    tagged = [token for token in sentence.tokens if token.sense_keys]
    assert [(token.pos, token.sense_keys) for token in tagged] == [("VB", ("make%2:36:08::",))]


def test_missing_part_is_a_wsd_error():
    with pytest.raises(WsdError, match="no directory brown2/tagfiles"):
        list(read_semcor(MINI_SEMCOR))


def _tag_file(*lines: str) -> str:
    return "\n".join(["<contextfile concordance=brown>", "<context filename=br-x01 paras=yes>",
                      "<p pnum=1>", "<s snum=1>", *lines, "</s>", "</p>", "</context>",
                      "</contextfile>", ""])


# Each case: the file's bytes, the line the error must name, a fragment of its message.
# Bad lines go in a sentence of an otherwise valid file, from line 5 on.
MALFORMED = [(_tag_file(*lines).encode(), line, fragment) for lines, line, fragment in [
    (["<wf cmd=done pos=NN lemma=jury wnsn=1 lexsn=1:14:00::>jury"], 6, "</s> where </wf> was expected"),
    (["<wf cmd=done pos=NN lemma=jury wnsn=1 lexsn=1:14:00::jury</wf>"], 5, "stray '<' or '>'"),
    (["<wf cmd=done pos=NN>a</wf>", "<wf pos=NN>jury</wf>"], 6, "lacks the required attribute 'cmd'"),
    (["<wf cmd=done pos=NN wnsn=1 lexsn=1:14:00::>jury</wf>"], 5, "lexsn without a lemma"),
    (["<wf cmd=done pos=NN lemma=year wnsn=2;1 lexsn=1:28:02::>year</wf>"], 5, "disagree in number"),
    (["<wf cmd=done pos=NN lemma=year wnsn=two lexsn=1:28:02::>year</wf>"], 5, "not a sense number"),
    (["<wf cmd=done pos=NN lemma>year</wf>"], 5, "malformed attribute 'lemma'"),
    (["<wf cmd=done pos=NN></wf>"], 5, "empty <wf>"),
    (["<punc>.</punc>", "<punc> </punc>"], 6, "empty <punc>"),
    (["<wf cmd=done pos=NN>a</wf>", "loose text"], 6, "text outside <wf> and <punc>"),
    (["<s snum=2>"], 5, "unexpected <s> inside <s>"),
    (["<wf cmd=done pos=NN><b>a</b></wf>"], 5, "unexpected <b> inside <wf>"),
    (["<wf cmd=done pos=NN lemma=jury wnsn=1 lexsn=>jury</wf>"], 5, "lexsn= has an empty value"),
    (["<wf cmd=done pos=NN>jury</wf pos=NN>"], 5, "end tag </wf> with attributes"),
]] + [
    (b"", None, "no <s> sentences"),
    (b"<contextfile concordance=brown>\n<context filename=x>\n", 2, "<context> is never closed"),
    (b"<s>\n</s>\n", 1, "unexpected <s> at the top level"),
    (b"<contextfile>\n<context>\n<s>\n", 3, "lacks the required attribute 'snum'"),
    (b"<contextfile>\n\x00\x00", 2, "binary file"),
]


@pytest.mark.parametrize("data, line, fragment", MALFORMED)
def test_malformed_tag_file_is_reported_with_its_line(tmp_path, data, line, fragment):
    path = tmp_path / "br-x01"
    path.write_bytes(data)
    assert_error_at(read_semcor_file, path, line, fragment)


@needs_semcor
def test_real_semcor_files_and_counts():
    files = {part: len(list((SEMCOR / part / "tagfiles").glob("br-*")))
             for part in ("brown1", "brown2", "brownv")}
    assert files == {"brown1": 103, "brown2": 83, "brownv": 166}
    sentences = collections.Counter()
    documents = collections.defaultdict(set)
    tagged = collections.Counter()
    tagged_pos = collections.Counter()
    for sentence in read_semcor(SEMCOR):
        sentences[sentence.part] += 1
        documents[sentence.part].add(sentence.document)
        for token in sentence.tokens:
            if token.sense_keys:
                tagged[sentence.part] += 1
                if sentence.part == "brownv":
                    tagged_pos[token.pos[:2]] += 1
    assert {part: len(names) for part, names in documents.items()} == files
    # The Brown texts of SemCor hold some 37,000 sentences; brownv has the most files.
    assert 30_000 < sum(sentences.values()) < 45_000
    assert sentences["brownv"] > sentences["brown1"] > sentences["brown2"]
    assert sum(tagged.values()) > 200_000
    assert tagged["brown1"] > tagged["brownv"] and tagged["brown2"] > tagged["brownv"]
    assert set(tagged_pos) == {"VB"}  # brownv tags only verbs


@needs_semcor
def test_real_sense_keys_are_wordnet_3_keys_unless_wnsn_is_0():
    index = DEBIAN_WORDNET / "index.sense"
    if not index.is_file():
        pytest.skip(f"WordNet 3.0 sense index not found at {index}")
    with open(index, encoding="utf-8") as lines:
        wordnet_keys = {line.split(" ", 1)[0] for line in lines}
    unknown = collections.Counter()
    for sentence in read_semcor(SEMCOR, parts=("brown1",)):
        for token in sentence.tokens:
            for number, key in zip(token.wnsn, token.sense_keys):
                if key not in wordnet_keys:
                    unknown[number == 0] += 1
    assert unknown[False] == 0
    assert unknown[True] > 1000  # SemCor's README: wnsn=0 marks senses WordNet 3.0 dropped
