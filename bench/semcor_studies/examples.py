"""``--tune-examples``: a system without and with WordNet's examples in training;
``--tune-example-lexelts``: which lexelts learn from them."""
from __future__ import annotations

import dataclasses
import sys
from collections import Counter

from wsd_classic import systems
from wsd_classic.corpora.allwords import read_raganato_corpus
from wsd_classic.corpora.model import LexicalSample
from wsd_classic.corpora.raganato import read_raganato_key
from wsd_classic.tasks import allwords
from wsd_classic.tasks.engine import FeaturizedCorpus
from wsd_classic.tasks.tagger import Tagger

from .held_out import (TASK, compare_settings, development_set, held_out_corpus, held_out_split,
                       semcor_training, tuning_result)

# Which lexelts learn from WordNet's examples, given each lexelt's training weight per sense.
EXAMPLE_LEXELT_RULES = {"tagged with two senses": allwords.tagged_with_several,
                        "polysemous": allwords.polysemous}


def tune_examples(args) -> dict:
    """A system's held-out SemCor accuracy and development F1 without and with WordNet's
    examples."""
    return compare_settings(args, args.tune_examples, "wordnet_examples", {
        str(value).lower(): {"wordnet_examples": value} for value in (False, True)})


def with_examples_of(data: allwords.TrainingData, lexelts: set[str]) -> allwords.TrainingData:
    """``data`` with WordNet's examples of ``lexelts`` only."""
    examples = data.examples
    return dataclasses.replace(data, examples=FeaturizedCorpus(
        LexicalSample([lexelt for lexelt in examples.sample.lexelts if lexelt.item in lexelts],
                      examples.sample.source), examples.features, examples.featurizer))


def tune_example_lexelts(args) -> dict:
    """Which lexelts learn from WordNet's examples: those the training files tag with two senses
    or more, or every polysemous one (``allwords.polysemous``: also those
    tagged with one sense, which then learn WordNet's others). Per stage (each of ``--folds``
    sets of held-out SemCor files, each rule applied to the other files; the development set,
    the rules applied to all of SemCor), the right answers of each rule on every target and on
    the targets where the rules differ, and the targets only one rule gets right."""
    name = args.tune_example_lexelts
    development = development_set(args.data_dir)[0]
    data = semcor_training(args.data_dir, args.jobs,
                           featurizer=TASK.featurizer([name]))
    rules = EXAMPLE_LEXELT_RULES

    def stages_to_score():
        """``(stage, training data, corpus scored, gold keys by target id)``, one at a time."""
        for fold in range(args.folds):
            subset, testing = held_out_split(data, fold)
            yield (f"held_out_semcor_{fold}", subset, held_out_corpus(data, testing),
                   {target.id: target.keys for target in testing})
        yield ("development", data, read_raganato_corpus(development.data),
               read_raganato_key(development.gold))

    stages = {}
    for stage, training, corpus, keys in stages_to_score():
        testing = corpus.targets
        counts = sense_counts(training.featurized.sample)
        chosen = {label: rule(counts) for label, rule in rules.items()}
        differing = {target.id for target in testing
                     if target.lexelt in chosen["polysemous"] - chosen["tagged with two senses"]}
        figures = stages[stage] = {"targets": len(testing), "targets_where_rules_differ":
                                   len(differing), "right": {}, "right_where_rules_differ": {}}
        right = {}
        for label, lexelts in chosen.items():
            trained = allwords.train_system(name, with_examples_of(training, lexelts), args.jobs)
            tagged = Tagger(trained, systems.get(name).back_off,
                                             TASK.discourse_weights.get(name, 0.0)).tag(
                corpus, args.jobs)
            right[label] = {answer.instance_id for answer in tagged
                            if answer.key in keys[answer.instance_id]}
            figures["right"][label] = len(right[label])
            figures["right_where_rules_differ"][label] = len(right[label] & differing)
            print(f"{stage} {label}: {figures}", file=sys.stderr, flush=True)
        figures["only_right"] = {label: len(right[label] - right[other]) for label, other in
                                 zip(rules, reversed(rules))}
    held_out = [figures for stage, figures in stages.items() if stage != "development"]
    return {**tuning_result("example_lexelts", stages, name), "folds": args.folds,
            "held_out_semcor_accuracy": {
                label: sum(stage["right"][label] for stage in held_out)
                / sum(stage["targets"] for stage in held_out) for label in rules},
            "parameters": TASK.system_params(name)}


def sense_counts(sample: LexicalSample) -> dict[str, Counter]:
    """Each lexelt's training weight per sense (an instance with n tags gives each 1/n)."""
    counts: dict[str, Counter] = {}
    for lexelt in sample.lexelts:
        counter = counts[lexelt.item] = Counter()
        for instance in lexelt.instances:
            tags = set(instance.answers)
            for tag in tags:
                counter[tag] += 1 / len(tags)
    return counts
