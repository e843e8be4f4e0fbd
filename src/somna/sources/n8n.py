"""The n8n / LangChain chat table: new rows imported incrementally, cut into sessions, purged.

n8n's Postgres chat memory (like LangChain's `PostgresChatMessageHistory`) keeps
one table, `n8n_chat_histories (id serial, session_id varchar, message jsonb)`:
no time column, and often one `session_id` per user that never ends. Somna
reads it with watermarks:

- **Watermarks.** For every source `session_id`, a `SourceCursor` in Somna's own
  store holds the highest row id read and when Somna first saw that row
  (`last_change_seen_at`). An import reads only the rows above each watermark,
  stamps every new row with the time it first sees it, and moves the watermark
  in the store transaction that adds the messages: a row is never imported
  twice, and two imports of one source at once fail rather than duplicate.
- **Sessions.** The rows of one `session_id` are cut into Somna sessions keyed
  `<session_id>#<n>`: a burst of rows followed by `idle_hours` without a new
  row is one session, which consolidation takes once it is that quiet; rows
  that arrive later open `#<n+1>` (and so does any row once `#<n>` has been
  consolidated). Each message keeps its origin in its meta:
  `{"source": "n8n", "row_id": 42, "session_id": "..."}`.
- **Purge**, only when asked: the rows of a session that Somna has archived
  (consolidated) are deleted from the source table, one transaction per
  session. Otherwise the source is only read, in READ ONLY transactions.

Every row shape n8n and LangChain write is read as what it is, and counted by
kind (`RowKind`): what the user said, the agent's reply, an agent's tool call
(AI Agent 3.x writes it with `"content": []` and `tool_calls`), a tool's
result, a system message. Tool calls and results are kept for provenance and
left out of extraction. Malformed rows (a message that is null, not a JSON
object, of an unknown type, or a said message without text) are skipped and
counted, never fatal. The source table may be
on any Postgres server, whatever Somna's own store is (SQLite included).
Import it on a schedule more often than `idle_hours`: rows are stamped when an
import first sees them, so a long gap between imports reads as a pause.

This module writes through the `Store` port (the cursors must move in the
messages' transaction), which is more than the other sources, pure readers, do.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from somna.errors import ConfigurationError, InvalidInputError, StoreError
from somna.model import Profile, Role, Session, SessionStatus, utc
from somna.sources.tombstones import Tombstones
from somna.store import NewMessage, SourceCursor, Store, Writer

if TYPE_CHECKING:
    import psycopg

__all__ = [
    "DEFAULT_TABLE",
    "ChatMessage",
    "N8nImport",
    "N8nReport",
    "N8nTable",
    "ProfileFrom",
    "RowKind",
    "SourceRow",
    "node_suffix",
    "read_chat_message",
    "session_key",
    "without_node_name",
]

DEFAULT_TABLE = "n8n_chat_histories"
"""The table n8n's Postgres chat memory creates unless told otherwise."""

_ROLES = {
    "human": Role.USER,
    "user": Role.USER,
    "ai": Role.ASSISTANT,
    "assistant": Role.ASSISTANT,
    "system": Role.SYSTEM,
    "tool": Role.TOOL,
    "function": Role.TOOL,
}
_LIVE = (SessionStatus.OPEN, SessionStatus.CLOSED)
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_$]*$")
_NOT_PROFILE = re.compile(r"[^A-Za-z0-9_.@:-]+")
_NOT_IN_SUFFIX = re.compile(r"[^A-Za-z0-9_-]")
"""n8n's own rule: each character of a memory node's name outside these becomes `_`."""
_ANY_SUFFIX = re.compile(r"^(?P<id>.+?)__[A-Z][A-Za-z0-9_-]*$")
_KEY_MAX = 256  # Session.key
_CONNECT_TIMEOUT_S = 10


# -- rows and messages ----------------------------------------------------------------


@dataclass(frozen=True)
class SourceRow:
    """One row of the chat table, its message as the driver decoded it."""

    id: int
    session_id: str
    message: Any


class _NotJson(str):
    """The text of a message column of type text that does not decode as JSON."""

    __slots__ = ()


class RowKind(StrEnum):
    """What a row of the chat table is; an import counts its rows by kind."""

    HUMAN = "human"
    AI = "ai"
    TOOL_CALL = "tool call"
    TOOL_RESULT = "tool result"
    SYSTEM = "system"


@dataclass(frozen=True)
class ChatMessage:
    """One stored message as Somna keeps it: its role, its text, and what kind of row it was."""

    role: Role
    content: str
    kind: RowKind

    @property
    def tool_traffic(self) -> bool:
        """A tool call or result: kept for provenance, never a source of facts."""
        return self.kind in (RowKind.TOOL_CALL, RowKind.TOOL_RESULT)


_KINDS = {
    Role.USER: RowKind.HUMAN,
    Role.ASSISTANT: RowKind.AI,
    Role.SYSTEM: RowKind.SYSTEM,
    Role.TOOL: RowKind.TOOL_RESULT,
}


def read_chat_message(message: object) -> ChatMessage:
    """The role, text and kind of one stored message; `ValueError` says why it must be skipped.

    Both layouts occur: n8n's `{"type": "human", "content": "..."}` and
    LangChain's `{"type": "human", "data": {"content": "..."}}`; the content may
    be a list of parts (`[{"type": "text", "text": "..."}]`). An agent's tool
    call may have no text at all (`"content": []` with `tool_calls`): it is
    written as n8n's agents word one, `Calling NAME with input: {...}`.

    >>> read_chat_message({"type": "ai", "data": {"content": "Noted."}}).content
    'Noted.'
    """
    if isinstance(message, _NotJson):
        raise ValueError("not JSON")
    if message is None:
        raise ValueError("null")
    if not isinstance(message, dict):
        raise ValueError("not a JSON object")
    data = message.get("data")
    body: dict[str, Any] = data if isinstance(data, dict) else message
    kind = message.get("type", body.get("type"))
    if kind is None:
        raise ValueError("no type")
    role = _ROLES.get(kind.strip().lower()) if isinstance(kind, str) else None
    if role is None:
        raise ValueError("unknown type")
    text = _text(body.get("content", message.get("content"))).strip()
    calls = _tool_calls(message) if role is Role.ASSISTANT else []
    if calls:
        return ChatMessage(role, text or "\n".join(calls), RowKind.TOOL_CALL)
    if role is Role.TOOL:
        return ChatMessage(role, text or "(no output)", RowKind.TOOL_RESULT)
    if not text:
        raise ValueError("no content")
    return ChatMessage(role, text, _KINDS[role])


def _text(content: object) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [
            part if isinstance(part, str) else part.get("text")
            for part in content
            if isinstance(part, str | dict)
        ]
        return "\n".join(p for p in parts if isinstance(p, str) and p.strip())
    return ""


def _tool_calls(message: dict[str, Any]) -> list[str]:
    """An ai row's tool calls, each as `Calling NAME with input: ARGS`, wherever they are kept.

    LangChain keeps `tool_calls` (`{"name", "args"}`) on the message or in its
    `data`; OpenAI's form (`{"function": {"name", "arguments"}}`) sits in
    `additional_kwargs`.
    """
    data = message.get("data")
    places: list[Any] = [message, data if isinstance(data, dict) else {}]
    places += [p.get("additional_kwargs") for p in places]
    for place in places:
        found = place.get("tool_calls") if isinstance(place, dict) else None
        if isinstance(found, list) and found:
            return [_call(c) for c in found]
    return []


def _call(call: object) -> str:
    if not isinstance(call, dict):
        return "Calling a tool with input: {}"
    function = call.get("function")
    spec: dict[str, Any] = function if isinstance(function, dict) else call
    args = spec.get("args", spec.get("arguments", {}))
    shown = args if isinstance(args, str) else json.dumps(args, ensure_ascii=False)
    return f"Calling {spec.get('name') or 'a tool'} with input: {shown}"


def session_key(session_id: str, segment: int) -> str:
    """The Somna session key of a segment: `<session_id>#<segment>`, shortened if need be.

    >>> session_key("user-42", 3)
    'user-42#3'
    """
    suffix = f"#{segment}"
    if len(session_id) + len(suffix) <= _KEY_MAX:
        return session_id + suffix
    digest = hashlib.sha1(session_id.encode()).hexdigest()[:12]
    return f"{session_id[: _KEY_MAX - len(suffix) - 13]}~{digest}{suffix}"


def node_suffix(node_name: str) -> str:
    """What n8n's chat memory appends to a session id for a memory node of this name.

    n8n's own rule: `__`, then the name with each character outside
    `A-Z a-z 0-9 _ -` written as `_`.

    >>> node_suffix("Chat Memory (Postgres)")
    '__Chat_Memory__Postgres_'
    """
    return "__" + _NOT_IN_SUFFIX.sub("_", node_name)


def _suffix_pattern(node_names: Sequence[str]) -> re.Pattern[str]:
    """A session id ending in the suffix of one of `node_names`; `*` in a name matches anything."""
    names = []
    for name in node_names:
        pieces = [re.escape(node_suffix(p)[2:]) for p in name.split("*")]
        names.append("[A-Za-z0-9_-]*".join(pieces))
    return re.compile(f"^(?P<id>.+?)__(?:{'|'.join(names)})$")


def without_node_name(session_id: str, node_names: Sequence[str] = ()) -> str:
    """The user's part of a session id that n8n's chat memory suffixed with its node's name.

    Postgres Chat Memory stores `<id>__<Node_Name>` (see `node_suffix`); the
    user is `<id>`. Given the memory nodes' names (`*` matches any part of a
    name), only their suffixes are dropped; otherwise any suffix that n8n's rule
    could have written is, from the first `__` followed by a capital letter (a
    node's name starts with one unless it was renamed otherwise).

    >>> without_node_name("user-anna__Postgres_Chat_Memory"), without_node_name("user-anna")
    ('user-anna', 'user-anna')
    >>> without_node_name("u__Chat_Memory__Postgres_", ["Chat Memory (Postgres)"])
    'u'
    """
    pattern = _suffix_pattern(node_names) if node_names else _ANY_SUFFIX
    found = pattern.match(session_id)
    return session_id if found is None else found["id"]


@dataclass(frozen=True)
class ProfileFrom:
    """Which profile a source session goes to: its own (`session`), or one for all (`fixed:NAME`).

    With `session`, an n8n node-name suffix (`user-anna__Postgres_Chat_Memory`)
    is dropped, so one user keeps one profile whatever the memory node is
    called (`node_names`: only the suffixes of these nodes, see
    `without_node_name`); `session:full` keeps the whole id. A session id that is not a valid
    profile id is made into one: its invalid characters become `-` and a short
    hash keeps it unique.
    """

    fixed: str | None = None
    full: bool = False
    """Keep an n8n node-name suffix in the profile id (`session:full`)."""
    node_names: tuple[str, ...] = ()
    """The names of the memory nodes whose suffix is dropped (`*` for any part); none: any."""

    @classmethod
    def parse(cls, text: str, node_names: Sequence[str] = ()) -> ProfileFrom:
        value = text.strip()
        names = tuple(n for n in (name.strip() for name in node_names) if n)
        if len(names) != len(node_names):
            raise InvalidInputError("A memory node's name cannot be empty.")
        if names and value != "session":
            raise InvalidInputError(
                "Memory node names only apply with --profile-from session, which drops their "
                "suffix from each session id."
            )
        if value == "session":
            return cls(node_names=names)
        if value == "session:full":
            return cls(full=True)
        if value.startswith("fixed:"):
            name = value.removeprefix("fixed:").strip()
            try:
                Profile(id=name)
            except ValidationError as exc:
                problem = exc.errors()[0]
                reason = str(problem.get("ctx", {}).get("error") or problem["msg"])
                raise InvalidInputError(f"{text!r}: {reason.rstrip('.')}.") from None
            return cls(name)
        raise InvalidInputError(
            f"{text!r} is not a profile mapping; use 'session' (one profile per source "
            "session id, without an n8n node-name suffix), 'session:full' (the whole session "
            "id) or 'fixed:NAME' (every session into the profile NAME)."
        )

    def profile_for(self, session_id: str) -> str:
        if self.fixed is not None:
            return self.fixed
        session_id = self.user_of(session_id)
        try:
            return Profile(id=session_id).id
        except ValidationError:
            digest = hashlib.sha1(session_id.encode()).hexdigest()[:10]
            slug = _NOT_PROFILE.sub("-", session_id).lstrip("_.@:-")[:100].rstrip("-")
            return f"{slug}-{digest}" if slug else f"n8n-{digest}"

    def user_of(self, session_id: str) -> str:
        """The chat user of a session id: without its node-name suffix, unless `full`."""
        return session_id if self.full else without_node_name(session_id, self.node_names)

    def __str__(self) -> str:
        if self.fixed is not None:
            return f"fixed:{self.fixed}"
        return "session:full" if self.full else "session"


# -- the source table ---------------------------------------------------------------


class N8nTable:
    """A chat table on a Postgres server, read in READ ONLY transactions.

    Nothing is ever written to it except by `delete_rows`, which only the purge
    calls. `name` identifies it among Somna's cursors:
    `n8n:<database>/<schema>.<table>`.

    >>> with N8nTable("postgresql://n8n@db/n8n") as table:  # doctest: +SKIP
    ...     table.name
    'n8n:n8n/public.n8n_chat_histories'
    """

    def __init__(self, dsn: str, table: str = DEFAULT_TABLE) -> None:
        try:
            import psycopg
            from psycopg.conninfo import conninfo_to_dict
        except ImportError as exc:
            raise ConfigurationError(
                "Reading an n8n table needs the Postgres driver; install it with: "
                "pip install 'somna[postgres]'."
            ) from exc
        parts = [p.strip() for p in table.split(".")]
        if len(parts) > 2 or not all(_NAME.match(p) for p in parts):
            raise InvalidInputError(
                f"{table!r} is not a table name; use NAME or SCHEMA.NAME, such as "
                f"{DEFAULT_TABLE} or public.{DEFAULT_TABLE}."
            )
        try:
            options = conninfo_to_dict(dsn)
        except psycopg.ProgrammingError as exc:
            raise InvalidInputError(
                f"The source DSN is not a valid Postgres URL or connection string: {exc}."
            ) from None
        self.where = _location(options)
        extra: dict[str, Any] = {"autocommit": True}
        if "connect_timeout" not in options:
            extra["connect_timeout"] = _CONNECT_TIMEOUT_S
        try:
            self._conn: psycopg.Connection[Any] = psycopg.connect(dsn, **extra)
        except psycopg.Error as exc:
            raise StoreError(
                f"Cannot connect to the source database {self.where}: {_why(exc)}."
            ) from exc
        self._conn.read_only = True
        try:
            self.name, self._table = self._resolve(parts)
        except BaseException:
            self._conn.close()
            raise

    def __enter__(self) -> N8nTable:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        self._conn.close()

    @contextmanager
    def _transaction(self) -> Iterator[psycopg.Connection[Any]]:
        import psycopg

        try:
            with self._conn.transaction():
                yield self._conn
        except psycopg.Error as exc:
            raise StoreError(f"The source database {self.where} failed: {_why(exc)}.") from exc

    def _resolve(self, parts: list[str]) -> tuple[str, Any]:
        from psycopg import sql

        found = "to_regclass(quote_ident(%s))"
        if len(parts) == 2:
            found = "to_regclass(quote_ident(%s) || '.' || quote_ident(%s))"
        with self._transaction() as conn:
            row = conn.execute(
                "SELECT n.nspname, c.relname, current_database(), "
                "array(SELECT a.attname || ':' || format_type(a.atttypid, a.atttypmod) "
                "FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attnum > 0 "
                "AND NOT a.attisdropped) FROM pg_class c "
                f"JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = {found}",
                parts,
            ).fetchone()
        if row is None:
            raise InvalidInputError(
                f"There is no table {'.'.join(parts)!r} in {self.where}; pass --table with "
                f"the name of the n8n chat memory's table (by default {DEFAULT_TABLE})."
            )
        schema, name, database, columns = row
        types = dict(column.split(":", 1) for column in columns)
        # n8n's column is jsonb, which the driver decodes; a text column is decoded here.
        self._decode = types.get("message", "").startswith(("text", "character"))
        missing = [c for c in ("id", "session_id", "message") if c not in types]
        if missing or types["id"] not in ("integer", "bigint", "smallint"):
            raise InvalidInputError(
                f"{schema}.{name} in {self.where} is not an n8n chat memory table: it needs an "
                f"integer id, a session_id and a message column (missing: "
                f"{', '.join(missing) or 'an integer id'})."
            )
        return f"n8n:{database}/{schema}.{name}", sql.Identifier(schema, name)

    def read(self, watermarks: Mapping[str, int], *, above: int, limit: int) -> list[SourceRow]:
        """Up to `limit` rows with an id above `above` and above their session's watermark,
        oldest first; rows without a session id are left out. The session id is read as
        text, whatever its column's type (LangChain's Python table makes it a uuid)."""
        from psycopg import sql

        query = sql.SQL(
            "SELECT t.id, t.session_id::text, t.message FROM {table} t "
            "LEFT JOIN unnest(%(keys)s::text[], %(lasts)s::bigint[]) AS w(key, last_id) "
            "ON w.key = t.session_id::text WHERE t.id > %(above)s "
            "AND t.id > coalesce(w.last_id, 0) AND t.session_id::text <> '' "
            "ORDER BY t.id LIMIT %(limit)s"
        ).format(table=self._table)
        keys = list(watermarks)
        params = {
            "keys": keys,
            "lasts": [watermarks[k] for k in keys],
            "above": above,
            "limit": limit,
        }
        with self._transaction() as conn:
            rows = conn.execute(query, params).fetchall()
        return [SourceRow(int(i), str(s), self._decoded(m)) for i, s, m in rows]

    def _decoded(self, message: Any) -> Any:
        if not (self._decode and isinstance(message, str)):
            return message
        try:
            return json.loads(message)
        except ValueError:
            return _NotJson(message)

    def delete_rows(self, session_id: str, after_row_id: int, last_row_id: int) -> int:
        """Delete one session's rows `after_row_id < id <= last_row_id`, in one transaction."""
        from psycopg import sql

        query = sql.SQL(
            "DELETE FROM {table} WHERE session_id::text = %s AND id > %s AND id <= %s"
        ).format(table=self._table)
        self._conn.read_only = False
        try:
            with self._transaction() as conn:
                return conn.execute(query, (session_id, after_row_id, last_row_id)).rowcount
        finally:
            self._conn.read_only = True


def _location(options: Mapping[str, Any]) -> str:
    """Where a DSN points, without its password, for messages."""
    user = f"{options['user']}@" if options.get("user") else ""
    host = str(options.get("host") or "localhost")
    port = f":{options['port']}" if options.get("port") else ""
    return f"postgresql://{user}{host}{port}/{options.get('dbname') or ''}"


def _why(exc: Exception) -> str:
    return " ".join(str(exc).split()).rstrip(".") or type(exc).__name__


# -- the import -----------------------------------------------------------------------


@dataclass
class N8nReport:
    """What one import did: `kinds` counts the rows kept by kind, `skipped` those left out."""

    source: str
    rows: int = 0
    messages: int = 0
    kinds: dict[str, int] = field(default_factory=dict)
    sessions: int = 0
    new_sessions: int = 0
    profiles: int = 0
    skipped: dict[str, int] = field(default_factory=dict)
    purged_sessions: int = 0
    purged_rows: int = 0
    forgotten_rows: int = 0
    """Rows of profiles erased by `forget` (a tombstone), left out and read again next time."""

    @property
    def skipped_rows(self) -> int:
        return sum(self.skipped.values())


class N8nImport:
    """Imports the new rows of one chat table into a store; purges what was consolidated.

    >>> with N8nTable(dsn) as table:  # doctest: +SKIP
    ...     report = N8nImport(store, table, idle_hours=3, clock=utcnow).run()

    `source` names the table among the store's cursors (default `table.name`):
    give one to each of two n8n instances whose database and table names are
    the same. `batch_rows` bounds the rows read at once. The rows of a profile
    erased by `forget` are skipped (`somna.sources.tombstones`) unless
    `allow_forgotten` admits it again.
    """

    def __init__(
        self,
        store: Store,
        table: N8nTable,
        *,
        idle_hours: float,
        clock: Callable[[], datetime],
        profile_from: ProfileFrom | None = None,
        source: str | None = None,
        batch_rows: int = 1000,
        allow_forgotten: bool = False,
    ) -> None:
        if idle_hours < 0:
            raise InvalidInputError(f"idle_hours must be 0 or more, not {idle_hours}.")
        if batch_rows < 1:
            raise InvalidInputError(f"batch_rows must be at least 1, not {batch_rows}.")
        self.store = store
        self.table = table
        self.idle = timedelta(hours=idle_hours)
        self.clock = clock
        self.profile_from = profile_from or ProfileFrom()
        self.source = source or table.name
        self.batch_rows = batch_rows
        self.allow_forgotten = allow_forgotten
        self._profiles: set[str] = set()
        self._touched: set[tuple[str, str]] = set()  # (profile, session key) given messages
        self._opened: set[tuple[str, str]] = set()  # those of them that this run opened

    def run(self, *, purge: bool = False) -> N8nReport:
        """Import every new row; then, with `purge`, delete the archived sessions' rows."""
        report = N8nReport(self.source)
        self._profiles.clear()  # a profile may have been erased since the last run
        self._touched.clear()
        self._opened.clear()
        self._import(report)
        report.sessions, report.new_sessions = len(self._touched), len(self._opened)
        if purge:
            self._purge(report)
        return report

    # -- import ---------------------------------------------------------------------------

    def _import(self, report: N8nReport) -> None:
        latest = {c.key: c for c in self.store.source_cursors(self.source)}  # max segment wins
        forgotten = Tombstones(self.store, allow_forgotten=self.allow_forgotten)
        above = 0
        while True:
            watermarks = {key: cursor.last_row_id for key, cursor in latest.items()}
            rows = self.table.read(watermarks, above=above, limit=self.batch_rows)
            if not rows:
                return
            report.rows += len(rows)
            above = rows[-1].id
            now = utc(self.clock())
            grouped: dict[str, dict[str, list[SourceRow]]] = {}
            for row in rows:
                profile = self.profile_from.profile_for(row.session_id)
                grouped.setdefault(profile, {}).setdefault(row.session_id, []).append(row)
            for profile_id, conversations in grouped.items():
                if forgotten.skips(profile_id):
                    report.forgotten_rows += sum(len(taken) for taken in conversations.values())
                    continue
                self._ensure_profile(profile_id, next(iter(conversations)), now, report)
                with self.store.write(profile_id) as tx:
                    for key, taken in conversations.items():
                        latest[key] = self._take(tx, key, taken, latest.get(key), now, report)
            if len(rows) < self.batch_rows:
                return

    def _ensure_profile(self, profile_id: str, key: str, now: datetime, report: N8nReport) -> None:
        if profile_id in self._profiles or self.store.get_profile(profile_id) is not None:
            self._profiles.add(profile_id)
            return
        mapping = self.profile_from
        name = mapping.user_of(key)
        if mapping.fixed is not None:
            name = profile_id
        try:
            self.store.create_profile(Profile(id=profile_id, name=name, created_at=now))
            report.profiles += 1
        except InvalidInputError:
            if self.store.get_profile(profile_id) is None:
                raise  # not a profile created meanwhile by another import: a real refusal
        self._profiles.add(profile_id)

    def _take(
        self,
        tx: Writer,
        key: str,
        rows: list[SourceRow],
        cursor: SourceCursor | None,
        now: datetime,
        report: N8nReport,
    ) -> SourceCursor:
        """Add one source session's new rows to its segment, or to a new one; move its cursor."""
        messages = []
        for row in rows:
            try:
                said = read_chat_message(row.message)
            except ValueError as exc:
                report.skipped[str(exc)] = report.skipped.get(str(exc), 0) + 1
                continue
            report.kinds[said.kind.value] = report.kinds.get(said.kind.value, 0) + 1
            meta: dict[str, Any] = {"source": "n8n", "row_id": row.id, "session_id": key}
            if said.kind is RowKind.TOOL_CALL:
                meta["tool_call"] = True  # kept for provenance, never a source of facts
            messages.append(NewMessage(said.role, said.content, now, meta))
        last = rows[-1].id
        expected: int | None
        if cursor is not None and not self._opens_segment(tx, cursor, now):
            moved = replace(cursor, last_row_id=last, last_change_seen_at=now)
            expected = cursor.last_row_id
        else:
            segment = 1 if cursor is None else cursor.segment + 1
            moved = SourceCursor(
                source=self.source,
                key=key,
                segment=segment,
                profile_id=tx.profile_id,
                session_key=session_key(key, segment),
                after_row_id=0 if cursor is None else cursor.last_row_id,
                last_row_id=last,
                last_change_seen_at=now,
            )
            expected = None
        if messages:
            before = tx.latest_session(moved.session_key)
            tx.add_messages(moved.session_key, messages)
            report.messages += len(messages)
            self._touched.add((tx.profile_id, moved.session_key))
            if before is None or before.status not in _LIVE:
                self._opened.add((tx.profile_id, moved.session_key))
        tx.save_source_cursor(moved, expected_last_row_id=expected)
        return moved

    def _opens_segment(self, tx: Writer, cursor: SourceCursor, now: datetime) -> bool:
        """Whether new rows after `cursor` start the next Somna session instead of its own."""
        if cursor.profile_id != tx.profile_id:
            return True  # the mapping changed: the new profile gets a new session
        session = tx.latest_session(cursor.session_key)
        if session is None:
            return False  # nothing of this segment was kept (malformed rows): go on with it
        if session.status not in _LIVE:
            return True  # consolidated already
        return now - cursor.last_change_seen_at >= self.idle

    # -- purge ----------------------------------------------------------------------------

    def _purge(self, report: N8nReport) -> None:
        pending: dict[str, list[SourceCursor]] = {}
        for cursor in self.store.source_cursors(self.source):
            if cursor.purged_at is None:
                pending.setdefault(cursor.profile_id, []).append(cursor)
        for profile_id, cursors in pending.items():
            with self.store.read(profile_id) as tx:
                archived = [c for c in cursors if _archived(tx.latest_session(c.session_key))]
            for cursor in archived:
                # One source transaction per session, then its cursor marks it purged: a
                # crash in between deletes nothing more the next time, and marks it then.
                report.purged_rows += self.table.delete_rows(
                    cursor.key, cursor.after_row_id, cursor.last_row_id
                )
                purged = replace(cursor, purged_at=utc(self.clock()))
                with self.store.write(profile_id) as tx:
                    tx.save_source_cursor(purged, expected_last_row_id=cursor.last_row_id)
                report.purged_sessions += 1


def _archived(session: Session | None) -> bool:
    return session is not None and session.status is SessionStatus.ARCHIVED
