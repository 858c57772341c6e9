"""``--tune-emb``: svm per embedding rule and context size, on the task's word vectors or on
other sources, the self-trained ones (``bench/self_vectors.py``) with their word2vec settings."""
from __future__ import annotations

import dataclasses
import json
import sys
import time

from wsd_classic.features.embeddings import ContextEmbedding, EmbeddingRule
from wsd_classic.features.featurizer import ContextRule, Featurizer
from bench.self_vectors import CHOSEN, given_vectors

from .held_out import (RESULTS, TASK, development_f1, development_set, held_out_scores,
                       semcor_training, tuning_result)


def tune_embeddings(args) -> dict:
    """svm's held-out SemCor accuracy and development F1 for each embedding rule and context
    size; the rows join those of earlier runs."""
    development = development_set(args.data_dir)
    vector_settings = CHOSEN.replaced(args.vectors)
    sources = tuple(args.sources.split(",")) if args.sources else TASK.embedding.sources
    vectors = given_vectors(sources, vector_settings, args.data_dir)
    out = RESULTS / "semcor_emb.json"
    rows = json.loads(out.read_text())["rows"] if out.is_file() else []
    for setting in args.tune_emb.split(","):
        strategy, window, scale, sentences, *gloss_scale = setting.split(":")
        rule = EmbeddingRule(strategy, int(window), float(scale),
                             float(gloss_scale[0]) if gloss_scale else 0.0, sources)
        embedding = ContextEmbedding(rule, vectors)
        started = time.perf_counter()
        data = semcor_training(args.data_dir, args.jobs, featurizer=Featurizer(
            ContextRule(sentences=int(sentences)), embedding=embedding))
        rows.append({"strategy": strategy, "window": int(window), "scale": float(scale),
                     "gloss": rule.gloss, "context_sentences": int(sentences),
                     "vectors": dataclasses.asdict(vector_settings),
                     "vectors_sha256": vectors and vectors.identity, "sources": list(sources),
                     "pretrained_sha256": [pretrained.identity
                                           for pretrained in embedding.pretrained],
                     "params": TASK.system_params("svm"),
                     **held_out_scores(data, "svm", args.folds, args.jobs),
                     "development_f1": development_f1(data, "svm", development, args.jobs),
                     "seconds": time.perf_counter() - started})
        del data
        print(f"emb {setting}: {rows[-1]}", file=sys.stderr, flush=True)
        out.write_text(json.dumps({**tuning_result("embedding", {}), "rows": rows}, indent=2)
                       + "\n")
    return {**tuning_result("embedding", {}), "rows": rows}
