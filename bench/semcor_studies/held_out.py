"""What every SemCor study shares: the sets of held-out SemCor files (every ``HELD_OUT_EVERY``-th
file), a system trained on the other files and scored on them, the development set's F1 of the
system trained on all of SemCor, and the comparison of settings by both."""
from __future__ import annotations

import dataclasses
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from wsd_classic import modelstore, systems
from wsd_classic.corpora import registry
from wsd_classic.corpora.allwords import AllWordsCorpus, read_raganato_corpus
from wsd_classic.corpora.raganato import read_raganato_key
from wsd_classic.modelstore import TrainedSystem
from wsd_classic.scoring.raganato import score_raganato
from wsd_classic.tasks import allwords, catalogue
from wsd_classic.tasks.allwords_evaluation import resolve_datasets
from wsd_classic.tasks.engine import FeaturizedCorpus
from wsd_classic.tasks.tagger import Tagger

RESULTS = Path(__file__).resolve().parent.parent / "results"
DEVELOPMENT_SET = "semeval2007"
TASK = catalogue.SEMCOR
HELD_OUT_EVERY = 5


def tag_all(names: list[str], datasets, models_root: Path, jobs: int,
            loaded: Callable[[TrainedSystem], TrainedSystem] | None = None) -> dict:
    """Each of ``names``' models of ``models_root`` scored on ``datasets`` (``loaded``: what a
    study does to a model it loads before tagging)."""
    results = {}
    for name in names:
        started = time.perf_counter()
        tagger = Tagger.load(name, models_root)
        if loaded is not None:
            tagger = Tagger(loaded(tagger.trained))
        results[name] = {"load_seconds": time.perf_counter() - started, "datasets": {}}
        for dataset in datasets:
            figures = results[name]["datasets"][dataset.name] = score_dataset(tagger, dataset, jobs)
            print(f"{name} {dataset.name}: F1 {100 * figures['f1']:.1f} "
                  f"({figures['targets_per_second']:,.0f} targets/s)", file=sys.stderr)
    return results


def score_dataset(tagger: Tagger, dataset, jobs: int) -> dict:
    """Raganato's scores of ``tagger`` on ``dataset``, and its tagging speed."""
    started = time.perf_counter()
    tagged = tagger.tag(read_raganato_corpus(dataset.data), jobs)
    seconds = time.perf_counter() - started
    score = score_raganato(read_raganato_key(dataset.gold),
                           {answer.instance_id: [answer.key] for answer in tagged})
    return {"targets": len(tagged), "seconds": seconds,
            "targets_per_second": len(tagged) / seconds, "precision": score.precision,
            "recall": score.recall, "f1": score.f1}


def held_out_accuracy(data: allwords.TrainingData, system: str, jobs: int,
                      params: dict | None = None, fold: int = 0, **training) -> float:
    """Accuracy on every ``HELD_OUT_EVERY``-th SemCor file (from the ``fold``-th on) of
    ``system`` trained on the others (a target is right when its key is one of its gold keys);
    ``training``: more of ``train_system``'s arguments (``wordnet_examples``)."""
    subset, testing = held_out_split(data, fold)
    trained = allwords.train_system(system, subset, jobs, params=params, **training)
    return accuracy(trained, data.corpus, testing, jobs)


def held_out_scores(data: allwords.TrainingData, system: str, folds: int, jobs: int,
                    **overrides) -> dict:
    """``held_out_accuracy`` on each of the first ``folds`` sets of files, and their mean."""
    by_fold = []
    for fold in range(folds):
        by_fold.append(held_out_accuracy(data, system, jobs, fold=fold, **overrides))
        print(f"{system} {overrides}: held-out set {fold}: {by_fold[-1]:.5f}", file=sys.stderr,
              flush=True)
    return {"held_out_semcor_accuracy": sum(by_fold) / len(by_fold),
            "held_out_semcor_accuracy_by_fold": by_fold}


def held_out_split(data: allwords.TrainingData, fold: int):
    """The training data without every ``HELD_OUT_EVERY``-th SemCor file (from the ``fold``-th
    on), and the targets of those files."""
    corpus = data.corpus
    training, testing = held_out_targets(corpus, fold)
    subset = dataclasses.replace(
        data, featurized=FeaturizedCorpus(allwords.as_lexical_sample(corpus, training),
                                          data.featurized.features, data.featurized.featurizer))
    return subset, testing


def held_out_documents(corpus: AllWordsCorpus, fold: int) -> set[str]:
    """Every ``HELD_OUT_EVERY``-th document of SemCor (sorted), from the ``fold``-th on."""
    documents = sorted({sentence.document for sentence in corpus.sentences})
    return set(documents[fold::HELD_OUT_EVERY])


def held_out_targets(corpus: AllWordsCorpus, fold: int):
    """SemCor's targets outside the held-out documents (``held_out_documents``), and those
    inside them."""
    held_out = held_out_documents(corpus, fold)
    inside = [corpus.sentences[target.sentence].document in held_out for target in corpus.targets]
    return ([target for target, test in zip(corpus.targets, inside) if not test],
            [target for target, test in zip(corpus.targets, inside) if test])


def held_out_corpus(data: allwords.TrainingData, testing) -> AllWordsCorpus:
    """SemCor's sentences with the held-out ``testing`` targets only."""
    return AllWordsCorpus(data.corpus.source, data.corpus.sentences, testing)


def accuracy(trained, corpus: AllWordsCorpus, testing, jobs: int) -> float:
    """The share of ``testing`` targets whose answer is one of their gold keys."""
    tagged = Tagger(trained, systems.get(trained.system).back_off, discourse_weight=0.0).tag(
        AllWordsCorpus(corpus.source, corpus.sentences, testing), jobs)
    return sum(answer.key in target.keys for answer, target in zip(tagged, testing)) / len(testing)


def development_f1(data: allwords.TrainingData, system: str, development, jobs: int,
                   params: dict | None = None,
                   loaded: Callable[[TrainedSystem], TrainedSystem] | None = None,
                   **training) -> float:
    """F1 on the development set of ``system`` trained on all of SemCor (``training`` as
    ``held_out_accuracy``'s), saved and loaded as a user's model is (``loaded`` as
    ``tag_all``'s)."""
    with tempfile.TemporaryDirectory(prefix="semcor-tune-") as scratch:
        trained = allwords.train_system(system, data, jobs, params=params, **training)
        modelstore.save(trained, Path(scratch))
        tagged = tag_all([system], development, Path(scratch), jobs, loaded)
    return tagged[system]["datasets"][DEVELOPMENT_SET]["f1"]


def development_set(data_dir):
    """The development set, the one evaluation set a study reads."""
    return resolve_datasets([DEVELOPMENT_SET], data_dir)


def semcor_training(data_dir, jobs: int, **preparation) -> allwords.TrainingData:
    """SemCor prepared for training (``preparation``: ``prepare_training``'s arguments)."""
    return allwords.prepare_training(registry.locate(TASK.dataset, data_dir), jobs=jobs,
                                     **preparation)


def tuning_result(setting: str, results: dict, system: str = "svm") -> dict:
    return {"development_set": DEVELOPMENT_SET, "system": system,
            "held_out_semcor": f"every {HELD_OUT_EVERY}th file (sorted), trained on the rest",
            f"by_{setting}": results}


def compare_settings(args, name: str, setting: str, settings: dict[str, dict]) -> dict:
    """Held-out accuracy (over ``--folds`` sets of files) and development F1 of system ``name``
    trained with each of ``settings`` (``train_system`` arguments, by label)."""
    results, data = compare_systems(args, setting, {
        label: (name, overrides) for label, overrides in settings.items()})
    return {**tuning_result(setting, results, name), "folds": args.folds,
            "other_parameters": {**TASK.system_params(name),
                                 "wordnet_examples": name in TASK.wordnet_examples},
            "wordnet_examples": len(data.examples.sample)}


def compare_systems(args, setting: str, settings: dict[str, tuple[str, dict]]):
    """Held-out accuracy (over ``--folds`` sets of files), development F1 and training seconds
    of each ``(system, train_system arguments)`` of ``settings``, by label; and the data."""
    development = development_set(args.data_dir)
    data = semcor_training(args.data_dir, args.jobs,
                           featurizer=TASK.featurizer([name for name, _ in settings.values()]))
    results = {}
    for label, (name, overrides) in settings.items():
        held_out = held_out_scores(data, name, args.folds, args.jobs, **overrides)
        started = time.perf_counter()
        f1 = development_f1(data, name, development, args.jobs, **overrides)
        results[label] = {
            "system": name, **held_out, "development_f1": f1,
            "train_and_tag_development_seconds": time.perf_counter() - started}
        print(f"{setting} {label}: {results[label]}", file=sys.stderr)
    return results, data
