#!/usr/bin/env python3
"""Build (or find in the cache) the self-trained word2vec vectors the vector-source studies compare.

No registered setting reads them: the tasks read installed pretrained vectors. The studies that
chose those compare them with vectors learnt here, the ``self`` source of their ``--sources``
(``python -m bench tune --emb ... --sources self``, ``python -m bench semcor --tune-emb ...
--sources self``, ``python -m bench ambistory --vectors``), which they hand the featurizer as
the vectors a caller gives (``features.embeddings.ContextEmbedding``).

They are learnt with gensim's word2vec from SemCor 3.0, the SENSEVAL-2 lexical sample's training
contexts (not its test contexts), WordNet 3.0's glosses and examples and AmbiStory's training
stories: the English text this project can read without any test set's labels. A token is a
lower-cased word that has a letter, as ``features.embeddings`` looks words up. Training is
deterministic: one worker, a fixed seed and a hash of word strings that does not depend on
Python's per-process salt. Values are rounded to float16, the precision a model file stores a
caller's vectors in. They are built once and cached by what they depend on, under
``vectors/<key>/`` in the cache directory.

    python -m bench self_vectors [--vectors NAME=VALUE,...] [--data-dir DIR]
"""
from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import os
import re
import sys
import time
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from wsd_classic import settings, wordnet
from wsd_classic.atomic import atomic_file
from wsd_classic.corpora import registry
from wsd_classic.corpora.ambistory import read_ambistory
from wsd_classic.corpora.lexsample import read_lexical_sample
from wsd_classic.corpora.semcor import read_semcor
from wsd_classic.errors import WsdError
from wsd_classic.features.word_vectors import WordVectors
from wsd_classic.preprocess.document import has_letter
from wsd_classic.preprocess.sentences import word_parts
from wsd_classic.tasks import catalogue

# The studies' name for these vectors among their ``--sources``.
SOURCE = "self"
TOKEN = re.compile(r"\w+|[^\w\s]")
# Bump when what goes into the corpus or how it is tokenized changes, so stale caches go.
CORPUS_VERSION = 1
WORDNET_TEXT_FILES = ("data.noun", "data.verb", "data.adj", "data.adv")


@dataclass(frozen=True)
class VectorSettings:
    """word2vec's settings: CBOW (``sg`` False) or skip-gram, ``window`` words each side."""

    dimensions: int = 100
    window: int = 5
    epochs: int = 10
    sg: bool = False
    min_count: int = 3
    seed: int = 1

    def replaced(self, text: str) -> VectorSettings:
        """These settings with the ``NAME=VALUE,...`` of ``text`` (a study's), e.g. ``sg=1``."""
        fields = {field.name: field.type for field in dataclasses.fields(self)}
        changes = {}
        for part in filter(None, text.split(",")):
            name, _, value = part.partition("=")
            if name not in fields or not value.isdigit():
                raise WsdError(f"vector setting {part!r}: NAME=INTEGER with NAME among "
                               f"{', '.join(fields)}")
            changes[name] = bool(int(value)) if fields[name] == "bool" else int(value)
        return dataclasses.replace(self, **changes)


# The settings the studies start from, chosen as docs/choices.md ("Word vectors") tells.
CHOSEN = VectorSettings(sg=True)


def tokens(text: str) -> list[str]:
    """The lower-cased words of ``text`` that have a letter."""
    return [token for token in TOKEN.findall(text.lower()) if has_letter(token)]


def stable_hash(word: str) -> int:
    """For gensim's initial vectors: Python's ``hash`` of a string changes between processes."""
    return zlib.crc32(word.encode())


def train(sentences: Sequence[Sequence[str]], vector_settings: VectorSettings) -> WordVectors:
    """word2vec on ``sentences`` (lists of tokens), deterministically."""
    from gensim.models import Word2Vec  # gensim takes seconds to import: only when training

    model = Word2Vec(sentences, vector_size=vector_settings.dimensions,
                     window=vector_settings.window, min_count=vector_settings.min_count,
                     sg=int(vector_settings.sg), epochs=vector_settings.epochs,
                     seed=vector_settings.seed, workers=1, hashfxn=stable_hash)
    return WordVectors(tuple(model.wv.index_to_key), model.wv.vectors.astype(np.float16))


def save(vectors: WordVectors, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_file(path) as stream:
        np.savez(stream, **vectors.to_arrays())


def load(path: Path) -> WordVectors:
    try:
        with np.load(path, allow_pickle=False) as arrays:
            return WordVectors.from_arrays(arrays["words"], arrays["matrix"])
    except (OSError, ValueError, KeyError, zlib.error) as error:
        raise WsdError(f"unreadable cached word vectors ({error}): delete the file", path) from None


def corpus_sentences(data_dir: str | os.PathLike | None = None) -> Iterator[list[str]]:
    """Every training text, one token list per sentence or context, in a fixed order."""
    semcor = registry.locate(catalogue.SEMCOR.dataset, data_dir)
    for sentence in read_semcor(semcor):  # the text alone: no sense keys looked up
        yield tokens(" ".join(part for token in sentence.tokens for part in word_parts(token.text)))
    for instance in read_lexical_sample(catalogue.SENSEVAL2_LS.path("train", data_dir)).instances():
        yield tokens(instance.text)
    for synset in wordnet.all_synsets():
        yield tokens(synset.definition)
        for example in synset.examples:
            yield tokens(example)
    stories = {sample.story for sample in read_ambistory(
        registry.locate(catalogue.AMBISTORY.dataset, data_dir) / "train.json")}
    for story in sorted(stories):
        yield tokens(" ".join(story))


def cache_key(vector_settings: VectorSettings, data_dir: str | os.PathLike | None = None) -> str:
    """What the vectors depend on: the corpora's registered SHA-256 (``locate`` checks the files
    against them, and names a missing one), WordNet's text, gensim and the settings. Cheaper than
    hashing the corpus's tokens, which takes as long as reading it."""
    import gensim  # seconds to import: only when the key is asked for

    sources = {}
    for name in (catalogue.SEMCOR.dataset, catalogue.SENSEVAL2_LS.dataset,
                 catalogue.AMBISTORY.dataset):
        registry.locate(name, data_dir)
        dataset = registry.DATASETS[name]
        sources[name] = [[entry.path, entry.sha256] for entry in dataset.files] + [
            [list(tree.directories), tree.sha256] for tree in dataset.trees]
    sources["wordnet"] = [registry.file_sha256(wordnet.checked_root() / name)
                          for name in WORDNET_TEXT_FILES]
    return hashlib.sha256(json.dumps([CORPUS_VERSION, gensim.__version__,
                                      asdict(vector_settings), sources]).encode()).hexdigest()


def cache_path(vector_settings: VectorSettings, data_dir: str | os.PathLike | None = None) -> Path:
    return settings.cache_dir() / "vectors" / cache_key(vector_settings, data_dir) / "vectors.npz"


def obtain(vector_settings: VectorSettings,
           data_dir: str | os.PathLike | None = None, log=sys.stderr) -> WordVectors:
    """The vectors of ``vector_settings`` on the corpora of ``data_dir``: from the cache, or
    trained and cached (saying so on ``log``)."""
    path = cache_path(vector_settings, data_dir)
    if path.is_file():
        return load(path)
    started = time.perf_counter()
    print("word vectors: reading SemCor, SENSEVAL-2 training contexts, WordNet glosses and "
          "examples, AmbiStory training stories", file=log, flush=True)
    sentences = [sentence for sentence in corpus_sentences(data_dir) if sentence]
    print(f"word vectors: training word2vec on {sum(map(len, sentences)):,} tokens in "
          f"{len(sentences):,} sentences ({asdict(vector_settings)})", file=log, flush=True)
    vectors = train(sentences, vector_settings)
    save(vectors, path)
    print(f"word vectors: {len(vectors.words):,} words x {vectors.dimensions} saved to {path} "
          f"({time.perf_counter() - started:.0f} s)", file=log, flush=True)
    return vectors


def given_vectors(sources: Sequence[str], vector_settings: VectorSettings,
                  data_dir: str | os.PathLike | None = None) -> WordVectors | None:
    """What a study hands ``ContextEmbedding`` for ``sources``: these vectors when they name
    ``SOURCE``, else None (every other source is installed)."""
    return obtain(vector_settings, data_dir) if SOURCE in sources else None


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench self_vectors",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--vectors", default="", metavar="NAME=VALUE,...",
                        help="word2vec settings changed from the chosen ones, e.g. epochs=20")
    parser.add_argument("--data-dir", type=Path, help=f"corpora (default ${settings.DATA_ENV} "
                                                      "or ./data)")
    args = parser.parse_args()
    try:
        vector_settings = CHOSEN.replaced(args.vectors)
        vectors = obtain(vector_settings, args.data_dir)
    except WsdError as error:
        print(f"self_vectors: {error}", file=sys.stderr)
        return 2
    print(f"{len(vectors.words):,} words x {vectors.dimensions} (sha256 {vectors.identity[:12]}) "
          f"in {cache_path(vector_settings, args.data_dir)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
