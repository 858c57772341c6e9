"""``bench/semcor.py --tune-hybrid``: the svm and ``ppr`` combined, on three tables.

The svm's distribution over each target's WordNet candidates is computed once per table and
kept on disk (``--hybrid-tables``, by default in the cache's ``bench/hybrid``):

- ``held_out``: the first set of held-out SemCor files (every 5th file), the svm trained on
  the others;
- ``removed``: the same targets, the svm trained without a seeded 15 % of the polysemous
  lexelts' senses (``unseen_senses.removed_senses``, the unseen-senses study's removal);
- ``development``: semeval2007, the svm trained on all of SemCor (or read from
  ``--models-dir``).

``ppr``'s distributions over the same targets are computed once per table too; every form of
the mixture is then scored from the two without training anything. The selection rule is
docs/choices.md's ("The hybrid"). Writes bench/results/semcor_hybrid.json.
"""
from __future__ import annotations

import json
import sys
import time
from collections import Counter
from pathlib import Path

from wsd_classic import modelstore, settings
from wsd_classic.atomic import write_json_atomically
from wsd_classic.corpora.allwords import AllWordsCorpus, read_raganato_corpus
from wsd_classic.corpora.raganato import read_raganato_key
from wsd_classic.tasks import allwords, vector_corpus
from wsd_classic.tasks.tagger import Tagger
from wsd_classic.wordnet import wordnet_senses

from .held_out import TASK, development_set, held_out_corpus, held_out_split, semcor_training
from .unseen_senses import SEED, SHARE, removed_senses, sense_counts, without_senses

TABLES = ("held_out", "removed", "development")


def tables_dir(args) -> Path:
    return args.hybrid_tables or settings.cache_dir() / "bench" / "hybrid"


def svm_rows(tagger: Tagger, corpus: AllWordsCorpus, gold: dict[str, tuple[str, ...]],
             training: allwords.TrainingData, jobs: int) -> list[dict]:
    """Each target of ``corpus``: its document, lexelt, gold keys, WordNet candidates, the svm's
    weights of them (None: no model of the lexelt), its lexelt's training instances
    (``support``) and the fewest training instances of one of its gold keys."""
    started = time.perf_counter()
    raw = tagger.distributions(corpus, jobs)
    sample = training.featurized.sample
    support = {lexelt.item: len(lexelt.instances) for lexelt in sample.lexelts}
    counts = sense_counts(sample)
    rows = []
    for target in corpus.targets:
        candidates = wordnet_senses(target.lemma, target.pos)
        weights = raw.get(target.id)
        keys = gold[target.id]
        rows.append({"id": target.id, "document": corpus.sentences[target.sentence].document,
                     "lexelt": target.lexelt, "keys": list(keys), "candidates": list(candidates),
                     "svm": None if weights is None else [weights.get(key, 0.0)
                                                         for key in candidates],
                     "support": support.get(target.lexelt, 0),
                     "gold_support": min(counts[key] for key in keys)})
    print(f"svm distributions of {len(rows):,} targets in {time.perf_counter() - started:.0f}s",
          file=sys.stderr, flush=True)
    return rows


def trained_svm(training: allwords.TrainingData, jobs: int):
    started = time.perf_counter()
    trained = allwords.train_system("svm", training, jobs)
    print(f"svm trained in {time.perf_counter() - started:.0f}s", file=sys.stderr, flush=True)
    return trained


def collect_svm(args) -> dict[str, Path]:
    """The svm's table of each of ``TABLES`` missing from ``tables_dir``, computed and saved."""
    directory = tables_dir(args)
    paths = {name: directory / f"{name}.svm.json" for name in TABLES}
    if all(path.is_file() for path in paths.values()):
        return paths
    directory.mkdir(parents=True, exist_ok=True)
    data = semcor_training(args.data_dir, args.jobs,
                           featurizer=vector_corpus.featurizer(TASK, ["svm"], args.data_dir))
    subset, testing = held_out_split(data, 0)
    held_out = held_out_corpus(data, testing)
    gold = {target.id: target.keys for target in testing}
    if not paths["held_out"].is_file():
        tagger = Tagger(trained_svm(subset, args.jobs), discourse_weight=0.0)
        write_json_atomically(paths["held_out"], {
            "rows": svm_rows(tagger, held_out, gold, subset, args.jobs)})
    if not paths["removed"].is_file():
        removed = removed_senses(subset.featurized.sample, SHARE, SEED)
        reduced = without_senses(subset, removed)
        tagger = Tagger(trained_svm(reduced, args.jobs), discourse_weight=0.0)
        write_json_atomically(paths["removed"], {
            "removed_senses": sorted(removed),
            "rows": svm_rows(tagger, held_out, gold, reduced, args.jobs)})
    if not paths["development"].is_file():
        [dataset] = development_set(args.data_dir)
        if args.models_dir and modelstore.model_path(args.models_dir, TASK.name, "svm").is_file():
            trained = modelstore.load(args.models_dir, TASK.name, "svm")
        else:
            trained = trained_svm(data, args.jobs)
        write_json_atomically(paths["development"], {
            "rows": svm_rows(Tagger(trained, discourse_weight=0.0),
                             read_raganato_corpus(dataset.data),
                             read_raganato_key(dataset.gold), data, args.jobs)})
    return paths


def load_rows(path: Path) -> dict:
    return json.loads(path.read_text())
