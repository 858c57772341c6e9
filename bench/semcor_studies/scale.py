"""``--tune-scale``: the scale of one real-valued group (emb or gloss), the corpus analysed once
and the group's values rescaled."""
from __future__ import annotations

import dataclasses
import json
import sys
import time

from wsd_classic.features import gloss
from wsd_classic.features.weighted import Weighted
from wsd_classic.tasks import allwords
from wsd_classic.tasks.engine import FeaturizedCorpus
from wsd_classic.tasks import vector_corpus

from .held_out import (RESULTS, TASK, development_f1, development_set, held_out_scores,
                       semcor_training, tuning_result)

# The scale each real-valued group's blocks are made with (emb: the task's rule).
GROUP_SCALES = {"emb": TASK.embedding.scale, "gloss": gloss.SCALE}


def rescaled(featurized: FeaturizedCorpus, group: str, factor: float) -> FeaturizedCorpus:
    """``featurized`` with the values of ``group``'s blocks times ``factor``: what featurizing
    with the group's scale times ``factor`` gives, without analysing the corpus again. Its
    featurizer rescales the same way, so a model trained on it tags with those values too."""
    features = {identifier: {**groups, group: [Weighted(block.names, block.values * factor)
                                               for block in groups[group]]}
                for identifier, groups in featurized.features.items()}
    return FeaturizedCorpus(featurized.sample, features,
                            featurized.featurizer.rescaled(group, factor))


def tune_scale(args) -> dict:
    """svm's held-out SemCor accuracy (over ``--folds`` sets of files), then its development
    F1, for each scale of the ``emb`` or ``gloss`` group; the corpus is analysed once and the
    group's values rescaled. Partial results are written as they come."""
    group, _, values = args.tune_scale.partition("=")
    if group not in GROUP_SCALES or not values:
        raise SystemExit(f"--tune-scale wants GROUP=V1,V2,... with a group among "
                         f"{', '.join(GROUP_SCALES)}: not {args.tune_scale!r}")
    scales = [float(value) for value in values.split(",")]
    development = development_set(args.data_dir)
    data = semcor_training(args.data_dir, args.jobs,
                           featurizer=vector_corpus.featurizer(TASK, ["svm"], args.data_dir))
    results = {f"{scale:g}": {"scale": scale} for scale in scales}
    result = {**tuning_result(f"{group}_scale", results), "folds": args.folds,
              "registered_scale": GROUP_SCALES[group],
              "other_parameters": TASK.system_params("svm"),
              "wordnet_examples": len(data.examples.sample)}
    out = RESULTS / f"semcor_{group}_scale.json"

    def scaled(scale: float) -> allwords.TrainingData:
        factor = scale / GROUP_SCALES[group]
        return dataclasses.replace(data, featurized=rescaled(data.featurized, group, factor),
                                   examples=rescaled(data.examples, group, factor))

    for stage in ("held_out_semcor_accuracy", "development_f1"):
        for scale in scales:
            started = time.perf_counter()
            if stage == "development_f1":
                results[f"{scale:g}"][stage] = development_f1(scaled(scale), "svm", development,
                                                              args.jobs)
            else:
                results[f"{scale:g}"].update(held_out_scores(scaled(scale), "svm", args.folds,
                                                             args.jobs))
            results[f"{scale:g}"][f"{stage}_seconds"] = time.perf_counter() - started
            print(f"{group} scale {scale:g}: {results[f'{scale:g}']}", file=sys.stderr, flush=True)
            out.write_text(json.dumps(result, indent=2) + "\n")
    return result
