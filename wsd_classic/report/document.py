"""The report as structured content (headings, paragraphs, tables, figures), independent of the
output format: ``report.markdown`` and ``report.html`` render the same document."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Table:
    """A table; ``published`` marks the rows that are published results rather than ours,
    ``text_columns`` the columns of words (aligned left) rather than numbers, and ``best`` the
    ``(row, column)`` cells that hold the best figure of their column (set in bold)."""

    caption: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    published: frozenset[int] = frozenset()
    text_columns: frozenset[int] = frozenset({0})
    best: frozenset[tuple[int, int]] = frozenset()


@dataclass(frozen=True)
class Figure:
    """A PNG picture; ``name`` is a file-name stem (``reliability``) unique within the report."""

    name: str
    caption: str
    png: bytes


Block = str | Table | Figure  # a str is a paragraph


@dataclass(frozen=True)
class Section:
    title: str
    blocks: tuple[Block, ...]


@dataclass(frozen=True)
class Document:
    title: str
    sections: tuple[Section, ...]

    def figures(self) -> list[Figure]:
        return [block for section in self.sections for block in section.blocks
                if isinstance(block, Figure)]

    def render(self, heading: Callable[[str], str], table: Callable[[Table], str],
               figure: Callable[[Figure], str], paragraph: Callable[[str], str]) -> list[str]:
        """The rendered parts in reading order: each section's heading, then its blocks."""
        parts = []
        for section in self.sections:
            parts.append(heading(section.title))
            for block in section.blocks:
                if isinstance(block, Table):
                    parts.append(table(block))
                elif isinstance(block, Figure):
                    parts.append(figure(block))
                else:
                    parts.append(paragraph(block))
        return parts
