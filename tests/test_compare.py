"""``bin/compare`` on a fixture of ten instances in two of ALL's sets, whose table was computed
by hand (tests/fixtures/compare/: the dataset, its gold key, an LLM's predictions, a SemCor
tag file).

The instances, their splits and the two rows (wn1: WordNet's first sense of the dataset's
lemma; llm: llm.key.txt), with each one's Raganato credit:

    id (set.doc.sent.token)      gold                   MFS  SemCor        wn1  llm
    senseval2 ... s000.t000      bank%1:17:01::         yes  seen          1    1
    senseval2 ... s000.t001      bank%1:14:00::         no   seen          0    1
    senseval2 ... s001.t000      loan%1:21:00::         yes  lemma unseen  1    1
    senseval2 ... s001.t001      interest%1:21:00::     no   unseen sense  0    0.5 (two keys)
    senseval2 ... s001.t002      take_place%2:30:00::   yes  seen          1    - (unanswered)
    semeval2007 ... t000         water%1:17:00::        no   seen          0    1
    semeval2007 ... t001         quickly%4:02:00::      yes  lemma unseen  1    1
    semeval2007 ... t002         old%3:00:01::          no   unseen sense  0    1
    semeval2007 ... t003         jury%1:14:00::         yes  seen          1    1
    semeval2007 ... t004         bank%1:14:00:: and     yes  seen          1    1
                                 bank%1:17:01:: (WordNet's first sense is the second gold key)

llm: credit 8.5 of 9 answered and 10 instances: P = 8.5/9, R = 0.85, F1 = 2 * 8.5 / 19 = 17/19.
McNemar against wn1 (the only, so best, classic row), full credit counting as right: only llm
right on s000.t001, water, old (3); only wn1 on take_place (1); p = 2 * P(X >= 3), X ~ B(4, 1/2)
= 2 * 5/16 = 0.625. By split, llm: MFS 5 of 5 answered of 6 -> 10/11, LFS 3.5 of 4 -> 0.875,
seen 10/11, unseen sense 0.875, unseen lemma 1.0, nouns 6.5 of 7 -> 13/14, the verb 0 (not
answered). wn1 is right on exactly the MFS instances: 1.0 on MFS, 0.0 on LFS.
"""
from __future__ import annotations

import csv
import io
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from conftest import FIXTURES, assert_one_line_error, shared_data
from wsd_classic.cli import compare as compare_cli
from wsd_classic.corpora.predictions import read_predictions
from wsd_classic.corpora.raganato import iter_raganato, read_raganato_key
from wsd_classic.errors import WsdError
from wsd_classic.report import comparison as tables
from wsd_classic.report.references import ALL_WORDS_PUBLISHED
from wsd_classic.scoring.comparison import SPLITS, is_mfs
from wsd_classic.scoring.statistics import BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED, CONFIDENCE
from wsd_classic.tasks import comparison

FIXTURE = FIXTURES / "compare"
DATA, GOLD, PREDICTIONS = (FIXTURE / "sample.data.xml", FIXTURE / "sample.gold.key.txt",
                           FIXTURE / "llm.key.txt")
SEMCOR = FIXTURE / "semcor"
# Instances of Raganato's five sets (ALL is their concatenation), and of ALL by its tags.
SET_INSTANCES = {"senseval2": 2282, "senseval3": 1850, "semeval2007": 455, "semeval2013": 1644,
                 "semeval2015": 1022}
ALL_POS_INSTANCES = {"noun": 4300, "verb": 1652, "adjective": 955, "adverb": 346}


@pytest.fixture
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("WSD_CLASSIC_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def _run(tmp_path, *systems: str, predictions=PREDICTIONS):
    classic = comparison.classic_systems(list(systems), tmp_path / "models")
    dataset = comparison.resolve_datasets([str(DATA)], [GOLD])
    return comparison.compare(dataset, {"llm": [predictions]}, classic, tmp_path / "models",
                              semcor_root=SEMCOR)


def _row(column, label):
    return next(row for row in column.rows if row.label == label)


def test_the_hand_computed_table(tmp_path, private_cache):
    result = _run(tmp_path, "wn1")
    assert [column.name for column in result.columns] == [
        "sample/senseval2", "sample/semeval2007", "sample"]
    whole = result.columns[-1]
    llm, wn1 = _row(whole, "llm"), _row(whole, "wn1")
    assert (llm.result.correct, llm.result.answered, llm.result.instances) == (8.5, 9, 10)
    assert llm.result.precision == pytest.approx(8.5 / 9)
    assert llm.result.recall == pytest.approx(0.85)
    assert llm.result.f1 == pytest.approx(17 / 19)
    assert llm.unanswered == 1
    assert wn1.result.f1 == pytest.approx(0.6) and wn1.unanswered == 0
    assert whole.best_classic == "wn1" and wn1.against_best is None
    assert (llm.against_best.only_first, llm.against_best.only_second) == (3, 1)
    assert llm.against_best.p_value == pytest.approx(0.625)
    assert whole.split_sizes == {"noun": 7, "verb": 1, "adjective": 1, "adverb": 1, "MFS": 6,
                                 "LFS": 4, "seen sense": 6, "unseen sense": 4,
                                 "unseen lemma": 2}
    assert llm.by_split == pytest.approx({
        "noun": 13 / 14, "verb": 0.0, "adjective": 1.0, "adverb": 1.0, "MFS": 10 / 11,
        "LFS": 0.875, "seen sense": 10 / 11, "unseen sense": 0.875, "unseen lemma": 1.0})
    senseval2, semeval2007 = result.columns[:2]
    # senseval2: credit 3.5, 4 answered of 5; semeval2007: all five right.
    assert _row(senseval2, "llm").result.f1 == pytest.approx(7 / 9)
    assert _row(semeval2007, "llm").result.f1 == pytest.approx(1.0)
    assert _row(senseval2, "wn1").result.f1 == _row(semeval2007, "wn1").result.f1 == 0.6


def test_mfs_is_any_gold_key_being_wordnets_first_sense(tmp_path, private_cache):
    assert is_mfs(["bank%1:17:01::"]) and is_mfs(["bank%1:14:00::", "bank%1:17:01::"])
    assert not is_mfs(["bank%1:14:00::"])
    wn1 = _row(_run(tmp_path, "wn1").columns[-1], "wn1")
    assert (wn1.by_split["MFS"], wn1.by_split["LFS"]) == (1.0, 0.0)


def _f1_interval(credit, answered, indices):
    """Percentile interval of F1 over the resamples ``indices``, written out independently."""
    correct, attempted = credit[indices].sum(axis=1), answered[indices].sum(axis=1)
    precision = np.where(attempted > 0, correct / np.maximum(attempted, 1), 0.0)
    recall = correct / len(credit)
    f1 = np.where(precision + recall > 0,
                  2 * precision * recall / np.maximum(precision + recall, 1e-300), 0.0)
    tail = (1 - CONFIDENCE) / 2
    return tuple(np.quantile(f1, [tail, 1 - tail]))


def test_every_row_gets_the_same_seeded_resamples(tmp_path, private_cache):
    whole = _run(tmp_path, "wn1").columns[-1]
    indices = np.random.default_rng(BOOTSTRAP_SEED).integers(
        0, 10, size=(BOOTSTRAP_RESAMPLES, 10))
    credits = {"llm": ([1, 1, 1, 0.5, 0, 1, 1, 1, 1, 1], [1] * 4 + [0] + [1] * 5),
               "wn1": ([1, 0, 1, 0, 1, 0, 1, 0, 1, 1], [1] * 10)}
    for label, (credit, answered) in credits.items():
        interval = _row(whole, label).interval
        expected = _f1_interval(np.array(credit, float), np.array(answered, float), indices)
        assert (interval.low, interval.high) == pytest.approx(expected)


def test_predictions_in_json_lines_take_the_heaviest_sense(tmp_path):
    ids = read_raganato_key(GOLD)
    predictions = read_predictions(FIXTURE / "llm.jsonl", ids, "sample")
    assert predictions == {"senseval2.d000.s000.t000": ("bank%1:17:01::",),
                           "senseval2.d000.s000.t001": ("bank%1:14:00::",),
                           "senseval2.d000.s001.t000": ("loan%1:21:00::",)}
    one_key = tmp_path / "sensebench.key"
    one_key.write_text("senseval2.d000.s000.t000\tbank%1:17:01::\n")
    assert read_predictions(one_key, ids, "sample") == {
        "senseval2.d000.s000.t000": ("bank%1:17:01::",)}


BAD_INPUTS = {
    "id not in the dataset": ("senseval2.d000.s000.t000 bank%1:17:01::\n"
                              "senseval2.d009.s000.t000 bank%1:17:01::\n", 2,
                              "'senseval2.d009.s000.t000' is not in the dataset sample"),
    "duplicate id": ("senseval2.d000.s000.t000 bank%1:17:01::\n"
                     "senseval2.d000.s000.t001 bank%1:14:00::\n"
                     "senseval2.d000.s000.t000 bank%1:14:00::\n", 3,
                     "listed a second time (first at line 1)"),
    # A WordNet 1.7 key of SENSEVAL-2's lexical sample that WordNet 3.0 lacks.
    "WordNet 1.7 key": ("semeval2007.d001.s000.t002 fine%5:00:00:superior:02\n", 1,
                        "'fine%5:00:00:superior:02' is not in WordNet 3.0"),
    "key in capitals": ("senseval2.d000.s000.t000 Bank%1:17:01::\n", 1, "not in WordNet 3.0"),
    "OEWN id": ("senseval2.d000.s000.t000 oewn-bank__1.17.01..\n", 1,
                "an Open English WordNet id"),
    "empty file": ("", 1, "no predictions lines"),
    "SENSEVAL answer line": ("bank.n senseval2.d000.s000.t000 bank%1:17:01::/0.9\n", 1,
                             "'bank.n' is not in the dataset"),
    "index instead of a key": ("senseval2.d000.s000.t000 2\n", 1, "'2' is not a sense key"),
    "id without a key": ("senseval2.d000.s000.t000\n", 1, "has no sense key"),
    "broken JSON line": ('{"instance": "senseval2.d000.s000.t000", "key": "bank%1:17:01::"}\n'
                         '{"instance": \n', 2, "not a JSON line"),
}


@pytest.mark.parametrize("case", BAD_INPUTS)
def test_bad_predictions_are_one_line_at_their_line_and_no_output(case, tmp_path,
                                                                  private_cache, capsys):
    text, line, fragment = BAD_INPUTS[case]
    predictions = tmp_path / "bad.key"
    predictions.write_text(text)
    out = tmp_path / "table.md"
    status = compare_cli.main(["--dataset", str(DATA), "--gold", str(GOLD), "--predictions",
                               f"bad={predictions}", "--systems", "none", "--semcor",
                               str(SEMCOR), "-o", str(out)])
    captured = capsys.readouterr()
    assert status == 2
    assert captured.out == "" and not out.exists()
    (message,) = captured.err.strip().splitlines()
    assert f"{predictions}:{line}: " in message and fragment in message, message


def test_a_gold_key_of_another_dataset_is_refused(tmp_path, private_cache):
    other = tmp_path / "other.gold.key.txt"
    other.write_text("senseval3.d000.s000.t000 bank%1:17:01::\n")
    with pytest.raises(WsdError, match="does not hold"):
        comparison.compare(comparison.resolve_datasets([str(DATA)], [other]), {}, [],
                           tmp_path, semcor_root=SEMCOR)


def test_one_predictions_file_per_dataset(tmp_path, private_cache):
    datasets = comparison.resolve_datasets([str(DATA), str(DATA)], [GOLD, GOLD])
    with pytest.raises(WsdError, match="1 file.s. for 2 dataset"):
        comparison.compare(datasets, {"llm": [PREDICTIONS]}, [], tmp_path, semcor_root=SEMCOR)
    with pytest.raises(WsdError, match="two columns named sample"):
        comparison.compare(datasets, {"llm": [PREDICTIONS, PREDICTIONS]}, [], tmp_path,
                           semcor_root=SEMCOR)
    with pytest.raises(WsdError, match="also a classic row"):
        comparison.compare(datasets[:1], {"wn1": [PREDICTIONS]},
                           comparison.classic_systems(["wn1"], tmp_path), tmp_path,
                           semcor_root=SEMCOR)


def test_classic_keys_are_tagged_once_and_cached(tmp_path, private_cache):
    assert _run(tmp_path, "wn1").tagged == ("wn1 on sample: tagged",)
    cached = list((private_cache / "compare").glob("*/semcor-wn1-*.key"))
    assert len(cached) == 1 and cached[0].parent.name == comparison.registry.file_sha256(DATA)
    assert _run(tmp_path, "wn1").tagged == ("wn1 on sample: cached",)
    assert list((private_cache / "compare").glob("semcor-*.json"))  # SemCor's seen sets


def test_default_classic_rows_are_the_installed_all_words_systems(tmp_path):
    # No usable model installed (a damaged svm is skipped): only wn1, which needs none.
    (tmp_path / "semcor" / "svm").mkdir(parents=True)
    (tmp_path / "semcor" / "svm" / "model.npz").write_bytes(b"not a model")
    assert [system.label for system in comparison.classic_systems(None, tmp_path)] == ["wn1"]
    with pytest.raises(WsdError, match="senseval2-ls is not an all-words task"):
        comparison.classic_systems(["senseval2-ls/svm"], tmp_path)


def test_every_format(tmp_path, private_cache):
    result = _run(tmp_path, "wn1")
    markdown = tables.render(result, "md")
    assert "| llm | **77.8 [" in markdown and "| wn1 | 60.0 [" in markdown
    assert "0.625 (3 / 1)" in markdown and "| llm | 4 (1 unanswered) | 5 | 9 (1 unanswered) |" \
        in markdown
    rows = list(csv.DictReader(io.StringIO(tables.render(result, "csv"))))
    f1 = next(row for row in rows if (row["dataset"], row["system"], row["measure"])
              == ("sample", "llm", "f1"))
    assert float(f1["value"]) == pytest.approx(17 / 19) and f1["kind"] == "predictions"
    assert {row["measure"] for row in rows if row["system"] == "llm"} >= {
        "unanswered", "mcnemar_p", "f1_unseen_lemma", "f1_MFS"}
    latex = tables.render(result, "latex")
    assert r"\toprule" in latex and r"\bottomrule" in latex
    assert r"\textbf{89.5} {\scriptsize [" in latex
    html = tables.render(result, "html")
    assert "<strong>89.5 [" in html and 'src="data:image/png;base64,' in html


def test_the_latex_table_compiles(tmp_path, private_cache):
    engine = shutil.which("pdflatex")
    if engine is None:
        pytest.skip("no pdflatex (apt-get install texlive-latex-base texlive-latex-recommended)")
    (tmp_path / "table.tex").write_text(tables.render(_run(tmp_path, "wn1"), "latex"))
    (tmp_path / "paper.tex").write_text(
        "\\documentclass{article}\n\\usepackage[T1]{fontenc}\n\\usepackage{booktabs}\n"
        "\\begin{document}\n\\input{table.tex}\n\\end{document}\n")
    done = subprocess.run([engine, "-interaction=nonstopmode", "-halt-on-error", "paper.tex"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-2000:]
    assert (tmp_path / "paper.pdf").stat().st_size > 0


def test_bin_compare_writes_the_table_whole(run_command, tmp_path):
    out = tmp_path / "table.csv"
    result = run_command("compare", "--dataset", DATA, "--gold", GOLD, "--predictions",
                         f"llm={PREDICTIONS}", "--systems", "wn1", "--semcor", SEMCOR,
                         "--format", "csv", "-o", out)
    assert result.returncode == 0, result.stderr
    assert out.read_text().startswith(",".join(tables.CSV_FIELDS))
    missing = run_command("compare", "--dataset", DATA, "--gold", GOLD, "--predictions",
                          f"llm={tmp_path / 'none.key'}", "--systems", "none", "--semcor",
                          SEMCOR)
    assert_one_line_error(missing, "none.key")
    assert missing.returncode == 2


def test_published_all_figures_are_the_weighted_means_of_the_sets():
    total = sum(SET_INSTANCES.values())
    for reference in ALL_WORDS_PUBLISHED:
        mean = sum(reference.f1[name] * count for name, count in SET_INSTANCES.items()) / total
        assert abs(mean - reference.f1["ALL"]) <= 0.05 + 1e-9, reference.name
        assert set(reference.all_splits) <= set(SPLITS)
        if "noun" in reference.all_splits:
            by_pos = sum(reference.all_splits[pos] * count
                         for pos, count in ALL_POS_INSTANCES.items()) / total
            assert abs(by_pos - reference.f1["ALL"]) <= 0.05 + 1e-9, reference.name


@pytest.mark.skipif(not (shared_data() / "raganato" / "ALL").is_dir(), reason="no ALL")
def test_all_has_the_counts_the_published_check_weighs_by(tmp_path):
    (dataset,) = comparison.resolve_datasets(["ALL"], [])
    gold = read_raganato_key(dataset.gold)
    assert comparison.is_registered(dataset) and not comparison.is_registered(
        comparison.resolve_datasets([str(DATA)], [GOLD])[0])
    columns = comparison.dataset_columns("ALL", gold, registered_all=True)
    assert {name: len(part) for name, part in columns} == {**SET_INSTANCES, "ALL": 7253}
    amended = comparison.dataset_columns("ALLamended", gold, registered_all=False)
    assert [name for name, _ in amended][:2] == ["ALLamended/senseval2", "ALLamended/senseval3"]
    tags = {token.instance_id: token.pos for sentence in
            iter_raganato(dataset.data) for token in sentence.instances}
    counts = {pos: sum(tag == universal for tag in tags.values()) for pos, universal in
              (("noun", "NOUN"), ("verb", "VERB"), ("adjective", "ADJ"), ("adverb", "ADV"))}
    assert counts == ALL_POS_INSTANCES



def test_the_benchs_independent_scorer_agrees_with_the_hand_computed_table(tmp_path):
    from bench.compare import independent_figures, perturbed_gold

    figures = independent_figures(GOLD, PREDICTIONS)
    assert figures["ALL"]["f1"] == pytest.approx(17 / 19)
    assert figures["senseval2"]["f1"] == pytest.approx(7 / 9)
    assert (figures["ALL"]["answered"], figures["ALL"]["instances"]) == (9, 10)
    perturbed = tmp_path / "perturbed.key"
    perturbed_gold(GOLD, perturbed)
    gold = read_raganato_key(GOLD)
    for instance, keys in read_raganato_key(perturbed).items():
        assert keys[0].split("%")[0] == gold[instance][0].split("%")[0]  # a sense of its lemma
