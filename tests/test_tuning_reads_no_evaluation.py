"""Tuning never opens an evaluation file: every tuning entry point of bench/ (``tune.py``,
``tune.py --emb``, ``tune_combo.py``, ``tune_gloss.py``, each ``--tune-*`` study of
``semcor.py``, its ``--unseen-senses`` and ``--tune-hybrid``, ``ppr.py --tune``) and the word vectors' training
corpus run on fixtures in the real layout, in one subprocess (``tuning_under_watch.py``) that records and refuses every
opening of the SENSEVAL-2 test XML and key, the Raganato evaluation sets other than the
development set semeval2007 (which the SemCor studies score on, by design) and AmbiStory's dev
and test files."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import FIXTURES, REPO

from wsd_classic.corpora import registry

TEST_SETS = ("senseval2", "senseval3", "semeval2013", "semeval2015", "ALL")
DEVELOPMENT_SET = "semeval2007"
SEMCOR_STUDIES = {  # semcor.py's tuning options, each with the least arguments it takes
    "--tune-context": ["0"], "--tune-svm": ["C=1"], "--tune-examples": [],
    "--tune-example-lexelts": [], "--tune-emb": ["exponential:10:1:0"],
    "--tune-scale": ["gloss=1"], "--tune-combo": [], "--tune-combo-unseen": [],
    "--tune-prior": [], "--tune-discourse": ["0,0.5"], "--tune-combo-mixture": ["1"],
    "--unseen-senses": ["--unseen-share", "0.5"], "--tune-hybrid": [],
    "--tune-hybrid-forms": []}


def dataset_file(name: str, filename: str) -> str:
    return f"{registry.DATASETS[name].directory}/{filename}"


def data_directory(root: Path) -> tuple[Path, list[Path]]:
    """Fixtures where the registry looks for each corpus; and the evaluation files among them."""
    training = {dataset_file("senseval2-ls", "eng-lex-sample.training.xml"): "train_small.xml",
                dataset_file("ambistory", "train.json"): "ambistory/bank_stories_train.json",
                **{dataset_file(DEVELOPMENT_SET, f"{DEVELOPMENT_SET}.{kind}"):
                   f"allwords_sample.{kind}" for kind in ("data.xml", "gold.key.txt")}}
    evaluation = {dataset_file("senseval2-ls", "eng-lex-samp.evaluation.xml"): "test_small.xml",
                  dataset_file("senseval2-ls", "eng-lex-samp.evaluation.key"): "test_small.key",
                  dataset_file("ambistory", "dev.json"): "ambistory/bank_stories_dev.json",
                  dataset_file("ambistory", "test_redacted.json"):
                      "ambistory/bank_stories_test.json",
                  **{dataset_file(name, f"{name}.{kind}"): f"allwords_sample.{kind}"
                     for name in TEST_SETS for kind in ("data.xml", "gold.key.txt")}}
    for target, source in {**training, **evaluation}.items():
        (root / target).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(FIXTURES / source, root / target)
    shutil.copytree(FIXTURES / "allwords_semcor", root / registry.DATASETS["semcor-3.0"].directory)
    return root, [root / target for target in evaluation]


def run_under_watch(tmp_path: Path, runs: list) -> dict:
    data_dir, watched = data_directory(tmp_path / "data")
    bench = tmp_path / "bench"  # a copy, so that the runs write their results beside it
    shutil.copytree(REPO / "bench", bench, ignore=shutil.ignore_patterns("results", "__pycache__"))
    (bench / "results").mkdir()
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"data_dir": str(data_dir), "watched": list(map(str, watched)),
                                "bench": str(bench), "repo": str(REPO), "runs": runs}))
    report = tmp_path / "report.json"
    environment = {**os.environ, "WSD_CLASSIC_DATA": str(data_dir),
                   "WSD_CLASSIC_CACHE": str(tmp_path / "cache"), "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, str(REPO / "tests" / "tuning_under_watch.py"),
                           str(plan), str(report)], capture_output=True, text=True,
                          env=environment, cwd=tmp_path, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    return {**json.loads(report.read_text()), "watched": watched}


def test_semcor_studies_listed_are_every_tuning_option():
    command = (REPO / "bench" / "semcor.py").read_text()
    assert set(re.findall(r'add_argument\("(--tune-[a-z-]+|--unseen-senses)"', command)) == set(
        SEMCOR_STUDIES)


@pytest.mark.filterwarnings("ignore")
def test_no_tuning_entry_point_opens_an_evaluation_file(tmp_path):
    common = ["--jobs", "1", "--data-dir", str(tmp_path / "data")]
    folds = ["--folds", "2"]  # the fixture's lexelts are small
    runs = [["tune.py", "tune.py", ["--systems", "svm,dlist", *folds, *common]],
            ["tune.py --emb", "tune.py", ["--emb", "exponential:10:1", *folds, *common]],
            ["tune_combo.py", "tune_combo.py",
             ["--pools", "linear", "--shrinkages", "1,inf", *folds, *common]],
            ["tune_gloss.py", "tune_gloss.py", ["--scales", "1", *folds, *common]],
            *([f"semcor.py {option}", "semcor.py", [option, *values, *common]]
              for option, values in SEMCOR_STUDIES.items()),
            ["word vectors' corpus", "corpus_sentences", []],
            # the control: this one reads the test sets by design (it chooses nothing)
            ["semcor.py --mfs-back-offs", "semcor.py",
             ["--mfs-back-offs", "--datasets", "senseval2,semeval2007", *common]]]
    report = run_under_watch(tmp_path, runs)
    assert report["failures"] == [], "\n".join(f"{run}: {error.splitlines()[-1]}"
                                               for run, error in report["failures"])
    reads = {(run, Path(path).name) for run, path in report["reads"]}
    assert reads == {("semcor.py --mfs-back-offs", "senseval2.data.xml")}, reads


@pytest.mark.filterwarnings("ignore")
def test_ppr_tuning_opens_no_evaluation_file(tmp_path):
    report = run_under_watch(tmp_path, [["ppr.py --tune", "ppr.py",
                                         ["--tune", "--jobs", "1", "--data-dir",
                                          str(tmp_path / "data")]]])
    assert report["failures"] == [], report["failures"]
    assert report["reads"] == []
    assert (tmp_path / "bench" / "results" / "ppr_tune.json").is_file()
