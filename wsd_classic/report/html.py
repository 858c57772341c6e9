"""The report as one self-contained HTML file: inline style, figures as base64 ``data:`` URIs.

It opens from disk with no network: the Content-Security-Policy forbids every external fetch, so a
browser would refuse (rather than quietly load) anything that is not in the file itself.
"""
from __future__ import annotations

import base64
from html import escape

from wsd_classic.report.document import Document, Figure, Table

CONTENT_SECURITY_POLICY = "default-src 'none'; img-src data:; style-src 'unsafe-inline'"
TEXT_CELL = ' class="text"'
STYLE = """
body { font-family: sans-serif; margin: 2em auto; max-width: 70em; color: #222; }
table { border-collapse: collapse; margin: 1em 0; font-size: 0.9em; }
caption { text-align: left; font-weight: bold; padding-bottom: 0.4em; }
th, td { border: 1px solid #bbb; padding: 0.25em 0.6em; text-align: right; white-space: nowrap; }
.text { text-align: left; white-space: normal; }
th { background: #eee; }
tr.published td { color: #555; font-style: italic; }
figure { margin: 1.5em 0; }
figure img { max-width: 100%; }
figcaption { font-size: 0.9em; color: #444; }
"""


def render(document: Document) -> str:
    body = document.render(heading=lambda title: f"<h2>{escape(title)}</h2>", table=_table,
                           figure=_figure, paragraph=lambda text: f"<p>{escape(text)}</p>")
    return "\n".join((
        "<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{CONTENT_SECURITY_POLICY}">',
        f"<title>{escape(document.title)}</title>", f"<style>{STYLE}</style>", "</head>",
        "<body>", f"<h1>{escape(document.title)}</h1>", *body, "</body>", "</html>"))


def _table(table: Table) -> str:
    rows = [f"<table>\n<caption>{escape(table.caption)}</caption>",
            "<thead><tr>" + "".join(
                f'<th{TEXT_CELL if column in table.text_columns else ""}>{escape(cell)}</th>'
                for column, cell in enumerate(table.header)) + "</tr></thead>", "<tbody>"]
    for number, row in enumerate(table.rows):
        kind = ' class="published"' if number in table.published else ""
        cells = "".join(f'<td{TEXT_CELL if column in table.text_columns else ""}>'
                        + (f"<strong>{escape(cell)}</strong>" if (number, column) in table.best
                           else escape(cell)) + "</td>" for column, cell in enumerate(row))
        rows.append(f"<tr{kind}>{cells}</tr>")
    rows.append("</tbody>\n</table>")
    return "\n".join(rows)


def _figure(figure: Figure) -> str:
    data = base64.b64encode(figure.png).decode("ascii")
    return (f'<figure id="{escape(figure.name)}">\n'
            f'<img src="data:image/png;base64,{data}" alt="{escape(figure.caption)}">\n'
            f"<figcaption>{escape(figure.caption)}</figcaption>\n</figure>")
