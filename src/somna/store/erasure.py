"""What erasure shares across backends: the order in which a profile's tables are emptied.

`forget` finds the tables to empty from the schema itself (every table with a
`profile_id` column), so a table added by a later migration is erased without
anyone remembering to list it.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["deletion_order"]


def deletion_order(tables: Iterable[str], references: Iterable[tuple[str, str]]) -> list[str]:
    """`tables` ordered so that a table comes before every table it references
    (pairs of (child, parent)); erasure deletes in this order."""
    pending = sorted(set(tables))
    parents = {t: {p for c, p in references if c == t and p != t and p in pending} for t in pending}
    ordered: list[str] = []
    while pending:
        ready = [t for t in pending if not any(t in parents[c] for c in pending if c != t)]
        if not ready:  # a cycle: the database's own constraints will say what is wrong
            ready = pending[:1]
        ordered.extend(ready)
        pending = [t for t in pending if t not in ready]
    return ordered
