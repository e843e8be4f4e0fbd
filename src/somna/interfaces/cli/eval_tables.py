"""Tables of figures that a terminal shows whole: no cell is ever cut short with "…".

`somna eval` prints many columns of short figures. Rich would squeeze them into the
terminal and cut their headers; instead, `fitted` lays the columns out side by side as
far as the width allows and goes on in a second table (the row names repeated) when it
does not. A header may hold several lines ("evidence\\n@10") to stay narrow.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from rich import box
from rich.cells import cell_len
from rich.console import RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

__all__ = ["Column", "figures_table", "fitted", "spaced"]


@dataclass(frozen=True)
class Column:
    """One column: its header and one cell per row; figures align right, names left."""

    header: str
    cells: Sequence[str | Text]
    left: bool = False
    sections: frozenset[int] = field(default=frozenset())
    """Rows after which a rule is drawn (only the first column's are read)."""

    @property
    def width(self) -> int:
        texts = [self.header, *(str(c) for c in self.cells)]
        return max(cell_len(line) for text in texts for line in text.splitlines() or [""])


def figures_table(title: str, gap: int = 2) -> Table:
    """An empty table in the style of every `somna eval` table: `gap` spaces between
    columns (the box draws one), no edges, a rule under the headers."""
    return Table(
        title=title,
        box=box.SIMPLE_HEAD,
        title_justify="left",
        pad_edge=False,
        padding=(0, 0, 0, gap - 1),
        show_edge=False,
    )


def fitted(title: str, key: Column, columns: Sequence[Column], width: int) -> list[Table]:
    """The columns beside the `key` column, in as many tables as `width` requires.

    Each table repeats the key column; the second and later ones are titled
    "(continued)". A column wider than `width` on its own still gets a table.
    """
    gap = 2
    groups: list[list[Column]] = [[]]
    used = key.width
    for column in columns:
        if groups[-1] and used + gap + column.width > width:
            groups.append([])
            used = key.width
        groups[-1].append(column)
        used += gap + column.width
    tables = []
    for number, group in enumerate(groups):
        table = figures_table(title if number == 0 else f"{title} (continued)", gap)
        for column in (key, *group):
            table.add_column(
                column.header,
                justify="left" if column.left else "right",
                overflow="fold",
                min_width=column.width,
            )
        for row in range(len(key.cells)):
            table.add_row(
                key.cells[row], *(c.cells[row] for c in group), end_section=row in key.sections
            )
        tables.append(table)
    return tables


def spaced(*renderables: RenderableType) -> list[RenderableType]:
    """The renderables with a blank line after each (tables without edges have none)."""
    return [Padding(r, (0, 0, 1, 0), expand=False) for r in renderables]
