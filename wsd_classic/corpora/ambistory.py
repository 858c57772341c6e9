"""AmbiStory (SemEval-2026 Task 5) files: one JSON object of samples keyed by id.

A sample rates one WordNet meaning (``judged_meaning``, a definition) of ``homonym`` in a short
story: ``precontext``, the ambiguous ``sentence``, an ``ending`` that may be empty. Labelled files
hold each annotator's rating in ``choices``; the redacted test file holds ``"(???)"`` there,
read as no ratings. Any other problem is a ``WsdError`` naming the file and the line where the
sample starts.
"""
from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

from wsd_classic.errors import WsdError

TEXT_FIELDS = ("homonym", "judged_meaning", "precontext", "sentence", "ending",
               "example_sentence")
REDACTED = "(???)"


@dataclass(frozen=True)
class AmbiStorySample:
    id: str
    homonym: str
    judged_meaning: str
    precontext: str
    sentence: str
    ending: str
    example_sentence: str
    choices: tuple[int, ...] | None  # None: redacted

    @property
    def setup(self) -> tuple[str, str, str]:
        """What the two meanings of one story share."""
        return self.homonym, self.precontext, self.sentence

    @property
    def story(self) -> tuple[str, str, str]:
        return self.precontext, self.sentence, self.ending

    @property
    def average(self) -> float:
        return sum(self.choices) / len(self.choices)


def read_ambistory(path: str | os.PathLike) -> list[AmbiStorySample]:
    """The samples of an AmbiStory JSON file, in file order."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise WsdError(f"cannot read the file: {getattr(error, 'strerror', None) or error}",
                       path) from None
    try:
        samples = json.loads(text)
    except json.JSONDecodeError as error:
        raise WsdError(f"not JSON: {error.msg}", path, error.lineno) from None
    if not isinstance(samples, dict) or not samples:
        raise WsdError("expected a non-empty JSON object of samples keyed by id", path, 1)
    lines = _object_lines(text)
    return [_sample(key, value, path, lines.get(key, 1)) for key, value in samples.items()]


_OBJECT_KEY = re.compile(r'"([^"\\]*)"\s*:\s*\{')


def _object_lines(text: str) -> dict[str, int]:
    """The line where the first object under each (plainly spelt) key starts, in one pass:
    searching the text afresh for each of a file's thousands of samples took seconds."""
    lines, line, counted = {}, 1, 0
    for found in _OBJECT_KEY.finditer(text):
        line += text.count("\n", counted, found.start())
        counted = found.start()
        lines.setdefault(found.group(1), line)
    return lines


def _sample(key: str, value, path, line: int) -> AmbiStorySample:
    if not isinstance(value, dict):
        raise WsdError(f"sample {key!r} is not a JSON object", path, line)
    missing = [name for name in (*TEXT_FIELDS, "choices") if name not in value]
    if missing:
        raise WsdError(f"sample {key!r} lacks {', '.join(missing)}", path, line)
    for name in TEXT_FIELDS:
        if not isinstance(value[name], str):
            raise WsdError(f"sample {key!r}: {name} is not a string", path, line)
    for name in ("homonym", "judged_meaning", "sentence"):
        if not value[name].strip():
            raise WsdError(f"sample {key!r}: {name} is empty", path, line)
    choices = value["choices"]
    if choices == REDACTED:
        ratings = None
    elif (isinstance(choices, list) and len(choices) >= 2
          and all(type(choice) is int and 1 <= choice <= 5 for choice in choices)):
        ratings = tuple(choices)
    else:
        raise WsdError(f"sample {key!r}: choices must be two or more integer ratings 1-5 (or "
                       f"{REDACTED!r}), not {json.dumps(choices)[:40]}", path, line)
    return AmbiStorySample(key, *(value[name].strip() for name in TEXT_FIELDS), ratings)
