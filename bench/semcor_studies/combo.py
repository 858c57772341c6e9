"""``--tune-combo``: svm beside combo and combo answering unseen senses;
``--tune-combo-unseen``: the two combos on the lexelts where they differ only."""
from __future__ import annotations

import dataclasses
import sys

from wsd_classic import systems
from wsd_classic.corpora.allwords import AllWordsCorpus, read_raganato_corpus
from wsd_classic.corpora.model import LexicalSample
from wsd_classic.corpora.raganato import read_raganato_key
from wsd_classic.features import gloss
from wsd_classic.tasks import allwords
from wsd_classic.tasks.engine import FeaturizedCorpus
from wsd_classic.tasks.tagger import Tagger

from .held_out import (TASK, compare_systems, development_set, held_out_corpus, held_out_split,
                       semcor_training, tuning_result)


def tune_combo(args) -> dict:
    """svm beside combo (its registered parameters, and answering unseen senses too): held-out
    SemCor accuracy and development F1."""
    combo = TASK.system_params("combo")
    results, data = compare_systems(args, "system", {
        "svm": ("svm", {}), "combo": ("combo", {}),
        "combo unseen senses": ("combo", {"params": {**combo, "unseen_senses": True}})})
    return {**tuning_result("system", results, "combo"), "folds": args.folds,
            "parameters": {name: TASK.system_params(name) for name in ("svm", "combo")},
            "wordnet_examples": len(data.examples.sample)}


def lexelts_with_unseen_candidates(data: allwords.TrainingData) -> set[str]:
    """The lexelts some of whose candidates (their gloss blocks' senses) no training instance,
    SemCor's or WordNet's examples', shows: where combo's ``unseen_senses`` changes anything
    (not a lexelt they show with one sense: it is fitted without features)."""
    featurized = data.featurized_with(data.examples)
    unseen = set()
    for lexelt in featurized.sample.lexelts:
        seen = {sense for instance in lexelt.instances for sense in instance.answers}
        shown = {name[len(gloss.PREFIX):] for instance in lexelt.instances
                 for block in featurized.features[instance.id]["gloss"] for name in block.names}
        if len(seen) > 1 and shown - seen:
            unseen.add(lexelt.item)
    return unseen


def restricted(data: allwords.TrainingData, lexelts: set[str]) -> allwords.TrainingData:
    """The training data of ``lexelts`` only (their WordNet examples follow them)."""
    sample = data.featurized.sample
    return dataclasses.replace(data, featurized=FeaturizedCorpus(
        LexicalSample([lexelt for lexelt in sample.lexelts if lexelt.item in lexelts],
                      sample.source), data.featurized.features, data.featurized.featurizer))


def tune_combo_unseen(args) -> dict:
    """combo against combo answering unseen senses from their gloss evidence, trained and
    scored only on the lexelts where the two differ (every other lexelt's model is the same):
    their right answers on the held-out SemCor files (first set) and on the development set,
    and the difference as a share of all the targets."""
    development = development_set(args.data_dir)[0]
    data = semcor_training(args.data_dir, args.jobs,
                           featurizer=TASK.featurizer(["combo"]))
    combo = TASK.system_params("combo")
    settings = {"combo": combo, "combo unseen senses": {**combo, "unseen_senses": True}}
    subset, testing = held_out_split(data, 0)
    development_corpus = read_raganato_corpus(development.data)
    gold = read_raganato_key(development.gold)
    stages = {}
    for stage, training, corpus, right in (
            ("held_out_semcor", subset, held_out_corpus(data, testing),
             lambda answer, target: answer.key in target.keys),
            ("development", data, development_corpus,
             lambda answer, target: answer.key in gold[target.id])):
        lexelts = lexelts_with_unseen_candidates(training)
        scored = [target for target in corpus.targets if target.lexelt in lexelts]
        figures = stages[stage] = {"lexelts": len(lexelts), "targets": len(corpus.targets),
                                   "targets_in_those_lexelts": len(scored), "right": {}}
        for label, params in settings.items():
            trained = allwords.train_system("combo", restricted(training, lexelts), args.jobs,
                                            params=params)
            tagged = Tagger(trained, systems.get("combo").back_off, discourse_weight=0.0).tag(
                AllWordsCorpus(corpus.source, corpus.sentences, scored), args.jobs)
            figures["right"][label] = sum(map(right, tagged, scored))
            print(f"{stage} {label}: {figures}", file=sys.stderr, flush=True)
        figures["difference"] = (figures["right"]["combo unseen senses"]
                                 - figures["right"]["combo"]) / len(corpus.targets)
    return {**tuning_result("unseen_senses", stages, "combo"), "folds": 1,
            "parameters": settings["combo"], "wordnet_examples": len(data.examples.sample)}
