"""The self-trained word vectors of the vector-source studies (``bench/self_vectors.py``):
deterministic word2vec training, the study's settings, the cache, and the vectors handed to the
featurizer as a caller's own."""
from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from bench import self_vectors
from bench.self_vectors import VectorSettings
from conftest import REPO
from wsd_classic.errors import WsdError
from wsd_classic.features.embeddings import ContextEmbedding, EmbeddingRule
from wsd_classic.features.featurizer import Featurizer
from wsd_classic.preprocess.document import ProcessedInstance

TRAIN_IN_A_NEW_PROCESS = """
import sys
from bench import self_vectors
sentences = [line.split() for line in sys.stdin]
print(self_vectors.train(sentences, self_vectors.VectorSettings(dimensions=6, min_count=1,
                                                                epochs=3)).identity)
"""
TINY = VectorSettings(dimensions=4, min_count=1, epochs=2)
TINY_CORPUS = [["river", "bank", "water"], ["money", "bank"]] * 5


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
    assert self_vectors.tokens("The Bank's 2 rates, e.g. 5%!") == [
        "the", "bank", "s", "rates", "e", "g"]


def test_vector_settings_take_a_study_s_changes_and_refuse_unknown_ones():
    assert VectorSettings().replaced("epochs=20,sg=1") == VectorSettings(epochs=20, sg=True)
    assert VectorSettings(window=8).replaced("") == VectorSettings(window=8)
    assert self_vectors.CHOSEN.replaced("epochs=20") == VectorSettings(epochs=20, sg=True)
    for wrong in ("epoch=20", "sg=yes", "dimensions"):
        with pytest.raises(WsdError, match="vector setting"):
            VectorSettings().replaced(wrong)


def test_missing_corpora_for_the_vectors_are_named(tmp_path):
    with pytest.raises(WsdError, match="semcor"):
        self_vectors.cache_key(VectorSettings(), tmp_path)


@pytest.fixture
def tiny_corpus(tmp_path, monkeypatch):
    """The builder on a tiny corpus, cached at the returned path."""
    path = tmp_path / "cache" / "vectors.npz"
    monkeypatch.setattr(self_vectors, "cache_path", lambda *args: path)
    monkeypatch.setattr(self_vectors, "corpus_sentences", lambda data_dir: iter(TINY_CORPUS))
    return path


def test_vectors_are_built_once_and_then_read_from_the_cache(tiny_corpus, monkeypatch, capsys):
    built = self_vectors.obtain(TINY, log=sys.stdout)
    assert tiny_corpus.is_file() and "training word2vec on 25 tokens" in capsys.readouterr().out
    assert set(built.words) == {"river", "bank", "water", "money"} and built.dimensions == 4
    assert built.matrix.dtype == np.float16  # what a model file holds

    def no_training(*args):
        raise AssertionError("cached vectors are read, not trained")

    monkeypatch.setattr(self_vectors, "train", no_training)
    cached = self_vectors.obtain(TINY)
    assert cached.identity == built.identity
    tiny_corpus.write_bytes(b"not an archive")
    with pytest.raises(WsdError, match="unreadable cached word vectors"):
        self_vectors.obtain(TINY)


def test_a_study_gives_them_to_the_featurizer_when_its_sources_name_them(tiny_corpus):
    assert self_vectors.given_vectors(("glove-6b-50d",), TINY) is None
    vectors = self_vectors.given_vectors((self_vectors.SOURCE, "glove-6b-50d"), TINY)
    assert vectors.identity == self_vectors.obtain(TINY).identity
    rule = EmbeddingRule(window=3, sources=(self_vectors.SOURCE,))
    featurizer = Featurizer(embedding=ContextEmbedding(rule, vectors))
    doc = ProcessedInstance("i1", "bank.n", ("river", "bank"), ("river", "bank"), ("NN",) * 2,
                            (0, 0), (0, 1), ("dep",) * 2, (False,) * 2, 1, ())
    (block,) = featurizer.by_group(doc)["emb"]
    river = vectors.matrix[vectors.index["river"]].astype(np.float64)
    assert np.allclose(block.values, river / np.linalg.norm(river), atol=1e-6)
    assert featurizer.settings()["embedding"]["vectors_sha256"] == vectors.identity


def test_the_study_says_where_the_vectors_are(tiny_corpus, monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", ["self_vectors", "--vectors", "dimensions=4,min_count=1"])
    monkeypatch.setattr(self_vectors, "CHOSEN", VectorSettings(epochs=2))
    assert self_vectors.main() == 0
    assert f"4 words x 4 (sha256 {self_vectors.obtain(TINY).identity[:12]}) in {tiny_corpus}" \
        in capsys.readouterr().out
    monkeypatch.setattr(sys, "argv", ["self_vectors", "--vectors", "dims=4"])
    assert self_vectors.main() == 2
    assert "vector setting 'dims=4'" in capsys.readouterr().err
