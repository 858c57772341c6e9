"""The features of each sample against the other meaning rated in the same story
(``FEATURE_GROUPS``).

``wsd``, the all-words svm's sense distribution of the homonym with the whole story as context,
and with the story's setup alone; ``gloss``, TF-IDF similarity of the precontext, the sentence
and the ending with the meaning's definition, its examples (WordNet's and the sample's
``example_sentence``) and its related synsets, against the other meaning's; ``lsa``,
``distributional`` and ``vectors``, the same in the word spaces (``spaces``); ``siblings``, each
ending's margins against those of the setup's other ending (which ending tells which meaning);
``wordnet``, the relatedness in WordNet of the ending's words with the meaning's synset and its
neighbours (``relatedness``), against the other meaning's and the other ending's;
``frequency``, the meaning's SemCor count and WordNet rank; ``ending``, whether the story has
one. ``support``, measured but not read by the rater: a classifier's probability that the story
supports this meaning rather than the other (``support.SupportClassifier``).

A sample's sibling stories in the file (the same setup with the other meaning, and with the
other ending) lend their texts and features, never their ratings.
"""
from __future__ import annotations

import math
import sys
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from tqdm import tqdm

from wsd_classic.benchmarks.ambistory.meanings import (homonym_synsets, meaning_synset,
                                                       signatures, target_lemma)
from wsd_classic.benchmarks.ambistory.relatedness import wordnet_features
from wsd_classic.benchmarks.ambistory.spaces import WordSpace
from wsd_classic.benchmarks.ambistory.stories import StoryTarget, story_distributions
from wsd_classic.benchmarks.ambistory.text import cosine, stems, tfidf_vector
from wsd_classic.corpora.ambistory import AmbiStorySample

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
    "vectors": tuple(f"{part}_{signature}_vectors_{which}"
                     for part in ("precontext", "sentence", "ending")
                     for signature in ("own", "related")
                     for which in ("similarity", "margin")),
    "frequency": ("log_count", "count_share", "rank", "other_rank"),
    "ending": ("has_ending",),
}


def _ending_margins(*groups: str) -> tuple[str, ...]:
    return tuple(name for group in groups for name in FEATURE_GROUPS[group]
                 if name.startswith("ending_") and name.endswith("margin"))


def over_sibling(names: Sequence[str]) -> tuple[str, ...]:
    return tuple(f"{name}_over_sibling" for name in names)


# The same meaning's margins in the story's other ending (each setup is told with two endings
# and without one): which of the two endings favours the meaning more. With margins (this
# meaning against the other), that is the 2x2 assignment of the two endings to the two meanings.
SIBLING_SOURCES = ("wsd_story_margin",
                   *_ending_margins("gloss", "lsa", "distributional", "vectors"))
FEATURE_GROUPS["siblings"] = over_sibling(SIBLING_SOURCES)
# WordNet relatedness of the ending's words with the meaning's synset (the ending is where the
# evidence is: on the precontext and the sentence these features did not help the cross-
# validation). Its own ending-over-sibling margins stay in the group, so that the ablation
# without it drops all of its evidence.
FEATURE_GROUPS["wordnet"] = (
    *(f"ending_wup_{aggregate}{which}" for aggregate in ("max", "top3", "mean")
      for which in ("", "_margin")),
    "ending_extended_gloss_similarity", "ending_extended_gloss_margin")
WORDNET_SIBLING_SOURCES = _ending_margins("wordnet")
FEATURE_GROUPS["wordnet"] += over_sibling(WORDNET_SIBLING_SOURCES)
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
# ``support_trial``, ``python -m bench ambistory --support-trial``: cross-validated on several partitions
# of train) but not read: it learns from the margins the rater already has, and its gain (mean
# rho + accuracy 1.037 against 1.032 over four partitions, one down by 0.013) is smaller than the
# spread between partitions (bench/results/ambistory_support.json).
RATER_GROUPS = tuple(group for group in FEATURE_GROUPS if group != "support")
# The support column until ``support.add_support`` fills it, and the classifier's answer for a
# kind of story its training data had no decision of.
NO_SUPPORT_EVIDENCE = 0.5


@dataclass
class FeaturizedSplit:
    samples: list[AmbiStorySample]
    matrix: np.ndarray  # samples x FEATURES
    matches: Counter  # how the meanings found their synsets (``meaning_synset``)
    unmatched: list[str]  # "homonym: definition -> synset" of the meanings not matched exactly
    untargeted: int = 0  # samples whose homonym was not found in the sentence: no wsd features

    def ratings(self) -> np.ndarray:
        """The samples' mean ratings."""
        return np.array([sample.average for sample in self.samples])


def other_meanings(samples: Sequence[AmbiStorySample]) -> dict[str, AmbiStorySample | None]:
    """Each sample's partner: a sample of the same setup with the other meaning."""
    meanings: dict[tuple, dict[str, AmbiStorySample]] = defaultdict(dict)
    for sample in samples:
        meanings[sample.setup].setdefault(sample.judged_meaning, sample)
    return {sample.id: next((other for meaning, other in meanings[sample.setup].items()
                             if meaning != sample.judged_meaning), None)
            for sample in samples}


@dataclass
class Meanings:
    """Each sample's judged meaning as a synset (None where WordNet has none), by sample id;
    how the meanings matched; and the homonym as a target of its story, with its ending and
    without, by (sample id, ending)."""

    synsets: dict[str, object]
    matches: Counter
    unmatched: list[str]
    targets: dict[tuple[str, str], StoryTarget]


def judged_meanings(samples: Sequence[AmbiStorySample]) -> Meanings:
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
            for ending in dict.fromkeys((sample.ending, "")):  # no set: its order is salted
                targets[(sample.id, ending)] = StoryTarget(sample.homonym, sample.precontext,
                                                           sample.sentence, ending, lemma, pos)
    return Meanings(synsets, matches, unmatched, targets)


def distribution_features(prefix: str, story: dict[str, float], setup: dict[str, float],
                          name: str | None, other_name: str | None) -> dict[str, float]:
    """A sense distribution's features of the judged meaning (synset ``name``) against the other
    one: its probability in the story and in the setup alone, each less the other meaning's,
    and its shift from setup to story."""
    row = {f"{prefix}_story": story.get(name, 0.0),
           f"{prefix}_story_other": story.get(other_name, 0.0),
           f"{prefix}_setup": setup.get(name, 0.0)}
    row[f"{prefix}_story_margin"] = row[f"{prefix}_story"] - row[f"{prefix}_story_other"]
    row[f"{prefix}_setup_margin"] = row[f"{prefix}_setup"] - setup.get(other_name, 0.0)
    row[f"{prefix}_shift"] = row[f"{prefix}_story"] - row[f"{prefix}_setup"]
    return row


def featurize(samples: Sequence[AmbiStorySample], models_root: Path,
              spaces: dict[str, WordSpace], jobs: int = 1,
              progress: bool | None = None) -> FeaturizedSplit:
    partners = other_meanings(samples)
    meanings = judged_meanings(samples)
    synsets, matches, unmatched, targets = (meanings.synsets, meanings.matches,
                                            meanings.unmatched, meanings.targets)
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
    add_sibling_features(samples, rows)
    matrix = np.array([[row[name] for name in FEATURES] for row in rows], dtype=float)
    untargeted = sum(targets.get((sample.id, sample.ending)) not in distributions
                     for sample in samples)
    return FeaturizedSplit(list(samples), matrix, matches, unmatched, untargeted)


def add_sibling_features(samples: Sequence[AmbiStorySample], rows: list[dict]) -> None:
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
    row = distribution_features("wsd", distributions[sample.ending], distributions[""],
                                synset.name() if synset else None,
                                other.name() if other else None)
    exclude = set(stems(sample.homonym))
    own_words = signatures(synset, sample.example_sentence)
    their_words = signatures(other, other_example)
    own = {kind: tfidf_vector(words, exclude) for kind, words in own_words.items()}
    theirs = {kind: tfidf_vector(words, exclude) for kind, words in their_words.items()}
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
        vector = tfidf_vector(stems(text), exclude)
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
    row["support_probability"] = NO_SUPPORT_EVIDENCE  # ``support.add_support`` fills it
    return row


def _count(homonym: str, synset) -> int:
    """SemCor count (WordNet's cntlist) of the homonym's lemma in ``synset``."""
    if synset is None:
        return 0
    lemma, _ = target_lemma(homonym, synset)
    return sum(entry.count() for entry in synset.lemmas() if entry.name().lower() == lemma)
