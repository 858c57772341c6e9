"""``--tune-context``: svm per number of neighbouring sentences in its bag of words."""
from __future__ import annotations

import sys

from wsd_classic.features.featurizer import ContextRule, Featurizer

from .held_out import (development_f1, development_set, held_out_accuracy, semcor_training,
                       tuning_result)


def tune_context(args) -> dict:
    """svm's held-out SemCor accuracy and development F1 for each context size."""
    development = development_set(args.data_dir)
    results = {}
    for size in (int(value) for value in args.tune_context.split(",")):
        data = semcor_training(args.data_dir, args.jobs,
                               featurizer=Featurizer(ContextRule(sentences=size)))
        results[str(size)] = {
            "held_out_semcor_accuracy": held_out_accuracy(data, "svm", args.jobs),
            "development_f1": development_f1(data, "svm", development, args.jobs)}
        del data
        print(f"context {size}: {results[str(size)]}", file=sys.stderr)
    return tuning_result("context_sentences", results)
