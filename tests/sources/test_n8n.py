"""The n8n / LangChain source: watermarks, session cutting, malformed rows, purge.

The chat table lives on the test Postgres (tests/sources/n8n_rows.py); Somna's
own store is each backend in turn, SQLite included, so the source and the store
are always two databases here.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import psycopg
import pytest

from somna.errors import ConflictStateError, InvalidInputError, StoreError
from somna.memory import Memory
from somna.model import Role
from somna.sources import (
    N8nImport,
    N8nReport,
    N8nTable,
    ProfileFrom,
    read_chat_message,
    session_key,
)
from somna.sources.n8n import node_suffix
from somna.store import NewMessage, SourceCursor
from tests.sources.n8n_rows import MALFORMED, N8nChat
from tests.store.pg_servers import TestServers
from tests.support import Clock

IDLE_HOURS = 3.0


@pytest.fixture
def chat(postgres_servers: TestServers, tmp_path: Path) -> N8nChat:
    return N8nChat(postgres_servers, tmp_path / "n8n")


@pytest.fixture
def table(chat: N8nChat) -> Iterator[N8nTable]:
    with N8nTable(chat.dsn) as opened:
        yield opened


def importer(
    memory: Memory, table: N8nTable, mapping: str = "session", batch_rows: int = 1000
) -> N8nImport:
    return N8nImport(
        memory.store,
        table,
        idle_hours=IDLE_HOURS,
        clock=memory.now,
        profile_from=ProfileFrom.parse(mapping),
        batch_rows=batch_rows,
    )


def keys(memory: Memory, profile: str) -> dict[str, list[str]]:
    """Each Somna session key of a profile, with its messages' text, oldest session first."""
    with memory.store.read(profile) as tx:
        sessions = sorted(tx.sessions(), key=lambda s: (s.started_at, s.key))
        return {s.key: [m.content for m in tx.session_messages(s.id)] for s in sessions}


# -- messages ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ({"type": "human", "content": "Hi", "additional_kwargs": {}}, (Role.USER, "Hi", "human")),
        (
            {"type": "ai", "data": {"content": "Hello!", "type": "ai"}},
            (Role.ASSISTANT, "Hello!", "ai"),
        ),
        ({"type": "system", "content": " Be brief. "}, (Role.SYSTEM, "Be brief.", "system")),
        ({"type": "tool", "content": "42"}, (Role.TOOL, "42", "tool result")),
        (
            {"type": "tool", "content": "", "tool_call_id": "c1"},
            (Role.TOOL, "(no output)", "tool result"),
        ),
        (
            {"type": "human", "content": [{"type": "text", "text": "One"}, "two", {"x": 1}]},
            (Role.USER, "One\ntwo", "human"),
        ),
        (  # AI Agent 3.x: a tool call without text
            {
                "type": "ai",
                "content": [],
                "tool_calls": [{"name": "recall", "args": {"query": "tea"}, "id": "c1"}],
            },
            (Role.ASSISTANT, 'Calling recall with input: {"query": "tea"}', "tool call"),
        ),
        (  # LangChain's layout, the call in OpenAI's form
            {
                "type": "ai",
                "data": {
                    "content": "",
                    "additional_kwargs": {
                        "tool_calls": [
                            {"id": "c2", "function": {"name": "lookup", "arguments": "{}"}},
                            {"id": "c3", "function": {"name": "clock", "arguments": "{}"}},
                        ]
                    },
                },
            },
            (
                Role.ASSISTANT,
                "Calling lookup with input: {}\nCalling clock with input: {}",
                "tool call",
            ),
        ),
        (  # AI Agent 1.x words its call itself
            {
                "type": "ai",
                "content": 'Calling recall with input: {"query": "tea"}',
                "tool_calls": [{"name": "recall", "args": {"query": "tea"}}],
            },
            (Role.ASSISTANT, 'Calling recall with input: {"query": "tea"}', "tool call"),
        ),
    ],
)
def test_every_message_shape_is_read_as_what_it_is(
    message: object, expected: tuple[Role, str, str]
) -> None:
    read = read_chat_message(message)
    assert (read.role, read.content, read.kind) == expected
    assert read.tool_traffic == (expected[2] in ("tool call", "tool result"))


@pytest.mark.parametrize(
    ("message", "reason"),
    [
        (None, "null"),
        ("a JSON string", "not a JSON object"),
        ([1, 2], "not a JSON object"),
        (7, "not a JSON object"),
        ({"type": "human"}, "no content"),
        ({"type": "ai", "content": [], "tool_calls": []}, "no content"),
        ({"type": "human", "content": {"nested": True}}, "no content"),
        ({"type": "robot", "content": "beep"}, "unknown type"),
        ({"type": 3, "content": "beep"}, "unknown type"),
        ({"data": {"content": "who?"}}, "no type"),
    ],
)
def test_a_malformed_message_names_why_it_is_skipped(message: object, reason: str) -> None:
    with pytest.raises(ValueError, match=f"^{reason}$"):
        read_chat_message(message)


def test_session_keys_stay_within_the_key_length() -> None:
    assert session_key("telegram:123", 2) == "telegram:123#2"
    long = session_key("x" * 300, 12)
    assert len(long) == 256 and long.endswith("#12")
    assert session_key("x" * 300, 12) != session_key("x" * 299 + "y", 12)


def test_profile_mappings() -> None:
    assert ProfileFrom.parse("session").profile_for("user_42") == "user_42"
    assert ProfileFrom.parse(" fixed:alice ").profile_for("user_42") == "alice"
    made = ProfileFrom.parse("session").profile_for("+33 6 12 34 56 78")
    assert made.startswith("33-6-12-34-56-78-") and made != "+33 6 12 34 56 78"
    assert ProfileFrom.parse("session").profile_for("+++").startswith("n8n-")
    assert str(ProfileFrom.parse("fixed:bob")) == "fixed:bob"
    for bad in ("user", "fixed:", "fixed:no spaces", "session:all"):
        with pytest.raises(InvalidInputError):
            ProfileFrom.parse(bad)


def test_the_node_name_n8n_appends_to_a_session_id_is_dropped_unless_asked() -> None:
    session, full = ProfileFrom.parse("session"), ProfileFrom.parse("session:full")
    assert session.profile_for("user-anna__Postgres_Chat_Memory") == "user-anna"
    assert session.profile_for("user-anna__Memory") == "user-anna"
    assert session.profile_for("a__b__Chat_Memory_2") == "a__b"  # the node's name is capitalised
    assert session.profile_for("chat-carol__Chat_Memory__Postgres_") == "chat-carol"
    assert session.profile_for("u__Chat-Memory") == "u"
    assert full.profile_for("user-anna__Postgres_Chat_Memory") == "user-anna__Postgres_Chat_Memory"
    assert str(full) == "session:full" and str(session) == "session"
    for kept in ("user__42", "user_anna", "user-anna__", "__Memory", "user__anna"):
        assert session.profile_for(kept) == full.profile_for(kept)


def test_n8n_writes_a_node_name_into_the_suffix_by_its_own_rule() -> None:
    assert node_suffix("Postgres Chat Memory") == "__Postgres_Chat_Memory"
    assert node_suffix("Chat Memory (Postgres)") == "__Chat_Memory__Postgres_"
    assert node_suffix("mémoire-2") == "__m_moire-2"


def test_named_memory_nodes_drop_only_their_own_suffix() -> None:
    named = ProfileFrom.parse("session", ["Chat Memory (Postgres)"])
    assert named.profile_for("chat-carol__Chat_Memory__Postgres_") == "chat-carol"
    assert named.profile_for("bob__Other_Memory") == "bob__Other_Memory"
    lower = ProfileFrom.parse("session", ["memory"])
    assert lower.profile_for("a__b__memory") == "a__b"  # a lowercase name, told
    several = ProfileFrom.parse("session", ["Chat Memory*", "Support memory"])
    assert several.profile_for("ann__Chat_Memory_2") == "ann"
    assert several.profile_for("ann__Chat_Memory__Postgres_") == "ann"
    assert several.profile_for("ann__Support_memory") == "ann"
    assert several.profile_for("ann__Postgres_Chat_Memory") == "ann__Postgres_Chat_Memory"
    for bad in (("session:full", ["Memory"]), ("fixed:x", ["Memory"]), ("session", [" "])):
        with pytest.raises(InvalidInputError):
            ProfileFrom.parse(*bad)


def test_one_user_keeps_one_profile_when_the_memory_node_is_renamed(
    memory: Memory, chat: N8nChat, table: N8nTable
) -> None:
    chat.say("user-anna__Postgres_Chat_Memory", ("human", "I live in Lyon."))
    chat.say("user-anna__Chat_Memory", ("human", "I work as a nurse."))
    report = importer(memory, table).run()
    assert (report.profiles, report.sessions) == (1, 2)
    assert [p.id for p in memory.list_profiles()] == ["user-anna"]
    assert memory.get_profile("user-anna").name == "user-anna"
    assert keys(memory, "user-anna") == {
        "user-anna__Postgres_Chat_Memory#1": ["I live in Lyon."],
        "user-anna__Chat_Memory#1": ["I work as a nurse."],
    }


def test_session_full_keeps_the_node_name_in_the_profile(
    memory: Memory, chat: N8nChat, table: N8nTable
) -> None:
    chat.say("user-anna__Postgres_Chat_Memory", ("human", "I live in Lyon."))
    importer(memory, table, "session:full").run()
    assert [p.id for p in memory.list_profiles()] == ["user-anna__Postgres_Chat_Memory"]


def test_an_agent_turn_keeps_its_tool_rows_and_marks_the_tool_call(
    memory: Memory, chat: N8nChat, table: N8nTable
) -> None:
    """AI Agent 3.x writes four rows per turn; all are kept, the tool traffic marked."""
    chat.say("user-1", ("human", "What do I drink?"))
    call = {
        "type": "ai",
        "content": 'Calling search_my_memory with input: {"query": "drinks"}',
        "tool_calls": [{"name": "search_my_memory", "args": {"query": "drinks"}, "id": "c1"}],
    }
    chat.raw("user-1", f"'{json.dumps(call)}'::jsonb")
    chat.raw("user-1", f"'{json.dumps({'type': 'tool', 'content': '[]'})}'::jsonb")
    chat.say("user-1", ("ai", "I do not know yet."))
    report = importer(memory, table).run()
    assert report.kinds == {"human": 1, "tool call": 1, "tool result": 1, "ai": 1}
    assert report.skipped == {}
    window = memory.window("user-1", "user-1#1")
    assert [m.role for m in window] == [Role.USER, Role.ASSISTANT, Role.TOOL, Role.ASSISTANT]
    assert [bool(m.meta.get("tool_call")) for m in window] == [False, True, False, False]


# -- import -----------------------------------------------------------------------------


def test_an_import_reads_every_session_stamped_when_first_seen(
    memory: Memory, chat: N8nChat, table: N8nTable, clock: Clock
) -> None:
    ids = chat.say("user-1", ("human", "I live in Lyon."), ("ai", "Nice city!"))
    chat.say("user-2", ("human", "I work as a nurse."), ("ai", "Noted."), shape="langchain")
    report = importer(memory, table).run()
    assert report == N8nReport(
        table.name,
        rows=4,
        messages=4,
        kinds={"human": 2, "ai": 2},
        sessions=2,
        new_sessions=2,
        profiles=2,
    )
    assert report.source.startswith("n8n:somna_test_run_") and report.source.endswith(
        ".n8n_chat_histories"
    )
    assert keys(memory, "user-1") == {"user-1#1": ["I live in Lyon.", "Nice city!"]}
    assert keys(memory, "user-2") == {"user-2#1": ["I work as a nurse.", "Noted."]}
    assert memory.get_profile("user-1").name == "user-1"
    window = memory.window("user-1", "user-1#1")
    assert [m.role for m in window] == [Role.USER, Role.ASSISTANT]
    assert {m.created_at for m in window} == {clock.now}
    assert [m.meta for m in window] == [
        {"source": "n8n", "row_id": ids[0], "session_id": "user-1"},
        {"source": "n8n", "row_id": ids[1], "session_id": "user-1"},
    ]


def test_importing_twice_imports_nothing_the_second_time_and_leaves_the_source_alone(
    memory: Memory, chat: N8nChat, table: N8nTable, clock: Clock
) -> None:
    chat.say("user-1", ("human", "I live in Lyon."), ("ai", "Nice city!"))
    chat.raw("user-1", MALFORMED[0][0])
    before = chat.rows()
    first = importer(memory, table).run()
    clock.advance(minutes=5)
    second = importer(memory, table).run()
    assert (first.messages, first.skipped_rows) == (2, 1)
    assert second == N8nReport(table.name)
    assert chat.rows() == before
    assert keys(memory, "user-1") == {"user-1#1": ["I live in Lyon.", "Nice city!"]}


def test_malformed_rows_are_skipped_and_counted_never_fatal(
    memory: Memory, chat: N8nChat, table: N8nTable
) -> None:
    chat.say("user-1", ("human", "I live in Lyon."))
    for value, _ in MALFORMED:
        chat.raw("user-1", value)
        chat.raw("only-garbage", value)
    chat.say("user-1", ("ai", "Nice city!"))
    report = importer(memory, table).run()
    expected: dict[str, int] = {}
    for _, reason in MALFORMED:
        expected[str(reason)] = expected.get(str(reason), 0) + 2
    assert report.skipped == expected
    assert (report.rows, report.messages, report.sessions) == (2 + 2 * len(MALFORMED), 2, 1)
    assert keys(memory, "user-1") == {"user-1#1": ["I live in Lyon.", "Nice city!"]}
    assert keys(memory, "only-garbage") == {}  # its profile exists, with no session
    assert importer(memory, table).run().skipped == {}  # never read again


def test_rows_within_idle_hours_extend_the_session_and_later_rows_open_the_next(
    memory: Memory, chat: N8nChat, table: N8nTable, clock: Clock
) -> None:
    chat.say("user-1", ("human", "Hello."))
    importer(memory, table).run()
    clock.advance(hours=2)  # less than IDLE_HOURS after the last row was seen
    chat.say("user-1", ("human", "Still me."))
    extended = importer(memory, table).run()
    assert (extended.sessions, extended.new_sessions) == (1, 0)
    clock.advance(hours=3)  # a pause of IDLE_HOURS: the burst is over
    chat.say("user-1", ("human", "Back again."), ("ai", "Welcome back."))
    opened = importer(memory, table).run()
    assert (opened.sessions, opened.new_sessions) == (1, 1)
    assert keys(memory, "user-1") == {
        "user-1#1": ["Hello.", "Still me."],
        "user-1#2": ["Back again.", "Welcome back."],
    }
    cursors = memory.store.source_cursors(table.name)
    assert [(c.segment, c.after_row_id, c.last_row_id) for c in cursors] == [
        (1, 0, chat.ids("user-1")[1]),
        (2, chat.ids("user-1")[1], chat.ids("user-1")[3]),
    ]
    assert cursors[1].last_change_seen_at == clock.now


def test_a_session_is_due_for_consolidation_once_quiet_for_idle_hours(
    memory: Memory, chat: N8nChat, table: N8nTable, clock: Clock
) -> None:
    chat.say("user-1", ("human", "I live in Lyon."))
    importer(memory, table).run()
    clock.advance(hours=2)
    chat.say("user-1", ("human", "I work as a nurse at the city hospital."))
    importer(memory, table).run()
    clock.advance(hours=2)
    assert memory.consolidate(idle_hours=IDLE_HOURS).sessions_seen == 0
    clock.advance(hours=1)
    assert memory.consolidate(idle_hours=IDLE_HOURS).sessions_consolidated == 1


def test_rows_after_consolidation_open_the_next_session_even_within_idle_hours(
    memory: Memory, chat: N8nChat, table: N8nTable, clock: Clock
) -> None:
    chat.say("user-1", ("human", "I live in Lyon."))
    importer(memory, table).run()
    assert memory.consolidate(idle_hours=0).sessions_consolidated == 1
    chat.say("user-1", ("human", "I moved to Paris."))
    report = importer(memory, table).run()
    assert (report.sessions, report.new_sessions) == (1, 1)
    assert list(keys(memory, "user-1")) == ["user-1#1", "user-1#2"]


def test_a_fixed_profile_gathers_every_session(
    memory: Memory, chat: N8nChat, table: N8nTable
) -> None:
    chat.say("telegram:1", ("human", "Hi from one."))
    chat.say("+33 6 12", ("human", "Hi from two."))
    report = importer(memory, table, "fixed:support").run()
    assert (report.profiles, report.sessions) == (1, 2)
    assert keys(memory, "support") == {
        "telegram:1#1": ["Hi from one."],
        "+33 6 12#1": ["Hi from two."],
    }
    assert [p.id for p in memory.list_profiles()] == ["support"]


def test_small_batches_read_everything_once(memory: Memory, chat: N8nChat, table: N8nTable) -> None:
    for n in range(4):
        chat.say(f"user-{n % 2}", ("human", f"Message {n}."), ("ai", f"Reply {n}."))
    report = importer(memory, table, batch_rows=3).run()
    assert (report.rows, report.messages, report.sessions) == (8, 8, 2)
    assert keys(memory, "user-0") == {
        "user-0#1": ["Message 0.", "Reply 0.", "Message 2.", "Reply 2."]
    }
    assert importer(memory, table, batch_rows=3).run().rows == 0


def test_a_changed_mapping_imports_nothing_again(
    memory: Memory, chat: N8nChat, table: N8nTable
) -> None:
    chat.say("user-1", ("human", "Hello."))
    importer(memory, table).run()
    chat.say("user-1", ("human", "Hello again."))
    report = importer(memory, table, "fixed:everyone").run()
    assert report.messages == 1
    assert keys(memory, "user-1") == {"user-1#1": ["Hello."]}
    assert keys(memory, "everyone") == {"user-1#2": ["Hello again."]}


# -- purge ------------------------------------------------------------------------------


def test_purge_deletes_only_the_rows_of_archived_sessions(
    memory: Memory, chat: N8nChat, table: N8nTable, clock: Clock
) -> None:
    chat.say("user-1", ("human", "I live in Lyon."), ("ai", "Nice city!"))
    chat.raw("user-1", MALFORMED[2][0])
    importer(memory, table).run()
    clock.advance(hours=4)
    chat.say("user-2", ("human", "I work as a nurse."))  # recent: not consolidated
    importer(memory, table).run()
    assert memory.consolidate(idle_hours=IDLE_HOURS).sessions_consolidated == 1
    chat.say("user-1", ("human", "I moved to Paris."))  # after the archive: a new session
    kept = [r for r in chat.rows() if r[1] == "user-2"] + [chat.rows()[-1]]
    report = importer(memory, table).run(purge=True)
    assert (report.purged_sessions, report.purged_rows, report.messages) == (1, 3, 1)
    assert chat.rows() == kept
    again = importer(memory, table).run(purge=True)
    assert (again.purged_sessions, again.purged_rows, again.rows) == (0, 0, 0)
    listed = memory.store.source_cursors(table.name)  # a purged segment is done with
    assert [(c.key, c.segment, c.purged_at) for c in listed] == [
        ("user-1", 2, None),
        ("user-2", 1, None),
    ]
    assert keys(memory, "user-1")["user-1#2"] == ["I moved to Paris."]


def test_rows_after_a_purge_open_the_next_session(
    memory: Memory, chat: N8nChat, table: N8nTable, clock: Clock
) -> None:
    chat.say("user-1", ("human", "I live in Lyon."))
    importer(memory, table).run()
    assert memory.consolidate(idle_hours=0).sessions_consolidated == 1
    first = chat.ids("user-1")
    assert importer(memory, table).run(purge=True).purged_rows == 1
    [purged] = memory.store.source_cursors(table.name)  # the latest: kept for its watermark
    assert (purged.segment, purged.last_row_id, purged.purged_at) == (1, first[0], clock.now)
    chat.say("user-1", ("human", "I moved to Paris."))
    report = importer(memory, table).run(purge=True)
    assert (report.messages, report.new_sessions, report.purged_rows) == (1, 1, 0)
    assert keys(memory, "user-1")["user-1#2"] == ["I moved to Paris."]
    [latest] = memory.store.source_cursors(table.name)
    assert (latest.segment, latest.after_row_id) == (2, first[0])


def test_without_purge_a_consolidated_source_is_left_as_it_was(
    memory: Memory, chat: N8nChat, table: N8nTable
) -> None:
    chat.say("user-1", ("human", "I live in Lyon."), ("ai", "Nice city!"))
    before = chat.rows()
    importer(memory, table).run()
    assert memory.consolidate(idle_hours=0).sessions_consolidated == 1
    assert importer(memory, table).run().purged_rows == 0
    assert chat.rows() == before


# -- cursors in the store ---------------------------------------------------------------


def cursor(memory: Memory, **changes: object) -> SourceCursor:
    base = SourceCursor(
        source="n8n:test",
        key="user-1",
        segment=1,
        profile_id="alice",
        session_key="user-1#1",
        after_row_id=0,
        last_row_id=5,
        last_change_seen_at=memory.now(),
    )
    return replace(base, **changes)  # type: ignore[arg-type]  # changes are checked at run time


def test_a_cursor_that_moved_meanwhile_refuses_the_whole_transaction(memory: Memory) -> None:
    memory.create_profile("alice")
    first = cursor(memory)
    with memory.store.write("alice") as tx:
        tx.save_source_cursor(first, expected_last_row_id=None)
    hello = NewMessage(Role.USER, "Hello.", memory.now())
    stale = [
        (first, None),  # a new segment that exists already
        (replace(first, last_row_id=9), 4),  # a segment that moved on from 4
    ]
    for moved, expected in stale:
        with (
            pytest.raises(ConflictStateError, match="another import"),
            memory.store.write("alice") as tx,
        ):
            tx.add_messages("user-1#1", [hello])
            tx.save_source_cursor(moved, expected_last_row_id=expected)
        assert keys(memory, "alice") == {}
    with memory.store.write("alice") as tx:
        tx.save_source_cursor(replace(first, last_row_id=9), expected_last_row_id=5)
    assert [c.last_row_id for c in memory.store.source_cursors("n8n:test")] == [9]
    with pytest.raises(InvalidInputError, match="profile 'bob'"), memory.store.write("alice") as tx:
        tx.save_source_cursor(cursor(memory, profile_id="bob"), expected_last_row_id=None)


def test_cursors_list_the_latest_and_unpurged_segments_and_go_with_their_profile(
    memory: Memory,
) -> None:
    memory.create_profile("alice")
    now = memory.now()
    saved = [
        cursor(memory, segment=1, last_row_id=2, purged_at=now),
        cursor(memory, segment=2, after_row_id=2, last_row_id=4),
        cursor(memory, segment=3, after_row_id=4, last_row_id=6, purged_at=now),
        cursor(memory, key="user-2", segment=1, purged_at=now),
        cursor(memory, source="n8n:other"),
    ]
    with memory.store.write("alice") as tx:
        for item in saved:
            tx.save_source_cursor(item, expected_last_row_id=None)
    assert memory.store.source_cursors("n8n:test") == saved[1:4]
    memory.forget("alice")
    assert memory.store.source_cursors("n8n:test") == []


# -- the table --------------------------------------------------------------------------


def test_a_missing_or_foreign_table_is_refused_by_name(chat: N8nChat) -> None:
    with pytest.raises(InvalidInputError, match=r"no table 'chats'.*--table"):
        N8nTable(chat.dsn, "chats")
    with pytest.raises(InvalidInputError, match="not a table name"):
        N8nTable(chat.dsn, "n8n; DROP TABLE x")
    with psycopg.connect(chat.dsn, autocommit=True) as conn:
        conn.execute("CREATE TABLE notes (id text, body text)")
    with pytest.raises(InvalidInputError, match="session_id, message"):
        N8nTable(chat.dsn, "notes")


def test_a_bad_or_unreachable_dsn_says_so(chat: N8nChat) -> None:
    with pytest.raises(InvalidInputError, match="not a valid Postgres"):
        N8nTable("postgresql://[bad")
    with pytest.raises(StoreError, match="Cannot connect to the source database") as caught:
        N8nTable("postgresql://nobody:secret@127.0.0.1:1/n8n?connect_timeout=2")
    assert "postgresql://nobody@127.0.0.1:1/n8n" in str(caught.value)
    assert "secret" not in str(caught.value)


def test_the_table_is_read_in_read_only_transactions(chat: N8nChat, table: N8nTable) -> None:
    chat.say("user-1", ("human", "Hello."))
    assert [r.session_id for r in table.read({}, above=0, limit=10)] == ["user-1"]
    with pytest.raises(psycopg.errors.ReadOnlySqlTransaction), table._conn.transaction():
        table._conn.execute("DELETE FROM n8n_chat_histories")
    assert len(chat.rows()) == 1


def test_a_text_message_column_is_decoded_here(
    memory: Memory, postgres_servers: TestServers, tmp_path: Path
) -> None:
    dsn = postgres_servers.database("array", tmp_path / "text")
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("CREATE TABLE chats (id bigserial, session_id text, message text)")
        conn.execute(
            "INSERT INTO chats (session_id, message) VALUES "
            """('u1', '{"type": "human", "content": "Hi."}'), ('u1', 'not json {'), """
            """('u1', '"a string"'), ('u1', NULL), ('', '{}')"""
        )
    with N8nTable(dsn, "chats") as table:
        report = importer(memory, table).run()
    assert (report.messages, report.rows) == (1, 4)
    assert report.skipped == {"not JSON": 1, "not a JSON object": 1, "null": 1}


def test_langchains_python_table_with_a_uuid_session_id_is_read_and_purged(
    memory: Memory, postgres_servers: TestServers, tmp_path: Path, clock: Clock
) -> None:
    """langchain-postgres keeps `session_id uuid` and a `created_at` column."""
    chat = N8nChat(postgres_servers, tmp_path / "lc", table="message_store")
    session = "0b7e6a52-3f1c-4c55-9d0e-6a1f2b3c4d5e"
    with psycopg.connect(chat.dsn, autocommit=True) as conn:
        conn.execute("ALTER TABLE message_store ALTER COLUMN session_id TYPE uuid USING NULL")
        conn.execute("ALTER TABLE message_store ADD COLUMN created_at timestamptz DEFAULT now()")
    chat.say(session, ("human", "I keep bees."), ("ai", "Lovely."), shape="langchain")
    with N8nTable(chat.dsn, "message_store") as table:
        report = importer(memory, table).run()
        assert (report.rows, report.kinds, report.skipped) == (2, {"human": 1, "ai": 1}, {})
        assert keys(memory, session) == {f"{session}#1": ["I keep bees.", "Lovely."]}
        assert memory.consolidate(idle_hours=0).sessions_consolidated == 1
        purged = importer(memory, table).run(purge=True)
    assert (purged.purged_sessions, purged.purged_rows, chat.rows()) == (1, 2, [])


def test_a_schema_qualified_table_name_is_found(chat: N8nChat) -> None:
    with psycopg.connect(chat.dsn) as conn:
        schema = conn.execute("SELECT current_schema()").fetchone()
    assert schema is not None
    with N8nTable(chat.dsn, f"{schema[0]}.n8n_chat_histories") as table:
        assert table.name.endswith(f"/{schema[0]}.n8n_chat_histories")
