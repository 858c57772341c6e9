"""A reader's own all-words predictions, checked against the dataset they answer.

Three forms are read, told apart by the first line that holds anything:

- Raganato's key format, ``instance_id key [key ...]`` a line (what ``bin/tag --raganato``
  and the WSD Evaluation Framework's systems write);
- SenseBench's baseline files, ``instance_id key``: the same format with one key a line;
- JSON lines, a line starting with ``{``: ``bin/tag --raganato --format jsonl``'s
  ``{"instance", "key", "senses": [{"key", "weight"}, ...]}`` (the heaviest of ``senses`` is the
  answer, else ``key``), or any record with ``"id"`` or ``"instance"`` and ``"key"`` (SenseBench's
  p002 files).

Everything a scorer would otherwise skip or misread is refused, at its line: an id the dataset
lacks, an id listed twice, a key WordNet 3.0 does not have as written (a WordNet 1.7 or OEWN key,
a key in capitals), a field that is no sense key, an empty file. Ids the file lacks are left to
the scorer, which counts them unanswered.
"""
from __future__ import annotations

import json
import os
from collections.abc import Collection

from wsd_classic.corpora.keys import read_records
from wsd_classic.corpora.lexsample import read_text_file
from wsd_classic.errors import WsdError
from wsd_classic.wordnet import sense_index

KEY_FORMAT = "'instance_id sense_key [sense_key ...]'"
SHOWN_IDS = 3
# Open English WordNet's XML names senses and synsets "oewn-...".
OEWN_PREFIX = "oewn-"


def read_predictions(path: str | os.PathLike, dataset_ids: Collection[str],
                     dataset: str) -> dict[str, tuple[str, ...]]:
    """The predicted keys by instance id, in file order; ``dataset`` names the dataset whose
    ``dataset_ids`` every id must be one of, for the error message."""
    text = read_text_file(path, "utf-8-sig")
    first = next((line.strip() for line in text.split("\n") if line.strip()), "")
    records = _json_records(path, text) if first.startswith("{") else read_records(
        path, "predictions")
    predictions: dict[str, tuple[str, ...]] = {}
    lines: dict[str, int] = {}
    for number, (instance, *keys) in records:
        if not keys:
            raise WsdError(f"instance {instance!r} has no sense key: expected {KEY_FORMAT} "
                           "or JSON lines", path, number)
        if instance not in dataset_ids:
            raise WsdError(f"instance {instance!r} is not in the dataset {dataset} "
                           f"({_examples(dataset_ids)})", path, number)
        if instance in predictions:
            raise WsdError(f"instance {instance!r} is listed a second time (first at line "
                           f"{lines[instance]})", path, number)
        for key in keys:
            _check_key(key, path, number)
        predictions[instance], lines[instance] = tuple(keys), number
    return predictions


def _check_key(key: str, path: str | os.PathLike, line: int) -> None:
    if key.startswith(OEWN_PREFIX):
        raise WsdError(f"{key!r} is an Open English WordNet id, not a WordNet 3.0 sense key: "
                       "the gold keys are WordNet 3.0's", path, line)
    if "%" not in key:
        raise WsdError(f"{key!r} is not a sense key (lemma%ss_type:lex_filenum:lex_id:...): "
                       f"expected {KEY_FORMAT} or JSON lines", path, line)
    if sense_index().offset(key) is None:
        raise WsdError(f"sense key {key!r} is not in WordNet 3.0 as written (a WordNet 1.7 or "
                       "OEWN key, or other spelling?): the gold keys are WordNet 3.0's", path, line)


def _json_records(path: str | os.PathLike, text: str) -> list[tuple[int, list[str]]]:
    """``(line, [id, key])`` of each JSON line, the key its ``senses``' heaviest or ``key``."""
    records = []
    for number, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError as error:
            raise WsdError(f"not a JSON line ({error.msg}), though the file starts as JSON "
                           "lines", path, number) from None
        instance = record.get("instance", record.get("id")) if isinstance(record, dict) else None
        if not isinstance(instance, str) or not instance:
            raise WsdError('a JSON line needs an "instance" (or "id") string', path, number)
        records.append((number, [instance, *_top_key(record, path, number)]))
    return records


def _top_key(record: dict, path: str | os.PathLike, line: int) -> list[str]:
    senses = record.get("senses")
    if isinstance(senses, list) and senses:
        try:
            best = max(senses, key=lambda sense: float(sense["weight"]))
            return [str(best["key"])]
        except (TypeError, KeyError, ValueError):
            raise WsdError('"senses" must be a list of {"key", "weight"} with numeric weights',
                           path, line) from None
    key = record.get("key")
    if not isinstance(key, str) or not key:
        raise WsdError('a JSON line needs a "key" string or a "senses" list', path, line)
    return [key]


def _examples(ids: Collection[str]) -> str:
    shown = [instance for _, instance in zip(range(SHOWN_IDS), ids)]
    return f"whose ids look like {', '.join(shown)}" if shown else "which has no instance"

