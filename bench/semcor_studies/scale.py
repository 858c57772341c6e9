"""``--tune-scale``: the scale of one real-valued group (emb or gloss), the corpus analysed once
and the group's values rescaled."""
from __future__ import annotations

import dataclasses
import functools
import json
import sys
import time
from collections.abc import Mapping

from wsd_classic.features import gloss
from wsd_classic.features.featurizer import Featurizer
from wsd_classic.features.weighted import Weighted
from wsd_classic.tasks import allwords
from wsd_classic.modelstore import TrainedSystem
from wsd_classic.tasks.engine import FeaturizedCorpus

from .held_out import (RESULTS, TASK, development_f1, development_set, held_out_scores,
                       semcor_training, tuning_result)

# The scale each real-valued group's blocks are made with (emb: the task's rule).
GROUP_SCALES = {"emb": TASK.embedding.scale, "gloss": gloss.SCALE}


class RescaledFeaturizer(Featurizer):
    """``base`` with the real-valued blocks of each group of ``factors`` multiplied by its factor,
    beyond the group's own scale: what the study's models featurize with. A model file does not
    record the factors, so the study hands them back to a model it loads (``with_factors``)."""

    def __init__(self, base: Featurizer, factors: Mapping[str, float]):
        super().__init__(base.context, base.groups, base.embedding)
        self.factors = {group: factor for group, factor in factors.items()
                        if group in self.groups}
        for group, factor in self.factors.items():
            self.extractors[group] = functools.partial(_rescaled, self.extractors[group], factor)

    def for_groups(self, groups) -> "RescaledFeaturizer":
        return RescaledFeaturizer(super().for_groups(groups), self.factors)

    def with_context(self, context) -> "RescaledFeaturizer":
        return RescaledFeaturizer(super().with_context(context), self.factors)


def _rescaled(extractor, factor: float, doc) -> list:
    """``extractor``'s features of ``doc``, its ``Weighted`` blocks' values times ``factor``."""
    return [Weighted(feature.names, feature.values * factor) if isinstance(feature, Weighted)
            else feature for feature in extractor(doc)]


def with_factors(trained: TrainedSystem, factors: Mapping[str, float]) -> TrainedSystem:
    """A loaded model of the study with its featurizer's factors back."""
    return dataclasses.replace(trained, featurizer=RescaledFeaturizer(trained.featurizer, factors))


def rescaled(featurized: FeaturizedCorpus, group: str, factor: float) -> FeaturizedCorpus:
    """``featurized`` with the values of ``group``'s blocks times ``factor``: what featurizing
    with the group's scale times ``factor`` gives, without analysing the corpus again. Its
    featurizer rescales the same way, so a model trained on it tags with those values too."""
    features = {identifier: {**groups, group: [Weighted(block.names, block.values * factor)
                                               for block in groups[group]]}
                for identifier, groups in featurized.features.items()}
    return FeaturizedCorpus(featurized.sample, features,
                            RescaledFeaturizer(featurized.featurizer, {group: factor}))


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
                           featurizer=TASK.featurizer(["svm"]))
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
                factors = {group: scale / GROUP_SCALES[group]}
                results[f"{scale:g}"][stage] = development_f1(
                    scaled(scale), "svm", development, args.jobs,
                    loaded=functools.partial(with_factors, factors=factors))
            else:
                results[f"{scale:g}"].update(held_out_scores(scaled(scale), "svm", args.folds,
                                                             args.jobs))
            results[f"{scale:g}"][f"{stage}_seconds"] = time.perf_counter() - started
            print(f"{group} scale {scale:g}: {results[f'{scale:g}']}", file=sys.stderr, flush=True)
            out.write_text(json.dumps(result, indent=2) + "\n")
    return result
