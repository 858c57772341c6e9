"""Word vectors (``features.word_vectors``, built by ``tasks.vector_corpus``) and the ``emb`` feature group (``features.embeddings``):
deterministic training, the decay weightings, the featurizer settings naming the vectors, and a
model that carries its vectors so it tags without the data directory."""
from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import replace

import numpy as np
import pytest

from conftest import FIXTURES, REPO, fixture_embedding, fixture_vectors
from wsd_classic import modelstore
from wsd_classic.errors import WsdError
from wsd_classic.features import gloss, word_vectors
from wsd_classic.features.embeddings import (ContextEmbedding, EmbeddingRule, decay_weights)
from wsd_classic.features.featurizer import ContextRule, Featurizer
from wsd_classic.features.word_vectors import VectorSettings, WordVectors
from wsd_classic.preprocess.document import ProcessedInstance
from wsd_classic.tasks import vector_corpus

# The real builders: conftest hands tasks the fixtures' vectors in their place.
OBTAIN, OBTAIN_LATER = vector_corpus.obtain, vector_corpus.obtain_later

TRAIN_IN_A_NEW_PROCESS = """
import sys
from wsd_classic.features import gloss, word_vectors
sentences = [line.split() for line in sys.stdin]
print(word_vectors.train(sentences, word_vectors.VectorSettings(dimensions=6, min_count=1,
                                                                 epochs=3)).identity)
"""


def test_vectors_are_the_same_in_processes_with_different_string_hashes():
    text = "\n".join(["the river bank was muddy after the flood",
                      "the bank raised its interest rate", "a muddy river flows past the bank"] * 5)
    identities = {
        subprocess.run([sys.executable, "-c", TRAIN_IN_A_NEW_PROCESS], input=text, text=True,
                       capture_output=True, check=True, cwd=REPO,
                       env={**os.environ, "PYTHONPATH": str(REPO), "PYTHONHASHSEED": seed}
                       ).stdout.strip()
        for seed in ("1", "2")}
    assert len(identities) == 1 and len(identities.pop()) == 64


def test_tokens_are_lower_cased_words_with_a_letter():
    assert word_vectors.tokens("The Bank's 2 rates, e.g. 5%!") == [
        "the", "bank", "s", "rates", "e", "g"]


def test_vectors_keep_their_identity_through_their_arrays():
    vectors = fixture_vectors()
    again = WordVectors.from_arrays(**vectors.to_arrays())
    assert again.words == vectors.words and again.identity == vectors.identity
    changed = WordVectors(vectors.words, vectors.matrix * np.float16(2))
    assert changed.identity != vectors.identity


def test_decay_weights_by_hand():
    assert decay_weights("average", 3).tolist() == [1.0, 1.0, 1.0]
    assert np.allclose(decay_weights("fractional", 4), [3 / 4, 2 / 4, 1 / 4, 0])
    # alpha = 1 - 0.1^(1/2): the weights fall from 1 to a tenth over the window
    assert np.allclose(decay_weights("exponential", 3), [1.0, 0.1 ** 0.5, 0.1])


def _doc(words, target, sats=()):
    count = len(words)
    return ProcessedInstance("i1", "bank.n", tuple(words), tuple(w.lower() for w in words),
                             ("NN",) * count, (0,) * count, tuple(range(count)), ("dep",) * count,
                             (False,) * count, target, tuple(sats))


def test_context_embedding_weighs_words_by_distance_and_scales_the_sum():
    vectors = WordVectors(("river", "muddy", "money"),
                          np.array([[1, 0], [0, 1], [1, 1]], dtype=np.float16))
    # distances: muddy 1 (the comma has no letter), river 2 on the left; up 1 (skipped: a
    # particle), money 1, unknown 2, river 3 (outside the window) on the right
    doc = _doc(["River", "muddy", ",", "Bank", "up", "money", "unknown", "river"], 3, sats=(4,))
    rule = EmbeddingRule("fractional", window=2, scale=2.0)
    (block,) = ContextEmbedding(rule, vectors)(doc)
    assert block.names == ("emb0", "emb1")
    # (2-1)/2 * muddy + 0 * river + (2-1)/2 * money = (0.5, 1.0), scaled to length 2
    expected = np.array([0.5, 1.0]) * 2 / np.hypot(0.5, 1.0)
    assert np.allclose(block.values, expected)


def test_targets_of_one_sentence_and_of_the_next_get_what_a_fresh_featurizer_gives():
    vectors = WordVectors(("river", "muddy", "money"),
                          np.array([[1, 0], [0, 1], [1, 1]], dtype=np.float16))
    shared = ContextEmbedding(EmbeddingRule("exponential", window=3), vectors)
    first = _doc(["River", "muddy", "bank", "money"], 2)
    second = _doc(["money", "bank", "river"], 1)
    docs = [first, replace(first, target=0), second, replace(first, target=3), second]
    for doc in docs:
        (mine,), (fresh,) = shared(doc), ContextEmbedding(shared.rule, vectors)(doc)
        assert mine.values.tolist() == fresh.values.tolist()


def test_a_context_without_known_words_gives_zeros():
    vectors = WordVectors(("river",), np.ones((1, 3), dtype=np.float16))
    (block,) = ContextEmbedding(EmbeddingRule(), vectors)(_doc(["the", "bank", "!"], 1))
    assert block.values.tolist() == [0.0, 0.0, 0.0]


def test_unknown_strategies_and_tiny_windows_are_refused():
    with pytest.raises(WsdError, match="unknown embedding strategy 'max'"):
        EmbeddingRule("max")
    with pytest.raises(WsdError, match="at least 2 words"):
        EmbeddingRule(window=1)


def test_featurizer_settings_name_the_vectors_and_need_them_back():
    featurizer = Featurizer(ContextRule(sentences=1), embedding=fixture_embedding())
    settings = featurizer.settings()
    assert settings["embedding"]["vectors_sha256"] == fixture_vectors().identity
    rebuilt = Featurizer.from_settings(settings, fixture_vectors())
    assert rebuilt.settings() == settings
    doc = _doc(["the", "river", "bank", "was", "muddy"], 2)
    assert np.array_equal(rebuilt.by_group(doc)["emb"][0].values,
                          featurizer.by_group(doc)["emb"][0].values)
    other = WordVectors(fixture_vectors().words, fixture_vectors().matrix + np.float16(1))
    for vectors in (None, other):
        with pytest.raises(WsdError, match="word vectors the model was trained with"):
            Featurizer.from_settings(settings, vectors)


def test_vector_settings_take_a_study_s_changes_and_refuse_unknown_ones():
    assert VectorSettings().replaced("epochs=20,sg=1") == VectorSettings(epochs=20, sg=True)
    assert VectorSettings(window=8).replaced("") == VectorSettings(window=8)
    for wrong in ("epoch=20", "sg=yes", "dimensions"):
        with pytest.raises(WsdError, match="vector setting"):
            VectorSettings().replaced(wrong)


def test_a_featurizer_without_vectors_gives_no_embedding():
    assert Featurizer().by_group(_doc(["the", "river", "bank"], 2))["emb"] == []
    assert Featurizer().settings()["embedding"] is None


def test_missing_corpora_for_the_vectors_are_named(tmp_path):
    with pytest.raises(WsdError, match="semcor"):
        vector_corpus.cache_key(VectorSettings(), tmp_path)


@pytest.fixture
def tiny_vector_corpus(tmp_path, monkeypatch):
    """The real builders on a tiny corpus, cached at the returned path."""
    path = tmp_path / "cache" / "vectors.npz"
    monkeypatch.setattr(vector_corpus, "obtain", OBTAIN)
    monkeypatch.setattr(vector_corpus, "cache_path", lambda *args: path)
    monkeypatch.setattr(vector_corpus, "corpus_sentences",
                        lambda data_dir: iter([["river", "bank", "water"], ["money", "bank"]] * 5))
    return path


TINY = VectorSettings(dimensions=4, min_count=1, epochs=2)


def test_vectors_built_meanwhile_in_another_process_equal_those_built_here(tiny_vector_corpus,
                                                                            monkeypatch):
    train, builders = word_vectors.train, tiny_vector_corpus.parent.parent / "builders"

    def train_noting_the_process(*args):
        with builders.open("a") as note:
            note.write(f"{os.getpid()}\n")
        return train(*args)

    monkeypatch.setattr(word_vectors, "train", train_noting_the_process)
    later = OBTAIN_LATER(TINY)
    built_meanwhile = later()
    assert tiny_vector_corpus.is_file()
    assert builders.read_text().split() != [str(os.getpid())]
    monkeypatch.setattr(word_vectors, "train", train)
    tiny_vector_corpus.unlink()
    assert built_meanwhile.identity == OBTAIN(TINY).identity

    def no_fork(*args):
        raise AssertionError("cached vectors are loaded, not built")

    monkeypatch.setattr(vector_corpus.multiprocessing, "get_context", no_fork)
    assert OBTAIN_LATER(TINY)().identity == built_meanwhile.identity


def test_a_failing_builder_is_quiet_and_the_waiting_process_says_why(tiny_vector_corpus,
                                                                     monkeypatch, capfd):
    def unreadable(data_dir):
        raise WsdError("unreadable corpus", "semcor.xml", 3)

    monkeypatch.setattr(vector_corpus, "corpus_sentences", unreadable)
    later = OBTAIN_LATER(TINY)
    with pytest.raises(WsdError, match="unreadable corpus"):
        later()
    assert "Traceback" not in capfd.readouterr().err
    assert not tiny_vector_corpus.exists()


def test_an_svm_model_with_embeddings_tags_without_the_data_directory(tiny_models, tmp_path,
                                                                      monkeypatch):
    from wsd_classic.corpora.lexsample import read_lexical_sample
    from wsd_classic.tasks import engine

    root, task, _ = tiny_models
    monkeypatch.setenv("WSD_CLASSIC_DATA", str(tmp_path / "no-data"))
    monkeypatch.setenv("WSD_CLASSIC_CACHE", str(tmp_path / "cache"))
    loaded = modelstore.load(root, task, "svm")
    assert loaded.featurizer.embedding.vectors.identity == fixture_vectors().identity
    test = read_lexical_sample(FIXTURES / "tag_test.xml")
    tagged = list(engine.tag(loaded, engine.featurize(test, loaded.featurizer)))
    assert tagged
    in_memory = engine.featurize(test, Featurizer(embedding=fixture_embedding()))
    rows = in_memory.rows(list(test.instances()), ("emb",))
    assert all(np.any(row[0].values) for row in rows)  # the fixture's words are known
    assert loaded.featurizer.settings()["groups"] == ["bow", "colloc", "pos", "syntax", "emb", "gloss"]


def test_systems_not_reading_embeddings_store_no_vectors(tiny_models):
    root, task, _ = tiny_models
    header, archive = modelstore.read_header(modelstore.model_path(root, task, "dlist"))
    assert header["featurizer"]["embedding"] is None
    assert modelstore.VECTOR_ENTRIES["matrix"] not in archive.files


GLOSS_VECTORS = WordVectors(
    ("river", "water", "slope", "sloping", "land", "money", "deposits", "financial", "institution"),
    np.array([[1, 0]] * 5 + [[0, 1]] * 4, dtype=np.float16))


@pytest.mark.parametrize("context, nearer, farther", [
    ("river", "bank%1:17:01::", "bank%1:14:00::"),  # sloping land / financial institution
    ("money", "bank%1:14:00::", "bank%1:17:01::")])
def test_gloss_embeddings_favour_the_sense_whose_gloss_is_near_the_context(context, nearer,
                                                                            farther):
    doc = _doc(["the", context, "bank"], 2)
    (plain,) = ContextEmbedding(EmbeddingRule(window=3), GLOSS_VECTORS)(doc)
    embedding, block = ContextEmbedding(EmbeddingRule(window=3, gloss=2.0), GLOSS_VECTORS)(doc)
    assert np.array_equal(embedding.values, plain.values)
    keys = gloss.candidate_keys("bank.n")
    assert block.names == tuple("embgloss=" + key for key in keys)
    assert np.all(np.abs(block.values) <= 2.0 + 1e-3)  # cosines times the scale
    values = dict(zip(keys, block.values))
    assert values[nearer] > 0 > values[farther]


def test_gloss_embeddings_need_two_candidates_and_a_known_context():
    rule = EmbeddingRule(window=3, gloss=1.0)
    monosemous = replace(_doc(["the", "river", "aardvark"], 2), lexelt="aardvark.n")
    assert len(ContextEmbedding(rule, GLOSS_VECTORS)(monosemous)) == 1
    (_, block) = ContextEmbedding(rule, GLOSS_VECTORS)(_doc(["the", "unknown", "bank"], 2))
    assert not block.values.any()
    with pytest.raises(WsdError, match="gloss scale"):
        EmbeddingRule(gloss=-1.0)


def test_the_gloss_scale_travels_in_the_settings_and_older_settings_have_none():
    featurizer = Featurizer(embedding=ContextEmbedding(EmbeddingRule(gloss=0.5), fixture_vectors()))
    settings = featurizer.settings()
    assert settings["embedding"]["gloss"] == 0.5
    assert Featurizer.from_settings(settings, fixture_vectors()).embedding.rule.gloss == 0.5
    del settings["embedding"]["gloss"]
    assert Featurizer.from_settings(settings, fixture_vectors()).embedding.rule.gloss == 0.0
