"""Word vectors (``features.word_vectors``) and the ``emb`` feature group
(``features.embeddings``): the decay weightings, the featurizer settings naming the vectors, and
a model that carries the vectors its caller gave so it tags without them."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from conftest import FIXTURE_SOURCE, FIXTURES, fixture_embedding, fixture_vectors
from wsd_classic import modelstore
from wsd_classic.errors import WsdError
from wsd_classic.features import gloss
from wsd_classic.features.embeddings import ContextEmbedding, EmbeddingRule, decay_weights
from wsd_classic.features.featurizer import ContextRule, Featurizer
from wsd_classic.features.word_vectors import WordVectors
from wsd_classic.preprocess.document import ProcessedInstance

# The rule's one source: vectors the test gives.
GIVEN = (FIXTURE_SOURCE,)


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
    rule = EmbeddingRule("fractional", window=2, scale=2.0, sources=GIVEN)
    (block,) = ContextEmbedding(rule, vectors)(doc)
    assert block.names == ("emb0", "emb1")
    # (2-1)/2 * muddy + 0 * river + (2-1)/2 * money = (0.5, 1.0), scaled to length 2
    expected = np.array([0.5, 1.0]) * 2 / np.hypot(0.5, 1.0)
    assert np.allclose(block.values, expected)


def test_targets_of_one_sentence_and_of_the_next_get_what_a_fresh_featurizer_gives():
    vectors = WordVectors(("river", "muddy", "money"),
                          np.array([[1, 0], [0, 1], [1, 1]], dtype=np.float16))
    shared = ContextEmbedding(EmbeddingRule("exponential", window=3, sources=GIVEN), vectors)
    first = _doc(["River", "muddy", "bank", "money"], 2)
    second = _doc(["money", "bank", "river"], 1)
    docs = [first, replace(first, target=0), second, replace(first, target=3), second]
    for doc in docs:
        (mine,), (fresh,) = shared(doc), ContextEmbedding(shared.rule, vectors)(doc)
        assert mine.values.tolist() == fresh.values.tolist()


def test_a_context_without_known_words_gives_zeros():
    vectors = WordVectors(("river",), np.ones((1, 3), dtype=np.float16))
    (block,) = ContextEmbedding(EmbeddingRule(sources=GIVEN), vectors)(
        _doc(["the", "bank", "!"], 1))
    assert block.values.tolist() == [0.0, 0.0, 0.0]


def test_unknown_strategies_and_tiny_windows_are_refused():
    with pytest.raises(WsdError, match="unknown embedding strategy 'max'"):
        EmbeddingRule("max", sources=GIVEN)
    with pytest.raises(WsdError, match="at least 2 words"):
        EmbeddingRule(window=1, sources=GIVEN)


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


def test_settings_written_while_the_package_trained_its_vectors_read_as_before():
    """Their headers also carry the word2vec settings, which nothing reads now."""
    featurizer = Featurizer(embedding=fixture_embedding())
    settings = featurizer.settings()
    settings["embedding"]["vectors"] = {"dimensions": 8, "window": 3, "epochs": 5, "sg": False,
                                        "min_count": 1, "seed": 1}
    rebuilt = Featurizer.from_settings(settings, fixture_vectors())
    assert rebuilt.embedding.rule == featurizer.embedding.rule
    assert rebuilt.settings() == featurizer.settings()


def test_a_featurizer_without_vectors_gives_no_embedding():
    assert Featurizer().by_group(_doc(["the", "river", "bank"], 2))["emb"] == []
    assert Featurizer().settings()["embedding"] is None


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
    (plain,) = ContextEmbedding(EmbeddingRule(window=3, sources=GIVEN), GLOSS_VECTORS)(doc)
    embedding, block = ContextEmbedding(EmbeddingRule(window=3, gloss=2.0, sources=GIVEN),
                                        GLOSS_VECTORS)(doc)
    assert np.array_equal(embedding.values, plain.values)
    keys = gloss.candidate_keys("bank.n")
    assert block.names == tuple("embgloss=" + key for key in keys)
    assert np.all(np.abs(block.values) <= 2.0 + 1e-3)  # cosines times the scale
    values = dict(zip(keys, block.values))
    assert values[nearer] > 0 > values[farther]


def test_gloss_embeddings_need_two_candidates_and_a_known_context():
    rule = EmbeddingRule(window=3, gloss=1.0, sources=GIVEN)
    monosemous = replace(_doc(["the", "river", "aardvark"], 2), lexelt="aardvark.n")
    assert len(ContextEmbedding(rule, GLOSS_VECTORS)(monosemous)) == 1
    (_, block) = ContextEmbedding(rule, GLOSS_VECTORS)(_doc(["the", "unknown", "bank"], 2))
    assert not block.values.any()
    with pytest.raises(WsdError, match="gloss scale"):
        EmbeddingRule(gloss=-1.0, sources=GIVEN)


def test_the_gloss_scale_travels_in_the_settings_and_older_settings_have_none():
    featurizer = Featurizer(embedding=ContextEmbedding(EmbeddingRule(gloss=0.5, sources=GIVEN),
                                                       fixture_vectors()))
    settings = featurizer.settings()
    assert settings["embedding"]["gloss"] == 0.5
    assert Featurizer.from_settings(settings, fixture_vectors()).embedding.rule.gloss == 0.5
    del settings["embedding"]["gloss"]
    assert Featurizer.from_settings(settings, fixture_vectors()).embedding.rule.gloss == 0.0
