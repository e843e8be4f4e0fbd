"""`SQLiteScope`: the reads and writes of one profile inside one SQLite transaction."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING

import numpy as np

from somna.errors import ConflictStateError, InvalidInputError, StoreError
from somna.model import (
    ACTIVE_STATUSES,
    Conflict,
    ConflictStatus,
    Evidence,
    Fact,
    FactEvent,
    FactType,
    Message,
    Session,
    SessionStatus,
    Summary,
    SummaryKind,
    new_id,
    utc,
)
from somna.model.lifecycle import Change
from somna.store.base import Eligibility, FactFilter, NewMessage, SourceCursor
from somna.store.checks import check_change, require_facts
from somna.store.sqlite.queries import (
    MUTABLE,
    eligibility_sql,
    fts_query,
    placeholders,
)
from somna.store.sqlite.rows import (
    FACT_COLUMNS,
    conflict_from_row,
    conflict_params,
    cursor_params,
    event_from_row,
    evidence_from_row,
    fact_from_row,
    fact_params,
    message_from_row,
    session_from_row,
    summary_from_row,
    ts,
)
from somna.store.sqlite.threads import ThreadQueries

if TYPE_CHECKING:
    from somna.store.sqlite.store import SQLiteStore

__all__ = ["SQLiteScope"]


def _moved(cursor: SourceCursor) -> str:
    return (
        f"The cursor of {cursor.key!r} (segment {cursor.segment}) in {cursor.source!r} moved "
        "since it was read: another import of that source ran at the same time. Nothing was "
        "written; run the import again."
    )


class SQLiteScope(ThreadQueries):
    """Reads and writes of one profile inside one transaction."""

    def __init__(self, store: SQLiteStore, conn: sqlite3.Connection, profile_id: str) -> None:
        self._store = store
        self._conn = conn
        self._profile_id = profile_id
        self._revision_before: int | None = None
        self._revision_after = 0
        self._patches: list[tuple[Fact, np.ndarray | None]] = []

    @property
    def profile_id(self) -> str:
        return self._profile_id

    def _facts(
        self, where: str, params: Sequence[object], tail: str = "", *, by_id: bool = False
    ) -> list[Fact]:
        # Looking up by id, the unary plus keeps the planner off the profile indexes,
        # which would scan every fact of the profile instead of using the primary key.
        profile = "+f.profile_id" if by_id else "f.profile_id"
        rows = self._conn.execute(
            f"SELECT {FACT_COLUMNS} FROM facts f WHERE {profile} = ? AND {where} {tail}",
            (self._profile_id, *params),
        ).fetchall()
        return [fact_from_row(row) for row in rows]

    # -- facts --------------------------------------------------------------------------

    def get_fact(self, fact_id: str) -> Fact | None:
        found = self._facts("f.id = ?", (fact_id,), by_id=True)
        return found[0] if found else None

    def get_facts(self, fact_ids: Sequence[str]) -> list[Fact]:
        if not fact_ids:
            return []
        rows = self._facts(f"f.id IN ({placeholders(fact_ids)})", fact_ids, by_id=True)
        found = {f.id: f for f in rows}
        return [found[i] for i in fact_ids if i in found]

    def find_active(self, type: FactType, subject: str, text_hash: str) -> Fact | None:
        # Statuses spelled out, so SQLite can prove the partial unique index applies.
        found = self._facts(
            "f.type = ? AND f.subject = ? AND f.text_hash = ? "
            "AND f.status IN ('unverified', 'verified')",
            (type.value, subject, text_hash),
        )
        return found[0] if found else None

    def list_facts(self, flt: FactFilter, now: datetime) -> list[Fact]:
        clauses: list[str] = []
        params: list[object] = []
        if flt.as_of is not None and flt.statuses is None:
            eligible = Eligibility(at=utc(flt.as_of), now=now, include_superseded=True)
            sql, extra = eligibility_sql(eligible)
            clauses.append(sql)
            params.extend(extra)
        else:
            statuses = sorted(s.value for s in (flt.statuses or ACTIVE_STATUSES))
            clauses.append(f"f.status IN ({placeholders(statuses)})")
            params.extend(statuses)
            if flt.as_of is not None:
                clauses.append("f.valid_from <= ? AND (f.valid_to IS NULL OR f.valid_to > ?)")
                params.extend([ts(flt.as_of), ts(flt.as_of)])
        if flt.types:
            clauses.append(f"f.type IN ({placeholders(flt.types)})")
            params.extend(t.value for t in flt.types)
        for column in ("category", "subject"):
            value = getattr(flt, column)
            if value is not None:
                clauses.append(f"f.{column} = ?")
                params.append(value)
        if flt.text:
            clauses.append("instr(lower(f.text), lower(?)) > 0")
            params.append(flt.text)
        return self._facts(
            " AND ".join(clauses),
            [*params, flt.limit, flt.offset],
            "ORDER BY f.valid_from DESC, f.recorded_at DESC, f.id LIMIT ? OFFSET ?",
        )

    def predecessors(self, fact_id: str) -> list[Fact]:
        return self._facts("f.superseded_by = ?", (fact_id,), "ORDER BY f.recorded_at")

    def evidence(self, fact_ids: Sequence[str]) -> list[Evidence]:
        if not fact_ids:
            return []
        rows = self._conn.execute(
            f"SELECT * FROM evidence WHERE profile_id = ? AND fact_id IN "
            f"({placeholders(fact_ids)}) ORDER BY observed_at, rowid",
            (self._profile_id, *fact_ids),
        ).fetchall()
        return [evidence_from_row(row) for row in rows]

    def events(self, fact_ids: Sequence[str]) -> list[FactEvent]:
        if not fact_ids:
            return []
        rows = self._conn.execute(
            f"SELECT * FROM fact_events WHERE profile_id = ? AND fact_id IN "
            f"({placeholders(fact_ids)}) ORDER BY at, rowid",
            (self._profile_id, *fact_ids),
        ).fetchall()
        return [event_from_row(row) for row in rows]

    # -- conflicts ----------------------------------------------------------------------

    def get_conflict(self, conflict_id: str) -> Conflict | None:
        row = self._conn.execute(
            "SELECT * FROM conflicts WHERE profile_id = ? AND id = ?",
            (self._profile_id, conflict_id),
        ).fetchone()
        return conflict_from_row(row) if row else None

    def list_conflicts(
        self, statuses: Sequence[ConflictStatus], fact_id: str | None = None
    ) -> list[Conflict]:
        values = [s.value for s in statuses]
        sql = f"SELECT * FROM conflicts WHERE profile_id = ? AND status IN ({placeholders(values)})"
        params: list[object] = [self._profile_id, *values]
        if fact_id is not None:
            sql += " AND (fact_a = ? OR fact_b = ?)"
            params.extend([fact_id, fact_id])
        rows = self._conn.execute(sql + " ORDER BY created_at, id", params).fetchall()
        return [conflict_from_row(row) for row in rows]

    # -- search -------------------------------------------------------------------------

    def text_search(self, query: str, eligible: Eligibility, limit: int) -> list[tuple[str, float]]:
        match = fts_query(query)
        if not match:
            return []
        where, params = eligibility_sql(eligible)
        rows = self._conn.execute(
            "SELECT f.id, bm25(facts_fts) AS rank FROM facts_fts "
            "JOIN facts f ON f.rowid = facts_fts.rowid "
            f"WHERE facts_fts MATCH ? AND f.profile_id = ? AND {where} "
            "ORDER BY rank LIMIT ?",
            (match, self._profile_id, *params, limit),
        ).fetchall()
        return [(row["id"], -float(row["rank"])) for row in rows]

    def vector_search(
        self, vector: np.ndarray, eligible: Eligibility, limit: int
    ) -> list[tuple[str, float]]:
        index = self._store.fact_index(self._conn, self._profile_id)
        if index is None:
            return []
        if vector.shape != (index.dim,):
            raise StoreError(
                f"This profile's facts were embedded in {index.dim} dimensions and the query in "
                f"{vector.shape[0]}: the embedder changed, so re-embed the facts or switch back."
            )
        return index.search(vector, eligible, limit)

    def summary_text_search(
        self, query: str, kinds: Sequence[SummaryKind], at: datetime, limit: int
    ) -> list[tuple[str, float]]:
        match = fts_query(query)
        if not match or not kinds:
            return []
        values = [k.value for k in kinds]
        rows = self._conn.execute(
            "SELECT s.id, bm25(summaries_fts) AS rank FROM summaries_fts "
            "JOIN summaries s ON s.rowid = summaries_fts.rowid "
            f"WHERE summaries_fts MATCH ? AND s.profile_id = ? AND s.kind IN "
            f"({placeholders(values)}) AND coalesce(s.period_start, s.created_at) <= ? "
            "ORDER BY rank LIMIT ?",
            (match, self._profile_id, *values, ts(at), limit),
        ).fetchall()
        return [(row["id"], -float(row["rank"])) for row in rows]

    def summary_vector_search(
        self, vector: np.ndarray, kinds: Sequence[SummaryKind], at: datetime, limit: int
    ) -> list[tuple[str, float]]:
        if not kinds:
            return []
        index = self._store.summary_index(self._conn, self._profile_id)
        if index is None:
            return []
        ids, matrix, kind_of, starts = index
        wanted = np.isin(kind_of, [k.value for k in kinds]) & (starts <= at.timestamp())
        if not wanted.any():
            return []
        scores = matrix @ vector.astype(np.float32)
        scores[~wanted] = -np.inf
        top = np.argsort(-scores, kind="stable")[: min(limit, int(wanted.sum()))]
        return [(ids[i], float(scores[i])) for i in top]

    def get_summaries(self, summary_ids: Sequence[str]) -> list[Summary]:
        if not summary_ids:
            return []
        rows = self._conn.execute(
            f"SELECT * FROM summaries WHERE profile_id = ? AND id IN ({placeholders(summary_ids)})",
            (self._profile_id, *summary_ids),
        ).fetchall()
        found = {row["id"]: summary_from_row(row) for row in rows}
        return [found[i] for i in summary_ids if i in found]

    def messages_by_id(self, message_ids: Sequence[str]) -> list[Message]:
        if not message_ids:
            return []
        marks = placeholders(message_ids)
        columns = "id, session_id, profile_id, seq, role, content, created_at, meta"
        rows = self._conn.execute(
            f"SELECT {columns} FROM messages WHERE profile_id = ? AND id IN ({marks}) "
            f"UNION ALL SELECT {columns} FROM archived_messages "
            f"WHERE profile_id = ? AND id IN ({marks})",
            (self._profile_id, *message_ids, self._profile_id, *message_ids),
        ).fetchall()
        return [message_from_row(row) for row in rows]

    # -- sessions -----------------------------------------------------------------------

    def latest_session(self, key: str) -> Session | None:
        row = self._conn.execute(
            "SELECT * FROM sessions WHERE profile_id = ? AND key = ? "
            "ORDER BY started_at DESC, id DESC LIMIT 1",
            (self._profile_id, key),
        ).fetchone()
        return session_from_row(row) if row else None

    def sessions(self, limit: int = 100) -> list[Session]:
        rows = self._conn.execute(
            "SELECT * FROM sessions WHERE profile_id = ? ORDER BY started_at DESC, id DESC LIMIT ?",
            (self._profile_id, limit),
        ).fetchall()
        return [session_from_row(row) for row in rows]

    def window(self, key: str, n: int) -> list[Message]:
        rows = self._conn.execute(
            "SELECT m.* FROM messages m JOIN sessions s ON s.id = m.session_id "
            "WHERE s.profile_id = ? AND s.key = ? "
            "ORDER BY m.created_at DESC, s.started_at DESC, m.seq DESC LIMIT ?",
            (self._profile_id, key, n),
        ).fetchall()
        return [message_from_row(row) for row in reversed(rows)]

    def add_messages(self, key: str, messages: Sequence[NewMessage]) -> Session:
        live = sorted(s.value for s in (SessionStatus.OPEN, SessionStatus.CLOSED))
        row = self._conn.execute(
            f"SELECT * FROM sessions WHERE profile_id = ? AND key = ? AND status IN "
            f"({placeholders(live)})",
            (self._profile_id, key, *live),
        ).fetchone()
        first = min(m.created_at for m in messages)
        last = max(m.created_at for m in messages)
        if row is None:
            session = Session(
                profile_id=self._profile_id, key=key, started_at=first, last_message_at=last
            )
            self._conn.execute(
                "INSERT INTO sessions (id, profile_id, key, started_at, last_message_at, status) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (session.id, self._profile_id, key, ts(first), ts(last), session.status.value),
            )
            seq = 0
        else:
            session = session_from_row(row)
            session.last_message_at = max(session.last_message_at, last)
            session.status = SessionStatus.OPEN
            self._conn.execute(
                "UPDATE sessions SET last_message_at = ?, status = ? "
                "WHERE profile_id = ? AND id = ?",
                (ts(session.last_message_at), session.status.value, self._profile_id, session.id),
            )
            seq = self._conn.execute(
                "SELECT coalesce(max(seq) + 1, 0) FROM messages "
                "WHERE profile_id = ? AND session_id = ?",
                (self._profile_id, session.id),
            ).fetchone()[0]
        self._conn.executemany(
            "INSERT INTO messages (id, session_id, profile_id, seq, role, content, created_at, "
            "meta) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    new_id("msg"),
                    session.id,
                    self._profile_id,
                    seq + offset,
                    message.role.value,
                    message.content,
                    ts(message.created_at),
                    json.dumps(message.meta),
                )
                for offset, message in enumerate(messages)
            ],
        )
        return session

    def session_messages(self, session_id: str) -> list[Message]:
        rows = self._conn.execute(
            "SELECT * FROM messages WHERE profile_id = ? AND session_id = ? ORDER BY seq",
            (self._profile_id, session_id),
        ).fetchall()
        return [message_from_row(row) for row in rows]

    def summaries(
        self, kind: SummaryKind, *, limit: int = 100, since: datetime | None = None
    ) -> list[Summary]:
        sql = "SELECT * FROM summaries WHERE profile_id = ? AND kind = ?"
        params: list[object] = [self._profile_id, kind.value]
        if since is not None:
            sql += " AND coalesce(period_end, created_at) >= ?"
            params.append(ts(since))
        sql += " ORDER BY coalesce(period_start, created_at) DESC, created_at DESC LIMIT ?"
        rows = self._conn.execute(sql, (*params, limit)).fetchall()
        return [summary_from_row(row) for row in rows]

    _DUE = (
        "profile_id = ? AND status IN ('open', 'closed') AND last_message_at <= ? "
        "AND (lease_until IS NULL OR lease_until <= ?) "
        "AND (next_attempt_at IS NULL OR next_attempt_at <= ?)"
    )

    def due_sessions(self, *, idle_before: datetime, now: datetime, limit: int) -> list[Session]:
        rows = self._conn.execute(
            f"SELECT * FROM sessions WHERE {self._DUE} ORDER BY last_message_at, id LIMIT ?",
            (self._profile_id, ts(idle_before), ts(now), ts(now), limit),
        ).fetchall()
        return [session_from_row(row) for row in rows]

    def held_sessions(self, *, idle_before: datetime, now: datetime) -> list[Session]:
        rows = self._conn.execute(
            "SELECT * FROM sessions WHERE profile_id = ? AND status IN ('open', 'closed') "
            "AND last_message_at <= ? AND lease_until > ? ORDER BY lease_until",
            (self._profile_id, ts(idle_before), ts(now)),
        ).fetchall()
        return [session_from_row(row) for row in rows]

    def lease_sessions(
        self, *, idle_before: datetime, now: datetime, owner: str, until: datetime, limit: int
    ) -> list[Session]:
        rows = self._conn.execute(
            "UPDATE sessions SET lease_owner = ?, lease_until = ? WHERE id IN ("
            f"SELECT id FROM sessions WHERE {self._DUE} ORDER BY last_message_at, id LIMIT ?"
            ") RETURNING *",
            (owner, ts(until), self._profile_id, ts(idle_before), ts(now), ts(now), limit),
        ).fetchall()
        sessions = [session_from_row(row) for row in rows]
        return sorted(sessions, key=lambda s: (s.last_message_at, s.id))

    def release_session(self, session_id: str, owner: str, *, retry_at: datetime | None) -> None:
        failed = retry_at is not None
        self._conn.execute(
            "UPDATE sessions SET lease_owner = NULL, lease_until = NULL, "
            "attempts = attempts + ?, next_attempt_at = coalesce(?, next_attempt_at) "
            "WHERE profile_id = ? AND id = ? AND lease_owner = ?",
            (int(failed), ts(retry_at), self._profile_id, session_id, owner),
        )

    def renew_lease(self, session_id: str, owner: str, *, until: datetime) -> bool:
        return bool(
            self._conn.execute(
                "UPDATE sessions SET lease_until = ? WHERE profile_id = ? AND id = ? "
                "AND lease_owner = ? AND status IN ('open', 'closed')",
                (ts(until), self._profile_id, session_id, owner),
            ).rowcount
        )

    def finish_session(
        self,
        session_id: str,
        owner: str,
        *,
        at: datetime,
        purge_after: datetime,
        through_seq: int,
    ) -> int:
        held = self._conn.execute(
            "UPDATE sessions SET status = 'archived', consolidated_at = ?, lease_owner = NULL, "
            "lease_until = NULL WHERE profile_id = ? AND id = ? AND lease_owner = ? "
            "AND status IN ('open', 'closed')",
            (ts(at), self._profile_id, session_id, owner),
        ).rowcount
        if not held:
            raise ConflictStateError(
                f"Session {session_id!r} is not leased by {owner!r} any more; "
                "another worker has taken it."
            )
        moved = self._conn.execute(
            "INSERT INTO archived_messages (id, session_id, profile_id, seq, role, content, "
            "created_at, meta, archived_at, purge_after) "
            "SELECT id, session_id, profile_id, seq, role, content, created_at, meta, ?, ? "
            "FROM messages WHERE profile_id = ? AND session_id = ? AND seq <= ?",
            (ts(at), ts(purge_after), self._profile_id, session_id, through_seq),
        ).rowcount
        self._conn.execute(
            "DELETE FROM messages WHERE profile_id = ? AND session_id = ? AND seq <= ?",
            (self._profile_id, session_id, through_seq),
        )
        self._reopen_unread(session_id, through_seq)
        return int(moved)

    def _reopen_unread(self, session_id: str, through_seq: int) -> None:
        """Messages that arrived while the session was read move to a new live session."""
        span = self._conn.execute(
            "SELECT min(created_at) AS first, max(created_at) AS last FROM messages "
            "WHERE profile_id = ? AND session_id = ?",
            (self._profile_id, session_id),
        ).fetchone()
        if span["first"] is None:
            return
        fresh = new_id("ses")
        self._conn.execute(
            "INSERT INTO sessions (id, profile_id, key, started_at, last_message_at, status) "
            "SELECT ?, profile_id, key, ?, ?, 'open' FROM sessions WHERE profile_id = ? AND id = ?",
            (fresh, span["first"], span["last"], self._profile_id, session_id),
        )
        self._conn.execute(
            "UPDATE messages SET session_id = ?, seq = seq - ? WHERE profile_id = ? "
            "AND session_id = ?",
            (fresh, through_seq + 1, self._profile_id, session_id),
        )

    def add_summary(self, summary: Summary, vector: list[float] | None) -> None:
        if summary.profile_id != self._profile_id:
            raise InvalidInputError(
                f"Summary {summary.id!r} does not belong to profile {self._profile_id!r}."
            )
        self._conn.execute(
            "INSERT INTO summaries (id, profile_id, kind, text, period_start, period_end, "
            "session_id, sources, created_at, embedding) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                summary.id,
                self._profile_id,
                summary.kind.value,
                summary.text,
                ts(summary.period_start),
                ts(summary.period_end),
                summary.session_id,
                json.dumps(summary.sources),
                ts(summary.created_at),
                None if vector is None else np.asarray(vector, dtype="<f4").tobytes(),
            ),
        )

    def purge_archive(self, now: datetime) -> int:
        return int(
            self._conn.execute(
                "DELETE FROM archived_messages WHERE profile_id = ? AND purge_after <= ?",
                (self._profile_id, ts(now)),
            ).rowcount
        )

    def record_usage(self, facts: Sequence[Fact]) -> None:
        self._conn.executemany(
            "UPDATE facts SET strength = ?, recall_count = ?, last_recalled_at = ? "
            "WHERE profile_id = ? AND id = ?",
            [
                (f.strength, f.recall_count, ts(f.last_recalled_at), self._profile_id, f.id)
                for f in facts
            ],
        )

    def record_judged(self, fact_ids: Sequence[str], at: datetime) -> None:
        self._conn.executemany(
            "UPDATE facts SET judged_at = ? WHERE profile_id = ? AND id = ?",
            [(ts(at), self._profile_id, fact_id) for fact_id in fact_ids],
        )

    def save_source_cursor(self, cursor: SourceCursor, *, expected_last_row_id: int | None) -> None:
        if cursor.profile_id != self._profile_id:
            raise InvalidInputError(
                f"A cursor of profile {cursor.profile_id!r} cannot be saved in profile "
                f"{self._profile_id!r}."
            )
        params = cursor_params(cursor)
        if expected_last_row_id is None:
            saved = self._conn.execute(
                "INSERT OR IGNORE INTO source_cursors (profile_id, source, key, segment, "
                "session_key, after_row_id, last_row_id, last_change_seen_at, purged_at) VALUES "
                "(:profile_id, :source, :key, :segment, :session_key, :after_row_id, "
                ":last_row_id, :last_change_seen_at, :purged_at)",
                params,
            ).rowcount
        else:
            saved = self._conn.execute(
                "UPDATE source_cursors SET session_key = :session_key, last_row_id = "
                ":last_row_id, last_change_seen_at = :last_change_seen_at, purged_at = :purged_at "
                "WHERE profile_id = :profile_id AND source = :source AND key = :key "
                "AND segment = :segment AND last_row_id = :expected",
                {**params, "expected": expected_last_row_id},
            ).rowcount
        if not saved:
            raise ConflictStateError(_moved(cursor))

    # -- writes -------------------------------------------------------------------------

    def apply(self, change: Change) -> None:
        self._check(change)
        for fact in change.facts:
            self._upsert_fact(fact, change.vectors.get(fact.id))
        self._conn.executemany(
            "INSERT INTO evidence (id, fact_id, profile_id, session_id, message_id, quote, "
            "observed_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    e.id,
                    e.fact_id,
                    self._profile_id,
                    e.session_id,
                    e.message_id,
                    e.quote,
                    ts(e.observed_at),
                )
                for e in change.evidence
            ],
        )
        self._conn.executemany(
            "INSERT INTO fact_events (id, fact_id, profile_id, at, action, actor, before, after) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    e.id,
                    e.fact_id,
                    self._profile_id,
                    ts(e.at),
                    e.action.value,
                    e.actor,
                    None if e.before is None else json.dumps(e.before),
                    None if e.after is None else json.dumps(e.after),
                )
                for e in change.events
            ],
        )
        for conflict in change.conflicts:
            self._upsert_conflict(conflict)
        if change.facts:
            self._bump_revision()

    def _check(self, change: Change) -> None:
        outside = check_change(change, self._profile_id)
        if outside:
            found = self._conn.execute(
                f"SELECT id FROM facts WHERE profile_id = ? AND id IN ({placeholders(outside)})",
                (self._profile_id, *outside),
            )
            require_facts(self._profile_id, outside, (row[0] for row in found))

    def _upsert_fact(self, fact: Fact, vector: list[float] | None) -> None:
        params = fact_params(fact)
        updated = self._conn.execute(
            f"UPDATE facts SET {', '.join(f'{c} = :{c}' for c in MUTABLE)} "
            "WHERE id = :id AND profile_id = :profile_id",
            params,
        ).rowcount
        array = None if vector is None else np.asarray(vector, dtype="<f4")
        if not updated:
            if array is None:  # an update of a fact this profile does not have
                raise InvalidInputError(
                    f"Profile {self._profile_id!r} has no fact with id {fact.id!r}."
                )
            columns = [*params, "embedding"]
            self._conn.execute(
                f"INSERT INTO facts ({', '.join(columns)}) "
                f"VALUES ({', '.join(':' + c for c in columns)})",
                {**params, "embedding": array.tobytes()},
            )
        self._patches.append((fact, array))

    def _upsert_conflict(self, conflict: Conflict) -> None:
        params = conflict_params(conflict)
        columns = list(params)
        updated = self._conn.execute(
            f"UPDATE conflicts SET {', '.join(f'{c} = :{c}' for c in columns)} "
            "WHERE id = :id AND profile_id = :profile_id",
            params,
        ).rowcount
        if not updated:
            self._conn.execute(
                f"INSERT INTO conflicts ({', '.join(columns)}) "
                f"VALUES ({', '.join(':' + c for c in columns)})",
                params,
            )

    def _bump_revision(self) -> None:
        row = self._conn.execute(
            "UPDATE profiles SET facts_rev = facts_rev + 1 WHERE id = ? RETURNING facts_rev",
            (self._profile_id,),
        ).fetchone()
        self._revision_after = int(row[0])
        if self._revision_before is None:
            self._revision_before = self._revision_after - 1

    def patch_index(self) -> None:
        """After commit: bring the cached vector index up to date without reloading it."""
        if self._revision_before is not None:
            self._store.patch_fact_index(
                self._profile_id, self._revision_before, self._revision_after, self._patches
            )
