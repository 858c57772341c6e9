"""Word spaces of stems, each comparing a story with a meaning beyond the words they share: LSA of
WordNet's glosses (``lsa``), PPMI + SVD of running text (``ppmi``) and word vectors by stem
(``vectors``: installed pretrained sets, or any word vectors a study gives, alone or several
side by side)."""
from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from scipy.sparse import coo_matrix
from sklearn.decomposition import TruncatedSVD
from sklearn.feature_extraction.text import TfidfVectorizer

from wsd_classic import tuned, wordnet
from wsd_classic.benchmarks.ambistory import text
from wsd_classic.benchmarks.ambistory.text import stems
from wsd_classic.corpora import registry
from wsd_classic.corpora.lexsample import read_lexical_sample
from wsd_classic.corpora.semcor import PARTS as SEMCOR_PARTS
from wsd_classic.corpora.semcor import read_semcor
from wsd_classic.features.text import stem
from wsd_classic.errors import WsdError
from wsd_classic.features import pretrained_vectors, word_vectors
from wsd_classic.tasks import catalogue

# The word spaces: dimensions, and for the distributional one the window (content words on each
# side) and the least count of a stem; the usual values, not tuned.
SPACE_DIMENSIONS = 300
COOCCURRENCE_WINDOW = 5
SPACE_MIN_COUNT = 5
SPACES = ("lsa", "ppmi", "vectors")
SEMCOR_DATASET = catalogue.SEMCOR.dataset
# The installed word vectors the ``vectors`` space reads, chosen by homonym-fold CV on train
# (``python -m bench ambistory --vectors``; tuned/ambistory.json names its evidence).
VECTOR_SOURCES = tuned.value(catalogue.AMBISTORY.name, "vector_sources")


@dataclass
class WordSpace:
    """Unit vectors of stems (rows of ``vectors``, in the order of ``words``)."""

    words: tuple[str, ...]
    vectors: np.ndarray

    def __post_init__(self):
        self.index = {word: row for row, word in enumerate(self.words)}

    def text_vector(self, words: Sequence[str], exclude: set[str]) -> np.ndarray:
        """The IDF-weighted sum of the words' vectors, of unit length (zero if none is known)."""
        idf = text.inverse_document_frequency()
        rows = [self.index[word] for word in words if word not in exclude and word in self.index]
        total = (np.array([idf[self.words[row]] for row in rows])
                 @ self.vectors[rows]) if rows else np.zeros(self.vectors.shape[1])
        norm = np.linalg.norm(total)
        return total / norm if norm else total


def gloss_documents() -> Iterator[list[str]]:
    """Each synset's lemma names, definition and examples, as stems."""
    for synset in wordnet.wordnet().all_synsets():
        yield stems(" ".join([*(lemma.name().replace("_", " ") for lemma in synset.lemmas()),
                              synset.definition(), *synset.examples()]))


def gloss_space() -> WordSpace:
    """Latent semantic analysis of WordNet's glosses: a truncated SVD of the TF-IDF matrix of
    synsets by stems. Stems that share no gloss but keep the same company come out close."""
    vectorizer = TfidfVectorizer(analyzer=lambda document: document, min_df=2,
                                 sublinear_tf=True)
    matrix = vectorizer.fit_transform(list(gloss_documents()))
    svd = TruncatedSVD(n_components=SPACE_DIMENSIONS, random_state=0).fit(matrix)
    words = tuple(vectorizer.get_feature_names_out())
    return WordSpace(words, word_vectors.unit_rows(svd.components_.T * svd.singular_values_))


def running_text_space(documents: Iterable[Sequence[str]], window: int = COOCCURRENCE_WINDOW,
                       min_count: int = SPACE_MIN_COUNT) -> WordSpace:
    """Stems that occur near the same stems in running text come out close: positive pointwise
    mutual information of stems within ``window`` content words (context counts raised to 0.75),
    reduced by a truncated SVD (Levy, Goldberg & Dagan 2015)."""
    documents = list(documents)
    counts = Counter(word for document in documents for word in document)
    words = tuple(sorted(word for word, count in counts.items() if count >= min_count))
    index = {word: row for row, word in enumerate(words)}
    ids = np.array([row for document in documents
                    for row in [*(index.get(word, -1) for word in document), *[-1] * window]])
    left, right = [], []
    for distance in range(1, window + 1):
        first, second = ids[:-distance], ids[distance:]
        kept = (first >= 0) & (second >= 0)
        left += [first[kept], second[kept]]
        right += [second[kept], first[kept]]
    rows, columns = np.concatenate(left), np.concatenate(right)
    pairs = coo_matrix((np.ones(len(rows)), (rows, columns)),
                       shape=(len(words), len(words))).tocsr().tocoo()
    total = pairs.data.sum()
    word_share = np.asarray(pairs.sum(axis=1)).ravel() / total
    context_weight = np.asarray(pairs.sum(axis=0)).ravel() ** 0.75
    context_share = context_weight / context_weight.sum()
    pmi = np.log(pairs.data / total / (word_share[pairs.row] * context_share[pairs.col]))
    positive = pmi > 0
    ppmi = coo_matrix((pmi[positive], (pairs.row[positive], pairs.col[positive])),
                      shape=pairs.shape).tocsr()
    # A vocabulary smaller than the dimensions (a toy corpus) keeps all but one of its own.
    svd = TruncatedSVD(n_components=min(SPACE_DIMENSIONS, len(words) - 1), random_state=0)
    reduced = svd.fit_transform(ppmi) / np.sqrt(np.maximum(svd.singular_values_, 1e-12))
    return WordSpace(words, word_vectors.unit_rows(reduced))


def running_texts(data_dir) -> Iterator[list[str]]:
    """Stems of SemCor's sentences, the SENSEVAL-2 lexical sample's training contexts and
    WordNet's glosses: the text the distributional space learns from. No evaluation text (no
    test context, unlabelled as it is) and no AmbiStory text."""
    for sentence in read_semcor(registry.locate(SEMCOR_DATASET, data_dir), SEMCOR_PARTS):
        yield stems(" ".join(token.text.replace("_", " ") for token in sentence.tokens))
    for instance in read_lexical_sample(catalogue.SENSEVAL2_LS.path("train", data_dir)).instances():
        yield stems(instance.text)
    yield from gloss_documents()


def stem_space(sources: Sequence[word_vectors.WordVectors]) -> WordSpace:
    """Word vectors as a space of stems (the other spaces, and the glosses they are compared
    with, are stemmed): per source, each stem the mean of its words' unit vectors; with several
    sources, their blocks side by side, each of length 1 / sqrt(sources) (each source weighs the
    same whatever its dimensions, as in the ``emb`` group), zero where a source lacks the stem."""
    blocks = []
    for vectors in sources:
        words = [word for word in vectors.words if word.isalpha()]
        rows = word_vectors.unit_rows(
            vectors.matrix[[vectors.index[word] for word in words]].astype(float))
        by_stem: dict[str, list[int]] = defaultdict(list)
        for row, word in enumerate(words):
            by_stem[stem(word)].append(row)
        blocks.append({kept: word_vectors.unit_rows(rows[members].mean(axis=0, keepdims=True))[0]
                       for kept, members in by_stem.items()})
    stems_kept = tuple(sorted(set().union(*blocks)))
    scale = 1 / np.sqrt(len(blocks))
    return WordSpace(stems_kept, np.hstack([
        scale * np.array([block.get(kept, np.zeros(vectors.dimensions)) for kept in stems_kept])
        for block, vectors in zip(blocks, sources)]))


def vector_space(sources: Sequence[str]) -> WordSpace:
    """The ``vectors`` space of installed pretrained sets, by name."""
    if not sources or len(set(sources)) < len(sources):
        raise WsdError(f"word vector sources {','.join(sources)!r}: one or more, each once")
    return stem_space([pretrained_vectors.load(source) for source in sources])


def text_spaces(data_dir) -> dict[str, WordSpace]:
    """The spaces learnt here: ``lsa`` from WordNet's glosses, ``ppmi`` from running text."""
    return {"lsa": gloss_space(), "ppmi": running_text_space(running_texts(data_dir))}


def build_spaces(data_dir) -> dict[str, WordSpace]:
    return {**text_spaces(data_dir), "vectors": vector_space(VECTOR_SOURCES)}


def save_spaces(path: Path, spaces: dict[str, WordSpace]) -> None:
    np.savez(path, **{f"{name}_words": np.array(space.words) for name, space in spaces.items()},
             **{f"{name}_vectors": space.vectors.astype(np.float32)
                for name, space in spaces.items()})


def load_spaces(path: Path) -> dict[str, WordSpace]:
    if not path.is_file():
        raise WsdError("no AmbiStory word spaces: run bin/train --task ambistory first", path)
    with np.load(path, allow_pickle=False) as saved:
        if not all(f"{name}_vectors" in saved for name in SPACES):
            raise WsdError("the saved word spaces are not those this version reads: train the "
                           "rater again (bin/train --task ambistory)", path)
        return {name: WordSpace(tuple(saved[f"{name}_words"].tolist()),
                                saved[f"{name}_vectors"].astype(float))
                for name in SPACES}
