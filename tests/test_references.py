"""One list of published rows (``report.references``): the tables of README.md and docs/ show
exactly its rows and figures, and bin/train's table prints every SENSEVAL-2 row."""
from __future__ import annotations

import re

import pytest

from wsd_classic.report import references
from wsd_classic.report.table import lexical_sample_table

from conftest import REPO


def tables_under(markdown: str, heading: str) -> list[list[list[str]]]:
    """The markdown tables (rows of cells, header first) of the section whose heading starts
    with ``heading``, up to the next heading of the same or a higher level."""
    match = re.search(rf"^(#+) {re.escape(heading)}.*$", markdown, re.MULTILINE)
    assert match, heading
    level = len(match.group(1))
    end = re.compile(rf"^#{{1,{level}}} ", re.MULTILINE).search(markdown, match.end())
    section = markdown[match.end():end.start() if end else len(markdown)]
    tables, current = [], []
    for line in section.splitlines() + [""]:
        if line.startswith("|"):
            if not set(line) <= set("|- "):
                current.append([cell.strip() for cell in line.strip().strip("|").split("|")])
        elif current:
            tables.append(current)
            current = []
    return tables


def published(table: list[list[str]]) -> list[list[str]]:
    """A table's published rows: ours are in bold or say "ours"."""
    return [row for row in table[1:] if not row[0].startswith("**") and "ours" not in row[0]]


def figure(cell: str) -> float | None:
    return None if cell in ("", "-") else float(cell)


def referenced(name: str, names) -> str:
    """The reference a row names: the longest that starts its name (spaces aside)."""
    squeezed = name.replace(" ", "")
    found = [item for item in names if squeezed.startswith(item.replace(" ", ""))]
    assert found, name
    return max(found, key=len)


DOCUMENTS = {"README.md": ("SENSEVAL-2 English lexical sample", "All-words, trained on SemCor",
                           "AmbiStory"),
             "docs/results.md": ("SENSEVAL-2 English lexical sample", "All-words, trained on",
                                 None),
             "docs/ambistory.md": (None, None, "Dev results")}


@pytest.mark.parametrize("document", DOCUMENTS)
def test_the_documents_show_the_published_rows_of_the_one_list(document):
    text = (REPO / document).read_text(encoding="utf-8")
    senseval2, all_words, ambistory = DOCUMENTS[document]
    if senseval2:
        rows = published(tables_under(text, senseval2)[0])
        assert [(row[0], figure(row[1]), figure(row[2])) for row in rows] == [
            (reference.name, reference.fine, reference.coarse)
            for reference in references.SENSEVAL2_LS]
    if all_words:
        table = tables_under(text, all_words)[0]
        datasets = [cell.split()[0] for cell in table[0]]
        rows = published(table)
        assert sorted(referenced(row[0], references.RAGANATO_2017) for row in rows) == sorted(
            references.RAGANATO_2017)
        for row in rows:
            shown = {dataset: figure(cell) for dataset, cell in zip(datasets[1:], row[1:])
                     if figure(cell) is not None}
            assert shown == references.RAGANATO_2017[referenced(row[0], references.RAGANATO_2017)]
    if ambistory:
        rows = published(tables_under(text, ambistory)[0])
        assert [referenced(row[0], references.AMBISTORY) for row in rows] == list(
            references.AMBISTORY)
        for row in rows:
            assert (figure(row[1]), figure(row[2])) == references.AMBISTORY[
                referenced(row[0], references.AMBISTORY)]


def test_bin_train_s_table_prints_every_senseval2_row_aligned():
    scores = {"svm": {"fine": {"precision": 0.712, "recall": 0.701, "attempted": 0.98}}}
    lines = lexical_sample_table(scores, with_references=True).splitlines()
    rows = lines[lines.index("published (fine-grained recall):") + 1:]
    assert [row.split("   [")[0].rsplit(None, 1) for row in rows] == [
        [reference.name, f"{reference.fine:.1f}"] for reference in references.SENSEVAL2_LS]
    recall_column = lines[3].index("70.1")
    assert all(row[recall_column:recall_column + 4] == f"{reference.fine:.1f}"
               for row, reference in zip(rows, references.SENSEVAL2_LS))
    assert "Iacobacci" not in lexical_sample_table(scores, with_references=False)


def test_readme_s_knowledge_based_table_shows_the_listed_figures():
    table = tables_under((REPO / "README.md").read_text(encoding="utf-8"), "Knowledge-based")[0]
    datasets = [cell.split()[0] for cell in table[0]]
    listed = {reference.name: reference.f1 for reference in references.ALL_WORDS_PUBLISHED}
    rows = published(table)
    assert [row[0] for row in rows] == ["UKB (ppr_w2w)", "SyntagRank"]
    for row in rows:
        shown = {dataset: figure(cell) for dataset, cell in zip(datasets[1:], row[1:])
                 if figure(cell) is not None}
        assert shown == listed[row[0]]
