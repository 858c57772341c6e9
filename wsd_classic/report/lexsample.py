"""A lexical-sample run's saved results, rescored for the report.

Everything is computed from the files ``bin/train`` leaves in ``results/<task>/`` (the
``<system>.top.ans`` and weighted ``<system>.ans`` answer files) and the test key, with the same
scorer2 rules as ``bin/score``: the per-instance scores give the recalls, their bootstrap
intervals, the per-POS and per-lexelt figures and McNemar's test, so every number in the report
can be checked by scoring the answer files independently.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from wsd_classic.answers.senseval import read_answers
from wsd_classic.corpora.keys import KeyEntry, read_key
from wsd_classic.corpora.lexsample import read_lexical_sample
from wsd_classic.corpora.sensemap import read_sensemap
from wsd_classic.errors import WsdError
from wsd_classic.pos import POS_NAMES as SINGULAR_NAMES
from wsd_classic.report import calibration as calibration_module
from wsd_classic.report.calibration import Calibration
from wsd_classic.scoring.learning_curve import FILENAME as CURVE_FILENAME
from wsd_classic.scoring.learning_curve import LearningCurve, read_learning_curve
from wsd_classic.scoring.statistics import Interval, McNemar, bootstrap_interval, mcnemar
from wsd_classic.scoring import ratio, scorer2

TOP_SUFFIX = ".top.ans"
WEIGHTED_SUFFIX = ".ans"
POS_NAMES = {pos: f"{name}s" for pos, name in SINGULAR_NAMES.items()}  # "nouns", ...


@dataclass(frozen=True)
class Score:
    """scorer2's precision and recall over some instances, with the recall's 95% interval."""

    precision: float
    recall: float
    interval: Interval
    instances: int


def _score(result: scorer2.Scorer2Result, instances: list[str] | None = None) -> Score:
    """The figures of ``result``, restricted to ``instances`` when given."""
    chosen = list(result.instance_scores) if instances is None else instances
    scores = [result.instance_scores[instance] for instance in chosen]
    attempted = sum(result.instance_attempted[instance] for instance in chosen)
    return Score(ratio(sum(scores), attempted), ratio(sum(scores), len(scores)),
                 bootstrap_interval(scores), len(scores))


@dataclass(frozen=True)
class SystemResults:
    name: str
    fine: scorer2.Scorer2Result
    coarse: scorer2.Scorer2Result | None
    calibration: Calibration | None

    def score(self, grain: str, instances: list[str] | None = None) -> Score | None:
        result = self.fine if grain == "fine" else self.coarse
        return None if result is None else _score(result, instances)

    def recall(self, instances: list[str]) -> float:
        """Fine-grained recall over ``instances``, without an interval (for many small groups)."""
        return ratio(sum(self.fine.instance_scores[i] for i in instances), len(instances))

    def correct(self, grain: str) -> np.ndarray:
        """Whether each key instance (key order) scored 1: its top sense is a gold tag."""
        result = self.fine if grain == "fine" else self.coarse
        return np.array([value >= 1.0 for value in result.instance_scores.values()])


@dataclass(frozen=True)
class Comparison:
    """McNemar's test of the best system against ``other``, per grain."""

    other: str
    fine: McNemar
    coarse: McNemar | None


@dataclass(frozen=True)
class Lexelt:
    """A lexelt of the test key: its display name, test instances and training figures."""

    group: str
    name: str
    pos: str | None
    instances: tuple[str, ...]
    training_instances: int | None
    training_senses: int | None


@dataclass(frozen=True)
class LexicalSampleResults:
    task: str
    task_dir: Path
    key_path: Path
    sensemap_path: Path | None
    systems: tuple[SystemResults, ...]  # best fine recall first
    lexelts: tuple[Lexelt, ...]
    training_note: str | None  # why training figures are missing, if they are
    learning_curve: LearningCurve | None
    published: bool

    @property
    def best(self) -> SystemResults:
        return self.systems[0]

    @property
    def grains(self) -> tuple[str, ...]:
        return ("fine", "coarse") if self.sensemap_path is not None else ("fine",)

    def pos_instances(self) -> dict[str, list[str]]:
        """Test instances by part of speech, in key order (parts of speech in POS_NAMES order)."""
        groups: dict[str, list[str]] = {pos: [] for pos in POS_NAMES}
        for lexelt in self.lexelts:
            if lexelt.pos in groups:
                groups[lexelt.pos].extend(lexelt.instances)
        return {pos: instances for pos, instances in groups.items() if instances}

    def comparisons(self) -> list[Comparison]:
        best = self.best
        return [Comparison(other.name, mcnemar(best.correct("fine"), other.correct("fine")),
                           mcnemar(best.correct("coarse"), other.correct("coarse"))
                           if other.coarse is not None else None)
                for other in self.systems[1:]]


def system_names(task_dir: Path) -> list[str]:
    """Every system with a top-sense answer file in ``task_dir``, sorted by name."""
    names = sorted(path.name[:-len(TOP_SUFFIX)] for path in Path(task_dir).glob(f"*{TOP_SUFFIX}"))
    if not names:
        raise WsdError(f"no <system>{TOP_SUFFIX} answer files: run bin/train first", task_dir)
    return names


def load(task: str, task_dir: Path, key_path: Path, sensemap_path: Path | None = None,
         training_path: Path | None = None, published: bool = False) -> LexicalSampleResults:
    """Score every system's saved answers in ``task_dir`` against ``key_path``.

    ``training_path`` (a key file or a lexical-sample XML file) gives each lexelt's training
    size and senses; instances that are also in the test key are not counted, which is how the
    training side of a ``--split`` run is recovered from the whole corpus.
    """
    key = read_key(key_path)
    sensemap = read_sensemap(sensemap_path) if sensemap_path else None
    systems, lexelt_of_answer = [], {}
    for name in system_names(task_dir):
        top = read_answers(Path(task_dir) / f"{name}{TOP_SUFFIX}")
        for answer in top:
            lexelt_of_answer.setdefault(answer.instance, answer.lexelt)
        weighted_path = Path(task_dir) / f"{name}{WEIGHTED_SUFFIX}"
        systems.append(SystemResults(
            name,
            scorer2.score(key, top, grain="fine", quiet=True),
            scorer2.score(key, top, grain="coarse", sensemap=sensemap, quiet=True)
            if sensemap else None,
            calibration_module.calibration(key, read_answers(weighted_path))
            if weighted_path.is_file() else None))
    systems.sort(key=lambda system: (-system.fine.recall, system.name))
    training, training_note = None, (
        "no training data given (--training FILE): lexelts are not plotted against their "
        "training size and senses")
    if training_path is not None:
        training, training_note = training_figures(training_path, key), None
    curve_path = Path(task_dir) / CURVE_FILENAME
    return LexicalSampleResults(
        task, Path(task_dir), Path(key_path), Path(sensemap_path) if sensemap_path else None,
        tuple(systems), _lexelts(key, lexelt_of_answer, training), training_note,
        read_learning_curve(curve_path) if curve_path.is_file() else None, published)


def training_figures(path: Path, test_key: dict[str, KeyEntry]) -> dict[str, tuple[int, int]]:
    """``{lexelt: (annotated training instances, distinct senses among them)}``."""
    if Path(path).suffix.lower() == ".xml":
        rows = [(lexelt.item, instance.id, instance.answers)
                for lexelt in read_lexical_sample(path).lexelts for instance in lexelt.instances
                if instance.answers]
    else:
        rows = [(entry.lexelt, entry.instance, entry.tags) for entry in read_key(path).values()]
    instances: dict[str, int] = {}
    senses: dict[str, set[str]] = {}
    for lexelt, instance, tags in rows:
        if instance not in test_key:
            instances[lexelt] = instances.get(lexelt, 0) + 1
            senses.setdefault(lexelt, set()).update(tags)
    return {lexelt: (count, len(senses[lexelt])) for lexelt, count in instances.items()}


def _split_pos(name: str) -> tuple[str, str | None]:
    """``art.n`` -> ``("art", "n")``; a name without a part-of-speech suffix -> ``(name, None)``."""
    lemma, dot, suffix = name.rpartition(".")
    return (lemma, suffix) if dot and suffix in POS_NAMES else (name, None)


def _lexelts(key: dict[str, KeyEntry], lexelt_of_answer: dict[str, str],
             training: dict[str, tuple[int, int]] | None) -> tuple[Lexelt, ...]:
    """The key's lexelts in key order. The SENSEVAL-2 key names only the lemma (``art``), so
    the name and part of speech come from the answers (``art.n``) when the key has none, and
    training figures are matched by name, else by lemma when that is unambiguous."""
    groups: dict[str, list[str]] = {}
    for instance, entry in key.items():
        groups.setdefault(entry.lexelt, []).append(instance)
    by_lemma: dict[str, list[str]] = {}
    for name in training or {}:
        by_lemma.setdefault(_split_pos(name)[0], []).append(name)
    result = []
    for group, instances in groups.items():
        name = group if _split_pos(group)[1] else next(
            (lexelt_of_answer[i] for i in instances if i in lexelt_of_answer), group)
        figures = (None, None)
        if training is not None:
            match = name if name in training else group if group in training else None
            candidates = by_lemma.get(_split_pos(name)[0], [])
            if match is None and len(candidates) == 1:
                match = candidates[0]
            figures = training.get(match, (None, None))
        result.append(Lexelt(group, name, _split_pos(name)[1], tuple(instances), *figures))
    return tuple(result)
