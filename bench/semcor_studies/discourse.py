"""``--tune-discourse``: the weight of one sense per discourse, overall and per part of speech."""
from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable

from wsd_classic import systems
from wsd_classic.corpora.allwords import AllWordsCorpus, read_raganato_corpus
from wsd_classic.corpora.raganato import read_raganato_key
from wsd_classic.tasks import allwords
from wsd_classic.tasks.tagger import Tagger

from .held_out import (TASK, development_set, held_out_corpus, held_out_split, semcor_training,
                       tuning_result)


def tune_discourse(args) -> dict:
    """``--discourse-system``'s held-out SemCor accuracy (over ``--folds`` sets of files) and
    development F1 per discourse weight, overall and per part of speech: the system is trained
    once per training set and its distributions pulled together within each document at every
    weight. The pull never crosses parts of speech (a lexelt has one), so the best weight of
    each part of speech is chosen from the same run, and scored as a rule of its own."""
    name = args.discourse_system
    weights = [f"{float(value):g}" for value in args.tune_discourse.split(",")]
    data = semcor_training(args.data_dir, args.jobs,
                           featurizer=TASK.featurizer([name]))

    def right_counts(trained, corpus: AllWordsCorpus,
                     gold: dict[str, tuple[str, ...]]) -> dict[str, Counter]:
        """Per weight, the right answers per part of speech; under ``""``, the targets."""
        tagger = Tagger(trained, systems.get(name).back_off, discourse_weight=0.0)
        distributions = tagger.distributions(corpus, args.jobs)
        counts = {"": Counter(target.pos for target in corpus.targets)}
        for weight in weights:
            tagger.discourse_weight = float(weight)
            answers = tagger.answers(corpus, distributions)
            counts[weight] = Counter(target.pos for answer, target in zip(answers, corpus.targets)
                                     if answer.key in gold[answer.instance_id])
        print(f"discourse {name}: " + ", ".join(
            f"{weight} {share(counts[weight], counts[''])}" for weight in weights), file=sys.stderr)
        return counts

    by_fold = []
    for fold in range(args.folds):
        subset, testing = held_out_split(data, fold)
        by_fold.append(right_counts(allwords.train_system(name, subset, args.jobs),
                                    held_out_corpus(data, testing),
                                    {target.id: target.keys for target in testing}))
    development = development_set(args.data_dir)[0]
    development_counts = right_counts(allwords.train_system(name, data, args.jobs),
                                      read_raganato_corpus(development.data),
                                      read_raganato_key(development.gold))
    results = discourse_results(by_fold, development_counts, weights)
    return {**tuning_result("discourse_weight", results, name), "folds": args.folds,
            "held_out_targets_by_pos": sum((fold[""] for fold in by_fold), Counter())}


def share(right: Counter, targets: Counter) -> float:
    return sum(right.values()) / sum(targets.values())


def discourse_results(by_fold: list[dict[str, Counter]], development: dict[str, Counter],
                      weights: list[str]) -> dict[str, dict]:
    """From right answers per part of speech per weight (``--tune-discourse``'s counts, the
    targets under ``""``) on each set of held-out files and on the development set: each
    weight's accuracies, and those of the rule that gives each part of speech the weight best
    for it on the held-out files."""
    parts = sorted(set().union(*(fold[""] for fold in by_fold)))

    def scores(right: Callable[[dict[str, Counter]], Counter]) -> dict:
        """Held-out and development accuracy of the answers whose right ones ``right`` picks
        out of a set of files' counts."""
        by_fold_shares = [share(right(fold), fold[""]) for fold in by_fold]
        return {"held_out_semcor_accuracy": sum(by_fold_shares) / len(by_fold_shares),
                "held_out_semcor_accuracy_by_fold": by_fold_shares,
                "development_f1": share(right(development), development[""])}

    results = {weight: {**scores(lambda counts, weight=weight: counts[weight]),
                        "held_out_semcor_accuracy_by_pos": {
                            pos: sum(fold[weight][pos] for fold in by_fold)
                            / sum(fold[""][pos] for fold in by_fold) for pos in parts}}
               for weight in weights}
    chosen = {pos: max(weights, key=lambda weight: results[weight]
                       ["held_out_semcor_accuracy_by_pos"][pos]) for pos in parts}
    results["best weight per part of speech"] = {
        "weights": {pos: float(weight) for pos, weight in chosen.items()},
        **scores(lambda counts: Counter({pos: counts[weight][pos]
                                         for pos, weight in chosen.items()}))}
    return results
