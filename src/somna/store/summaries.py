"""How a scope reads summaries, for both backends: digests of sessions and days, the portrait.

Searching and adding summaries differ (full-text engines, vector columns), so
each backend keeps those; what reads the same is here.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from somna.model import Summary, SummaryKind
from somna.store.columns import SUMMARY_COLUMNS, SUMMARY_FIELDS, Row
from somna.store.sql import Statements

__all__ = ["SummaryQueries"]


class SummaryQueries(Statements):
    """Mixed into a backend's scope: the summaries of one profile."""

    _profile_id: str

    def summaries(
        self, kind: SummaryKind, *, limit: int = 100, since: datetime | None = None
    ) -> list[Summary]:
        sql = (
            f"SELECT {SUMMARY_COLUMNS} FROM summaries WHERE profile_id = :profile AND kind = :kind"
        )
        params: dict[str, object] = {
            "profile": self._profile_id,
            "kind": kind.value,
            "limit": limit,
        }
        if since is not None:
            sql += " AND coalesce(period_end, created_at) >= :since"
            params["since"] = since
        sql += " ORDER BY coalesce(period_start, created_at) DESC, created_at DESC LIMIT :limit"
        rows = self._all(sql, params)
        return [self._summary(row) for row in rows]

    def get_summaries(self, summary_ids: Sequence[str]) -> list[Summary]:
        if not summary_ids:
            return []
        where, params = self._one_of("id", "id", list(summary_ids))
        rows = self._all(
            f"SELECT {SUMMARY_COLUMNS} FROM summaries WHERE profile_id = :profile AND {where}",
            {"profile": self._profile_id, **params},
        )
        found = {row["id"]: self._summary(row) for row in rows}
        return [found[i] for i in summary_ids if i in found]

    def _summary(self, row: Row) -> Summary:
        return Summary.model_validate(
            {**{name: row[name] for name in SUMMARY_FIELDS}, "sources": self._json(row["sources"])}
        )
