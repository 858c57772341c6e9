"""The ``bin/train`` job for a lexical sample: read, preprocess, train, save, tag, write, score."""
from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass, replace
from pathlib import Path

from wsd_classic import modelstore, systems
from wsd_classic.answers.senseval import write_answers
from wsd_classic.corpora import registry
from wsd_classic.atomic import write_json_atomically
from wsd_classic.corpora.ids import ID_MAP_NAME, write_id_map
from wsd_classic.corpora.keys import KeyEntry, read_key, write_key
from wsd_classic.corpora.lexsample import check_annotated, check_split, read_lexical_sample
from wsd_classic.corpora.model import Lexelt, LexicalSample
from wsd_classic.scoring.lexsample import lexsample_scores
from wsd_classic.systems.personalised_pagerank import PersonalisedPageRank
from wsd_classic.tasks import catalogue, engine, staging
from wsd_classic.tasks.catalogue import Task
from wsd_classic.tasks.engine import FeaturizedCorpus
from wsd_classic.tasks.staging import previous_scores
from wsd_classic.tasks.timing import StageTimer
from wsd_classic.workers import in_workers


@dataclass
class TaskRun:
    """A lexical-sample task's files, resolved in a data directory, for one ``bin/train`` run."""

    task: Task
    train_path: Path
    test_path: Path | None = None
    key_path: Path | None = None
    sensemap_path: Path | None = None
    train_answers_path: Path | None = None  # the training file's answers, when not in its XML
    data_dir: Path | None = None  # where SyntagNet is, for ppr's walks

    @classmethod
    def of(cls, task: Task, data_dir=None) -> "TaskRun":
        return cls(task, *(task.path(which, data_dir)
                           for which in ("train", "test", "key", "sensemap", "train_answers")),
                   data_dir)

    @property
    def name(self) -> str:
        return self.task.name

    @property
    def split(self) -> tuple[int, int] | None:
        return self.task.split

    @property
    def seed(self) -> int:
        return self.task.seed


def test_side(run: TaskRun, train_sample: LexicalSample
              ) -> tuple[LexicalSample, LexicalSample, list[KeyEntry] | None]:
    """The training sample, the test sample without answers and, for a split, the split's key
    (None: the task has its own key file)."""
    if run.split is None:
        return train_sample, read_lexical_sample(run.test_path), None
    train_sample, test_sample = stratified_split(train_sample, run.split, run.seed)
    check_split(train_sample, test_sample)
    key = [KeyEntry(lexelt.item, instance.id, instance.answers)
           for lexelt in test_sample.lexelts for instance in lexelt.instances]
    test_sample = LexicalSample(
        [Lexelt(lexelt.item, [replace(instance, answers=()) for instance in lexelt.instances])
         for lexelt in test_sample.lexelts], test_sample.source)
    return train_sample, test_sample, key


def usable_systems(chosen: list[str], train_sample: LexicalSample) -> tuple[list[str], list[str]]:
    """The systems that can train on the sample, and those skipped: a system that reads
    WordNet's glosses needs sense ids that are WordNet keys."""
    if engine.uses_wordnet_keys(train_sample):
        return chosen, []
    return ([name for name in chosen if not systems.get(name).needs_wordnet_keys],
            [name for name in chosen if systems.get(name).needs_wordnet_keys])


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


def featurize_sides(run: TaskRun, chosen: list[str], train_sample: LexicalSample,
                    test_sample: LexicalSample, jobs: int,
                    timer: StageTimer) -> tuple[FeaturizedCorpus, FeaturizedCorpus]:
    """Both sides' features for systems ``chosen``, with ppr's walks where a system reads them."""
    with timer.stage("vectors"):
        featurizer = run.task.featurizer(chosen)
    with timer.stage("preprocess"):
        docs = tuple(engine.analyse(sample, jobs, f"spaCy ({side})")
                     for side, sample in (("train", train_sample), ("test", test_sample)))
        corpora = tuple(engine.featurize(sample, featurizer, jobs, docs=side_docs)
                        for sample, side_docs in zip((train_sample, test_sample), docs))
    if any(systems.reads_walks(run.task.system_params(name)) for name in chosen):
        with timer.stage("ppr walks"):
            engine.add_walk_evidence(corpora, docs, PersonalisedPageRank.built(
                catalogue.SEMCOR.system_params("ppr"), run.data_dir), jobs)
    return corpora


@dataclass(frozen=True)
class RunResult:
    """A run's scores by system, what the reader should know of it, where its outputs are and
    how long each stage took."""

    scores: dict[str, dict]
    notes: list[str]
    out_dir: Path
    models_dir: Path
    timer: StageTimer


def _write_and_score(job: tuple) -> dict:
    """Write one system's answer files (weighted and top sense only) from its ``rows`` and
    return their scores against the ``key`` (with the ``sensemap``, if any)."""
    out_dir, name, rows, key_path, sensemap_path = job
    write_answers(out_dir / f"{name}.ans", rows)
    write_answers(out_dir / f"{name}.top.ans", rows, top_only=True)
    return lexsample_scores(key_path, out_dir / f"{name}.top.ans", sensemap_path,
                            weighted_answers=out_dir / f"{name}.ans")


def execute(run: TaskRun, chosen: list[str], models_root: Path, results_root: Path,
            jobs: int) -> RunResult:
    """Run the whole job.

    Inputs are read and checked before anything is written; models and results are then built
    in staging copies, under a lock, and swapped in only once complete.
    """
    timer = StageTimer()
    notes = []
    with timer.stage("read"):
        train_sample = read_lexical_sample(run.train_path, run.train_answers_path)
        check_annotated(train_sample)
        id_maps = [train_sample.renamed_ids]
        train_sample, test_sample, split_key = test_side(run, train_sample)
        if split_key is None:
            id_maps.append(test_sample.renamed_ids)
            read_key(run.key_path)
        else:
            notes.append(f"split {run.split[0]}:{run.split[1]} (seed {run.seed}): "
                         f"{len(train_sample)} training, {len(test_sample)} test instances")
    chosen, skipped = usable_systems(chosen, train_sample)
    if skipped:
        notes.append(f"skipped {', '.join(skipped)}: the sense ids are not WordNet keys")
    train_corpus, test_corpus = featurize_sides(run, chosen, train_sample, test_sample, jobs,
                                                timer)
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
        trained_here, answer_rows = {}, {}
        training = StageTimer()  # the train stage by system
        for name in chosen:
            with timer.stage("train"), training.stage(name):
                trained = engine.train(name, train_corpus, run.name, jobs,
                                       params=run.task.system_params(name), fitted=trained_here)
            trained_here[name] = trained
            trained.info = {"training_file": str(run.train_path),
                            "training_sha256": registry.file_sha256(Path(run.train_path)),
                            "split": list(run.split) if run.split else None, "seed": run.seed,
                            "lexelts": len(trained.models),
                            **({"graph": trained.walk.graph.header} if trained.walk else {})}
            with timer.stage("save"):
                modelstore.save(trained, models_root, task_dir=model_stage)
            with timer.stage("tag"):
                answer_rows[name] = list(engine.tag(trained, test_corpus))
            unknown = sorted({sense for model in trained.models.values()
                              for sense in getattr(model, "unknown_senses_", [])})
            if unknown:
                notes.append(f"{name}: {len(unknown)} candidate senses have no WordNet 3.0 gloss "
                             "(WordNet 1.7-only keys, U, P); only the fallback can choose them")
        # Writing and scoring the answers is pure Python, a system at a time: in the forked
        # workers, ``jobs`` systems' files are written and scored side by side, in one pass
        # (one pool start, not two). The stage counts the answer files' writing.
        with timer.stage("score"):
            scores = previous_scores(out_stage / "scores.json", keep=set(chosen))
            scores.update(zip(chosen, in_workers(_write_and_score, [
                (out_stage, name, answer_rows.pop(name), key_path, run.sensemap_path)
                for name in chosen], jobs)))
            write_json_atomically(out_stage / "scores.json", scores)
        write_json_atomically(out_stage / "timings.json", {
            "stages": timer.seconds, "stage_cpu_seconds": timer.cpu,
            "train_seconds": training.seconds, "train_cpu_seconds": training.cpu,
            "systems": chosen, "jobs": jobs})
    return RunResult(scores, notes, out_dir, models_dir, timer)
