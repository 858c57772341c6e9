"""SyntagNet 1.0 (Maru, Scozzafava, Martelli & Navigli, EMNLP-IJCNLP 2019): collocation pairs
whose two words are each disambiguated to a WordNet 3.0 sense key.

``collocations.yaml`` is a head key line ``'abandon%2:31:01::':``, a ``  collocation:`` line, then
one ``  - 'hope%1:12:00::'`` line per partner. Read line by line rather than by a YAML parser:
the format is this fixed, and a malformed line is then reported with its number.
"""
from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

from wsd_classic.corpora import registry
from wsd_classic.errors import WsdError

DATASET = "syntagnet"
FILENAME = "collocations.yaml"
# A single-quoted YAML scalar: a quote inside it is written twice (``'coup_d''etat%1:04:00::'``).
_QUOTED_KEY = r"'((?:[^']|'')+%[^']*)'"
_HEAD = re.compile(_QUOTED_KEY + r":")
_PARTNER = re.compile(r"\s+- " + _QUOTED_KEY)
_LIST_NAME = re.compile(r"\s+collocation:")


def read_syntagnet(path: str | os.PathLike) -> Iterator[tuple[str, str]]:
    """Every ``(head key, partner key)`` pair of a SyntagNet ``collocations.yaml``, in file
    order, keys as WordNet spells them; a ``WsdError`` names the first malformed line."""
    head = None
    with open(path, encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            if match := _HEAD.fullmatch(line):
                head = _unquoted(match[1])
            elif _LIST_NAME.fullmatch(line) and head is not None:
                continue
            elif (match := _PARTNER.fullmatch(line)) and head is not None:
                yield head, _unquoted(match[1])
            else:
                raise WsdError("not a SyntagNet line (expected 'sensekey':, collocation: or "
                               f"- 'sensekey' under a head key): {line!r}", path, number)


def _unquoted(key: str) -> str:
    return key.replace("''", "'").lower()


def located(data_dir: str | os.PathLike | None = None) -> Path | None:
    """The registered, verified ``collocations.yaml``, or None when the data directory holds no
    SyntagNet (it is optional: its licence keeps it out of the repository). A file that is
    there but differs from the registered release is an error, not a silent fallback."""
    if not registry.present(DATASET, data_dir):
        return None
    return registry.file(DATASET, FILENAME, data_dir)
