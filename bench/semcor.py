#!/usr/bin/env python3
"""Benchmark the all-words systems trained on SemCor: time, memory, tagging speed, F1.

Trains every system on SemCor 3.0 (``tasks.allwords``, as ``bin/train --task semcor`` does),
tags each evaluation dataset with each system and scores it with Raganato et al.'s scorer.
Peak memory is the maximum resident set size (``resource.getrusage``) of this process and of
its finished child processes (spaCy and joblib workers). The preprocessing cache starts empty
(a temporary directory) unless ``--warm-cache`` is given, so the timings include spaCy.
Writes bench/results/semcor.json.

    python bench/semcor.py [--systems mfs,wn1,svm,dlist] [--datasets senseval2,senseval3,semeval2007]
                           [--jobs 2] [--data-dir DIR] [--warm-cache] [--out FILE]

``--tune-context 0,1,2`` instead compares numbers of neighbouring sentences in the bag of words
for svm: its accuracy on held-out SemCor files (every 5th file, trained on the others) and its F1
on the development set semeval2007 (trained on all of SemCor); the test sets are never read. It
writes bench/results/semcor_context.json. ``--tune-svm C=1,3,10`` does the same for one of the
svm's parameters, the others as registered (bench/results/semcor_svm_C.json), or with
``--svm-system combo`` for combo's svm member (semcor_combo_svm_C.json); ``--folds 5``
averages its held-out accuracy over the five disjoint sets of every 5th file.
``--tune-examples [svm|dlist]`` compares the system trained without and with WordNet's examples
(bench/results/semcor_svm_examples.json); ``--tune-example-lexelts [svm|combo]`` with the
examples of the lexelts training tags with two senses or more against those of every polysemous
lexelt (bench/results/semcor_<system>_example_lexelts.json); ``--tune-definitions [svm|dlist]``
without and with
WordNet's definitions besides (bench/results/semcor_svm_definitions.json); ``--tune-relatives
0,0.25,0.25:10`` per training weight of SemCor's instances of sense relatives and least number of
a lexelt's own instances to get them, ``--relatives-cap`` their cap per sense
(bench/results/semcor_relatives.json, earlier settings kept). ``--tune-emb exponential:10:1:0,...`` does it for
svm's embedding features, each setting ``STRATEGY:WINDOW:SCALE:CONTEXT_SENTENCES[:GLOSS]`` (GLOSS:
the scale of the context's cosines with the candidates' gloss embeddings, 0 by default) on the
task's word vectors, or on those of ``--vectors epochs=20`` (word2vec settings changed)
(bench/results/semcor_emb.json, one row added per setting). ``--tune-scale
gloss=1,4`` (or ``emb=...``) does it for the scale of one real-valued group, the corpus analysed
once and the group's values rescaled (bench/results/semcor_<group>_scale.json).

``--tune-combo`` compares svm, combo and combo answering unseen senses from their gloss evidence
the same way (bench/results/semcor_combo.json); ``--tune-combo-unseen`` compares the two
combos on the lexelts where they differ only (a candidate no training instance shows), as a
difference in right answers (bench/results/semcor_combo_unseen.json); ``--tune-prior`` counts,
where svm answers its training sense distribution, the right answers of that distribution with
and without WordNet's examples counted (bench/results/semcor_svm_prior.json).
``--tune-discourse 0,0.1,0.2`` does it for the weight of one sense per discourse of
``--discourse-system`` (default svm): trained once per training set, its distributions pulled
together at every weight, overall and per part of speech, and the rule that gives each part of
speech its best weight scored too (bench/results/semcor_<system>_discourse.json).
``--tune-combo-mixture 1,10,inf`` compares combo's registered mixture defaults with defaults
pooled over SemCor's held-out evidence, per shrinkage: the members are stacked once per training
set and only the combiner refitted (bench/results/semcor_combo_mixture.json); with ``--combo-pools
linear,geometric`` each pool other than the registered one is fitted too, from its own pooled
defaults (``combination.POOLS``).

``--mfs-back-offs`` scores ``mfs`` with each back-off for lemmas SemCor never tagged (WordNet's
first sense, WordNet's database order, alphabetical sense keys) on every dataset beside the
published MFS: it explains the published baseline, and chooses nothing
(bench/results/semcor_mfs.json).

``--unseen-senses [--unseen-share 0.15] [--unseen-seed 0]`` simulates senses unseen in training
and scores svm and the sense ranker on them (``bench/semcor_unseen.py``,
bench/results/semcor_unseen_senses.json; other shares and seeds in
semcor_unseen_senses_<share>_<seed>.json).
"""
from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Callable
import copy
import dataclasses
import json
import os
import platform
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402
from joblib.externals.loky import get_reusable_executor  # noqa: E402
from semcor_unseen import SEED as UNSEEN_SEED, SHARE as UNSEEN_SHARE, unseen_senses  # noqa: E402
from tune_combo import pooled_params  # noqa: E402

from wsd_classic import modelstore, settings, systems  # noqa: E402
from wsd_classic.modelstore import TrainedSystem  # noqa: E402
from wsd_classic.systems.combination import POOLS  # noqa: E402
from wsd_classic.workers import in_workers  # noqa: E402
from wsd_classic.corpora import registry  # noqa: E402
from wsd_classic.corpora.model import Lexelt, LexicalSample  # noqa: E402
from wsd_classic.corpora.wordnet_examples import read_wordnet_examples  # noqa: E402
from wsd_classic.systems.first_sense import wordnet_senses  # noqa: E402
from wsd_classic.corpora.raganato import read_raganato_key  # noqa: E402
from wsd_classic.report.references import RAGANATO_2017, RAGANATO_SOURCE  # noqa: E402
from wsd_classic.scoring.raganato import score_raganato  # noqa: E402
from wsd_classic.systems.first_sense import database_first_sense, first_sense  # noqa: E402
from wsd_classic.features import gloss, word_vectors  # noqa: E402
from wsd_classic.features.weighted import Weighted  # noqa: E402
from wsd_classic.features.embeddings import ContextEmbedding, EmbeddingRule  # noqa: E402
from wsd_classic.features.featurizer import ContextRule, Featurizer  # noqa: E402
from wsd_classic.tasks import allwords, catalogue, engine  # noqa: E402
from wsd_classic.corpora.allwords import AllWordsCorpus, read_raganato_corpus  # noqa: E402
from wsd_classic.tasks.allwords_evaluation import resolve_datasets  # noqa: E402
from wsd_classic.tasks.engine import FeaturizedCorpus  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"
DEVELOPMENT_SET = "semeval2007"
TASK = catalogue.SEMCOR
HELD_OUT_EVERY = 5


def peak_memory_mb() -> dict[str, float]:
    """Peak RSS of this process and of its waited-for children (kilobytes on Linux)."""
    get_reusable_executor().shutdown(wait=True)  # joblib's workers count once they have exited
    return {"main": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "children": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024}


def train_all(semcor_root: Path, names: list[str], models_root: Path, jobs: int) -> dict:
    trainable = [name for name in names if systems.get(name).estimator is not None]
    started = time.perf_counter()
    data = allwords.prepare_training(semcor_root, featurizer=TASK.featurizer_later(trainable),
                                     jobs=jobs)
    report = {"prepare_seconds": time.perf_counter() - started, "info": data.info, "systems": {}}
    for name in trainable:
        started = time.perf_counter()
        trained = allwords.train_system(name, data, jobs)
        trained_seconds = time.perf_counter() - started
        started = time.perf_counter()
        path = modelstore.save(trained, models_root)
        report["systems"][name] = {
            "train_seconds": trained_seconds, "save_seconds": time.perf_counter() - started,
            "model_bytes": path.stat().st_size, "lexelts": len(trained.models)}
        print(f"trained {name} in {trained_seconds:.1f}s", file=sys.stderr)
    return report


def tag_all(names: list[str], datasets, models_root: Path, jobs: int) -> dict:
    results = {}
    for name in names:
        started = time.perf_counter()
        tagger = allwords.AllWordsTagger.load(name, models_root)
        results[name] = {"load_seconds": time.perf_counter() - started, "datasets": {}}
        for dataset in datasets:
            figures = results[name]["datasets"][dataset.name] = score_dataset(tagger, dataset, jobs)
            print(f"{name} {dataset.name}: F1 {100 * figures['f1']:.1f} "
                  f"({figures['targets_per_second']:,.0f} targets/s)", file=sys.stderr)
    return results


def score_dataset(tagger: allwords.AllWordsTagger, dataset, jobs: int) -> dict:
    """Raganato's scores of ``tagger`` on ``dataset``, and its tagging speed."""
    started = time.perf_counter()
    tagged = tagger.tag(read_raganato_corpus(dataset.data), jobs)
    seconds = time.perf_counter() - started
    score = score_raganato(read_raganato_key(dataset.gold),
                           {answer.instance_id: [answer.key] for answer in tagged})
    return {"targets": len(tagged), "seconds": seconds,
            "targets_per_second": len(tagged) / seconds, "precision": score.precision,
            "recall": score.recall, "f1": score.f1}


def benchmark(args) -> dict:
    names = TASK.check_systems(args.systems.split(","))
    datasets = resolve_datasets(args.datasets.split(","), args.data_dir)
    semcor_root = registry.locate(TASK.dataset, args.data_dir)
    with tempfile.TemporaryDirectory(prefix="semcor-bench-") as scratch:
        if not args.warm_cache:
            os.environ[settings.CACHE_ENV] = str(Path(scratch) / "cache")
        models_root = Path(scratch) / "models"
        started = time.perf_counter()
        training = train_all(semcor_root, names, models_root, args.jobs)
        training["seconds"] = time.perf_counter() - started
        training["peak_memory_mb"] = peak_memory_mb()
        tagging = tag_all(names, datasets, models_root, args.jobs)
    return {"machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                        "platform": platform.platform()},
            "jobs": args.jobs, "cold_cache": not args.warm_cache,
            "context_sentences": TASK.context.sentences,
            "training": training, "tagging": tagging, "peak_memory_mb": peak_memory_mb(),
            "published_f1": RAGANATO_2017, "published_source": RAGANATO_SOURCE}


def held_out_accuracy(data: allwords.TrainingData, system: str, jobs: int,
                      params: dict | None = None, fold: int = 0, **wordnet_texts) -> float:
    """Accuracy on every ``HELD_OUT_EVERY``-th SemCor file (from the ``fold``-th on) of
    ``system`` trained on the others (a target is right when its key is one of its gold keys);
    ``wordnet_texts``: ``train_system``'s ``wordnet_examples``, ``wordnet_definitions``."""
    subset, testing = held_out_split(data, fold)
    trained = allwords.train_system(system, subset, jobs, params=params, **wordnet_texts)
    return accuracy(trained, data.corpus, testing, jobs)


def held_out_scores(data: allwords.TrainingData, system: str, folds: int, jobs: int,
                    **overrides) -> dict:
    """``held_out_accuracy`` on each of the first ``folds`` sets of files, and their mean."""
    by_fold = [held_out_accuracy(data, system, jobs, fold=fold, **overrides)
               for fold in range(folds)]
    return {"held_out_semcor_accuracy": sum(by_fold) / len(by_fold),
            "held_out_semcor_accuracy_by_fold": by_fold}


def held_out_split(data: allwords.TrainingData, fold: int):
    """The training data without every ``HELD_OUT_EVERY``-th SemCor file (from the ``fold``-th
    on), and the targets of those files."""
    corpus = data.corpus
    documents = sorted({sentence.document for sentence in corpus.sentences})
    held_out = set(documents[fold::HELD_OUT_EVERY])
    inside = [corpus.sentences[target.sentence].document in held_out for target in corpus.targets]
    training = [target for target, test in zip(corpus.targets, inside) if not test]
    testing = [target for target, test in zip(corpus.targets, inside) if test]
    subset = dataclasses.replace(
        data, featurized=FeaturizedCorpus(allwords.as_lexical_sample(corpus, training),
                                          data.featurized.features, data.featurized.featurizer),
        relatives=data.relatives and outside(data.relatives, held_out))
    return subset, testing


def outside(featurized: FeaturizedCorpus, documents: set[str]) -> FeaturizedCorpus:
    """``featurized`` without the instances from ``documents``."""
    sample = featurized.sample
    return FeaturizedCorpus(LexicalSample(
        [Lexelt(lexelt.item, [instance for instance in lexelt.instances
                              if instance.docsrc not in documents])
         for lexelt in sample.lexelts], sample.source), featurized.features, featurized.featurizer)


def accuracy(trained, corpus: AllWordsCorpus, testing, jobs: int) -> float:
    """The share of ``testing`` targets whose answer is one of their gold keys."""
    tagged = allwords.AllWordsTagger(trained, systems.get(trained.system).back_off).tag(
        AllWordsCorpus(corpus.source, corpus.sentences, testing), jobs)
    return sum(answer.key in target.keys for answer, target in zip(tagged, testing)) / len(testing)


def development_f1(data: allwords.TrainingData, system: str, development, jobs: int,
                   params: dict | None = None, **wordnet_texts) -> float:
    """F1 on the development set of ``system`` trained on all of SemCor (``wordnet_texts`` as
    ``held_out_accuracy``'s)."""
    with tempfile.TemporaryDirectory(prefix="semcor-tune-") as scratch:
        trained = allwords.train_system(system, data, jobs, params=params, **wordnet_texts)
        modelstore.save(trained, Path(scratch))
        tagged = tag_all([system], development, Path(scratch), jobs)
    return tagged[system]["datasets"][DEVELOPMENT_SET]["f1"]


def tuning_result(setting: str, results: dict, system: str = "svm") -> dict:
    return {"development_set": DEVELOPMENT_SET, "system": system,
            "held_out_semcor": f"every {HELD_OUT_EVERY}th file (sorted), trained on the rest",
            f"by_{setting}": results}


def tune_context(args) -> dict:
    """svm's held-out SemCor accuracy and development F1 for each context size."""
    development = resolve_datasets([DEVELOPMENT_SET], args.data_dir)
    semcor_root = registry.locate(TASK.dataset, args.data_dir)
    results = {}
    for size in (int(value) for value in args.tune_context.split(",")):
        data = allwords.prepare_training(
            semcor_root, featurizer=Featurizer(ContextRule(sentences=size)), jobs=args.jobs)
        results[str(size)] = {
            "held_out_semcor_accuracy": held_out_accuracy(data, "svm", args.jobs),
            "development_f1": development_f1(data, "svm", development, args.jobs)}
        del data
        print(f"context {size}: {results[str(size)]}", file=sys.stderr)
    return tuning_result("context_sentences", results)


def tune_embeddings(args) -> dict:
    """svm's held-out SemCor accuracy and development F1 for each embedding rule and context
    size; the rows join those of earlier runs."""
    development = resolve_datasets([DEVELOPMENT_SET], args.data_dir)
    semcor_root = registry.locate(TASK.dataset, args.data_dir)
    vector_settings = TASK.embedding.vectors.replaced(args.vectors)
    vectors = word_vectors.obtain(vector_settings, args.data_dir)
    out = RESULTS / "semcor_emb.json"
    rows = json.loads(out.read_text())["rows"] if out.is_file() else []
    for setting in args.tune_emb.split(","):
        strategy, window, scale, sentences, *gloss_scale = setting.split(":")
        rule = EmbeddingRule(strategy, int(window), float(scale), vector_settings,
                             float(gloss_scale[0]) if gloss_scale else 0.0)
        started = time.perf_counter()
        data = allwords.prepare_training(semcor_root, featurizer=Featurizer(
            ContextRule(sentences=int(sentences)), embedding=ContextEmbedding(rule, vectors)),
            jobs=args.jobs)
        rows.append({"strategy": strategy, "window": int(window), "scale": float(scale),
                     "gloss": rule.gloss, "context_sentences": int(sentences),
                     "vectors": dataclasses.asdict(rule.vectors),
                     "vectors_sha256": vectors.identity, "params": TASK.system_params("svm"),
                     **held_out_scores(data, "svm", args.folds, args.jobs),
                     "development_f1": development_f1(data, "svm", development, args.jobs),
                     "seconds": time.perf_counter() - started})
        del data
        print(f"emb {setting}: {rows[-1]}", file=sys.stderr, flush=True)
        out.write_text(json.dumps({**tuning_result("embedding", {}), "rows": rows}, indent=2)
                       + "\n")
    return {**tuning_result("embedding", {}), "rows": rows}


def tune_svm(args) -> dict:
    """``--svm-system``'s held-out SemCor accuracy and development F1 for each value of one of
    the svm's parameters (combo: of its svm member's)."""
    parameter, values = parse_parameter_values(args.tune_svm)
    return compare_settings(args, args.svm_system, parameter, {
        f"{value:g}" if isinstance(value, float) else str(value).lower():
            {"params": with_svm_param(args.svm_system, parameter, value)}
        for value in values})


def with_svm_param(name: str, parameter: str, value) -> dict:
    """System ``name``'s task parameters with its svm's (combo: its svm member's) ``parameter``
    set to ``value``."""
    registered = TASK.system_params(name)
    if name == "svm":
        return {**registered, parameter: value}
    members = registered.get("member_params", {})
    return {**registered, "member_params": {
        **members, "svm": {**members.get("svm", {}), parameter: value}}}


# The scale each real-valued group's blocks are made with today (emb: the task's rule).
GROUP_SCALES = {"emb": TASK.embedding.scale, "gloss": gloss.SCALE}


def rescaled(featurized: FeaturizedCorpus, group: str, factor: float) -> FeaturizedCorpus:
    """``featurized`` with the values of ``group``'s blocks times ``factor``: what featurizing
    with the group's scale times ``factor`` gives, without analysing the corpus again. Its
    featurizer rescales the same way, so a model trained on it tags with those values too."""
    features = {identifier: {**groups, group: [Weighted(block.names, block.values * factor)
                                               for block in groups[group]]}
                for identifier, groups in featurized.features.items()}
    return FeaturizedCorpus(featurized.sample, features,
                            featurized.featurizer.rescaled(group, factor))


def tune_scale(args) -> dict:
    """svm's held-out SemCor accuracy (over ``--folds`` sets of files), then its development
    F1, for each scale of the ``emb`` or ``gloss`` group; the corpus is analysed once and the
    group's values rescaled. Partial results are written as they come."""
    group, _, values = args.tune_scale.partition("=")
    if group not in GROUP_SCALES or not values:
        raise SystemExit(f"--tune-scale wants GROUP=V1,V2,... with a group among "
                         f"{', '.join(GROUP_SCALES)}: not {args.tune_scale!r}")
    scales = [float(value) for value in values.split(",")]
    development = resolve_datasets([DEVELOPMENT_SET], args.data_dir)
    data = allwords.prepare_training(registry.locate(TASK.dataset, args.data_dir),
                                     featurizer=TASK.featurizer(["svm"], args.data_dir),
                                     jobs=args.jobs)
    results = {f"{scale:g}": {"scale": scale} for scale in scales}
    result = {**tuning_result(f"{group}_scale", results), "folds": args.folds,
              "registered_scale": GROUP_SCALES[group],
              "other_parameters": TASK.system_params("svm"),
              "wordnet_examples": len(data.examples.sample)}
    out = RESULTS / f"semcor_{group}_scale.json"

    def scaled(scale: float) -> allwords.TrainingData:
        factor = scale / GROUP_SCALES[group]
        return dataclasses.replace(data, featurized=rescaled(data.featurized, group, factor),
                                   examples=rescaled(data.examples, group, factor))

    for stage in ("held_out_semcor_accuracy", "development_f1"):
        for scale in scales:
            started = time.perf_counter()
            if stage == "development_f1":
                results[f"{scale:g}"][stage] = development_f1(scaled(scale), "svm", development,
                                                              args.jobs)
            else:
                results[f"{scale:g}"].update(held_out_scores(scaled(scale), "svm", args.folds,
                                                             args.jobs))
            results[f"{scale:g}"][f"{stage}_seconds"] = time.perf_counter() - started
            print(f"{group} scale {scale:g}: {results[f'{scale:g}']}", file=sys.stderr, flush=True)
            out.write_text(json.dumps(result, indent=2) + "\n")
    return result


def tune_examples(args) -> dict:
    """A system's held-out SemCor accuracy and development F1 without and with WordNet's
    examples."""
    return compare_settings(args, args.tune_examples, "wordnet_examples", {
        str(value).lower(): {"wordnet_examples": value} for value in (False, True)})


def tune_definitions(args) -> dict:
    """A system's held-out SemCor accuracy and development F1 without and with WordNet's
    definitions (its use of the examples as registered)."""
    return compare_settings(args, args.tune_definitions, "wordnet_definitions", {
        str(value).lower(): {"wordnet_definitions": value} for value in (True, False)})


def tune_relatives(args) -> dict:
    """A system's held-out SemCor accuracy and development F1 per training weight of SemCor's
    instances of sense relatives (0: none) and least number of a lexelt's own instances
    (``WEIGHT[:LEAST]``), capped as the task's rule says."""
    settings = {}
    for setting in args.tune_relatives.split(","):
        weight, _, least = setting.partition(":")
        label = setting if args.relatives_cap == TASK.relatives.cap else (
            f"{setting} cap {args.relatives_cap}")
        settings[label] = {"relatives_weight": float(weight), "relatives_least": int(least or 0)}
    result = compare_settings(args, args.relatives_system, "relatives", settings)
    for row in result["by_relatives"].values():
        row["relatives_cap"] = args.relatives_cap
    earlier = RESULTS / "semcor_relatives.json"  # settings measured by earlier runs stay
    if earlier.is_file():
        result["by_relatives"] = {**json.loads(earlier.read_text())["by_relatives"],
                                  **result["by_relatives"]}
    return {**result, "registered_relatives_cap": TASK.relatives.cap}


def compare_settings(args, name: str, setting: str, settings: dict[str, dict]) -> dict:
    """Held-out accuracy (over ``--folds`` sets of files) and development F1 of system ``name``
    trained with each of ``settings`` (``train_system`` arguments, by label)."""
    results, data = compare_systems(args, setting, {
        label: (name, overrides) for label, overrides in settings.items()})
    return {**tuning_result(setting, results, name), "folds": args.folds,
            "other_parameters": {**TASK.system_params(name),
                                 "wordnet_examples": name in TASK.wordnet_examples},
            "wordnet_examples": len(data.examples.sample),
            **({"wordnet_definitions": len(data.definitions.sample)} if data.definitions else {}),
            **({"sense_relatives": len(data.relatives.sample)} if data.relatives else {})}


def compare_systems(args, setting: str, settings: dict[str, tuple[str, dict]]):
    """Held-out accuracy (over ``--folds`` sets of files), development F1 and training seconds
    of each ``(system, train_system arguments)`` of ``settings``, by label; and the data."""
    development = resolve_datasets([DEVELOPMENT_SET], args.data_dir)
    data = allwords.prepare_training(registry.locate(TASK.dataset, args.data_dir),
                                     featurizer=TASK.featurizer(
                                         [name for name, _ in settings.values()], args.data_dir),
                                     with_definitions=any("wordnet_definitions" in overrides
                                                          for _, overrides in settings.values()),
                                     relatives_cap=args.relatives_cap if any(
                                         overrides.get("relatives_weight")
                                         or name in TASK.sense_relatives
                                         for name, overrides in settings.values()) else 0,
                                     jobs=args.jobs)
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


def tune_discourse(args) -> dict:
    """``--discourse-system``'s held-out SemCor accuracy (over ``--folds`` sets of files) and
    development F1 per discourse weight, overall and per part of speech: the system is trained
    once per training set and its distributions pulled together within each document at every
    weight. The pull never crosses parts of speech (a lexelt has one), so the best weight of
    each part of speech is chosen from the same run, and scored as a rule of its own."""
    name = args.discourse_system
    weights = [f"{float(value):g}" for value in args.tune_discourse.split(",")]
    data = allwords.prepare_training(registry.locate(TASK.dataset, args.data_dir),
                                     featurizer=TASK.featurizer([name], args.data_dir),
                                     jobs=args.jobs)

    def right_counts(trained, corpus: AllWordsCorpus,
                     gold: dict[str, tuple[str, ...]]) -> dict[str, Counter]:
        """Per weight, the right answers per part of speech; under ``""``, the targets."""
        tagger = allwords.AllWordsTagger(trained, systems.get(name).back_off)
        distributions = tagger.distributions(corpus, args.jobs)
        counts = {"": Counter(target.pos for target in corpus.targets)}
        for weight in weights:
            tagger.discourse_weight = float(weight)
            answers = tagger.answers(corpus, distributions)
            counts[weight] = Counter(target.pos for answer, target in zip(answers, corpus.targets)
                                     if answer.key in gold[answer.instance_id])
        print(f"discourse {name}: " + ", ".join(
            f"{weight} {share(counts[weight], counts[''])}" for weight in weights), file=sys.stderr)
        return counts

    by_fold = []
    for fold in range(args.folds):
        subset, testing = held_out_split(data, fold)
        by_fold.append(right_counts(
            allwords.train_system(name, subset, args.jobs),
            AllWordsCorpus(data.corpus.source, data.corpus.sentences, testing),
            {target.id: target.keys for target in testing}))
    development = resolve_datasets([DEVELOPMENT_SET], args.data_dir)[0]
    development_counts = right_counts(allwords.train_system(name, data, args.jobs),
                                      read_raganato_corpus(development.data),
                                      read_raganato_key(development.gold))
    results = discourse_results(by_fold, development_counts, weights)
    return {**tuning_result("discourse_weight", results, name), "folds": args.folds,
            "held_out_targets_by_pos": sum((fold[""] for fold in by_fold), Counter())}


def share(right: Counter, targets: Counter) -> float:
    return sum(right.values()) / sum(targets.values())


def discourse_results(by_fold: list[dict[str, Counter]], development: dict[str, Counter],
                      weights: list[str]) -> dict[str, dict]:
    """From right answers per part of speech per weight (``--tune-discourse``'s counts, the
    targets under ``""``) on each set of held-out files and on the development set: each
    weight's accuracies, and those of the rule that gives each part of speech the weight best
    for it on the held-out files."""
    parts = sorted(set().union(*(fold[""] for fold in by_fold)))

    def scores(right: Callable[[dict[str, Counter]], Counter]) -> dict:
        """Held-out and development accuracy of the answers whose right ones ``right`` picks
        out of a set of files' counts."""
        by_fold_shares = [share(right(fold), fold[""]) for fold in by_fold]
        return {"held_out_semcor_accuracy": sum(by_fold_shares) / len(by_fold_shares),
                "held_out_semcor_accuracy_by_fold": by_fold_shares,
                "development_f1": share(right(development), development[""])}

    results = {weight: {**scores(lambda counts, weight=weight: counts[weight]),
                        "held_out_semcor_accuracy_by_pos": {
                            pos: sum(fold[weight][pos] for fold in by_fold)
                            / sum(fold[""][pos] for fold in by_fold) for pos in parts}}
               for weight in weights}
    chosen = {pos: max(weights, key=lambda weight: results[weight]
                       ["held_out_semcor_accuracy_by_pos"][pos]) for pos in parts}
    results["best weight per part of speech"] = {
        "weights": {pos: float(weight) for pos, weight in chosen.items()},
        **scores(lambda counts: Counter({pos: counts[weight][pos]
                                         for pos, weight in chosen.items()}))}
    return results


def tune_combo(args) -> dict:
    """svm beside combo (its registered parameters, and answering unseen senses too): held-out
    SemCor accuracy and development F1."""
    combo = TASK.system_params("combo")
    results, data = compare_systems(args, "system", {
        "svm": ("svm", {}), "combo": ("combo", {}),
        "combo unseen senses": ("combo", {"params": {**combo, "unseen_senses": True}})})
    return {**tuning_result("system", results, "combo"), "folds": args.folds,
            "parameters": {name: TASK.system_params(name) for name in ("svm", "combo")},
            "wordnet_examples": len(data.examples.sample)}


def lexelts_with_unseen_candidates(data: allwords.TrainingData) -> set[str]:
    """The lexelts some of whose candidates (their gloss blocks' senses) no training instance,
    SemCor's or WordNet's examples', shows: where combo's ``unseen_senses`` changes anything
    (not a lexelt they show with one sense: it is fitted without features)."""
    featurized = data.featurized_with(data.examples)
    unseen = set()
    for lexelt in featurized.sample.lexelts:
        seen = {sense for instance in lexelt.instances for sense in instance.answers}
        shown = {name[len(gloss.PREFIX):] for instance in lexelt.instances
                 for block in featurized.features[instance.id]["gloss"] for name in block.names}
        if len(seen) > 1 and shown - seen:
            unseen.add(lexelt.item)
    return unseen


def restricted(data: allwords.TrainingData, lexelts: set[str]) -> allwords.TrainingData:
    """The training data of ``lexelts`` only (their WordNet examples follow them)."""
    sample = data.featurized.sample
    return dataclasses.replace(data, featurized=FeaturizedCorpus(
        LexicalSample([lexelt for lexelt in sample.lexelts if lexelt.item in lexelts],
                      sample.source), data.featurized.features, data.featurized.featurizer))


def tune_combo_unseen(args) -> dict:
    """combo against combo answering unseen senses from their gloss evidence, trained and
    scored only on the lexelts where the two differ (every other lexelt's model is the same):
    their right answers on the held-out SemCor files (first set) and on the development set,
    and the difference as a share of all the targets."""
    development = resolve_datasets([DEVELOPMENT_SET], args.data_dir)[0]
    data = allwords.prepare_training(registry.locate(TASK.dataset, args.data_dir),
                                     featurizer=TASK.featurizer(["combo"], args.data_dir),
                                     jobs=args.jobs)
    combo = TASK.system_params("combo")
    settings = {"combo": combo, "combo unseen senses": {**combo, "unseen_senses": True}}
    subset, testing = held_out_split(data, 0)
    development_corpus = read_raganato_corpus(development.data)
    gold = read_raganato_key(development.gold)
    stages = {}
    for stage, training, corpus, right in (
            ("held_out_semcor", subset, AllWordsCorpus(data.corpus.source, data.corpus.sentences,
                                                       testing),
             lambda answer, target: answer.key in target.keys),
            ("development", data, development_corpus,
             lambda answer, target: answer.key in gold[target.id])):
        lexelts = lexelts_with_unseen_candidates(training)
        scored = [target for target in corpus.targets if target.lexelt in lexelts]
        figures = stages[stage] = {"lexelts": len(lexelts), "targets": len(corpus.targets),
                                   "targets_in_those_lexelts": len(scored), "right": {}}
        for label, params in settings.items():
            trained = allwords.train_system("combo", restricted(training, lexelts), args.jobs,
                                            params=params)
            tagged = allwords.AllWordsTagger(trained, systems.get("combo").back_off).tag(
                AllWordsCorpus(corpus.source, corpus.sentences, scored), args.jobs)
            figures["right"][label] = sum(map(right, tagged, scored))
            print(f"{stage} {label}: {figures}", file=sys.stderr, flush=True)
        figures["difference"] = (figures["right"]["combo unseen senses"]
                                 - figures["right"]["combo"]) / len(corpus.targets)
    return {**tuning_result("unseen_senses", stages, "combo"), "folds": 1,
            "parameters": settings["combo"], "wordnet_examples": len(data.examples.sample)}


# Which lexelts learn from WordNet's examples, given each lexelt's training weight per sense.
EXAMPLE_LEXELT_RULES = {"tagged with two senses": allwords.tagged_with_several,
                        "polysemous": allwords.polysemous}


def with_examples_of(data: allwords.TrainingData, lexelts: set[str]) -> allwords.TrainingData:
    """``data`` with WordNet's examples of ``lexelts`` only."""
    examples = data.examples
    return dataclasses.replace(data, examples=FeaturizedCorpus(
        LexicalSample([lexelt for lexelt in examples.sample.lexelts if lexelt.item in lexelts],
                      examples.sample.source), examples.features, examples.featurizer))


def tune_example_lexelts(args) -> dict:
    """Which lexelts learn from WordNet's examples: those the training files tag with two senses
    or more (the rule before) or every polysemous one (``allwords.polysemous``: also those
    tagged with one sense, which then learn WordNet's others). Per stage (each of ``--folds``
    sets of held-out SemCor files, each rule applied to the other files; the development set,
    the rules applied to all of SemCor), the right answers of each rule on every target and on
    the targets where the rules differ, and the targets only one rule gets right."""
    name = args.tune_example_lexelts
    development = resolve_datasets([DEVELOPMENT_SET], args.data_dir)[0]
    data = allwords.prepare_training(registry.locate(TASK.dataset, args.data_dir),
                                     featurizer=TASK.featurizer([name], args.data_dir),
                                     jobs=args.jobs)
    rules = EXAMPLE_LEXELT_RULES

    def stages_to_score():
        """``(stage, training data, corpus scored, gold keys by target id)``, one at a time."""
        for fold in range(args.folds):
            subset, testing = held_out_split(data, fold)
            yield (f"held_out_semcor_{fold}", subset,
                   AllWordsCorpus(data.corpus.source, data.corpus.sentences, testing),
                   {target.id: target.keys for target in testing})
        yield ("development", data, read_raganato_corpus(development.data),
               read_raganato_key(development.gold))

    stages = {}
    for stage, training, corpus, keys in stages_to_score():
        testing = corpus.targets
        counts = sense_counts(training.featurized.sample)
        chosen = {label: rule(counts) for label, rule in rules.items()}
        differing = {target.id for target in testing
                     if target.lexelt in chosen["polysemous"] - chosen["tagged with two senses"]}
        figures = stages[stage] = {"targets": len(testing), "targets_where_rules_differ":
                                   len(differing), "right": {}, "right_where_rules_differ": {}}
        right = {}
        for label, lexelts in chosen.items():
            trained = allwords.train_system(name, with_examples_of(training, lexelts), args.jobs)
            tagged = allwords.AllWordsTagger(trained, systems.get(name).back_off,
                                             TASK.discourse_weights.get(name, 0.0)).tag(
                corpus, args.jobs)
            right[label] = {answer.instance_id for answer in tagged
                            if answer.key in keys[answer.instance_id]}
            figures["right"][label] = len(right[label])
            figures["right_where_rules_differ"][label] = len(right[label] & differing)
            print(f"{stage} {label}: {figures}", file=sys.stderr, flush=True)
        figures["only_right"] = {label: len(right[label] - right[other]) for label, other in
                                 zip(rules, reversed(rules))}
    held_out = [figures for stage, figures in stages.items() if stage != "development"]
    return {**tuning_result("example_lexelts", stages, name), "folds": args.folds,
            "held_out_semcor_accuracy": {
                label: sum(stage["right"][label] for stage in held_out)
                / sum(stage["targets"] for stage in held_out) for label in rules},
            "parameters": TASK.system_params(name)}


def sense_counts(sample: LexicalSample) -> dict[str, Counter]:
    """Each lexelt's training weight per sense (an instance with n tags gives each 1/n)."""
    counts: dict[str, Counter] = {}
    for lexelt in sample.lexelts:
        counter = counts[lexelt.item] = Counter()
        for instance in lexelt.instances:
            tags = set(instance.answers)
            for tag in tags:
                counter[tag] += 1 / len(tags)
    return counts


def tune_prior(args) -> dict:
    """Where svm answers its training sense distribution (a lexelt with less training weight
    than its ``min_instances``, WordNet's examples counted), that distribution as trained
    (SemCor's tags and the examples) against SemCor's tags alone: right answers on the targets
    of those lexelts in the held-out SemCor files (first set) and the development set. Counting
    only, the answer chosen as ``engine.decide`` does; no svm is trained."""
    development = resolve_datasets([DEVELOPMENT_SET], args.data_dir)[0]
    data = allwords.prepare_training(registry.locate(TASK.dataset, args.data_dir),
                                     with_features=False, jobs=args.jobs)
    examples_corpus = read_wordnet_examples(
        {item for item, senses in sense_counts(data.featurized.sample).items() if len(senses) >= 2})
    examples = sense_counts(allwords.as_lexical_sample(examples_corpus, examples_corpus.targets))
    minimum = TASK.system_params("svm")["min_instances"]
    back_off = systems.get("svm").back_off
    subset, testing = held_out_split(data, 0)
    gold = read_raganato_key(development.gold)
    development_targets = read_raganato_corpus(development.data).targets
    stages = {}
    for stage, training, targets, right in (
            ("held_out_semcor", subset, testing, lambda key, target: key in target.keys),
            ("development", data, development_targets,
             lambda key, target: key in gold[target.id])):
        semcor_counts = sense_counts(training.featurized.sample)
        trained_counts = {item: counts + examples.get(item, Counter())
                          for item, counts in semcor_counts.items()}
        answered = [target for target in targets if target.lexelt in trained_counts
                    and sum(trained_counts[target.lexelt].values()) < minimum]
        figures = stages[stage] = {"targets": len(targets), "answered_by_counts": len(answered),
                                   "right": {}}
        for label, counts in (("semcor and wordnet examples", trained_counts),
                              ("semcor only", semcor_counts)):
            figures["right"][label] = sum(right(engine.decide(
                wordnet_senses(target.lemma, target.pos), dict(counts[target.lexelt]),
                back_off)[0][0][0], target) for target in answered)
        figures["difference"] = (figures["right"]["semcor only"] - figures["right"][
            "semcor and wordnet examples"]) / len(targets)
        print(f"{stage}: {figures}", file=sys.stderr, flush=True)
    return {**tuning_result("prior", stages), "min_instances": minimum}


# Rows of held-out evidence the pooled mixture is fitted on: a seeded sample, since the pooled
# arrays are padded to the widest lexelt's senses.
POOLED_ROWS = 50_000


def _stack_lexelt(job: tuple):
    """A combo of ``params`` with its members fitted on one lexelt's ``X, y, weights``, and their
    held-out evidence."""
    params, X, y, weights = job
    model = systems.make("combo", **params)
    return model, model.fit_members(X, y, weights)


def stacked_combo(data: allwords.TrainingData, jobs: int) -> dict[str, tuple]:
    """Per lexelt, combo (the task's parameters) with its members fitted and their held-out
    evidence, as ``train_system`` would train it before fitting the combiner."""
    params = TASK.system_params("combo")
    featurized = (data.featurized_with(data.examples) if "combo" in TASK.wordnet_examples
                  else data.featurized)
    rows = engine.lexelt_rows(featurized, systems.get("combo").feature_groups)
    stacked = in_workers(_stack_lexelt, [(params, X, y, weights) for _, X, y, weights in rows],
                         jobs)
    return {item: pair for (item, *_), pair in zip(rows, stacked)}


def pooled_defaults(stacked: dict[str, tuple], pool: str) -> tuple[float, ...]:
    """The parameters of form ``pool`` minimising the log-loss pooled over a seeded sample of
    ``POOLED_ROWS`` rows of every lexelt's held-out evidence."""
    evidences = [evidence for _, evidence in stacked.values() if len(evidence[2])]
    share = min(1.0, POOLED_ROWS / sum(len(evidence[2]) for evidence in evidences))
    generator = np.random.default_rng(0)
    sampled = []
    for evidence in evidences:
        keep = generator.random(len(evidence[2])) < share
        if keep.any():
            sampled.append(tuple(part[keep] for part in evidence))
    return tuple(float(value) for value in pooled_params(sampled, pool))


def _combiner(job: tuple) -> list[float]:
    """The mixture a combo (without its members) fits from its evidence, defaults and
    shrinkage (``inf``: the defaults as they are)."""
    model, evidence, pool, default, shrinkage = job
    model.set_params(pool=pool, default_params=default, shrinkage=shrinkage)
    if np.isinf(shrinkage):
        evidence, shrinkage = tuple(part[:0] for part in evidence), 0.0
    return model.fit_combiner(*evidence, shrinkage=shrinkage).mixture_


def combined(stacked: dict[str, tuple], pool: str, default: tuple, shrinkage: float,
             featurizer, jobs: int) -> TrainedSystem:
    """The trained combo of the stacked lexelts with each combiner fitted as given."""
    light = {}
    for item, (model, _) in stacked.items():
        light[item] = copy.copy(model)
        del light[item].models_
    mixtures = in_workers(_combiner, [(light[item], evidence, pool, default, shrinkage)
                                      for item, (_, evidence) in stacked.items()], jobs)
    models = {}
    for (item, (model, _)), mixture in zip(stacked.items(), mixtures):
        model.set_params(pool=pool, default_params=default, shrinkage=shrinkage)
        model.mixture_ = mixture
        models[item] = model
    return TrainedSystem(TASK.name, "combo", models, featurizer=featurizer, kind=TASK.kind)


def tune_combo_mixture(args) -> dict:
    """combo's mixture on SemCor: its registered defaults against defaults pooled over SemCor's
    held-out evidence, and each other pool of ``--combo-pools`` from its own pooled defaults,
    each with per-lexelt fits shrunk to them by each of the shrinkages (inf: the defaults
    alone). Held-out SemCor accuracy (the defaults pooled on the training files only) and
    development F1 (pooled on all of SemCor, the parameters registered when chosen)."""
    development = resolve_datasets([DEVELOPMENT_SET], args.data_dir)
    shrinkages = [float(value) for value in args.tune_combo_mixture.split(",")]
    data = allwords.prepare_training(registry.locate(TASK.dataset, args.data_dir),
                                     featurizer=TASK.featurizer(["combo"], args.data_dir),
                                     jobs=args.jobs)
    registered = tuple(TASK.system_params("combo")["default_params"])
    registered_pool = TASK.system_params("combo")["pool"]
    pools = dict.fromkeys([registered_pool, *filter(None, args.combo_pools.split(","))])
    unknown = [pool for pool in pools if pool not in POOLS]
    if unknown:
        raise SystemExit(f"--combo-pools: unknown pool {', '.join(unknown)}; known: "
                         f"{', '.join(POOLS)}")
    results, pooled = {}, {}

    def evaluate(stage: str, stacked: dict, score) -> None:
        pooled[stage] = {pool: pooled_defaults(stacked, pool) for pool in pools}
        print(f"{stage}: pooled defaults {pooled[stage]}", file=sys.stderr, flush=True)
        candidates = [(registered_pool, "registered", registered),
                      *((pool, TASK.name, pooled[stage][pool]) for pool in pools)]
        for pool, defaults, default in candidates:
            for shrinkage in shrinkages:
                label = (f"{defaults} defaults, shrinkage {shrinkage:g}" if pool == registered_pool
                         else f"{pool} pool, {defaults} defaults, shrinkage {shrinkage:g}")
                trained = combined(stacked, pool, default, shrinkage,
                                   data.featurized.featurizer, args.jobs)
                results.setdefault(label, {"pool": pool, "defaults": defaults, "shrinkage": (
                    shrinkage if np.isfinite(shrinkage) else "inf")})
                results[label][stage] = score(trained)
                print(f"{label}: {results[label]}", file=sys.stderr, flush=True)

    subset, testing = held_out_split(data, 0)
    evaluate("held_out_semcor_accuracy", stacked_combo(subset, args.jobs),
             lambda trained: accuracy(trained, data.corpus, testing, args.jobs))
    del subset
    evaluate("development_f1", stacked_combo(data, args.jobs),
             lambda trained: score_dataset(allwords.AllWordsTagger(
                 trained, systems.get("combo").back_off), development[0], args.jobs)["f1"])
    return {**tuning_result("mixture", results, "combo"), "folds": 1,
            "pooled_rows": POOLED_ROWS,
            "pooled_defaults": {stage: {pool: dict(zip(POOLS[pool].parameters, values))
                                        for pool, values in by_pool.items()}
                                for stage, by_pool in pooled.items()},
            "registered_defaults": dict(zip(POOLS[registered_pool].parameters, registered)),
            "parameters": TASK.system_params("combo"),
            "wordnet_examples": len(data.examples.sample)}


def parse_parameter_values(text: str) -> tuple[str, list]:
    """``C=1,3,10`` -> ``("C", [1.0, 3.0, 10.0])``, each value of the parameter's own type."""
    parameter, _, values = text.partition("=")
    defaults = systems.make("svm").get_params()
    if parameter not in defaults or not values:
        raise SystemExit(f"--tune-svm wants PARAMETER=V1,V2,... with a parameter among "
                         f"{', '.join(defaults)}: not {text!r}")
    kind = type(defaults[parameter])
    if kind is bool:
        truth = {"true": True, "false": False}
        if not set(values.lower().split(",")) <= set(truth):
            raise SystemExit(f"--tune-svm {parameter} takes true or false: not {values!r}")
        return parameter, [truth[value] for value in values.lower().split(",")]
    return parameter, [kind(value) for value in values.split(",") if value]


MFS_BACK_OFFS = {
    "wordnet first sense": first_sense,
    "wordnet database order": database_first_sense,
    "alphabetical sense key": lambda candidates: {min(candidates): 1.0},
}


def mfs_back_offs(args) -> dict:
    """mfs's F1 on every dataset with each back-off, beside the published MFS."""
    datasets = resolve_datasets(args.datasets.split(","), args.data_dir)
    data = allwords.prepare_training(registry.locate(TASK.dataset, args.data_dir),
                                     with_features=False, jobs=args.jobs)
    trained = allwords.train_system("mfs", data, args.jobs)
    corpora = {dataset.name: (read_raganato_corpus(dataset.data), read_raganato_key(dataset.gold))
               for dataset in datasets}
    results = {}
    for label, back_off in MFS_BACK_OFFS.items():
        tagger = allwords.AllWordsTagger(trained, back_off)
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


def summary(result: dict) -> str:
    training = result["training"]
    lines = [f"training: {training['seconds']:.0f}s (SemCor read and preprocessed in "
             f"{training['prepare_seconds']:.0f}s; " + ", ".join(
                 f"{name} {figures['train_seconds']:.0f}s, {figures['model_bytes'] / 1e6:.0f} MB"
                 for name, figures in training["systems"].items()) + ")",
             "peak memory (MB): " + ", ".join(f"{who} {mb:,.0f}" for who, mb in
                                              result["peak_memory_mb"].items())]
    for name, figures in result["tagging"].items():
        lines.append(f"{name}: " + ", ".join(
            f"{dataset} F1 {100 * scores['f1']:.1f} ({scores['targets_per_second']:,.0f}/s)"
            for dataset, scores in figures["datasets"].items()))
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--systems", default=",".join(TASK.systems))
    parser.add_argument("--datasets", default="senseval2,senseval3,semeval2007")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--data-dir", type=Path)
    parser.add_argument("--warm-cache", action="store_true",
                        help="use the usual preprocessing cache (default: start empty)")
    parser.add_argument("--tune-context", metavar="SIZES",
                        help="instead: svm's development F1 per context size, e.g. 0,1,2")
    parser.add_argument("--tune-svm", metavar="PARAMETER=VALUES",
                        help="instead: svm's held-out and development scores per value of one "
                             "parameter, e.g. C=1,3,10")
    parser.add_argument("--svm-system", default="svm", choices=("svm", "combo"),
                        help="with --tune-svm: the system whose svm is tuned (combo: its svm "
                             "member)")
    parser.add_argument("--tune-examples", nargs="?", const="svm", choices=("svm", "dlist"),
                        metavar="SYSTEM",
                        help="instead: the held-out and development scores of SYSTEM (default "
                             "svm) without and with WordNet's examples in training")
    parser.add_argument("--tune-example-lexelts", nargs="?", const="svm",
                        choices=("svm", "combo"), metavar="SYSTEM",
                        help="instead: the held-out and development scores of SYSTEM (default "
                             "svm) with WordNet's examples for the lexelts training tags with "
                             "two senses or more and for every polysemous lexelt")
    parser.add_argument("--tune-definitions", nargs="?", const="svm", choices=("svm", "dlist"),
                        metavar="SYSTEM",
                        help="instead: the held-out and development scores of SYSTEM (default "
                             "svm) without and with WordNet's definitions in training")
    parser.add_argument("--tune-relatives", metavar="WEIGHT[:LEAST],...",
                        help="instead: the held-out and development scores of --relatives-system "
                             "per training weight of SemCor's instances of sense relatives and "
                             "least number of a lexelt's own instances to get them, "
                             "e.g. 0,0.25,0.25:10")
    parser.add_argument("--relatives-system", default="svm", choices=("svm", "combo"))
    parser.add_argument("--relatives-cap", type=int, default=TASK.relatives.cap,
                        help="with --tune-relatives: at most this many per lexelt and sense, "
                             "less its own instances (1: one for each sense it has none of)")
    parser.add_argument("--tune-emb", metavar="STRATEGY:WINDOW:SCALE:SENTENCES[:GLOSS],...",
                        help="instead: svm's held-out and development scores per embedding "
                             "rule and context size (and scale of the gloss embeddings' "
                             "cosines), e.g. exponential:10:1:0 or exponential:10:1:0:1")
    parser.add_argument("--vectors", default="", metavar="NAME=VALUE,...",
                        help="with --tune-emb: word2vec settings changed from the task's, "
                             "e.g. epochs=20 or sg=1")
    parser.add_argument("--tune-scale", metavar="GROUP=SCALES",
                        help="instead: svm's held-out and development scores per scale of the "
                             "emb or gloss group, e.g. gloss=1,2,4")
    parser.add_argument("--tune-combo", action="store_true",
                        help="instead: svm beside combo (and combo answering unseen senses), "
                             "held-out and development scores")
    parser.add_argument("--tune-prior", action="store_true",
                        help="instead: where svm answers its training distribution, that "
                             "distribution with and without WordNet's examples counted")
    parser.add_argument("--tune-combo-unseen", action="store_true",
                        help="instead: combo without and with answering unseen senses, trained "
                             "and scored on the lexelts where they differ")
    parser.add_argument("--tune-combo-mixture", metavar="SHRINKAGES",
                        help="instead: combo's registered mixture defaults against defaults "
                             "pooled over SemCor, per shrinkage, e.g. 1,10,inf")
    parser.add_argument("--combo-pools", default="",
                        help="with --tune-combo-mixture: the other pools to fit from their own "
                             "pooled defaults, e.g. geometric")
    parser.add_argument("--tune-discourse", metavar="WEIGHTS",
                        help="instead: --discourse-system's held-out and development scores per "
                             "weight of one sense per discourse, e.g. 0,0.1,0.2")
    parser.add_argument("--discourse-system", default="svm", choices=("svm", "dlist", "combo"))
    parser.add_argument("--folds", type=int, default=1, choices=range(1, HELD_OUT_EVERY + 1),
                        metavar=f"1..{HELD_OUT_EVERY}",
                        help="with --tune-svm, --tune-examples, --tune-example-lexelts, "
                             "--tune-definitions, --tune-relatives or --tune-discourse: average "
                             "held-out accuracy over this many disjoint sets of held-out "
                             "files (default 1)")
    parser.add_argument("--out", type=Path,
                        help="the benchmark's results file (default bench/results/semcor.json)")
    parser.add_argument("--unseen-senses", action="store_true",
                        help="instead: senses unseen in training simulated on held-out SemCor "
                             "files; svm and the sense ranker on the removed senses, rare "
                             "senses and all (bench/semcor_unseen.py)")
    parser.add_argument("--unseen-share", type=float, default=UNSEEN_SHARE,
                        help="with --unseen-senses: the share of senses removed from training")
    parser.add_argument("--unseen-seed", type=int, default=UNSEEN_SEED)
    parser.add_argument("--mfs-back-offs", action="store_true",
                        help="instead: mfs's F1 per back-off for lemmas SemCor never tagged")
    args = parser.parse_args()
    RESULTS.mkdir(parents=True, exist_ok=True)
    studies = [(args.tune_context, tune_context, "semcor_context.json"),
               (args.tune_svm, tune_svm,
                f"semcor_{'' if args.svm_system == 'svm' else 'combo_'}svm_"
                f"{args.tune_svm.partition('=')[0]}.json" if args.tune_svm else None),
               (args.tune_examples, tune_examples,
                f"semcor_{args.tune_examples}_examples.json"),
               (args.tune_example_lexelts, tune_example_lexelts,
                f"semcor_{args.tune_example_lexelts}_example_lexelts.json"),
               (args.tune_definitions, tune_definitions,
                f"semcor_{args.tune_definitions}_definitions.json"),
               (args.tune_relatives, tune_relatives, "semcor_relatives.json"),
               (args.tune_scale, tune_scale,
                f"semcor_{args.tune_scale.partition('=')[0]}_scale.json"
                if args.tune_scale else None),
               (args.tune_combo, tune_combo, "semcor_combo.json"),
               (args.tune_discourse, tune_discourse,
                f"semcor_{args.discourse_system}_discourse.json"),
               (args.tune_combo_unseen, tune_combo_unseen, "semcor_combo_unseen.json"),
               (args.tune_prior, tune_prior, "semcor_svm_prior.json"),
               (args.tune_combo_mixture, tune_combo_mixture, "semcor_combo_mixture.json"),
               (args.mfs_back_offs, mfs_back_offs, "semcor_mfs.json"),
               (args.unseen_senses, lambda args: unseen_senses(args, held_out_split),
                "semcor_unseen_senses.json" if args.unseen_share == UNSEEN_SHARE
                and args.unseen_seed == UNSEEN_SEED
                else f"semcor_unseen_senses_{args.unseen_share:g}_{args.unseen_seed}.json"),
               (args.tune_emb, tune_embeddings, "semcor_emb.json")]
    chosen = next(((study, name) for wanted, study, name in studies if wanted), None)
    if chosen:
        result, target = chosen[0](args), RESULTS / chosen[1]
        print(json.dumps(result, indent=2))
    else:
        result, target = benchmark(args), args.out or RESULTS / "semcor.json"
        print(summary(result))
    partial = target.with_name(target.name + ".partial")
    partial.write_text(json.dumps(result, indent=2) + "\n")
    partial.replace(target)
    print(f"written to {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
