"""``--mfs-back-offs``: mfs with each back-off for lemmas SemCor never tagged, on every dataset
beside the published MFS. It explains the published baseline and chooses nothing."""
from __future__ import annotations

import sys

from wsd_classic.corpora.allwords import read_raganato_corpus
from wsd_classic.corpora.raganato import read_raganato_key
from wsd_classic.report.references import RAGANATO_2017, RAGANATO_SOURCE
from wsd_classic.scoring.raganato import score_raganato
from wsd_classic.systems.first_sense import database_first_sense, first_sense
from wsd_classic.tasks import allwords
from wsd_classic.tasks.allwords_evaluation import resolve_datasets
from wsd_classic.tasks.tagger import Tagger

from .held_out import semcor_training

MFS_BACK_OFFS = {
    "wordnet first sense": first_sense,
    "wordnet database order": database_first_sense,
    "alphabetical sense key": lambda candidates: {min(candidates): 1.0},
}


def mfs_back_offs(args) -> dict:
    """mfs's F1 on every dataset with each back-off, beside the published MFS."""
    datasets = resolve_datasets(args.datasets.split(","), args.data_dir)
    data = semcor_training(args.data_dir, args.jobs, with_features=False)
    trained = allwords.train_system("mfs", data, args.jobs)
    corpora = {dataset.name: (read_raganato_corpus(dataset.data), read_raganato_key(dataset.gold))
               for dataset in datasets}
    results = {}
    for label, back_off in MFS_BACK_OFFS.items():
        tagger = Tagger(trained, back_off, discourse_weight=0.0)
        results[label] = {}
        for dataset in datasets:
            corpus, gold = corpora[dataset.name]
            tagged = tagger.tag(corpus, args.jobs)
            score = score_raganato(gold, {answer.instance_id: [answer.key] for answer in tagged})
            results[label][dataset.name] = score.f1
        print(f"{label}: " + ", ".join(f"{name} {100 * f1:.1f}"
                                       for name, f1 in results[label].items()), file=sys.stderr)
    return {"f1_by_back_off": results, "chosen": "wordnet database order",
            "published_mfs_f1": RAGANATO_2017["MFS"],
            "published_source": RAGANATO_SOURCE}
