"""``--tune-prior``: where svm answers its training sense distribution, that distribution with
and without WordNet's examples counted."""
from __future__ import annotations

import sys
from collections import Counter

from wsd_classic import systems
from wsd_classic.corpora.allwords import read_raganato_corpus
from wsd_classic.corpora.raganato import read_raganato_key
from wsd_classic.corpora.wordnet_examples import read_wordnet_examples
from wsd_classic.wordnet import wordnet_senses
from wsd_classic.tasks import allwords, engine

from .examples import sense_counts
from .held_out import TASK, development_set, held_out_split, semcor_training, tuning_result


def tune_prior(args) -> dict:
    """Where svm answers its training sense distribution (a lexelt with less training weight
    than its ``min_instances``, WordNet's examples counted), that distribution as trained
    (SemCor's tags and the examples) against SemCor's tags alone: right answers on the targets
    of those lexelts in the held-out SemCor files (first set) and the development set. Counting
    only, the answer chosen as ``engine.decide`` does; no svm is trained."""
    development = development_set(args.data_dir)[0]
    data = semcor_training(args.data_dir, args.jobs, with_features=False)
    examples_corpus = read_wordnet_examples(
        {item for item, senses in sense_counts(data.featurized.sample).items() if len(senses) >= 2})
    examples = sense_counts(allwords.as_lexical_sample(examples_corpus, examples_corpus.targets))
    minimum = TASK.system_params("svm")["min_instances"]
    back_off = systems.get("svm").back_off
    subset, testing = held_out_split(data, 0)
    gold = read_raganato_key(development.gold)
    development_targets = read_raganato_corpus(development.data).targets
    stages = {}
    for stage, training, targets, right in (
            ("held_out_semcor", subset, testing, lambda key, target: key in target.keys),
            ("development", data, development_targets,
             lambda key, target: key in gold[target.id])):
        semcor_counts = sense_counts(training.featurized.sample)
        trained_counts = {item: counts + examples.get(item, Counter())
                          for item, counts in semcor_counts.items()}
        answered = [target for target in targets if target.lexelt in trained_counts
                    and sum(trained_counts[target.lexelt].values()) < minimum]
        figures = stages[stage] = {"targets": len(targets), "answered_by_counts": len(answered),
                                   "right": {}}
        for label, counts in (("semcor and wordnet examples", trained_counts),
                              ("semcor only", semcor_counts)):
            figures["right"][label] = sum(right(engine.decide(
                wordnet_senses(target.lemma, target.pos), dict(counts[target.lexelt]),
                back_off)[0][0][0], target) for target in answered)
        figures["difference"] = (figures["right"]["semcor only"] - figures["right"][
            "semcor and wordnet examples"]) / len(targets)
        print(f"{stage}: {figures}", file=sys.stderr, flush=True)
    return {**tuning_result("prior", stages), "min_instances": minimum}
