"""``results/<task>/learning_curve.json``: what ``bin/train --learning-curve`` records and
``bin/report`` plots.

    {"task": "senseval2-ls", "seed": 0,
     "points": [{"system": "svm", "fraction": 0.1, "training_instances": 861,
                 "fine": 0.52, "coarse": 0.61}, ...]}

``fine`` and ``coarse`` are scorer2 recalls of the top sense on the test set (``coarse`` is null
without a sensemap).
"""
from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path

from wsd_classic.atomic import write_lines_atomically
from wsd_classic.errors import WsdError

FILENAME = "learning_curve.json"


@dataclass(frozen=True)
class CurvePoint:
    system: str
    fraction: float
    training_instances: int
    fine: float
    coarse: float | None


@dataclass(frozen=True)
class LearningCurve:
    task: str
    seed: int
    points: tuple[CurvePoint, ...]

    def systems(self) -> list[str]:
        return list(dict.fromkeys(point.system for point in self.points))

    def of(self, system: str) -> list[CurvePoint]:
        return sorted((point for point in self.points if point.system == system),
                      key=lambda point: point.fraction)


def write_learning_curve(path: str | os.PathLike, curve: LearningCurve) -> None:
    text = json.dumps({"task": curve.task, "seed": curve.seed,
                       "points": [asdict(point) for point in curve.points]}, indent=2)
    write_lines_atomically(path, [text])


def read_learning_curve(path: str | os.PathLike) -> LearningCurve:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as error:
        raise WsdError(f"cannot read the learning curve: {error.strerror or error}", path) from None
    except ValueError as error:
        raise WsdError(f"not JSON: {error}", path, getattr(error, "lineno", None)) from None
    try:
        points = tuple(CurvePoint(str(point["system"]), float(point["fraction"]),
                                  int(point["training_instances"]), float(point["fine"]),
                                  None if point.get("coarse") is None else float(point["coarse"]))
                       for point in data["points"])
        return LearningCurve(str(data["task"]), int(data["seed"]), points)
    except (KeyError, TypeError, ValueError) as error:
        raise WsdError(f"not a learning curve written by bin/train --learning-curve "
                       f"(bad or missing field {error})", path) from None
