"""ppr's columns for the AmbiStory rater, a candidate group the rater does not compute
(``python -m bench ambistory --ppr-trial``): the knowledge-based walk's distribution of the
homonym with the story, and with the setup alone, as context, cross-validated on train with and
without them (``column_trial``)."""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

import numpy as np

from wsd_classic import wordnet
from wsd_classic.benchmarks.ambistory.ablation import TRIAL_SEEDS
from wsd_classic.benchmarks.ambistory.features import (FEATURE_GROUPS, FEATURES, RATER_GROUPS,
                                                       FeaturizedSplit, distribution_features,
                                                       judged_meanings, other_meanings)
from wsd_classic.benchmarks.ambistory.rater import (PlausibilityRater, as_integers, fit_cuts,
                                                    rounded_shares)
from wsd_classic.benchmarks.ambistory.selection import (held_out_predictions, homonym_folds,
                                                        score_split, selection_key)
from wsd_classic.benchmarks.ambistory.stories import TASK, StoryTarget, story_corpus
from wsd_classic.corpora.allwords import AllWordsCorpus, Target, wordnet_lemma
from wsd_classic.corpora.ambistory import AmbiStorySample
from wsd_classic.pos import PENN_POS
from wsd_classic.preprocess import sentences as analysed_sentences
from wsd_classic.systems.personalised_pagerank import ppr_distributions
from wsd_classic.tasks import catalogue


def with_every_word(corpus: AllWordsCorpus, jobs: int = 1) -> AllWordsCorpus:
    """``corpus`` with every content word of its sentences a target besides its own (those
    WordNet 3.0 has for their part of speech, spaCy's stop words left out): what ppr's walk
    restarts from."""
    taken = {(target.sentence, target.token) for target in corpus.targets}
    words = []
    for number, analysis in enumerate(analysed_sentences.analyse(corpus, jobs,
                                                                 description="spaCy (stories)")):
        for index, (lemma, tag, stop) in enumerate(zip(analysis.lemmas, analysis.tags,
                                                       analysis.stops)):
            pos = PENN_POS.get(tag[:2])
            spelt = wordnet_lemma(lemma, pos) if pos and not stop else None
            if spelt and (number, index) not in taken:
                words.append(Target(f"{corpus.sentences[number].id}.w{index}", spelt, pos,
                                    number, index))
    return AllWordsCorpus(corpus.source, corpus.sentences, sorted(
        [*corpus.targets, *words], key=lambda target: (target.sentence, target.token)))


def story_ppr_distributions(targets: Sequence[StoryTarget], jobs: int = 1, data_dir=None
                            ) -> dict[StoryTarget, dict[str, float]]:
    """ppr's distribution over each target's synsets (by name): the walk ``semcor`` registered,
    restarting at the senses of the content words of the whole story (the task's context rule's
    sentences on each side, more than any story has)."""
    corpus, ids = story_corpus(targets)
    params = {**catalogue.SEMCOR.system_params("ppr"), "window": TASK.context.sentences}
    found = ppr_distributions(with_every_word(corpus, jobs), corpus.targets, params=params,
                              data_dir=data_dir, jobs=jobs)
    distributions = {}
    for target, target_id in ids.items():
        synsets: dict[str, float] = defaultdict(float)
        for key, weight in found[target_id].items():
            synsets[wordnet.synset_name(key)] += weight
        distributions[target] = dict(synsets)
    return distributions


# ppr's columns, a candidate group (``ppr_matrix``; ``python -m bench ambistory --ppr-trial``),
# the same as ``wsd``'s from the knowledge-based walk.
PPR_FEATURES = tuple(name.replace("wsd_", "ppr_", 1) for name in FEATURE_GROUPS["wsd"])


def ppr_matrix(samples: Sequence[AmbiStorySample], jobs: int = 1, data_dir=None) -> np.ndarray:
    """Samples x ``PPR_FEATURES``: ppr's distribution of the homonym with the story, and with
    the setup alone, as context (``stories.story_ppr_distributions``)."""
    partners = other_meanings(samples)
    meanings = judged_meanings(samples)
    distributions = story_ppr_distributions(list(meanings.targets.values()), jobs, data_dir)
    rows = []
    for sample in samples:
        partner = partners[sample.id]
        synset, other = meanings.synsets[sample.id], (meanings.synsets[partner.id] if partner
                                                       else None)
        story, setup = (distributions.get(meanings.targets.get((sample.id, ending)), {})
                        for ending in (sample.ending, ""))
        row = distribution_features("ppr", story, setup, synset.name() if synset else None,
                                    other.name() if other else None)
        rows.append([row[name] for name in PPR_FEATURES])
    return np.array(rows, dtype=float).reshape(len(samples), len(PPR_FEATURES))


class _WithColumns(PlausibilityRater):
    """The rater reading, besides its groups' columns, every column of the matrix past
    ``FEATURES``'s: a candidate's."""

    def _columns(self, matrix: np.ndarray) -> np.ndarray:
        return np.hstack([super()._columns(matrix[:, :len(FEATURES)]),
                          matrix[:, len(FEATURES):]])


def column_trial(params: dict, train: FeaturizedSplit, columns: np.ndarray,
                 label: str) -> list[dict]:
    """For each partition of ``TRIAL_SEEDS``: the rater ``params`` cross-validated with its
    groups, and with ``columns`` (samples x candidate features) besides, called ``label``."""
    shares = rounded_shares(train.ratings())
    extended = FeaturizedSplit(train.samples, np.hstack([train.matrix, columns]), train.matches,
                               [])
    trials = []
    for seed in TRIAL_SEEDS:
        folds = homonym_folds(train.samples, seed)
        trial = {"seed": seed}
        for name, rater_class in ((f"without {label}", PlausibilityRater),
                                  (f"with {label}", _WithColumns)):
            held_out = held_out_predictions(params, RATER_GROUPS, extended, folds, rater_class)
            cuts = fit_cuts(held_out, extended) if params.get("integers") == "thresholds" else ()
            score = score_split(extended, as_integers(held_out, params["integers"], shares, cuts))
            trial[name] = {**score.as_dict(), "key": selection_key(score)}
        trials.append(trial)
    return trials
