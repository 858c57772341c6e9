"""``bin/train --learning-curve``: test-set accuracy when training on growing shares of the data.

Each system is trained on stratified fractions of the training data and tags the whole test set;
the scorer2 recall of its top sense at each fraction goes to ``results/<task>/learning_curve.json``
for ``bin/report``. Nothing else is written: no model is saved and the answer files of a normal
``bin/train`` run are left alone.

The fractions are nested (each share contains the smaller ones), so the curve shows what more data
adds rather than the noise of drawing a different sample at every point.
"""
from __future__ import annotations

import random
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from tqdm import tqdm

from wsd_classic.answers.senseval import Answer
from wsd_classic.corpora.keys import read_key
from wsd_classic.corpora.lexsample import read_lexical_sample
from wsd_classic.corpora.model import Instance, Lexelt, LexicalSample
from wsd_classic.corpora.sensemap import read_sensemap
from wsd_classic.errors import WsdError
from wsd_classic.scoring.learning_curve import (FILENAME, CurvePoint, LearningCurve,
                                               write_learning_curve)
from wsd_classic.scoring import scorer2
from wsd_classic.tasks import engine
from wsd_classic.tasks.lexical_sample_run import (TaskRun, featurize_sides, test_side,
                                                  usable_systems)
from wsd_classic.tasks.timing import StageTimer

DEFAULT_FRACTIONS = (0.1, 0.25, 0.5, 0.75, 1.0)
SEED = 0


def parse_fractions(text: str) -> tuple[float, ...]:
    """``"0.1,0.5,1"`` -> ``(0.1, 0.5, 1.0)``: distinct, sorted, each in (0, 1]."""
    try:
        fractions = sorted({float(part) for part in text.split(",") if part.strip()})
    except ValueError:
        fractions = []
    if not fractions or not all(0 < fraction <= 1 for fraction in fractions):
        raise WsdError(f"--learning-curve {text!r}: expected comma-separated fractions in (0, 1], "
                       "such as 0.1,0.25,0.5,0.75,1")
    return tuple(fractions)


def nested_order(instances: list[Instance], generator: random.Random) -> list[Instance]:
    """The instances in an order whose every prefix is stratified by (first) sense.

    Within each sense the instances are shuffled; the r-th of a sense with g instances gets the
    position ``(r + u) / g`` (``u`` a random offset per sense) and the order sorts by position,
    so a prefix of any length holds about that share of every sense, singletons spread evenly.
    """
    by_sense: dict[str, list[Instance]] = defaultdict(list)
    for instance in instances:
        by_sense[instance.answers[0]].append(instance)
    positioned = []
    for sense in sorted(by_sense):
        group = by_sense[sense]
        generator.shuffle(group)
        offset = generator.random()
        positioned += [((rank + offset) / len(group), generator.random(), instance)
                       for rank, instance in enumerate(group)]
    return [instance for *_, instance in sorted(positioned, key=lambda item: item[:2])]


def nested_subsamples(sample: LexicalSample, fractions: tuple[float, ...],
                      seed: int = SEED) -> dict[float, LexicalSample]:
    """Per fraction, that share (rounded, at least one) of every lexelt's annotated instances."""
    generator = random.Random(seed)
    orders = [(lexelt.item, nested_order([i for i in lexelt.instances if i.answers], generator))
              for lexelt in sample.lexelts]
    return {fraction: LexicalSample(
        [Lexelt(item, order[:max(1, round(fraction * len(order)))]) for item, order in orders
         if order], sample.source) for fraction in fractions}


@dataclass(frozen=True)
class CurveRun:
    """What a learning-curve run measured, where it wrote it and how long each stage took."""

    curve: LearningCurve
    path: Path
    timer: StageTimer


def execute(run: TaskRun, chosen: list[str], fractions: tuple[float, ...], results_root: Path,
            jobs: int) -> CurveRun:
    """Train, tag and score every system at every fraction, and write the curve."""
    timer = StageTimer()
    with timer.stage("read"):
        train_sample, test_sample, split_key = test_side(run, read_lexical_sample(run.train_path))
        key = ({entry.instance: entry for entry in split_key} if split_key is not None
               else read_key(run.key_path))
        sensemap = read_sensemap(run.sensemap_path) if run.sensemap_path else None
    chosen, skipped = usable_systems(chosen, train_sample)
    if not chosen:
        raise WsdError("no system to train: the sense ids are not WordNet keys, which "
                       f"{', '.join(skipped)} need", run.train_path)
    train_corpus, test_corpus = featurize_sides(run, chosen, train_sample, test_sample, jobs,
                                                timer)
    points = []
    subsamples = nested_subsamples(train_sample, fractions)
    progress = tqdm(total=len(fractions) * len(chosen), desc="learning curve", unit="model",
                    file=sys.stderr, disable=not sys.stderr.isatty())
    for fraction, subsample in subsamples.items():
        corpus = engine.FeaturizedCorpus(subsample, train_corpus.features,
                                         train_corpus.featurizer, train_corpus.walk)
        trained_here = {}
        for name in chosen:
            with timer.stage("train"):
                trained = engine.train(name, corpus, run.name, jobs, progress=False,
                                       params=run.task.system_params(name),
                                       fitted=trained_here)
            trained_here[name] = trained
            with timer.stage("tag"):
                tagged = engine.tag(trained, test_corpus)
                answers = [Answer(lexelt, instance, ((engine.top_sense(weights), None),), 0)
                           for lexelt, instance, weights in tagged]
            with timer.stage("score"):
                fine = scorer2.score(key, answers, quiet=True).recall
                coarse = (scorer2.score(key, answers, grain="coarse", sensemap=sensemap,
                                        quiet=True).recall if sensemap else None)
            points.append(CurvePoint(name, fraction, len(subsample), fine, coarse))
            progress.update()
    progress.close()
    out_dir = Path(results_root) / run.name
    out_dir.mkdir(parents=True, exist_ok=True)
    curve = LearningCurve(run.name, SEED, tuple(points))
    write_learning_curve(out_dir / FILENAME, curve)
    return CurveRun(curve, out_dir / FILENAME, timer)

