"""What the Postgres store does beyond the conformance suite, on both vector modes.

Runs against the real servers of tests/store/pg_servers.py, never a mock.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path
from urllib.parse import quote, urlencode

import numpy as np
import psycopg
import pytest

from somna.errors import (
    ConfigurationError,
    ConflictStateError,
    InvalidInputError,
    ProfileNotFoundError,
    StoreError,
)
from somna.model import (
    Conflict,
    ConflictStatus,
    Evidence,
    FactStatus,
    Profile,
    Role,
    lifecycle,
)
from somna.model.lifecycle import Change
from somna.store import FactFilter, NewMessage, open_store
from somna.store.migrations import load_migrations
from somna.store.postgres import PostgresStore
from tests.store.pg_servers import ServerKind, TestServers
from tests.store.test_conformance import EAST, NORTH, NOW, T0, add, fact, now_eligible

MIGRATIONS = load_migrations("somna.store.postgres.migrations")
INJECTIONS = [
    "alice' OR '1'='1",
    "alice'; DROP TABLE facts; --",
    'bob" OR 1=1 --',
    "%s %(id)s {}",
    "alice\\' OR 1=1",
]


@pytest.fixture(params=["array", "pgvector"], ids=["postgres-array", "postgres-pgvector"])
def kind(request: pytest.FixtureRequest) -> ServerKind:
    return request.param  # type: ignore[no-any-return]


@pytest.fixture
def dsn(kind: ServerKind, tmp_path: Path, postgres_servers: TestServers) -> str:
    return postgres_servers.database(kind, tmp_path)


@pytest.fixture
def pg(dsn: str) -> Iterator[PostgresStore]:
    store = PostgresStore(dsn)
    store.create_profile(Profile(id="alice"))
    store.create_profile(Profile(id="bob"))
    yield store
    store.close()


def q(vector: list[float]) -> np.ndarray:
    return np.array(vector, dtype=np.float32)


# -- opening ------------------------------------------------------------------------------


def test_the_vector_mode_follows_what_the_server_offers(
    kind: ServerKind, dsn: str, pg: PostgresStore, postgres_servers: TestServers
) -> None:
    expected = "pgvector" if postgres_servers.has_pgvector(kind) else "array"
    if postgres_servers.override is None:  # the two servers the suite starts itself
        assert expected == kind
    assert pg.vector_mode == expected
    with psycopg.connect(dsn) as conn:
        row = conn.execute(
            "SELECT format_type(atttypid, atttypmod) FROM pg_attribute "
            "WHERE attrelid = 'facts'::regclass AND attname = 'embedding'"
        ).fetchone()
    assert row == (("vector",) if expected == "pgvector" else ("real[]",))


def test_migrations_are_recorded_and_applied_once(dsn: str) -> None:
    for _ in range(2):
        store = PostgresStore(dsn)
        assert store.schema_version() == MIGRATIONS[-1].version
        store.close()
    with psycopg.connect(dsn) as conn:
        recorded = conn.execute("SELECT version, name FROM schema_migrations ORDER BY version")
        assert recorded.fetchall() == [(m.version, m.name) for m in MIGRATIONS]


def test_concurrent_first_opens_migrate_once(dsn: str) -> None:
    start = threading.Barrier(4)

    def open_one(_: int) -> int:
        start.wait()
        store = PostgresStore(dsn, pool_size=1)
        try:
            return store.schema_version()
        finally:
            store.close()

    with ThreadPoolExecutor(4) as pool:
        assert list(pool.map(open_one, range(4))) == [MIGRATIONS[-1].version] * 4


def test_open_store_picks_postgres_for_postgres_urls(dsn: str) -> None:
    parts = {k: str(v) for k, v in psycopg.conninfo.conninfo_to_dict(dsn).items()}
    user = quote(parts.get("user", ""), safe="") + (
        ":" + quote(parts["password"], safe="") if "password" in parts else ""
    )
    host, dbname = parts.get("host", "localhost"), quote(parts["dbname"], safe="")
    query = {"options": parts["options"]} if "options" in parts else {}
    if host.startswith("/"):  # a Unix socket folder
        rest, query = f"{user}@/{dbname}", {"host": host, **query}
    else:
        rest = f"{user}@{host}:{parts.get('port', '5432')}/{dbname}"
    if query:
        rest += "?" + urlencode(query, quote_via=quote)
    for scheme in ("postgresql", "postgres"):
        store = open_store(f"{scheme}://{rest}")
        try:
            assert isinstance(store, PostgresStore)
            assert store.get_profile("alice") is None
        finally:
            store.close()


def test_an_unreachable_server_is_a_store_error_without_the_password() -> None:
    with pytest.raises(StoreError, match="Cannot open the Postgres database") as caught:
        PostgresStore("postgresql://somna:s3cret@127.0.0.1:1/somna")
    assert "s3cret" not in str(caught.value)
    assert "postgresql://somna@127.0.0.1:1/somna" in str(caught.value)


def test_the_location_names_the_database_without_the_password(dsn: str) -> None:
    store = PostgresStore(dsn)
    try:
        parts = psycopg.conninfo.conninfo_to_dict(dsn)
        assert store.location.startswith("postgresql://")
        assert str(parts["dbname"]) in store.location
        assert "password" not in store.location
    finally:
        store.close()


def test_an_unknown_store_text_config_is_a_configuration_error(dsn: str) -> None:
    with pytest.raises(ConfigurationError, match="klingon"):
        PostgresStore(dsn, text_config="klingon")


# -- isolation (DESIGN invariant 7) -------------------------------------------------------


def test_crafted_ids_never_cross_profiles(pg: PostgresStore) -> None:
    theirs = add(pg, fact(profile="bob", text="Bob's secret."))
    odd = {
        crafted: add(pg, fact(profile="bob", id=crafted, text=f"Bob's secret number {n}."), NORTH)
        for n, crafted in enumerate(INJECTIONS)
    }
    for crafted, their_odd in odd.items():
        with pytest.raises(ProfileNotFoundError), pg.read(crafted):
            pass
        with pytest.raises(ProfileNotFoundError), pg.write(crafted):
            pass
        with pg.read("alice") as tx:
            for probe in (crafted, theirs.id):
                assert tx.get_fact(probe) is None
                assert tx.predecessors(probe) == []
                assert tx.list_conflicts(list(ConflictStatus), fact_id=probe) == []
            assert tx.get_facts([crafted, theirs.id]) == []
            assert tx.events([crafted, theirs.id]) == [] and tx.evidence([crafted]) == []
            assert tx.list_facts(FactFilter(text=crafted), NOW) == []
            assert tx.list_facts(FactFilter(category=crafted, subject=crafted), NOW) == []
            assert tx.text_search(crafted, now_eligible(), 5) == []
            assert tx.text_search("secret", now_eligible(), 5) == []
            assert tx.vector_search(q(EAST), now_eligible(), 5) == []
            assert tx.window(crafted, 5) == [] and tx.latest_session(crafted) is None
            assert tx.get_conflict(crafted) is None and tx.get_summaries([crafted]) == []
            assert tx.messages_by_id([crafted]) == []
        with pytest.raises(InvalidInputError), pg.write("alice") as tx:
            forged = their_odd.model_copy(update={"profile_id": "alice"})
            tx.apply(lifecycle.retire(forged, at=NOW, actor="mallory", reason="x"))
        with pytest.raises(InvalidInputError), pg.write("alice") as tx:
            bogus = Conflict(profile_id="alice", fact_a=crafted, fact_b=theirs.id)
            tx.apply(Change(conflicts=[bogus]))
    with pg.read("bob") as tx:
        assert tx.get_facts(list(odd)) == list(odd.values())
        assert len(tx.list_facts(FactFilter(), NOW)) == len(INJECTIONS) + 1


def test_the_schema_refuses_a_reference_into_another_profile(dsn: str, pg: PostgresStore) -> None:
    theirs = add(pg, fact(profile="bob", text="Bob's secret."))
    with psycopg.connect(dsn) as conn, pytest.raises(psycopg.errors.ForeignKeyViolation):
        conn.execute(
            "INSERT INTO evidence (id, fact_id, profile_id, quote, observed_at) "
            "VALUES ('evd_x', %s, 'alice', 'quote', now())",
            (theirs.id,),
        )


def test_fact_history_cannot_be_rewritten_even_in_sql(dsn: str, pg: PostgresStore) -> None:
    add(pg, fact())
    with psycopg.connect(dsn) as conn, pytest.raises(psycopg.IntegrityError, match="append"):
        conn.execute("UPDATE fact_events SET actor = 'mallory'")


# -- writes -------------------------------------------------------------------------------


def test_a_missing_successor_is_refused_at_commit_and_nothing_is_written(
    pg: PostgresStore,
) -> None:
    old = add(pg, fact(text="Lives in Paris."))
    ghost = fact(text="Lives in Berlin.")  # never stored
    with pytest.raises(ConflictStateError, match="nothing was written"), pg.write("alice") as tx:
        tx.apply(lifecycle.supersede(old, ghost, at=NOW, actor="test"))
    with pg.read("alice") as tx:
        assert tx.get_fact(old.id) == old
        assert [e.action.value for e in tx.events([old.id])] == ["created"]


def test_a_vector_of_another_dimension_is_refused_on_write(pg: PostgresStore) -> None:
    add(pg, fact())
    with pytest.raises(StoreError, match="dimensions"):
        add(pg, fact(text="Owns a cat."), [1.0, 0.0, 0.0])


def test_writers_of_one_profile_take_turns(pg: PostgresStore) -> None:
    def talk(worker: int) -> None:
        for turn in range(5):
            with pg.write("alice") as tx:
                message = NewMessage(Role.USER, f"w{worker} t{turn}", T0 + timedelta(turn))
                tx.add_messages("chat", [message])

    with ThreadPoolExecutor(4) as pool:
        list(pool.map(talk, range(4)))
    with pg.read("alice") as tx:
        assert [m.seq for m in tx.window("chat", 100)] != []
        assert sorted(m.seq for m in tx.window("chat", 100)) == list(range(20))


def test_a_nul_character_is_invalid_input(pg: PostgresStore) -> None:
    with pytest.raises(InvalidInputError), pg.write("alice") as tx:
        tx.add_messages("chat", [NewMessage(Role.USER, "nul \x00 here", T0)])


# -- full text ----------------------------------------------------------------------------


def test_a_french_profile_stems_its_words(pg: PostgresStore) -> None:
    pg.create_profile(Profile(id="amelie", settings={"text_config": "french"}))
    meal = add(pg, fact(profile="amelie", text="Aime manger une pomme le matin."))
    plain = add(pg, fact(profile="alice", text="Aime manger une pomme le matin."))
    with pg.read("amelie") as tx:
        assert [i for i, _ in tx.text_search("mange", now_eligible(), 5)] == [meal.id]
        assert [i for i, _ in tx.text_search("mangé", now_eligible(), 5)] == [meal.id]
        assert [i for i, _ in tx.text_search("pommes", now_eligible(), 5)] == [meal.id]
    with pg.read("alice") as tx:  # "simple": whole words, or words that begin so
        assert [i for i, _ in tx.text_search("mange", now_eligible(), 5)] == [plain.id]
        assert tx.text_search("mangé", now_eligible(), 5) == []
        assert tx.text_search("pommes", now_eligible(), 5) == []


def test_simple_text_search_takes_longer_words_as_prefixes_and_ranks_whole_words_first(
    pg: PostgresStore,
) -> None:
    nuts = add(pg, fact(text="Is allergic to peanuts."))
    tea = add(pg, fact(text="Drinks green tea."), NORTH)
    teacher = add(pg, fact(text="Is a teacher."), EAST)
    add(pg, fact(text="Owns a boat."), EAST)
    with pg.read("alice") as tx:
        assert [i for i, _ in tx.text_search("peanut butter", now_eligible(), 5)] == [nuts.id]
        assert [i for i, _ in tx.text_search("tea", now_eligible(), 5)] == [tea.id, teacher.id]
        assert tx.text_search("b", now_eligible(), 5) == []  # too short to be a prefix


def test_the_store_text_config_applies_to_profiles_that_name_none(dsn: str) -> None:
    store = PostgresStore(dsn, text_config="english")
    try:
        store.create_profile(Profile(id="carol"))
        runs = add(store, fact(profile="carol", text="Goes running on Sundays."))
        with store.read("carol") as tx:
            assert [i for i, _ in tx.text_search("run", now_eligible(), 5)] == [runs.id]
    finally:
        store.close()


def test_an_unknown_profile_text_config_is_refused_with_the_choices(pg: PostgresStore) -> None:
    with pytest.raises(InvalidInputError, match=r"'klingon'.*french"):
        pg.create_profile(Profile(id="worf", settings={"text_config": "klingon"}))
    assert pg.get_profile("worf") is None


def test_odd_text_queries_never_fail(pg: PostgresStore) -> None:
    add(pg, fact(text="Drinks green tea every morning."))
    odd = ["", "?!", "_", "a_b", "l'été", "tea & | ! <-> :* (", "'' \\ \"", "OR AND NOT"]
    with pg.read("alice") as tx:
        for query in [*odd, *INJECTIONS, "x" * 5000, "é" * 3 + "\u200b" + "ß"]:
            hits = tx.text_search(query, now_eligible(), 5)
            assert all(isinstance(score, float) for _, score in hits), query


def test_text_search_ranks_denser_matches_first(pg: PostgresStore) -> None:
    both = add(pg, fact(text="Green tea and green apples."))
    one = add(pg, fact(text="Owns a green bicycle."), NORTH)
    with pg.read("alice") as tx:
        hits = tx.text_search("green tea", now_eligible(), 5)
    assert [i for i, _ in hits] == [both.id, one.id]
    assert hits[0][1] > hits[1][1] > 0


# -- two stores, one database -------------------------------------------------------------


def test_two_stores_on_one_database_see_each_others_writes(dsn: str, pg: PostgresStore) -> None:
    other = PostgresStore(dsn)
    try:
        first = add(pg, fact(text="Fact one."), NORTH)
        with other.read("alice") as tx:  # caches the index (array mode)
            assert [i for i, _ in tx.vector_search(q(EAST), now_eligible(), 5)] == [first.id]
        second = add(pg, fact(text="Fact two."), EAST)
        with other.read("alice") as tx:  # facts_rev moved: the cached index is stale
            assert [i for i, _ in tx.vector_search(q(EAST), now_eligible(), 5)] == [
                second.id,
                first.id,
            ]
            assert [i for i, _ in tx.text_search("two", now_eligible(), 5)] == [second.id]
        with other.write("alice") as tx:  # and the other way round
            tx.apply(lifecycle.retire(second, at=NOW, actor="test", reason="test"))
        with pg.read("alice") as tx:
            assert [i for i, _ in tx.vector_search(q(EAST), now_eligible(), 5)] == [first.id]
            assert tx.get_fact(second.id).status is FactStatus.RETIRED  # type: ignore[union-attr]
    finally:
        other.close()


@pytest.mark.parametrize("kind", ["array"], indirect=True)
def test_a_store_patches_its_cached_index_after_its_own_commit(pg: PostgresStore) -> None:
    if pg.vector_mode != "array":  # only when SOMNA_TEST_PG_DSN names a pgvector server
        pytest.skip("pgvector mode searches in SQL and caches nothing")
    add(pg, fact(text="Fact one."), NORTH)
    with pg.read("alice") as tx:
        tx.vector_search(q(EAST), now_eligible(), 5)
    cached = pg._cache._facts["alice"]
    second = add(pg, fact(text="Fact two."), EAST)
    with pg.read("alice") as tx:
        assert tx.vector_search(q(EAST), now_eligible(), 1)[0][0] == second.id
    assert pg._cache._facts["alice"] is cached and len(cached) == 2


def test_a_search_inside_a_write_sees_that_write_and_caches_nothing_of_it(
    pg: PostgresStore,
) -> None:
    first = add(pg, fact(text="Fact one."), NORTH)
    with pytest.raises(RuntimeError), pg.write("alice") as tx:
        tx.apply(lifecycle.create(fact(text="Fact two."), vector=EAST, actor="test"))
        assert len(tx.vector_search(q(EAST), now_eligible(), 5)) == 2
        raise RuntimeError("roll back")
    with pg.read("alice") as tx:
        assert [i for i, _ in tx.vector_search(q(EAST), now_eligible(), 5)] == [first.id]


def test_evidence_and_events_keep_their_insertion_order(pg: PostgresStore) -> None:
    new = fact()
    quotes = [Evidence(fact_id=new.id, quote=f"quote {i}", observed_at=T0) for i in range(5)]
    add(pg, new, evidence=quotes)
    with pg.read("alice") as tx:
        assert [e.quote for e in tx.evidence([new.id])] == [e.quote for e in quotes]


# -- consolidation leases -----------------------------------------------------------------


def test_concurrent_workers_lease_disjoint_sessions(pg: PostgresStore) -> None:
    with pg.write("alice") as tx:
        for key in range(6):
            tx.add_messages(f"chat-{key}", [NewMessage(Role.USER, "hello", T0)])
    start = threading.Barrier(2)

    def lease(worker: str) -> set[str]:
        start.wait()
        with pg.write("alice") as tx:
            taken = tx.lease_sessions(
                idle_before=NOW, now=NOW, owner=worker, until=NOW + timedelta(hours=1), limit=4
            )
        return {s.id for s in taken}

    with ThreadPoolExecutor(2) as pool:
        first, second = pool.map(lease, ["w1", "w2"])
    assert not first & second and len(first | second) == 6
    with pg.read("alice") as tx:
        assert tx.due_sessions(idle_before=NOW, now=NOW, limit=10) == []
        assert len(tx.due_sessions(idle_before=NOW, now=NOW + timedelta(hours=2), limit=10)) == 6


def test_erasing_a_profile_leaves_the_others_and_its_cache(pg: PostgresStore) -> None:
    mine = add(pg, fact(text="Fact one."), EAST)
    theirs = add(pg, fact(profile="bob", text="Fact one."), EAST)
    with pg.read("alice") as tx:
        assert [i for i, _ in tx.vector_search(q(EAST), now_eligible(), 5)] == [mine.id]
    counts = pg.erase_profile("alice")
    assert counts["facts"] == 1 and counts["fact_events"] == 1 and counts["profiles"] == 1
    assert "alice" not in pg._cache
    with pytest.raises(ProfileNotFoundError), pg.read("alice"):
        pass
    with pg.read("bob") as tx:
        assert tx.get_fact(theirs.id) == theirs


def test_a_writer_that_waits_too_long_for_its_profile_fails_instead_of_hanging(dsn: str) -> None:
    store = PostgresStore(dsn, lock_timeout=0.2)
    try:
        store.create_profile(Profile(id="alice"))
        with (
            store.write("alice"),
            pytest.raises(StoreError, match="lock timeout"),
            store.write("alice"),
        ):
            pass
    finally:
        store.close()
