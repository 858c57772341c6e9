"""Each story as a document of an all-words corpus, and the SemCor svm's sense distribution of its
homonym.

The whole-story distribution comes from the SemCor-trained ``svm`` of ``bin/train --task
semcor`` reading the story as one all-words document (its bag of words spans the story, its local
features the target's sentence), rather than from a model trained on AmbiStory: the stories'
homonyms are disjoint between train, dev and test, so a dedicated per-homonym model would have
nothing to learn for the test set, while SemCor knows all of them.
"""
from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from wsd_classic import wordnet
from wsd_classic.benchmarks.ambistory.text import WORD
from wsd_classic.corpora.allwords import AllWordsCorpus, Sentence, Target
from wsd_classic.tasks import catalogue
from wsd_classic.tasks.tagger import Tagger

TASK = catalogue.AMBISTORY
ALL_WORDS_TASK = catalogue.SEMCOR.name
WSD_SYSTEM = "svm"
_ABBREVIATIONS = {"mr", "mrs", "ms", "dr", "st", "jr", "sr", "prof", "vs", "etc", "a.m", "p.m",
                  "e.g", "i.e"}
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"'\u201d\u2019)]*\s+(?=[\"'\u201c\u2018(]?[A-Z0-9])")


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
    return tuple(WORD.findall(sentence))


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
            synsets[wordnet.synset_name(key)] += weight
        distributions[target] = dict(synsets)
    return distributions
