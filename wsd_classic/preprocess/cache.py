"""On-disk cache of spaCy analyses, keyed by the input content and the model version.

One gzip'd JSON-lines file per corpus; a second run over the same contexts with the same spaCy
model reads it instead of running spaCy. JSON, not pickle: a cache file never runs code.
"""
from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path
from typing import Callable, Iterable, Sequence

from wsd_classic import settings
from wsd_classic.atomic import atomic_file
from wsd_classic.corpora.model import Instance
from wsd_classic.preprocess import pipeline
from wsd_classic.preprocess.document import ProcessedInstance

# Bump when ``to_processed`` or ``process`` change what they record, so stale caches go.
FORMAT_VERSION = 2


def cache_key(instances: Sequence[Instance]) -> str:
    digest = hashlib.sha256(f"{FORMAT_VERSION}\n{pipeline.model_signature()}\n".encode())
    for instance in instances:
        digest.update(json.dumps([instance.id, instance.lexelt, instance.text, instance.head,
                                  instance.sats]).encode())
    return digest.hexdigest()


def processed(instances: Sequence[Instance], jobs: int = 1, progress: bool | None = None,
              description: str = "spaCy", cache_root: Path | None = None
              ) -> list[ProcessedInstance]:
    """spaCy analyses of ``instances`` (in order), from the cache when it holds them."""
    return cached(cache_key(instances), len(instances),
                  lambda: pipeline.process(instances, jobs=jobs, progress=progress,
                                           description=description), cache_root)


def cached(key: str, count: int, compute: Callable[[], Iterable[ProcessedInstance]],
           cache_root: Path | None = None) -> list[ProcessedInstance]:
    """The ``count`` analyses stored under ``key``, or else ``compute()``'s, stored there first.

    ``key`` must change whenever the analyses would (input, ``FORMAT_VERSION``, spaCy model).
    """
    directory = (cache_root or settings.cache_dir()) / "preprocess"
    path = directory / f"{key}.jsonl.gz"
    if path.is_file():
        try:
            with gzip.open(path, "rt", encoding="utf-8") as lines:
                stored = [ProcessedInstance.from_json(json.loads(line)) for line in lines]
            if len(stored) == count:
                return stored
        except (OSError, EOFError, ValueError, TypeError):
            pass  # a damaged cache entry is recomputed and overwritten
    result = list(compute())
    directory.mkdir(parents=True, exist_ok=True)
    with atomic_file(path) as raw, gzip.open(raw, "wt", encoding="utf-8", compresslevel=3) as out:
        for item in result:
            out.write(json.dumps(item.to_json(), ensure_ascii=False) + "\n")
    return result
