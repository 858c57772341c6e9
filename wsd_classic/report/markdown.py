"""The report as GitHub-flavoured Markdown; figures become PNG files beside it."""
from __future__ import annotations

import re

from wsd_classic.report.document import Document, Figure, Table

TAG_START = re.compile(r"<(?=[A-Za-z/!?])")


def figure_filename(stem: str, figure: Figure) -> str:
    return f"{stem}-{figure.name}.png"


def render(document: Document, stem: str = "report") -> str:
    """The Markdown text; figure ``f`` is linked as ``figure_filename(stem, f)``."""
    parts = document.render(heading=lambda title: f"## {title}", table=_table,
                            figure=lambda figure: _figure(figure, stem), paragraph=_one_line)
    return "\n\n".join([f"# {document.title}", *parts]) + "\n"


def _figure(figure: Figure, stem: str) -> str:
    alt = _one_line(figure.caption).replace("[", r"\[").replace("]", r"\]")
    return f"![{alt}]({figure_filename(stem, figure)})\n\n*{_one_line(figure.caption)}*"


def _one_line(text: str) -> str:
    """Text on one line, with a ``<`` that could open a tag written as an entity, so that
    ``<system>`` is not taken for HTML and hidden (``< 0.001`` stays as it is)."""
    return TAG_START.sub("&lt;", " ".join(text.split()))


def _cell(text: str) -> str:
    """A table cell: one line, its pipes escaped so that they do not end the cell."""
    return _one_line(text).replace("|", r"\|")


def _table(table: Table) -> str:
    lines = [f"**{_one_line(table.caption)}**", "",
             "| " + " | ".join(_cell(cell) for cell in table.header) + " |",
             "|" + "|".join("---" for _ in table.header) + "|"]
    for number, row in enumerate(table.rows):
        cells = [f"**{_cell(cell)}**" if (number, column) in table.best else _cell(cell)
                 for column, cell in enumerate(row)]
        if number in table.published:  # italics, as in the HTML report
            cells = [f"*{cell}*" if cell else cell for cell in cells]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)
