"""The ``bin/train`` job for a lexical sample: read, preprocess, train, save, tag, write, score."""
from __future__ import annotations

import json
import random
from collections import defaultdict
from dataclasses import dataclass, replace
from pathlib import Path

from wsd_classic import modelstore, systems
from wsd_classic.answers.senseval import write_answers
from wsd_classic.corpora import registry
from wsd_classic.corpora.ids import ID_MAP_NAME, write_id_map
from wsd_classic.corpora.keys import KeyEntry, read_key, write_atomically, write_key
from wsd_classic.corpora.lexsample import check_annotated, check_split, read_lexical_sample
from wsd_classic.corpora.model import Lexelt, LexicalSample
from wsd_classic.errors import WsdError
from wsd_classic.report import table
from wsd_classic.scoring.lexsample import lexsample_scores
from wsd_classic.tasks import lexical_sample, staging
from wsd_classic.tasks.timing import StageTimer


@dataclass
class TaskRun:
    """What one ``bin/train`` invocation trains on and where its results go."""

    name: str
    train_path: Path
    test_path: Path | None = None
    key_path: Path | None = None
    sensemap_path: Path | None = None
    split: tuple[int, int] | None = None
    seed: int = 0
    published: bool = False
    train_key_path: Path | None = None  # the training file's answers, when not in its XML


def registered_task(name: str, data_dir=None) -> TaskRun:
    if name != "senseval2-ls":
        raise WsdError(f"unknown lexical-sample task {name!r}; known: senseval2-ls")
    directory = registry.locate(name, data_dir)
    return TaskRun(name, directory / "eng-lex-sample.training.xml",
                   directory / "eng-lex-samp.evaluation.xml",
                   directory / "eng-lex-samp.evaluation.key",
                   directory / "eng-lex-sample.training.senses", published=True)


def file_task(train: Path, test: Path, key: Path, sensemap: Path | None,
              train_key: Path | None = None) -> TaskRun:
    return TaskRun(_task_name(train), train, test, key, sensemap, train_key_path=train_key)


def split_task(train: Path, ratio: str, seed: int, sensemap: Path | None,
               train_key: Path | None = None) -> TaskRun:
    try:
        parts = tuple(int(part) for part in ratio.split(":"))
    except ValueError:
        parts = ()
    if len(parts) != 2 or min(parts) < 1:
        raise WsdError(f"--split {ratio!r}: expected TRAIN:TEST parts such as 2:1")
    return TaskRun(_task_name(train), train, sensemap_path=sensemap, split=parts, seed=seed,
                   train_key_path=train_key)


def _task_name(path: Path) -> str:
    return Path(path).name.removesuffix(".xml").replace(".", "-")


def stratified_split(sample: LexicalSample, ratio: tuple[int, int], seed: int):
    """Per lexelt and per (first) sense, every ``a+b``-th share of instances goes to the test side.

    Hand-written because scikit-learn's stratified splitters refuse senses seen once, which every
    lexical sample has; the running offset spreads such singletons over both sides.
    """
    generator = random.Random(seed)
    train_part, test_part = [], []
    period = sum(ratio)
    for lexelt in sample.lexelts:
        by_sense = defaultdict(list)
        for instance in lexelt.instances:
            if instance.answers:
                by_sense[instance.answers[0]].append(instance)
        train_items, test_items, offset = [], [], generator.randrange(period)
        for sense in sorted(by_sense):
            group = by_sense[sense]
            generator.shuffle(group)
            for instance in group:
                (test_items if offset % period >= ratio[0] else train_items).append(instance)
                offset += 1
        order = {instance.id: position for position, instance in enumerate(lexelt.instances)}
        train_part.append(Lexelt(lexelt.item, sorted(train_items, key=lambda i: order[i.id])))
        test_part.append(Lexelt(lexelt.item, sorted(test_items, key=lambda i: order[i.id])))
    return LexicalSample(train_part, sample.source), LexicalSample(test_part, sample.source)


def execute(run: TaskRun, chosen: list[str], models_root: Path, results_root: Path,
            jobs: int) -> str:
    """Run the whole job; returns the printable report (table, notes, timings).

    Inputs are read and checked before anything is written; models and results are then built
    in staging copies, under a lock, and swapped in only once complete.
    """
    timer = StageTimer()
    notes = []
    with timer.stage("read"):
        train_sample = read_lexical_sample(run.train_path, run.train_key_path)
        check_annotated(train_sample)
        id_maps = [train_sample.renamed_ids]
        split_key = None
        if run.split is not None:
            train_sample, test_sample = stratified_split(train_sample, run.split, run.seed)
            check_split(train_sample, test_sample)
            split_key = [KeyEntry(lexelt.item, instance.id, instance.answers)
                         for lexelt in test_sample.lexelts for instance in lexelt.instances]
            test_sample = LexicalSample(
                [Lexelt(lexelt.item, [replace(i, answers=()) for i in lexelt.instances])
                 for lexelt in test_sample.lexelts], test_sample.source)
            notes.append(f"split {run.split[0]}:{run.split[1]} (seed {run.seed}): "
                         f"{len(train_sample)} training, {len(test_sample)} test instances")
        else:
            test_sample = read_lexical_sample(run.test_path)
            id_maps.append(test_sample.renamed_ids)
            read_key(run.key_path)
    if not lexical_sample.uses_wordnet_keys(train_sample):
        skipped = [name for name in chosen if name in systems.NEEDS_WORDNET_KEYS]
        chosen = [name for name in chosen if name not in systems.NEEDS_WORDNET_KEYS]
        if skipped:
            notes.append(f"skipped {', '.join(skipped)}: the sense ids are not WordNet keys")
    with timer.stage("preprocess"):
        train_corpus = lexical_sample.featurize(train_sample, jobs, "spaCy (train)")
        test_corpus = lexical_sample.featurize(test_sample, jobs, "spaCy (test)")
    models_dir, out_dir = Path(models_root) / run.name, Path(results_root) / run.name
    with staging.exclusive(models_root, run.name), staging.exclusive(results_root, run.name), \
            staging.staged_directory(models_dir) as model_stage, \
            staging.staged_directory(out_dir) as out_stage:
        write_id_map(out_stage / ID_MAP_NAME, id_maps)
        if any(id_map.values() for id_map in id_maps):
            notes.append(f"ids the answer files cannot hold were replaced; {out_dir / ID_MAP_NAME} "
                         "maps them back")
        if split_key is not None:
            write_key(out_stage / "test.key", split_key)
            notes.append(f"the split's test key is {out_dir / 'test.key'}")
        key_path = out_stage / "test.key" if split_key is not None else run.key_path
        for name in chosen:
            with timer.stage("train"):
                trained = lexical_sample.train(name, train_corpus, run.name, jobs)
            trained.info = {"training_file": str(run.train_path),
                            "training_sha256": registry.file_sha256(Path(run.train_path)),
                            "split": list(run.split) if run.split else None, "seed": run.seed,
                            "lexelts": len(trained.models)}
            with timer.stage("save"):
                modelstore.save(trained, models_root, task_dir=model_stage)
            with timer.stage("tag"):
                rows = list(lexical_sample.tag(trained, test_corpus))
                write_answers(out_stage / f"{name}.ans", rows)
                write_answers(out_stage / f"{name}.top.ans", rows, top_only=True)
            unknown = sorted({sense for model in trained.models.values()
                              for sense in getattr(model, "unknown_senses_", [])})
            if unknown:
                notes.append(f"{name}: {len(unknown)} candidate senses have no WordNet 3.0 gloss "
                             "(WordNet 1.7-only keys, U, P); only the fallback can choose them")
        with timer.stage("score"):
            scores = _previous_scores(out_stage / "scores.json", keep=set(chosen))
            scores.update({name: lexsample_scores(key_path, out_stage / f"{name}.top.ans",
                                                  run.sensemap_path,
                                                  weighted_answers=out_stage / f"{name}.ans")
                           for name in chosen})
            write_json_atomically(out_stage / "scores.json", scores)
        write_json_atomically(out_stage / "timings.json", {"stages": timer.seconds,
                                                           "systems": chosen, "jobs": jobs})
    lines = [table.lexical_sample_table(scores, run.published), ""]
    lines += [f"note: {note}" for note in notes]
    lines.append(f"answers and scores.json in {out_dir}/, models in {models_dir}/")
    lines.append(timer.summary())
    return "\n".join(lines)


def _previous_scores(path: Path, keep: set[str]) -> dict:
    """Scores of systems an earlier run wrote and this run does not redo (their files remain)."""
    if not path.is_file():
        return {}
    try:
        previous = json.loads(path.read_text())
    except ValueError:
        return {}
    return {name: value for name, value in previous.items()
            if name not in keep and name in systems.SYSTEMS}


def write_json_atomically(path: Path, value) -> None:
    write_atomically(path, [(json.dumps(value, indent=2, sort_keys=True) + "\n").encode()])
