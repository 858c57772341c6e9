"""``bin/compare``'s tables, as one document (Markdown, HTML with its picture, LaTeX) or as
tidy CSV (one line per dataset, row and measure) for scripts."""
from __future__ import annotations

import csv
import io

from wsd_classic.report import figures, html, latex, markdown
from wsd_classic.report.compose import p_value, percent, with_interval
from wsd_classic.report.document import Document, Figure, Section, Table
from wsd_classic.report.references import ALL_WORDS_PUBLISHED, AllWordsReference
from wsd_classic.scoring.comparison import (LFS, MFS, SEEN_SENSE, SPLITS,
                                            UNSEEN_LEMMA, UNSEEN_SENSE, DatasetComparison,
                                            RowScore)
from wsd_classic.scoring.statistics import BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED
from wsd_classic.tasks.comparison import Comparison

TITLE = "Word sense disambiguation: predictions beside the classic rows"
CSV_FIELDS = ("dataset", "system", "kind", "measure", "value", "ci_low", "ci_high", "source")
SPLIT_HEADERS = {"noun": "Noun", "verb": "Verb", "adjective": "Adj.", "adverb": "Adv.",
                 MFS: MFS, LFS: LFS, SEEN_SENSE: "Seen sense", UNSEEN_SENSE: "Unseen sense",
                 UNSEEN_LEMMA: "Unseen lemma"}


def render(comparison: Comparison, output_format: str) -> str:
    if output_format == "csv":
        return tidy_csv(comparison)
    document = comparison_document(comparison, pictures=output_format == "html")
    if output_format == "html":
        return html.render(document)
    return latex.render(document) if output_format == "latex" else markdown.render(document)


def _ranked(comparison: Comparison) -> list[RowScore]:
    """The rows of the last column, classic rows first, each group by F1 there, best first."""
    rows = comparison.columns[-1].rows
    return sorted(rows, key=lambda row: (not row.classic, -row.result.f1))


def _published(comparison: Comparison) -> list[tuple[AllWordsReference, dict[str, float]]]:
    """The published rows with a figure on some column that is a registered dataset (or a
    set of the registered ALL), best on the last column first."""
    found = []
    for reference in ALL_WORDS_PUBLISHED:
        by_column = {column.name: value for column in comparison.columns
                     if column.name in comparison.registered
                     for key, value in reference.f1.items() if key == column.name}
        if by_column:
            found.append((reference, by_column))
    last = comparison.columns[-1].name
    return sorted(found, key=lambda item: -item[1].get(last, 0.0))


def _best_cells(rows: list[tuple[float | None, ...]], offset: int) -> frozenset[tuple[int, int]]:
    """The ``(row, offset + column)`` cells holding each column's highest value (to the tenth
    shown), None being no value: published rows are context, not contenders."""
    best = set()
    for column in range(len(rows[0]) if rows else 0):
        values = [row[column] for row in rows if row[column] is not None]
        if values:
            top = max(values)
            best |= {(number, offset + column) for number, row in enumerate(rows)
                     if row[column] is not None and round(row[column], 1) == round(top, 1)}
    return frozenset(best)


def comparison_document(comparison: Comparison, pictures: bool = False) -> Document:
    sections = [_about(comparison), _f1_section(comparison, pictures), _answered(comparison)]
    if any(column.best_classic for column in comparison.columns):
        sections.append(_significance(comparison))
    sections.extend(_splits(comparison, column) for column in comparison.columns)
    return Document(TITLE, tuple(sections))


def _about(comparison: Comparison) -> Section:
    datasets = "; ".join(f"{dataset.name}: {dataset.data} scored against {dataset.gold}"
                         for dataset in comparison.datasets)
    return Section("How these figures were computed", (
        f"Datasets: {datasets}. Every row is scored as Raganato et al.'s scorer does: a "
        "prediction earns the share of its keys that are gold keys; P = credit / answered, R = "
        "credit / instances, F1 = 2PR / (P + R), in %. An instance a row does not answer counts "
        "against its recall only, and the Answered table says how many there are.",
        f"The 95% intervals are percentile bootstrap intervals of F1: {BOOTSTRAP_RESAMPLES} "
        f"resamples of each dataset's instances with seed {BOOTSTRAP_SEED}, the same resamples "
        "for every row (paired). McNemar's exact test compares each row with the best classic "
        "row of the dataset (by F1): an instance is right when its prediction earns full "
        "credit, and the p-value is the two-sided binomial test on the instances exactly one "
        "of the two gets right.",
        "Splits: the part of speech is the dataset's tag of the instance. MFS instances are "
        "those whose gold keys include WordNet 3.0's first sense of their lemma, LFS the others. "
        "A seen sense is a gold key SemCor 3.0 tags at least once (read from "
        f"{comparison.semcor}); an unseen lemma is one SemCor tags no sense of, for that part "
        "of speech (BEM's zero-shot words).",
        "Classic rows are wsd-classic's SemCor-trained systems; published rows (in italics) "
        "are the figures their sources report, shown only on the registered datasets (checked "
        "byte for byte) and ALL's sets. Bold marks the best figure of a column among the rows "
        "scored here.",
        "Classic keys: " + "; ".join(comparison.tagged) + "." if comparison.tagged
        else "No classic row was asked for."))


def _f1_section(comparison: Comparison, pictures: bool) -> Section:
    columns = comparison.columns
    ours = _ranked(comparison)
    published = _published(comparison)
    rows, values = [], []
    for row in ours:
        scores = [_row_of(column, row.label) for column in columns]
        rows.append((row.label, *(with_interval(score.result.f1, score.interval)
                                   for score in scores), comparison.sources[row.label]))
        values.append(tuple(100 * score.result.f1 for score in scores))
    for reference, by_column in published:
        rows.append((reference.name, *(f"{by_column[column.name]:.1f}"
                                       if column.name in by_column else "-"
                                       for column in columns), reference.citation))
        values.append((None,) * len(columns))
    header = ("System", *(f"{column.name} ({column.instances:,})" for column in columns),
              "Source")
    blocks: list = [Table("F1 (%) with its 95% bootstrap interval, per dataset (instances)",
                          header, tuple(rows),
                          published=frozenset(range(len(ours), len(rows))),
                          text_columns=frozenset({0, len(header) - 1}),
                          best=_best_cells(values, 1))]
    sources = dict.fromkeys(f"{reference.citation}: {reference.source}."
                            for reference, _ in published)
    if sources:
        blocks.append("Published rows: " + " ".join(sources))
    if pictures:
        blocks.append(Figure("f1", "F1 with its 95% bootstrap interval per dataset; hollow "
                                   "diamonds are published figures.", figures.f1_intervals([
                                       (column.name, [
                                           *(figures.RowF1(row.label, 100 * row.result.f1,
                                                           100 * row.interval.low,
                                                           100 * row.interval.high)
                                             for row in column.rows),
                                           *(figures.RowF1(reference.name, by_column[column.name])
                                             for reference, by_column in published
                                             if column.name in by_column)])
                                       for column in columns])))
    return Section("F1", tuple(blocks))


def _row_of(column: DatasetComparison, label: str) -> RowScore:
    return next(row for row in column.rows if row.label == label)


def _answered(comparison: Comparison) -> Section:
    def cell(row: RowScore) -> str:
        missing = f" ({row.unanswered:,} unanswered)" if row.unanswered else ""
        return f"{row.result.answered:,}{missing}"

    rows = tuple((row.label, *(cell(_row_of(column, row.label)) for column in comparison.columns))
                 for row in _ranked(comparison))
    header = ("System", *(f"{column.name} (of {column.instances:,})"
                          for column in comparison.columns))
    return Section("Answered", (
        "Instances each row answered; the others count as wrong for recall, not precision.",
        Table("Answered instances per dataset", header, rows)))


def _significance(comparison: Comparison) -> Section:
    def cell(column: DatasetComparison, label: str) -> str:
        row = _row_of(column, label)
        if label == column.best_classic:
            return "best classic"
        test = row.against_best
        return "-" if test is None else (f"{p_value(test.p_value)} "
                                         f"({test.only_first} / {test.only_second})")

    rows = tuple((row.label, *(cell(column, row.label) for column in comparison.columns))
                 for row in _ranked(comparison))
    return Section("Significance", (
        "McNemar's exact test of each row against the dataset's best classic row: the "
        "p-value, then (instances only this row gets right / only the best classic row gets "
        "right).",
        Table("McNemar's test against the best classic row", ("System", *(
            f"{column.name} (vs {column.best_classic})" for column in comparison.columns)),
              rows)))


def _splits(comparison: Comparison, column: DatasetComparison) -> Section:
    shown = [split for split in SPLITS if column.split_sizes[split]]
    rows, values = [], []
    for ranked in _ranked(comparison):
        row = _row_of(column, ranked.label)
        rows.append((row.label, percent(row.result.precision), percent(row.result.recall),
                     *(percent(row.by_split[split]) for split in shown)))
        values.append((100 * row.result.precision, 100 * row.result.recall,
                       *(100 * row.by_split[split] for split in shown)))
    ours = len(rows)
    for reference in ALL_WORDS_PUBLISHED:
        if reference.all_splits and column.name == "ALL" and "ALL" in comparison.registered:
            rows.append((reference.name, "-", "-", *(
                f"{reference.all_splits[split]:.1f}" if split in reference.all_splits else "-"
                for split in shown)))
            values.append((None,) * (2 + len(shown)))
    header = ("System", "P", "R", *(f"{SPLIT_HEADERS[split]} ({column.split_sizes[split]:,})"
                                    for split in shown))
    return Section(f"By split: {column.name}", (
        Table(f"{column.name}: precision, recall and F1 (%) by part of speech, MFS / LFS and "
              "SemCor coverage (instances)", header, tuple(rows),
              published=frozenset(range(ours, len(rows))), best=_best_cells(values, 1)),))


def tidy_csv(comparison: Comparison) -> str:
    """One line per dataset, row and measure: fractions (P, R, F1, F1 per split, with the
    interval for F1), counts (answered, unanswered, McNemar's discordant instances) and
    McNemar's p-value; published rows' F1 as fractions too."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_FIELDS)
    for column in comparison.columns:
        for row in column.rows:
            kind, source = ("classic" if row.classic else "predictions"), \
                comparison.sources[row.label]
            measures = [("f1", row.result.f1, row.interval.low, row.interval.high),
                        ("precision", row.result.precision), ("recall", row.result.recall),
                        ("answered", row.result.answered), ("unanswered", row.unanswered),
                        ("instances", row.result.instances)]
            measures += [(f"f1_{split.replace(' ', '_')}", value)
                         for split, value in row.by_split.items() if value is not None]
            if row.against_best is not None:
                test = row.against_best
                measures += [("mcnemar_only_this", test.only_first),
                              ("mcnemar_only_best", test.only_second),
                              ("mcnemar_p", test.p_value)]
            for measure, value, *interval in measures:
                low, high = interval or ("", "")
                writer.writerow((column.name, row.label, kind, measure, value, low, high, source))
    for reference, by_column in _published(comparison):
        for name, value in by_column.items():
            writer.writerow((name, reference.name, "published", "f1", round(value / 100, 4), "",
                             "", reference.source))
    return buffer.getvalue()

