"""The report's tables as a LaTeX fragment a paper can ``\\input``: one ``booktabs`` table* per
table of the document (the preamble needs ``\\usepackage{booktabs}``), its paragraphs as
comments above them. The best figure of each column is set in bold, an interval
(``71.2 [70.1, 72.3]``, as ``compose.with_interval`` writes it) in a smaller font, published rows
in italics below a rule. Figures are left out: a paper draws its own."""
from __future__ import annotations

import re

from wsd_classic.report.document import Document, Table

# A figure followed by its interval, as ``compose.with_interval`` writes it.
INTERVAL = re.compile(r"^(\S+) (\[[^\]]*\])$")
SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
           "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
           "^": r"\textasciicircum{}", "<": r"\textless{}", ">": r"\textgreater{}"}
# Tables of many datasets are wide: tighter than LaTeX's 6pt, and across both columns of a
# two-column paper (table*).
COLUMN_SEPARATION = "4pt"


def escape(text: str) -> str:
    return "".join(SPECIAL.get(character, character) for character in " ".join(text.split()))


def render(document: Document) -> str:
    parts = document.render(heading=lambda title: f"% --- {escape(title)} ---",
                            table=_table, figure=lambda figure: "",
                            paragraph=lambda text: "% " + " ".join(text.split()))
    return "\n".join([f"% {document.title}", *(part for part in parts if part)]) + "\n"


def _table(table: Table) -> str:
    columns = "".join("l" if column in table.text_columns else "r"
                      for column in range(len(table.header)))
    lines = [r"\begin{table*}[t]", r"\centering", r"\footnotesize",
             rf"\setlength{{\tabcolsep}}{{{COLUMN_SEPARATION}}}",
             rf"\caption{{{escape(table.caption)}}}", rf"\begin{{tabular}}{{{columns}}}",
             r"\toprule", " & ".join(escape(cell) for cell in table.header) + r" \\",
             r"\midrule"]
    for number, row in enumerate(table.rows):
        if number in table.published and number - 1 not in table.published and number:
            lines.append(r"\midrule")
        cells = [_cell(cell, (number, column) in table.best, number in table.published)
                 for column, cell in enumerate(row)]
        lines.append(" & ".join(cells) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}", r"\end{table*}"]
    return "\n".join(lines)


def _cell(text: str, best: bool, published: bool) -> str:
    match = INTERVAL.match(text)
    value, interval = (match.group(1), match.group(2)) if match else (text, None)
    cell = escape(value)
    if best:
        cell = rf"\textbf{{{cell}}}"
    if published and cell:
        cell = rf"\textit{{{cell}}}"
    return cell if interval is None else rf"{cell} {{\scriptsize {escape(interval)}}}"
