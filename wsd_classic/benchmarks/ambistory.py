"""AmbiStory (SemEval-2026 Task 5): rate 1-5 how plausible a meaning of a homonym is in a story.

The classic way, in three steps:

1. **Meaning to synset.** ``judged_meaning`` is a WordNet 3.0 definition: it names the synset of
   the homonym whose definition it is (``meaning_synset``); a definition no synset of the
   homonym has exactly gets the synset whose definition shares the most words with it.
2. **Features** of each sample against the other meaning rated in the same story
   (``FEATURE_GROUPS``): ``wsd``, the all-words svm's sense distribution of the homonym with the
   whole story as context, and with the story's setup alone; ``gloss``, TF-IDF similarity of the
   precontext, the sentence and the ending with the meaning's definition, its examples (WordNet's
   and the sample's ``example_sentence``) and its related synsets, against the other meaning's;
   ``lsa``, ``distributional`` and ``w2v``, the same in word spaces (LSA of WordNet's glosses;
   PPMI + SVD of running text; the project's word2vec vectors, by stem); ``siblings``, each
   ending's margins against those of the setup's other ending (which ending tells which
   meaning); ``wordnet``, the relatedness in WordNet of the ending's words with the meaning's
   synset and its neighbours (Wu-Palmer; Banerjee & Pedersen's extended gloss overlap), against
   the other meaning's and the other ending's; ``frequency``, the meaning's SemCor count and
   WordNet rank; ``ending``, whether the story has one. ``support``, measured but not read by
   the rater: a classifier's probability that the story supports this meaning rather than the
   other (``SupportClassifier``, trained on pairs of train's ratings, out of fold on train).
3. **A regressor** (``PlausibilityRater``, scikit-learn conventions) fitted on train to the mean
   rating, chosen by cross-validation on train (folds by homonym) among a few models and three
   ways of making integers of its output; dev is the final check.

The rater reads each sample's sibling stories in the file (the same setup with the other
meaning, and with the other ending): their texts and features, never their ratings.

The whole-story distribution comes from the SemCor-trained ``svm`` of ``bin/train --task
semcor`` reading the story as one all-words document (its bag of words spans the story, its local
features the target's sentence), rather than from a model trained on AmbiStory: the stories'
homonyms are disjoint between train, dev and test, so a dedicated per-homonym model would have
nothing to learn for the test set, while SemCor knows all of them.
"""
from __future__ import annotations

import functools
import json
import math
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from scipy.stats import spearmanr
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.ensemble import HistGradientBoostingRegressor
from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import GroupKFold
from sklearn.preprocessing import StandardScaler
from tqdm import tqdm

from wsd_classic import modelstore, wordnet
from wsd_classic.corpora import registry
from wsd_classic.corpora.ambistory import AmbiStorySample, read_ambistory
from wsd_classic.atomic import write_json_atomically, write_lines_atomically
from wsd_classic.corpora.allwords import AllWordsCorpus, Sentence, Target
from wsd_classic.corpora.lexsample import read_lexical_sample
from wsd_classic.corpora.semcor import PARTS as SEMCOR_PARTS
from wsd_classic.corpora.semcor import read_semcor
from wsd_classic.errors import WsdError
from wsd_classic.features import word_vectors
from wsd_classic.scoring.ambistory import (
    RATINGS, AmbiStoryScore, prediction_lines, score_ambistory, score_intervals,
    within_standard_deviation)
from wsd_classic.tasks import catalogue, staging, vector_corpus
from wsd_classic.tasks.tagger import Tagger
from wsd_classic.tasks.timing import StageTimer

TASK = catalogue.AMBISTORY
BENCHMARK = TASK.name
DATASET = TASK.dataset  # its name in corpora.registry
ALL_WORDS_TASK = catalogue.SEMCOR.name
SPLITS = {"train": "train.json", "dev": "dev.json", "test": "test_redacted.json"}
WSD_SYSTEM = "svm"
# The word spaces: dimensions, and for the distributional one the window (content words on each
# side) and the least count of a stem; the usual values, not tuned.
SPACE_DIMENSIONS = 300
COOCCURRENCE_WINDOW = 5
SPACE_MIN_COUNT = 5
SPACES = ("lsa", "ppmi", "w2v")
# Folds of the cross-validation on train that chooses the rater (grouped by homonym).
FOLDS = 5
SEMCOR_DATASET = catalogue.SEMCOR.dataset
SENSEVAL2_DATASET = catalogue.SENSEVAL2_LS.dataset
SENSEVAL2_FILES = (catalogue.SENSEVAL2_LS.files.train, catalogue.SENSEVAL2_LS.files.test)
# The published test rows of Gehring & Roth (2025), Table 3 (Spearman, accuracy within SD).
PUBLISHED = {"random": (0.000, 0.454), "majority (always 4)": (None, 0.558),
             "Llama-3-8B 0-shot": (0.462, 0.663), "GPT-4o": (0.756, 0.755),
             "humans": (0.834, 0.892)}
PUBLISHED_SOURCE = "Gehring & Roth 2025, Table 3, test set"

FEATURE_GROUPS: dict[str, tuple[str, ...]] = {
    "wsd": ("wsd_story", "wsd_story_other", "wsd_story_margin", "wsd_setup", "wsd_setup_margin",
            "wsd_shift"),
    "gloss": tuple(f"{part}_{signature}_{which}"
                   for part in ("precontext", "sentence", "ending")
                   for signature in ("definition", "examples", "related")
                   for which in ("similarity", "margin")),
    "lsa": tuple(f"{part}_{signature}_lsa_{which}"
                 for part in ("precontext", "sentence", "ending")
                 for signature in ("own", "related")
                 for which in ("similarity", "margin")),
    "distributional": tuple(f"{part}_{signature}_ppmi_{which}"
                            for part in ("precontext", "sentence", "ending")
                            for signature in ("own", "related")
                            for which in ("similarity", "margin")),
    "w2v": tuple(f"{part}_{signature}_w2v_{which}"
                 for part in ("precontext", "sentence", "ending")
                 for signature in ("own", "related")
                 for which in ("similarity", "margin")),
    "frequency": ("log_count", "count_share", "rank", "other_rank"),
    "ending": ("has_ending",),
}


def _ending_margins(*groups: str) -> tuple[str, ...]:
    return tuple(name for group in groups for name in FEATURE_GROUPS[group]
                 if name.startswith("ending_") and name.endswith("margin"))


def _over_sibling(names: Sequence[str]) -> tuple[str, ...]:
    return tuple(f"{name}_over_sibling" for name in names)


# The same meaning's margins in the story's other ending (each setup is told with two endings
# and without one): which of the two endings favours the meaning more. With margins (this
# meaning against the other), that is the 2x2 assignment of the two endings to the two meanings.
SIBLING_SOURCES = ("wsd_story_margin", *_ending_margins("gloss", "lsa", "distributional", "w2v"))
FEATURE_GROUPS["siblings"] = _over_sibling(SIBLING_SOURCES)
# WordNet relatedness of the ending's words with the meaning's synset (the ending is where the
# evidence is: on the precontext and the sentence these features did not help the cross-
# validation). Its own ending-over-sibling margins stay in the group, so that the ablation
# without it drops all of its evidence.
FEATURE_GROUPS["wordnet"] = (
    *(f"ending_wup_{aggregate}{which}" for aggregate in ("max", "top3", "mean")
      for which in ("", "_margin")),
    "ending_extended_gloss_similarity", "ending_extended_gloss_margin")
WORDNET_SIBLING_SOURCES = _ending_margins("wordnet")
FEATURE_GROUPS["wordnet"] += _over_sibling(WORDNET_SIBLING_SOURCES)
# What the support classifier reads: every margin against the other meaning, the ending-over-
# sibling ones included. Each changes sign when the two meanings swap, so one story gives both
# orders of the pairwise decision.
SUPPORT_INPUTS = tuple(name for names in FEATURE_GROUPS.values() for name in names
                       if name.endswith(("_margin", "_over_sibling")))
# The probability that the story supports this meaning rather than the other, from
# ``SupportClassifier``: out of fold on the training file, fitted on all of it for the others.
FEATURE_GROUPS["support"] = ("support_probability",)
FEATURES = tuple(name for names in FEATURE_GROUPS.values() for name in names)
# The groups the rater reads. ``support`` is measured (``ablation``: dev with it;
# ``support_trial``, ``bench/ambistory.py --support-trial``: cross-validated on several partitions
# of train) but not read: it learns from the margins the rater already has, and the rater did not
# gain from it (bench/results/ambistory_support.json).
RATER_GROUPS = tuple(group for group in FEATURE_GROUPS if group != "support")

_WORD = re.compile(r"[A-Za-z0-9]+(?:['\u2019-][A-Za-z0-9]+)*|[^\w\s]")
_ABBREVIATIONS = {"mr", "mrs", "ms", "dr", "st", "jr", "sr", "prof", "vs", "etc", "a.m", "p.m",
                  "e.g", "i.e"}
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"'\u201d\u2019)]*\s+(?=[\"'\u201c\u2018(]?[A-Z0-9])")


# --- meanings ----------------------------------------------------------------------------------

def _normalised(text: str) -> str:
    """A definition as compared: case, spacing, final dot and WordNet's `quotes' aside."""
    text = text.lower().replace("`", "'").replace(";", " ; ")
    return " ".join(text.split()).strip(" .")


@functools.lru_cache(maxsize=1)
def _synsets_by_definition() -> dict[str, list]:
    index: dict[str, list] = defaultdict(list)
    for synset in wordnet.wordnet().all_synsets():
        index[_normalised(synset.definition())].append(synset)
    return index


def _content_words(text: str) -> set[str]:
    return {word.lower() for word in _WORD.findall(text)
            if word[0].isalnum() and word.lower() not in ENGLISH_STOP_WORDS}


@functools.lru_cache(maxsize=None)
def homonym_synsets(homonym: str) -> tuple:
    """The homonym's synsets, all parts of speech, in WordNet's order."""
    return tuple(wordnet.wordnet().synsets("_".join(homonym.lower().split())))


@functools.lru_cache(maxsize=None)
def meaning_synset(homonym: str, definition: str):
    """``(synset, how)``: ``how`` is ``exact`` (one synset of the homonym has this definition),
    ``first of several`` (several have it: the first in WordNet's order), ``another word's``
    (none has it, but a synset of another word has: the dataset names a relative of that word,
    ``foundational`` for ``foundation``; the first such synset), ``closest`` (no synset has it:
    the homonym's whose definition shares most content words with it) or ``none`` (nothing
    matches and the homonym has no synset)."""
    synsets = homonym_synsets(homonym)
    wanted = _normalised(definition)
    exact = [synset for synset in synsets if _normalised(synset.definition()) == wanted]
    if exact:
        return exact[0], "exact" if len(exact) == 1 else "first of several"
    elsewhere = _synsets_by_definition().get(wanted)
    if elsewhere:
        return elsewhere[0], "another word's"
    if not synsets:
        return None, "none"
    words = _content_words(definition)

    def overlap(synset) -> float:
        other = _content_words(synset.definition())
        return len(words & other) / max(1, len(words | other))

    return max(synsets, key=overlap), "closest"


def target_lemma(homonym: str, synset) -> tuple[str, str]:
    """The lemma (as WordNet spells it) and part of speech of the homonym in ``synset``."""
    pos = "a" if synset.pos() == "s" else synset.pos()
    spelt = "_".join(homonym.lower().split())
    forms = {spelt, *(wordnet.wordnet()._morphy(spelt, synset.pos()) or ())}
    for lemma in synset.lemmas():
        if lemma.name().lower() in forms:
            return lemma.name().lower(), pos
    return synset.lemmas()[0].name().lower(), pos


# --- the story as an all-words document ----------------------------------------------------------

def sentences_of(text: str) -> list[str]:
    """The sentences of a story part: split after ``.``, ``!`` or ``?`` before a capital, except
    after an initial or a common abbreviation (``Mr.``, ``p.m.``)."""
    sentences: list[str] = []
    for part in _SENTENCE_END.split(text.strip()):
        if not part.strip():
            continue
        last = sentences[-1].split()[-1].lower().rstrip(".") if sentences else ""
        if last in _ABBREVIATIONS or (len(last) == 1 and last.isalpha()):
            sentences[-1] += " " + part
        else:
            sentences.append(part)
    return sentences


def words_of(sentence: str) -> tuple[str, ...]:
    return tuple(_WORD.findall(sentence))


def target_position(words: Sequence[str], homonym: str, lemma: str, pos: str) -> int | None:
    """Where the homonym stands in the sentence: its spelling, else a form of its lemma."""
    spelt = homonym.lower()
    for index, word in enumerate(words):
        if word.lower() == spelt:
            return index
    for index, word in enumerate(words):
        if lemma in (word.lower(), *wordnet.wordnet()._morphy(word.lower(), pos)):
            return index
    return None


@dataclass(frozen=True)
class StoryTarget:
    """One all-words target: the homonym as ``lemma.pos`` in a story (``ending`` may be '')."""

    homonym: str
    precontext: str
    sentence: str
    ending: str
    lemma: str
    pos: str


def story_corpus(targets: Sequence[StoryTarget]) -> tuple[AllWordsCorpus, dict[StoryTarget, str]]:
    """Each story one document of sentences; the target ids of those whose homonym was found."""
    sentences: list[Sentence] = []
    found: list[Target] = []
    ids: dict[StoryTarget, str] = {}
    documents: dict[tuple[str, str, str, str], int] = {}
    by_story: dict[tuple[str, str, str, str], list[StoryTarget]] = defaultdict(list)
    for target in dict.fromkeys(targets):
        by_story[(target.homonym, target.precontext, target.sentence, target.ending)].append(
            target)
    for story, story_targets in by_story.items():
        document = f"story{len(documents)}"
        documents[story] = len(documents)
        homonym, precontext, sentence, ending = story
        texts = [*sentences_of(precontext), sentence, *sentences_of(ending)]
        ambiguous = len(sentences_of(precontext)) + len(sentences)
        for number, text in enumerate(texts):
            sentences.append(Sentence(f"{document}.s{number}", document, words_of(text)))
        words = sentences[ambiguous].words
        for target in story_targets:
            position = target_position(words, homonym, target.lemma, target.pos)
            if position is None:
                continue
            ids[target] = f"{document}.{target.lemma}.{target.pos}"
            found.append(Target(ids[target], target.lemma, target.pos, ambiguous, position))
    return AllWordsCorpus("AmbiStory stories", sentences, found), ids


def story_distributions(targets: Sequence[StoryTarget], models_root: Path, jobs: int = 1
                        ) -> dict[StoryTarget, dict[str, float]]:
    """The svm's distribution over each target's synsets (by name), its context the story."""
    corpus, ids = story_corpus(targets)
    tagger = Tagger.load(WSD_SYSTEM, models_root)
    # The models were chosen reading the target's sentence only; in these stories the evidence
    # is elsewhere, so the bag of words reads the story (the task's context rule) instead.
    tagger.trained.featurizer = tagger.trained.featurizer.with_context(TASK.context)
    tagged = {answer.instance_id: answer for answer in tagger.tag(corpus, jobs)}
    distributions = {}
    for target, target_id in ids.items():
        synsets: dict[str, float] = defaultdict(float)
        for key, weight in tagged[target_id].senses:
            synsets[wordnet.synset_of_key(key).name()] += weight
        distributions[target] = dict(synsets)
    return distributions


# --- similarity with the meanings -------------------------------------------------------------

@functools.lru_cache(maxsize=1)
def _stemmer():
    from nltk.stem.porter import PorterStemmer

    return PorterStemmer()


@functools.lru_cache(maxsize=1 << 17)
def _stem(word: str) -> str:
    return _stemmer().stem(word)


def stems(text: str) -> list[str]:
    return [_stem(word.lower()) for word in _WORD.findall(text)
            if word[0].isalnum() and word.lower() not in ENGLISH_STOP_WORDS]


@functools.lru_cache(maxsize=1)
def inverse_document_frequency() -> defaultdict[str, float]:
    """IDF of stems over WordNet's glosses (definition and examples of each synset): a weighting
    that depends on no split of the task. A stem no gloss has counts as rare as the rarest."""
    counts: Counter = Counter()
    synsets = list(wordnet.wordnet().all_synsets())
    for synset in synsets:
        counts.update(set(stems(" ".join([synset.definition(), *synset.examples()]))))
    rarest = math.log(len(synsets))
    return defaultdict(lambda: rarest, {stem: math.log(len(synsets) / count)
                                        for stem, count in counts.items()})


@dataclass
class WordSpace:
    """Unit vectors of stems (rows of ``vectors``, in the order of ``words``)."""

    words: tuple[str, ...]
    vectors: np.ndarray

    def __post_init__(self):
        self.index = {word: row for row, word in enumerate(self.words)}

    def text_vector(self, words: Sequence[str], exclude: set[str]) -> np.ndarray:
        """The IDF-weighted sum of the words' vectors, of unit length (zero if none is known)."""
        idf = inverse_document_frequency()
        rows = [self.index[word] for word in words if word not in exclude and word in self.index]
        total = (np.array([idf[self.words[row]] for row in rows])
                 @ self.vectors[rows]) if rows else np.zeros(self.vectors.shape[1])
        norm = np.linalg.norm(total)
        return total / norm if norm else total


def _unit_rows(matrix: np.ndarray) -> np.ndarray:
    return matrix / np.maximum(np.linalg.norm(matrix, axis=1, keepdims=True), 1e-12)


def _gloss_documents() -> Iterator[list[str]]:
    """Each synset's lemma names, definition and examples, as stems."""
    for synset in wordnet.wordnet().all_synsets():
        yield stems(" ".join([*(lemma.name().replace("_", " ") for lemma in synset.lemmas()),
                              synset.definition(), *synset.examples()]))


def gloss_space() -> WordSpace:
    """Latent semantic analysis of WordNet's glosses: a truncated SVD of the TF-IDF matrix of
    synsets by stems. Stems that share no gloss but keep the same company come out close."""
    from sklearn.decomposition import TruncatedSVD
    from sklearn.feature_extraction.text import TfidfVectorizer

    vectorizer = TfidfVectorizer(analyzer=lambda document: document, min_df=2,
                                 sublinear_tf=True)
    matrix = vectorizer.fit_transform(list(_gloss_documents()))
    svd = TruncatedSVD(n_components=SPACE_DIMENSIONS, random_state=0).fit(matrix)
    words = tuple(vectorizer.get_feature_names_out())
    return WordSpace(words, _unit_rows(svd.components_.T * svd.singular_values_))


def running_text_space(documents: Iterable[Sequence[str]], window: int = COOCCURRENCE_WINDOW,
                       min_count: int = SPACE_MIN_COUNT) -> WordSpace:
    """Stems that occur near the same stems in running text come out close: positive pointwise
    mutual information of stems within ``window`` content words (context counts raised to 0.75),
    reduced by a truncated SVD (Levy, Goldberg & Dagan 2015)."""
    from scipy.sparse import coo_matrix
    from sklearn.decomposition import TruncatedSVD

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
    return WordSpace(words, _unit_rows(reduced))


def running_texts(data_dir) -> Iterator[list[str]]:
    """Stems of SemCor's sentences, the SENSEVAL-2 lexical sample's contexts and WordNet's
    glosses: the text the distributional space learns from (no AmbiStory text)."""
    for sentence in read_semcor(registry.locate(SEMCOR_DATASET, data_dir), SEMCOR_PARTS):
        yield stems(" ".join(token.text.replace("_", " ") for token in sentence.tokens))
    root = registry.locate(SENSEVAL2_DATASET, data_dir)
    for filename in SENSEVAL2_FILES:
        for instance in read_lexical_sample(root / filename).instances():
            yield stems(instance.text)
    yield from _gloss_documents()


def stem_space(vectors: word_vectors.WordVectors) -> WordSpace:
    """The project's word2vec vectors as a space of stems: each stem the mean of its words'
    unit vectors (the other spaces, and the glosses they are compared with, are stemmed)."""
    words = [word for word in vectors.words if word.isalpha()]
    rows = _unit_rows(vectors.matrix[[vectors.index[word] for word in words]].astype(float))
    by_stem: dict[str, list[int]] = defaultdict(list)
    for row, word in enumerate(words):
        by_stem[_stem(word)].append(row)
    stems_kept = tuple(sorted(by_stem))
    return WordSpace(stems_kept, _unit_rows(np.array([rows[by_stem[stem]].mean(axis=0)
                                                      for stem in stems_kept])))


def build_spaces(data_dir) -> dict[str, WordSpace]:
    return {"lsa": gloss_space(), "ppmi": running_text_space(running_texts(data_dir)),
            "w2v": stem_space(vector_corpus.obtain(catalogue.SEMCOR.embedding.vectors, data_dir))}


def save_spaces(path: Path, spaces: dict[str, WordSpace]) -> None:
    np.savez(path, **{f"{name}_words": np.array(space.words) for name, space in spaces.items()},
             **{f"{name}_vectors": space.vectors.astype(np.float32)
                for name, space in spaces.items()})


def load_spaces(path: Path) -> dict[str, WordSpace]:
    if not path.is_file():
        raise WsdError("no AmbiStory word spaces: run bin/train --task ambistory first", path)
    with np.load(path, allow_pickle=False) as saved:
        return {name: WordSpace(tuple(saved[f"{name}_words"].tolist()),
                                saved[f"{name}_vectors"].astype(float))
                for name in SPACES}


def _vector(words: Sequence[str], exclude: set[str]) -> dict[str, float]:
    idf = inverse_document_frequency()
    counts = Counter(word for word in words if word not in exclude)
    vector = {word: count * idf[word] for word, count in counts.items()}
    norm = math.sqrt(sum(value * value for value in vector.values()))
    return {word: value / norm for word, value in vector.items()} if norm else {}


def cosine(first: dict[str, float], second: dict[str, float]) -> float:
    if len(first) > len(second):
        first, second = second, first
    return sum(value * second.get(word, 0.0) for word, value in first.items())


def related_synsets(synset) -> list:
    """The synsets one WordNet relation away, derivational relations of its lemmas included."""
    relations = ("hypernyms", "instance_hypernyms", "hyponyms", "instance_hyponyms",
                 "member_holonyms", "part_holonyms", "substance_holonyms", "member_meronyms",
                 "part_meronyms", "substance_meronyms", "similar_tos", "also_sees", "attributes",
                 "entailments", "causes", "verb_groups", "topic_domains", "usage_domains")
    related = [other for relation in relations for other in getattr(synset, relation)()]
    related += [form.synset() for lemma in synset.lemmas()
                for form in lemma.derivationally_related_forms()]
    return list(dict.fromkeys(related))


def signatures(synset, example_sentence: str) -> dict[str, list[str]]:
    """The stems each similarity feature compares a story with."""
    if synset is None:
        return {"definition": [], "examples": stems(example_sentence), "related": []}
    names = " ".join(lemma.name().replace("_", " ") for lemma in synset.lemmas())
    related = " ".join(
        f"{' '.join(lemma.name().replace('_', ' ') for lemma in other.lemmas())} "
        f"{other.definition()}" for other in related_synsets(synset))
    return {"definition": stems(f"{names} {synset.definition()}"),
            "examples": stems(" ".join([*synset.examples(), example_sentence])),
            "related": stems(related)}


# --- WordNet relatedness ----------------------------------------------------------------------

# The senses of a story word whose glosses the extended gloss overlap reads: WordNet's first
# ones, the commonest; the cross-validation on train preferred 3 to all of them.
EXTENDED_GLOSS_SENSES = 3


@functools.lru_cache(maxsize=None)
def _ancestors(synset) -> dict:
    """The synset and its (instance) hypernyms, each with its depth: the longest path from a
    root, counted in synsets (a root has depth 1)."""
    parents = synset.hypernyms() + synset.instance_hypernyms()
    depths: dict = {}
    for parent in parents:
        for ancestor, depth in _ancestors(parent).items():
            depths[ancestor] = max(depth, depths.get(ancestor, 0))
    depths[synset] = 1 + max(depths.values(), default=0)
    return depths


def wu_palmer(first, second) -> float:
    """Wu & Palmer's similarity: twice the depth of the deepest common ancestor over the sum of
    the two depths; 0 when they share none (verbs of different trees, another part of speech).
    NLTK's ``wup_similarity`` (0.857 for dog and cat, as here) walks every hypernym path per call,
    which the millions of word-meaning pairs here cannot afford; the depths are cached per synset."""
    mine, yours = _ancestors(first), _ancestors(second)
    common = mine.keys() & yours.keys()
    if not common:
        return 0.0
    return 2 * max(mine[ancestor] for ancestor in common) / (mine[first] + yours[second])


@functools.lru_cache(maxsize=None)
def _meaning_neighbourhood(synset) -> tuple:
    """The meaning's synset and its related nouns and verbs (the parts of speech with a
    hierarchy): a rail meronym of the railway track is as good a clue as the track itself."""
    return (synset, *(other for other in related_synsets(synset) if other.pos() in "nv"))


@functools.lru_cache(maxsize=1 << 18)
def word_relatedness(word: str, synset) -> float:
    """The best Wu-Palmer similarity between any noun or verb sense of ``word`` and the meaning's
    neighbourhood (the word's part of speech in the story is not known)."""
    senses = [sense for sense in wordnet.wordnet().synsets(word) if sense.pos() in "nv"]
    return max((wu_palmer(sense, other) for sense in senses
                for other in _meaning_neighbourhood(synset) if sense.pos() == other.pos()),
               default=0.0)


def _story_words(text: str, exclude: set[str]) -> list[str]:
    """The distinct content words of a text, lower-cased, those whose stem is excluded aside."""
    return list(dict.fromkeys(word.lower() for word in _WORD.findall(text)
                              if word[0].isalpha() and word.lower() not in ENGLISH_STOP_WORDS
                              and _stem(word.lower()) not in exclude))


def relatedness_profile(text: str, synset, exclude: set[str]) -> dict[str, float]:
    """The words' relatedness with the meaning, aggregated: the most related word, the mean of
    the three most related, the mean of all (0 without words or synset)."""
    values = sorted((word_relatedness(word, synset) for word in _story_words(text, exclude)),
                    reverse=True) if synset is not None else []
    if not values:
        return {"max": 0.0, "top3": 0.0, "mean": 0.0}
    return {"max": values[0], "top3": float(np.mean(values[:3])), "mean": float(np.mean(values))}


@functools.lru_cache(maxsize=1 << 16)
def _word_gloss(word: str) -> tuple[str, ...]:
    return tuple(stem for sense in wordnet.wordnet().synsets(word)[:EXTENDED_GLOSS_SENSES]
                 for stem in stems(" ".join([*(lemma.name().replace("_", " ")
                                               for lemma in sense.lemmas()),
                                             sense.definition()])))


def extended_gloss(text: str, exclude: set[str]) -> list[str]:
    """The stems of the glosses of the text's words (Banerjee & Pedersen's extended gloss
    overlap, the story's side): "the abandoned railway line" meets the meaning "a pair of
    parallel rails providing a runway for wheels" through ``railway``'s gloss "a line of track
    providing a runway for wheels"."""
    return [stem for word in _story_words(text, exclude) for stem in _word_gloss(word)]


# --- features --------------------------------------------------------------------------------

@dataclass
class FeaturizedSplit:
    samples: list[AmbiStorySample]
    matrix: np.ndarray  # samples x FEATURES
    matches: Counter  # how the meanings found their synsets (``meaning_synset``)
    unmatched: list[str]  # "homonym: definition -> synset" of the meanings not matched exactly
    untargeted: int = 0  # samples whose homonym was not found in the sentence: no wsd features


def other_meanings(samples: Sequence[AmbiStorySample]) -> dict[str, AmbiStorySample | None]:
    """Each sample's partner: a sample of the same setup with the other meaning."""
    meanings: dict[tuple, dict[str, AmbiStorySample]] = defaultdict(dict)
    for sample in samples:
        meanings[sample.setup].setdefault(sample.judged_meaning, sample)
    return {sample.id: next((other for meaning, other in meanings[sample.setup].items()
                             if meaning != sample.judged_meaning), None)
            for sample in samples}


def featurize(samples: Sequence[AmbiStorySample], models_root: Path,
              spaces: dict[str, WordSpace], jobs: int = 1,
              progress: bool | None = None) -> FeaturizedSplit:
    partners = other_meanings(samples)
    matches: Counter = Counter()
    unmatched = []
    synsets = {}
    for sample in samples:
        synset, how = meaning_synset(sample.homonym, sample.judged_meaning)
        matches[how] += 1
        synsets[sample.id] = synset
        if how != "exact":
            unmatched.append(f"{sample.homonym}: {sample.judged_meaning!r} -> "
                             f"{synset.name() if synset else 'no synset'} ({how})")
    targets = {}
    for sample in samples:
        if synsets[sample.id] is not None:
            lemma, pos = target_lemma(sample.homonym, synsets[sample.id])
            for ending in {sample.ending, ""}:
                targets[(sample.id, ending)] = StoryTarget(sample.homonym, sample.precontext,
                                                           sample.sentence, ending, lemma, pos)
    distributions = story_distributions(list(targets.values()), models_root, jobs)
    if progress is None:
        progress = sys.stderr.isatty()
    rows = []
    for sample in tqdm(samples, desc="features", unit="sample", disable=not progress,
                       file=sys.stderr):
        partner = partners[sample.id]
        other = synsets[partner.id] if partner else None
        rows.append(_features(sample, synsets[sample.id], other, spaces,
                              partner.example_sentence if partner else "",
                              {ending: distributions.get(targets.get((sample.id, ending)), {})
                               for ending in (sample.ending, "")}))
    _add_sibling_features(samples, rows)
    matrix = np.array([[row[name] for name in FEATURES] for row in rows], dtype=float)
    untargeted = sum(targets.get((sample.id, sample.ending)) not in distributions
                     for sample in samples)
    return FeaturizedSplit(list(samples), matrix, matches, unmatched, untargeted)


def _add_sibling_features(samples: Sequence[AmbiStorySample], rows: list[dict]) -> None:
    """Each ended story's ending margins minus those of the same meaning's other ending."""
    endings: dict[tuple, list[int]] = defaultdict(list)
    for index, sample in enumerate(samples):
        if sample.ending:
            endings[(sample.setup, sample.judged_meaning)].append(index)
    for index, (sample, row) in enumerate(zip(samples, rows)):
        siblings = [other for other in endings.get((sample.setup, sample.judged_meaning), ())
                    if other != index and samples[other].ending != sample.ending]
        for name in (*SIBLING_SOURCES, *WORDNET_SIBLING_SOURCES):
            row[f"{name}_over_sibling"] = (
                row[name] - float(np.mean([rows[other][name] for other in siblings]))
                if sample.ending and siblings else 0.0)


def _features(sample: AmbiStorySample, synset, other, spaces: dict[str, WordSpace],
              other_example: str,
              distributions: dict[str, dict[str, float]]) -> dict[str, float]:
    row: dict[str, float] = {}
    story, setup = distributions[sample.ending], distributions[""]
    name = synset.name() if synset else None
    other_name = other.name() if other else None
    row["wsd_story"] = story.get(name, 0.0)
    row["wsd_story_other"] = story.get(other_name, 0.0)
    row["wsd_story_margin"] = row["wsd_story"] - row["wsd_story_other"]
    row["wsd_setup"] = setup.get(name, 0.0)
    row["wsd_setup_margin"] = row["wsd_setup"] - setup.get(other_name, 0.0)
    row["wsd_shift"] = row["wsd_story"] - row["wsd_setup"]
    exclude = set(stems(sample.homonym))
    own_words = signatures(synset, sample.example_sentence)
    their_words = signatures(other, other_example)
    own = {kind: _vector(words, exclude) for kind, words in own_words.items()}
    theirs = {kind: _vector(words, exclude) for kind, words in their_words.items()}
    for space_name, space in spaces.items():
        mine = {"own": space.text_vector(own_words["definition"] + own_words["examples"], exclude),
                "related": space.text_vector(own_words["related"], exclude)}
        yours = {"own": space.text_vector(their_words["definition"] + their_words["examples"],
                                          exclude),
                 "related": space.text_vector(their_words["related"], exclude)}
        for part, text in zip(("precontext", "sentence", "ending"), sample.story):
            story = space.text_vector(stems(text), exclude)
            for kind in ("own", "related"):
                similarity = float(story @ mine[kind])
                row[f"{part}_{kind}_{space_name}_similarity"] = similarity
                row[f"{part}_{kind}_{space_name}_margin"] = similarity - float(story @ yours[kind])
    for part, text in zip(("precontext", "sentence", "ending"), sample.story):
        vector = _vector(stems(text), exclude)
        for kind in ("definition", "examples", "related"):
            similarity = cosine(vector, own[kind])
            row[f"{part}_{kind}_similarity"] = similarity
            row[f"{part}_{kind}_margin"] = similarity - cosine(vector, theirs[kind])
    row.update(wordnet_features(sample.ending, synset, other, own_words, their_words, exclude))
    synsets = homonym_synsets(sample.homonym)
    count = _count(sample.homonym, synset)
    other_count = _count(sample.homonym, other)
    row["log_count"] = math.log1p(count)
    row["count_share"] = (count + 1) / (count + other_count + 2)
    row["rank"] = synsets.index(synset) + 1 if synset in synsets else len(synsets) + 1
    row["other_rank"] = synsets.index(other) + 1 if other in synsets else len(synsets) + 1
    row["has_ending"] = float(bool(sample.ending))
    row["support_probability"] = NO_SUPPORT_EVIDENCE  # filled by ``add_support``, with labels
    return row


NO_SUPPORT_EVIDENCE = 0.5


def wordnet_features(ending: str, synset, other, own_words: dict[str, list[str]],
                     their_words: dict[str, list[str]], exclude: set[str]) -> dict[str, float]:
    """The ``wordnet`` group but its over-sibling margins: the ending's relatedness with the
    meaning (``synset``, whose ``signatures`` are ``own_words``) and its margin against the
    other meaning's."""
    row = {}
    profiles = [relatedness_profile(ending, meaning, exclude) for meaning in (synset, other)]
    for aggregate, value in profiles[0].items():
        row[f"ending_wup_{aggregate}"] = value
        row[f"ending_wup_{aggregate}_margin"] = value - profiles[1][aggregate]
    glosses = _vector(extended_gloss(ending, exclude), exclude)
    own, theirs = (_vector(words["definition"] + words["related"], exclude)
                   for words in (own_words, their_words))
    row["ending_extended_gloss_similarity"] = cosine(glosses, own)
    row["ending_extended_gloss_margin"] = row["ending_extended_gloss_similarity"] - cosine(
        glosses, theirs)
    return row


def _count(homonym: str, synset) -> int:
    """SemCor count (WordNet's cntlist) of the homonym's lemma in ``synset``."""
    if synset is None:
        return 0
    lemma, _ = target_lemma(homonym, synset)
    return sum(entry.count() for entry in synset.lemmas() if entry.name().lower() == lemma)


# --- which meaning the story supports ---------------------------------------------------------

# The support classifier's regularisation, by its own cross-validation on train (the rater's
# homonym folds; the area under the ROC curve of the held-out probabilities on the stories with
# an ending, and on the open-ended ones): 0.712 / 0.576 at C = 1, 0.738 / 0.600 at 0.01, 0.756 /
# 0.611 at 0.001, 0.759 / 0.613 at 0.0003 and 0.760 / 0.613 at 0.0001. The strongest is best: the
# weights tend to the rating-gap-weighted mean of the inputs, each margin counted alike.
SUPPORT_C = 0.0001


def support_gaps(samples: Sequence[AmbiStorySample]) -> np.ndarray:
    """Each sample's mean rating minus that of the other meaning in the same story (the same
    setup and ending): positive when the story supports this meaning; NaN without ratings or
    without the other meaning."""
    stories: dict[tuple, dict[str, AmbiStorySample]] = defaultdict(dict)
    for sample in samples:
        stories[(sample.setup, sample.ending)].setdefault(sample.judged_meaning, sample)
    gaps = np.full(len(samples), np.nan)
    for index, sample in enumerate(samples):
        others = [other for meaning, other in stories[(sample.setup, sample.ending)].items()
                  if meaning != sample.judged_meaning]
        if sample.choices is not None and others and others[0].choices is not None:
            gaps[index] = sample.average - others[0].average
    return gaps


class SupportClassifier(ClassifierMixin, BaseEstimator):
    """P(the story supports this meaning rather than the other) from ``SUPPORT_INPUTS``.

    Fitted on ``support_gaps``: a story whose two meanings' ratings differ is one decision,
    weighted by how much they differ (ties teach nothing). A logistic regression without
    intercept on inputs that change sign with the order of the meanings gives the two meanings of
    a story probabilities that sum to 1. Stories with an ending and open-ended ones are told
    apart: in one the ending decides, in the other only the setup can.
    """

    def __init__(self, C: float = SUPPORT_C):
        self.C = C

    def _inputs(self, matrix: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        columns = matrix[:, [FEATURES.index(name) for name in SUPPORT_INPUTS]]
        return columns, matrix[:, FEATURES.index("has_ending")] > 0

    def fit(self, matrix: np.ndarray, gaps: np.ndarray) -> "SupportClassifier":
        inputs, ended = self._inputs(matrix)
        gaps = np.asarray(gaps, dtype=float)
        self.classes_ = np.array([False, True])
        # Scaled but not centred: centring would break the sign symmetry.
        self.scale_ = np.maximum(inputs.std(axis=0), 1e-12)
        self.estimators_ = {}
        for has_ending in (False, True):
            rows = (ended == has_ending) & (np.nan_to_num(gaps) != 0)
            if len(set(gaps[rows] > 0)) == 2:
                self.estimators_[has_ending] = LogisticRegression(
                    C=self.C, fit_intercept=False, max_iter=2000).fit(
                    inputs[rows] / self.scale_, gaps[rows] > 0, sample_weight=np.abs(gaps[rows]))
        return self

    def predict_proba(self, matrix: np.ndarray) -> np.ndarray:
        """Columns: against, supported (``NO_SUPPORT_EVIDENCE`` for a kind of story the
        training data had no decision of)."""
        inputs, ended = self._inputs(matrix)
        supported = np.full(len(matrix), NO_SUPPORT_EVIDENCE)
        for has_ending, estimator in self.estimators_.items():
            rows = ended == has_ending
            if rows.any():
                supported[rows] = estimator.predict_proba(inputs[rows] / self.scale_)[:, 1]
        return np.column_stack([1 - supported, supported])

    def predict(self, matrix: np.ndarray) -> np.ndarray:
        return self.predict_proba(matrix)[:, 1] > 0.5


def add_support(train: FeaturizedSplit, others: Iterable[FeaturizedSplit],
                folds: Sequence[tuple[np.ndarray, np.ndarray]]) -> None:
    """Fill the ``support`` column: on train out of fold (each fold from a classifier fitted on
    the others, the rater's own folds, so that the rater does not learn from probabilities fitted
    on the very ratings it is scored against), elsewhere from one fitted on all of train."""
    column, gaps = FEATURES.index("support_probability"), support_gaps(train.samples)
    held_out = np.empty(len(train.samples))
    for fitted, held in folds:
        classifier = SupportClassifier().fit(train.matrix[fitted], gaps[fitted])
        held_out[held] = classifier.predict_proba(train.matrix[held])[:, 1]
    train.matrix[:, column] = held_out
    fill_support(train.matrix, gaps, others)


def fill_support(train_matrix: np.ndarray, gaps: np.ndarray,
                 others: Iterable[FeaturizedSplit]) -> None:
    """The ``support`` column of ``others`` from a classifier fitted on all of train."""
    classifier = SupportClassifier().fit(train_matrix, gaps)
    column = FEATURES.index("support_probability")
    for split in others:
        split.matrix[:, column] = classifier.predict_proba(split.matrix)[:, 1]


# --- the rater -------------------------------------------------------------------------------

class PlausibilityRater(RegressorMixin, BaseEstimator):
    """The mean rating of a sample from the columns of ``FEATURES`` that ``groups`` keep.

    ``model``: ``ridge`` (standardised features), ``boosting`` (gradient-boosted trees) or
    ``ordinal`` (multinomial logistic regression over the rounded ratings, read out as the
    expected rating). ``integers``: ``round`` (the nearest of 1-5), ``quantiles`` (the
    real-valued ratings of the samples rated together are cut so that each integer gets the
    share the rounded mean ratings have in the training data; it needs no label of those
    samples) or ``thresholds`` (the four ``cuts`` between 1-5, which ``fit_cuts`` chooses on
    held-out predictions of the training data).
    """

    def __init__(self, model: str = "boosting", groups: tuple[str, ...] = RATER_GROUPS,
                 alpha: float = 1.0, iterations: int = 200, learning_rate: float = 0.05,
                 depth: int = 3, integers: str = "round", cuts: Sequence[float] = (),
                 random_state: int = 0):
        self.model = model
        self.groups = groups
        self.alpha = alpha
        self.iterations = iterations
        self.learning_rate = learning_rate
        self.depth = depth
        self.integers = integers
        self.cuts = cuts
        self.random_state = random_state

    def _columns(self, matrix: np.ndarray) -> np.ndarray:
        keep = [FEATURES.index(name) for group in self.groups for name in FEATURE_GROUPS[group]]
        return matrix[:, keep]

    def fit(self, matrix: np.ndarray, ratings: np.ndarray) -> "PlausibilityRater":
        features, ratings = self._columns(matrix), np.asarray(ratings, dtype=float)
        rounded = np.clip(np.rint(ratings), 1, 5).astype(int)
        self.shares_ = rounded_shares(ratings)
        if self.model == "ridge":
            self.scaler_ = StandardScaler().fit(features)
            self.estimator_ = Ridge(alpha=self.alpha).fit(self.scaler_.transform(features),
                                                          ratings)
        elif self.model == "boosting":
            self.scaler_ = None
            self.estimator_ = HistGradientBoostingRegressor(
                max_iter=self.iterations, learning_rate=self.learning_rate, max_depth=self.depth,
                random_state=self.random_state).fit(features, ratings)
        elif self.model == "ordinal":
            self.scaler_ = StandardScaler().fit(features)
            self.estimator_ = LogisticRegression(C=1 / self.alpha, max_iter=2000).fit(
                self.scaler_.transform(features), rounded)
        else:
            raise ValueError(f"unknown model {self.model!r}")
        return self

    def predict(self, matrix: np.ndarray) -> np.ndarray:
        features = self._columns(matrix)
        if self.scaler_ is not None:
            features = self.scaler_.transform(features)
        if self.model == "ordinal":
            return self.estimator_.predict_proba(features) @ self.estimator_.classes_
        return np.clip(self.estimator_.predict(features), 1, 5)

    def predict_ratings(self, matrix: np.ndarray) -> np.ndarray:
        """Integers 1-5, as the task takes them."""
        return as_integers(self.predict(matrix), self.integers, self.shares_, self.cuts)


def rounded_shares(ratings: np.ndarray) -> np.ndarray:
    """The share of each integer 1-5 among the rounded ratings."""
    rounded = np.clip(np.rint(ratings), 1, 5).astype(int)
    return np.array([np.mean(rounded == value) for value in RATINGS])


def as_integers(values: np.ndarray, method: str, shares: np.ndarray | None,
                cuts: Sequence[float] = ()) -> np.ndarray:
    if method == "thresholds":
        if len(cuts) != len(RATINGS) - 1:
            raise ValueError(f"thresholds need {len(RATINGS) - 1} cuts, not {list(cuts)}")
        return RATINGS[0] + np.searchsorted(np.sort(cuts), values)
    if method == "round":
        return np.clip(np.rint(values), 1, 5).astype(int)
    if method == "quantiles":
        order = np.argsort(values, kind="stable")
        bounds = np.rint(np.cumsum(shares) * len(values)).astype(int)
        integers = np.empty(len(values), dtype=int)
        start = 0
        for value, stop in zip(RATINGS, bounds):
            integers[order[start:stop]] = value
            start = stop
        integers[order[start:]] = RATINGS[-1]
        return integers
    raise ValueError(f"unknown integers method {method!r}")


# Candidates compared by cross-validation on train (dev is the final check; the test labels are
# never read).
CANDIDATES = (
    *({"model": "ridge", "alpha": alpha} for alpha in (1.0, 10.0, 100.0)),
    *({"model": "ordinal", "alpha": alpha} for alpha in (1.0, 10.0)),
    *({"model": "boosting", "iterations": iterations, "learning_rate": 0.05, "depth": depth}
      for iterations in (100, 300) for depth in (2, 3)),
)
INTEGER_METHODS = ("round", "quantiles", "thresholds")


# --- jobs ------------------------------------------------------------------------------------

def _ratings(split: FeaturizedSplit) -> np.ndarray:
    return np.array([sample.average for sample in split.samples])


def score_split(split: FeaturizedSplit, integers: np.ndarray) -> AmbiStoryScore:
    return score_ambistory({sample.id: int(value) for sample, value in
                            zip(split.samples, integers)},
                           {sample.id: sample.choices for sample in split.samples})


def _selection_key(score: AmbiStoryScore) -> float:
    """Both of the task's figures count: their sum, a NaN rho as 0."""
    return (0.0 if math.isnan(score.spearman) else score.spearman) + score.accuracy


def load_splits(data_dir, models_root: Path, spaces: dict[str, WordSpace], jobs: int,
                names: Sequence[str] = tuple(SPLITS)) -> dict[str, FeaturizedSplit]:
    root = registry.locate(DATASET, data_dir)
    splits = {}
    for name in names:
        samples = read_ambistory(root / SPLITS[name])
        splits[name] = featurize(samples, models_root, spaces, jobs)
    for name in ("train", "dev"):
        if name in splits and any(sample.choices is None for sample in splits[name].samples):
            raise WsdError(f"the {name} file has samples without ratings", root / SPLITS[name])
    return splits


def homonym_folds(samples: Sequence[AmbiStorySample], seed: int | None = None
                  ) -> list[tuple[np.ndarray, np.ndarray]]:
    """Cross-validation folds of train, no homonym on both sides (train, dev and test share
    none); a file of one homonym is split by setup instead. ``seed``: homonyms shuffled into
    folds of equal counts (another partition), instead of folds of equal sizes."""
    keys = [sample.homonym for sample in samples]
    if len(set(keys)) < 2:
        keys = [sample.setup for sample in samples]
    numbers = {key: number for number, key in enumerate(sorted(set(keys)))}
    folds = GroupKFold(min(FOLDS, len(numbers)), shuffle=seed is not None, random_state=seed)
    return list(folds.split(np.zeros((len(keys), 1)), groups=[numbers[key] for key in keys]))


def held_out_predictions(params: dict, groups: tuple[str, ...], train: FeaturizedSplit,
                         folds: Sequence[tuple[np.ndarray, np.ndarray]],
                         rater_class: type[PlausibilityRater] = PlausibilityRater) -> np.ndarray:
    """Each training sample's real-valued rating from a rater fitted on the other folds."""
    ratings, values = _ratings(train), np.empty(len(train.samples))
    for fitted, held in folds:
        rater = rater_class(**{**params, "groups": groups}).fit(train.matrix[fitted],
                                                               ratings[fitted])
        values[held] = rater.predict(train.matrix[held])
    return values


def fit_cuts(values: np.ndarray, split: FeaturizedSplit) -> tuple[float, ...]:
    """The thresholds between the integers 1-5 with the best rho + accuracy of ``values``
    against the split's ratings: coordinate ascent from the rounding thresholds over quantiles
    of the values. Accuracy within SD forgives a prediction near the mean rating and rho needs
    spread, so the best cuts need not be those of rounding."""
    means = _ratings(split)
    hits = np.array([[within_standard_deviation(value, sample.choices) for value in RATINGS]
                     for sample in split.samples])

    def key(cuts: np.ndarray) -> float:
        integers = as_integers(values, "thresholds", None, cuts)
        rho = spearmanr(integers, means).statistic if len(set(integers)) > 1 else math.nan
        accuracy = hits[np.arange(len(values)), integers - RATINGS[0]].mean()
        return (0.0 if math.isnan(rho) else rho) + accuracy

    options = np.quantile(values, np.linspace(0.01, 0.99, 50))
    cuts = np.array([1.5, 2.5, 3.5, 4.5])
    for _ in range(2):
        for position in range(len(cuts)):
            cuts[position] = max((cuts[position], *options), key=lambda cut: key(
                np.where(np.arange(len(cuts)) == position, cut, cuts)))
    return tuple(float(cut) for cut in np.sort(cuts))


def _integer_params(params: dict, groups: tuple[str, ...], train: FeaturizedSplit,
                    folds: Sequence[tuple[np.ndarray, np.ndarray]]) -> dict:
    """``params`` with the cuts its thresholds need, chosen on held-out predictions."""
    if params.get("integers") != "thresholds":
        return params
    held_out = held_out_predictions(params, groups, train, folds)
    return {**params, "cuts": list(fit_cuts(held_out, train))}


def choose(train: FeaturizedSplit, dev: FeaturizedSplit) -> tuple[dict, list[dict]]:
    """The candidate setting with the best cross-validated figures on train, and every
    candidate's figures (cross-validated, and on dev as a check that chooses nothing)."""
    folds, groups = homonym_folds(train.samples), RATER_GROUPS
    shares = rounded_shares(_ratings(train))
    trials = []
    for candidate in CANDIDATES:
        held_out = held_out_predictions(candidate, groups, train, folds)
        values = PlausibilityRater(**candidate).fit(train.matrix, _ratings(train)).predict(
            dev.matrix)
        for method in INTEGER_METHODS:
            cuts = fit_cuts(held_out, train) if method == "thresholds" else ()
            cross_validated = score_split(train, as_integers(held_out, method, shares, cuts))
            params = {**candidate, "integers": method, **({"cuts": list(cuts)} if cuts else {})}
            on_dev = score_split(dev, as_integers(values, method, shares, cuts))
            trials.append({"params": params, "cv": cross_validated.as_dict(),
                           "dev": on_dev.as_dict(), "key": _selection_key(cross_validated)})
    best = max(trials, key=lambda trial: trial["key"])
    return best["params"], trials


def ablation(params: dict, train: FeaturizedSplit, dev: FeaturizedSplit) -> dict[str, dict]:
    """Dev figures of the chosen setting with the rater's groups, without each one, with each
    group alone, and with the groups it does not read (thresholds chosen again for each, on
    held-out predictions of train)."""
    folds = homonym_folds(train.samples)
    figures = {"all": _fit_score(params, RATER_GROUPS, train, dev, folds)}
    for group in FEATURE_GROUPS:
        if group in RATER_GROUPS:
            figures[f"without {group}"] = _fit_score(
                params, tuple(g for g in RATER_GROUPS if g != group), train, dev, folds)
        else:
            figures[f"with {group}"] = _fit_score(params, (*RATER_GROUPS, group), train, dev,
                                                  folds)
        figures[f"only {group}"] = _fit_score(params, (group,), train, dev, folds)
    return figures


def _fit_score(params: dict, groups: tuple[str, ...], train: FeaturizedSplit,
               dev: FeaturizedSplit, folds: Sequence[tuple[np.ndarray, np.ndarray]]) -> dict:
    params = {**_integer_params(params, groups, train, folds), "groups": groups}
    rater = PlausibilityRater(**params).fit(train.matrix, _ratings(train))
    return score_split(dev, rater.predict_ratings(dev.matrix)).as_dict()


# The partitions of train on which ``support_trial`` compares the rater with and without the
# support group: the folds that choose the rater, and homonyms shuffled into folds with these
# seeds (one partition's rho + accuracy differs from another's by up to 0.03, more than the
# group's effect).
TRIAL_SEEDS = (None, 1, 2, 3)


def support_trial(params: dict, train: FeaturizedSplit) -> list[dict]:
    """For each partition of ``TRIAL_SEEDS``: the rater ``params`` cross-validated with its groups
    and with ``support`` besides (its column out of fold on that partition's folds), and the
    support classifier's held-out area under the ROC curve on the stories with an ending, on
    those whose two meanings' ratings differ by more than 2, and on the open-ended ones."""
    gaps, ended = support_gaps(train.samples), np.array([bool(s.ending) for s in train.samples])
    decided = np.nan_to_num(gaps) != 0
    kinds = {"ended": ended & decided, "open-ended": ~ended & decided,
             "ended, gap over 2": ended & (np.abs(np.nan_to_num(gaps)) > 2)}
    shares = rounded_shares(_ratings(train))
    trials = []
    for seed in TRIAL_SEEDS:
        folds = homonym_folds(train.samples, seed)
        split = FeaturizedSplit(train.samples, train.matrix.copy(), train.matches, [])
        add_support(split, (), folds)
        support = split.matrix[:, FEATURES.index("support_probability")]
        trial = {"seed": seed, "support_auc": {
            kind: float(roc_auc_score(gaps[rows] > 0, support[rows])) if rows.any() else None
            for kind, rows in kinds.items()}}
        for label, groups in (("without support", RATER_GROUPS),
                              ("with support", (*RATER_GROUPS, "support"))):
            held_out = held_out_predictions(params, groups, split, folds)
            cuts = fit_cuts(held_out, split) if params.get("integers") == "thresholds" else ()
            score = score_split(split, as_integers(held_out, params["integers"], shares, cuts))
            trial[label] = {**score.as_dict(), "key": _selection_key(score)}
        trials.append(trial)
    return trials


def by_ending(split: FeaturizedSplit, integers: np.ndarray) -> dict[str, dict]:
    """Figures on the open-ended stories and on the stories with an ending (Table 7's split)."""
    figures = {}
    for label, wanted in (("open-ended", False), ("ended", True)):
        chosen = [index for index, sample in enumerate(split.samples)
                  if bool(sample.ending) == wanted]
        part = FeaturizedSplit([split.samples[i] for i in chosen], split.matrix[chosen],
                               Counter(), [])
        figures[label] = score_split(part, integers[chosen]).as_dict()
    return figures


def model_paths(models_root: Path) -> tuple[Path, Path, Path]:
    """The rater's description, its training matrix and the word spaces."""
    directory = Path(models_root) / BENCHMARK
    return directory / "rater.json", directory / "rater.npz", directory / "spaces.npz"


def train_job(data_dir, models_root, results_root, jobs: int = 1) -> str:
    """``bin/train --task ambistory``: featurize the three files, choose the rater on dev,
    record the ablation, save the rater and write the predictions; returns the report."""
    svm_path = modelstore.model_path(models_root, ALL_WORDS_TASK, WSD_SYSTEM)
    if not svm_path.is_file():  # said before minutes of word spaces, not after
        raise WsdError(f"no all-words {WSD_SYSTEM}: run bin/train --task {ALL_WORDS_TASK} first",
                       svm_path)
    timer = StageTimer()
    with timer.stage("word spaces"):
        spaces = build_spaces(data_dir)
    with timer.stage("featurize (spaCy, svm, WordNet)"):
        splits = load_splits(data_dir, Path(models_root), spaces, jobs)
    train, dev = splits["train"], splits["dev"]
    with timer.stage("support classifier"):
        add_support(train, (dev, splits["test"]), homonym_folds(train.samples))
    with timer.stage("choose by cross-validation on train"):
        params, trials = choose(train, dev)
    with timer.stage("ablation"):
        groups = ablation(params, train, dev)
    json_path, matrix_path, spaces_path = model_paths(models_root)
    with staging.exclusive(Path(models_root), BENCHMARK), \
            staging.staged_directory(json_path.parent) as stage:
        np.savez(stage / matrix_path.name, matrix=train.matrix, ratings=_ratings(train),
                 support_gaps=support_gaps(train.samples))
        save_spaces(stage / spaces_path.name, spaces)
        write_json_atomically(stage / json_path.name, {
            "params": params, "features": list(FEATURES), "wsd_system": WSD_SYSTEM,
            "story_context_sentences": TASK.context.sentences,
            "training": "AmbiStory train.json",
            "chosen_on": "AmbiStory train.json, cross-validated by homonym",
            "training_sha256": registry.file_sha256(
                registry.locate(DATASET, data_dir) / SPLITS["train"])})
    with timer.stage("predict and score"):
        outcome = _predict_and_write(splits, load_rater(Path(models_root)), Path(results_root),
                                     {"selection": trials, "ablation": groups,
                                      "meanings": _matching_report(splits)})
    lines = [_matching_report(splits), f"chosen by cross-validation on train: {params}",
             "dev figures per feature group (chosen setting): " + "; ".join(
                 f"{name} rho {rho_text(figures)} acc {figures['accuracy']:.3f}"
                 for name, figures in groups.items()),
             outcome, timer.summary()]
    return "\n".join(lines)


def evaluate_job(data_dir, models_root, results_root, jobs: int = 1) -> str:
    """``bin/evaluate --benchmark ambistory``: the saved rater's predictions and dev scores."""
    timer = StageTimer()
    with timer.stage("featurize (spaCy, svm, WordNet)"):
        spaces = load_spaces(model_paths(models_root)[2])
        splits = load_splits(data_dir, Path(models_root), spaces, jobs, ("dev", "test"))
    rater = load_rater(Path(models_root))
    if "support" in rater.groups:  # else the support classifier's column goes unread
        matrix, _, gaps = saved_training(models_root)
        fill_support(matrix, gaps, splits.values())
    with timer.stage("predict and score"):
        outcome = _predict_and_write(splits, rater, Path(results_root), {})
    return "\n".join([_matching_report(splits), outcome, timer.summary()])


def saved_training(models_root: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The saved rater's training matrix (its support column out of fold), the mean ratings and
    the support classifier's gaps."""
    json_path, matrix_path, spaces_path = model_paths(models_root)
    if not all(path.is_file() for path in (json_path, matrix_path, spaces_path)):
        raise WsdError("no AmbiStory rater: run bin/train --task ambistory first", json_path)
    description = json.loads(json_path.read_text())
    if description.get("features") != list(FEATURES):
        raise WsdError("the saved rater has other features than this version computes: train it "
                       "again (bin/train --task ambistory)", json_path)
    with np.load(matrix_path, allow_pickle=False) as saved:
        return saved["matrix"], saved["ratings"], saved["support_gaps"]


def load_rater(models_root: Path) -> PlausibilityRater:
    matrix, ratings, _ = saved_training(models_root)
    description = json.loads(model_paths(models_root)[0].read_text())
    return PlausibilityRater(**description["params"]).fit(matrix, ratings)


def _predict_and_write(splits: dict[str, FeaturizedSplit], rater: PlausibilityRater,
                       results_root: Path, extra: dict) -> str:
    out_dir = results_root / BENCHMARK
    scores = {}
    with staging.exclusive(results_root, BENCHMARK), staging.staged_directory(out_dir) as stage:
        for name in ("dev", "test"):
            split = splits[name]
            values = rater.predict(split.matrix)
            integers = rater.predict_ratings(split.matrix)
            ids = [sample.id for sample in split.samples]
            write_lines_atomically(stage / f"{name}.predictions.jsonl", prediction_lines(
                {key: int(value) for key, value in zip(ids, integers)}))
            write_lines_atomically(stage / f"{name}.ratings.jsonl", (
                json.dumps({"id": key, "rating": round(float(value), 4)})
                for key, value in zip(ids, values)))
            if name == "dev":
                predicted = {key: int(value) for key, value in zip(ids, integers)}
                scores[name] = {**score_split(split, integers).as_dict(),
                                "ci95": score_intervals(predicted, {
                                    sample.id: sample.choices for sample in split.samples}),
                                "by_ending": by_ending(split, integers)}
        write_json_atomically(stage / "scores.json",
                              {**scores, **extra, "params": rater.get_params()})
    return results_table(scores["dev"]) + f"\npredictions (dev, test) in {out_dir}/; the " \
        "test figures are not computed here: the data directory holds only the redacted test file"


def rho_text(figures: dict) -> str:
    return "n/a" if figures["spearman"] is None else f"{figures['spearman']:.3f}"


def results_table(dev: dict) -> str:
    lines = ["AmbiStory: Spearman's rho and accuracy within SD (the task's scoring)",
             f"{'':<34}{'rho':>7}{'acc':>7}",
             f"{'classic rater (ours), dev':<34}{rho_text(dev):>7}{dev['accuracy']:>7.3f}"]
    for label, figures in dev["by_ending"].items():
        lines.append(f"{'  ' + label:<34}{rho_text(figures):>7}{figures['accuracy']:>7.3f}")
    lines.append(f"published, {PUBLISHED_SOURCE}:")
    for system, (rho, accuracy) in PUBLISHED.items():
        lines.append(f"{system:<34}{'n/a' if rho is None else f'{rho:.3f}':>7}{accuracy:>7.3f}")
    return "\n".join(lines)


def _matching_report(splits: dict[str, FeaturizedSplit]) -> str:
    parts = []
    for name, split in splits.items():
        counts = ", ".join(f"{count} {how}" for how, count in sorted(split.matches.items()))
        parts.append(f"{name} {counts}" + (f", {split.untargeted} with the homonym not found "
                                           "in the sentence (no wsd features)"
                                           if split.untargeted else ""))
    shown = [line for split in splits.values() for line in split.unmatched][:3]
    return ("judged meanings to WordNet 3.0 synsets: " + "; ".join(parts)
            + (f" (e.g. {'; '.join(shown)})" if shown else ""))
