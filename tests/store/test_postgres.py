"""What the Postgres store does beyond the conformance suite, on both vector modes.

Runs against the real servers of tests/store/pg_servers.py, never a mock.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

import numpy as np
import psycopg
import pytest
from pgvector.psycopg import register_vector

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
from somna.store import Eligibility, FactFilter, NewMessage, open_store
from somna.store.migrations import load_migrations
from somna.store.postgres import PostgresStore
from tests.store.pg_servers import ServerKind, TestServers
from tests.store.test_conformance import EAST, NORTH, NOW, T0, add, fact, now_eligible

MIGRATIONS = load_migrations("postgres")
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


def test_open_store_reads_libpq_keyword_value_strings_as_a_server_never_as_a_file(
    dsn: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    keywords = psycopg.conninfo.make_conninfo(dsn)  # "user=… dbname=… host=…"
    for spaced in (keywords, "  " + keywords.replace("=", " = ", 1)):
        store = open_store(spaced)
        try:
            assert isinstance(store, PostgresStore)
        finally:
            store.close()
    assert list(tmp_path.iterdir()) == []


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
            bogus = Conflict(profile_id="alice", fact_a_id=crafted, fact_b_id=theirs.id)
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


def test_embeddings_are_stored_as_the_exact_float32_values_given(
    dsn: str, pg: PostgresStore
) -> None:
    vector = np.random.default_rng(7).standard_normal(384).astype(np.float32)
    vector[:3] = [1e-38, -0.0, 3.4e38]
    stored = add(pg, fact(), vector.tolist())
    with psycopg.connect(dsn) as conn:
        (column,) = conn.execute(
            "SELECT embedding::real[] FROM facts WHERE id = %s", (stored.id,)
        ).fetchone()  # type: ignore[misc]
    assert np.array_equal(np.array(column, dtype=np.float32), vector)


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
    with pg.read("alice") as tx:  # English, and the French index every profile has
        assert [i for i, _ in tx.text_search("mange", now_eligible(), 5)] == [plain.id]
        assert [i for i, _ in tx.text_search("mangé", now_eligible(), 5)] == [plain.id]
        assert [i for i, _ in tx.text_search("pommes", now_eligible(), 5)] == [plain.id]
        assert tx.text_search("poire", now_eligible(), 5) == []


def test_simple_text_search_takes_longer_words_as_prefixes_and_ranks_whole_words_first(
    pg: PostgresStore,
) -> None:
    pg.create_profile(Profile(id="sam", settings={"text_config": "simple"}))
    nuts = add(pg, fact(profile="sam", text="Is allergic to peanuts."))
    tea = add(pg, fact(profile="sam", text="Drinks green tea."), NORTH)
    teacher = add(pg, fact(profile="sam", text="Is a teacher."), EAST)
    add(pg, fact(profile="sam", text="Owns a boat."), EAST)
    with pg.read("sam") as tx:
        assert [i for i, _ in tx.text_search("peanut butter", now_eligible(), 5)] == [nuts.id]
        assert [i for i, _ in tx.text_search("tea", now_eligible(), 5)] == [tea.id, teacher.id]
        assert tx.text_search("b", now_eligible(), 5) == []  # too short to be a prefix


def test_profiles_stem_english_unless_the_store_names_another_text_config(dsn: str) -> None:
    plain = PostgresStore(dsn, text_config="simple")
    try:
        plain.create_profile(Profile(id="carol"))
        steady = add(plain, fact(profile="carol", text="Goes running on Sundays."))
        with plain.read("carol") as tx:
            assert tx.text_search("runs", now_eligible(), 5) == []
    finally:
        plain.close()
    stemmed = PostgresStore(dsn)
    try:
        stemmed.create_profile(Profile(id="dave"))
        runs = add(stemmed, fact(profile="dave", text="Goes running on Sundays."))
        with stemmed.read("dave") as tx:
            assert [i for i, _ in tx.text_search("runs", now_eligible(), 5)] == [runs.id]
        with stemmed.read("carol") as tx:  # a profile keeps the configuration it was made with
            assert tx.text_search("runs", now_eligible(), 5) == []
            assert [i for i, _ in tx.text_search("running", now_eligible(), 5)] == [steady.id]
    finally:
        stemmed.close()


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


# -- HNSW indexes of large profiles (pgvector mode) ---------------------------------------

pgvector_only = pytest.mark.parametrize("kind", ["pgvector"], indirect=True)
HNSW_THRESHOLD = 50
DIM = 32
EXPIRED_AT = NOW - timedelta(days=1)
FUTURE = NOW + timedelta(days=30)


@pytest.fixture
def hnsw(dsn: str) -> Iterator[PostgresStore]:
    """A pgvector store that indexes profiles of more than 50 searchable facts."""
    store = PostgresStore(dsn, hnsw_threshold=HNSW_THRESHOLD)
    if store._hnsw is None:  # only when SOMNA_TEST_PG_DSN names another server
        store.close()
        pytest.skip("needs pgvector 0.8 or later")
    for profile in ("big", "other", "small"):
        store.create_profile(Profile(id=profile))
    yield store
    store.close()


class Loaded:
    """What a profile was given: each fact's vector and whether a present search may find it."""

    def __init__(self) -> None:
        self.ids: list[str] = []
        self.vectors: list[np.ndarray] = []
        self.eligible: list[bool] = []

    def exact(self, query: np.ndarray, k: int) -> list[str]:
        """The true top k of the eligible facts, by inner product, computed here."""
        matrix = np.stack(self.vectors)
        scores = np.where(self.eligible, matrix @ query, -np.inf)
        order = np.argsort(-scores, kind="stable")[:k]
        return [self.ids[i] for i in order if self.eligible[i]]


def unit_vectors(rng: np.random.Generator, n: int, dim: int = DIM) -> np.ndarray:
    vectors = rng.standard_normal((n, dim)).astype(np.float32)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)  # type: ignore[no-any-return]


def load(
    store: PostgresStore,
    profile: str,
    rng: np.random.Generator,
    kinds: list[str],
    dim: int = DIM,
    into: Loaded | None = None,
) -> Loaded:
    """Stores one fact per entry of `kinds`: "active", "retired", "superseded", "future"
    (valid from after NOW), "ended" (valid time over) or "expired" (expires_at passed)."""
    loaded = into or Loaded()
    start = len(loaded.ids)
    facts, vectors = [], unit_vectors(rng, len(kinds), dim)
    for n, kind in enumerate(kinds, start):
        fields: dict[str, Any] = {}
        if kind in ("retired", "superseded"):
            fields["status"] = FactStatus(kind)
        elif kind == "future":
            fields["valid_from"] = FUTURE
        elif kind == "ended":
            fields["valid_to"] = EXPIRED_AT
        elif kind == "expired":
            fields["expires_at"] = EXPIRED_AT
        facts.append(fact(profile=profile, text=f"Fact number {n} of {profile}.", **fields))
        loaded.eligible.append(kind == "active")
    created = [
        lifecycle.create(f, vector=v.tolist(), actor="test")
        for f, v in zip(facts, vectors, strict=True)
    ]
    with store.write(profile) as tx:  # one change of them all: the quickest way in
        tx.apply(
            Change(
                facts=facts,
                vectors={k: v for change in created for k, v in change.vectors.items()},
                events=[event for change in created for event in change.events],
            )
        )
    loaded.ids.extend(f.id for f in facts)
    loaded.vectors.extend(vectors)
    assert len(loaded.ids) == start + len(kinds)
    return loaded


def mixed(rng: np.random.Generator, n: int, active: float) -> list[str]:
    """n kinds of fact, `active` of them active and the rest spread over the others."""
    others = ["retired", "superseded", "future", "ended", "expired"]
    return ["active" if rng.random() < active else str(rng.choice(others)) for _ in range(n)]


@pgvector_only
def test_hnsw_searches_stay_in_the_profile_find_only_eligible_facts_and_recall_exact(
    hnsw: PostgresStore,
) -> None:
    rng = np.random.default_rng(7)
    big = load(hnsw, "big", rng, mixed(rng, 400, active=0.6))
    other = load(hnsw, "other", rng, mixed(rng, 150, active=0.8), dim=48)
    load(hnsw, "small", rng, ["active"] * 30)
    assert hnsw.ensure_vector_index("big") is not None
    assert hnsw.ensure_vector_index("other") is not None  # another dimension, its own index
    assert hnsw.ensure_vector_index("small") is None  # 30 facts: exact is enough
    hits = []
    for profile, loaded, dim in (("big", big, DIM), ("other", other, 48)):
        eligible = {i for i, ok in zip(loaded.ids, loaded.eligible, strict=True) if ok}
        for query in unit_vectors(rng, 25, dim):
            with hnsw.read(profile) as tx:
                found = tx.vector_search(query, now_eligible(), 10)
            ids = [i for i, _ in found]
            assert len(ids) == 10 and set(ids) <= eligible  # no retired, superseded, future...
            scores = [s for _, s in found]
            assert scores == sorted(scores, reverse=True)
            by_id = dict(zip(loaded.ids, loaded.vectors, strict=True))
            assert scores == pytest.approx([float(by_id[i] @ query) for i in ids], abs=1e-5)
            hits.append(len(set(ids) & set(loaded.exact(query, 10))) / 10)
    assert np.mean(hits) >= 0.95
    assert hnsw.vector_searches["hnsw"] == 50 and hnsw.vector_searches["hnsw-short"] == 0
    with hnsw.read("small") as tx:
        assert len(tx.vector_search(unit_vectors(rng, 1)[0], now_eligible(), 10)) == 10
    assert hnsw.vector_searches["exact"] == 1


@pgvector_only
@pytest.mark.parametrize("filtered", ["retired", "superseded", "future"])
def test_a_selective_filter_does_not_starve_an_hnsw_search(
    dsn: str, hnsw: PostgresStore, filtered: str
) -> None:
    rng = np.random.default_rng(11)
    kinds = ["active" if n % 20 == 0 else filtered for n in range(1200)]  # 5% eligible
    big = load(hnsw, "big", rng, kinds)
    name = hnsw.ensure_vector_index("big")
    assert name is not None
    narrow = PostgresStore(dsn, hnsw_threshold=HNSW_THRESHOLD, hnsw_ef_search=10)
    try:
        hits = []
        for query in unit_vectors(rng, 20):
            with narrow.read("big") as tx:
                ids = [i for i, _ in tx.vector_search(query, now_eligible(), 10)]
            assert len(ids) == 10 and all(big.eligible[big.ids.index(i)] for i in ids)
            hits.append(len(set(ids) & set(big.exact(query, 10))) / 10)
        assert narrow.vector_searches == {"hnsw": 20}  # never rescued by the exact rerun
        assert np.mean(hits) >= 0.95
    finally:
        narrow.close()
    if filtered == "retired":
        return  # retired facts are not even in the index
    # The pitfall itself: the same scan without iterative scans finds too few.
    with psycopg.connect(dsn) as conn:
        conn.execute("SET hnsw.ef_search = 10")
        conn.execute("SET hnsw.iterative_scan = off")
        register_vector(conn)
        rows = conn.execute(
            f"SELECT f.id FROM facts f WHERE f.profile_id = 'big' AND vector_dims(f.embedding) "
            f"= {DIM} AND f.status IN ('superseded', 'unverified', 'verified') AND f.status IN "
            f"('unverified', 'verified') AND f.valid_from <= %s ORDER BY f.embedding::vector("
            f"{DIM}) <#> %s LIMIT 10",
            (NOW, unit_vectors(rng, 1)[0]),
        ).fetchall()
        assert len(rows) < 10


@pgvector_only
def test_explain_shows_the_hnsw_index_on_a_large_profile_only(
    dsn: str, hnsw: PostgresStore
) -> None:
    rng = np.random.default_rng(3)
    load(hnsw, "big", rng, ["active"] * 200)
    load(hnsw, "small", rng, ["active"] * 20)
    name = hnsw.ensure_vector_index("big")
    assert name is not None and name.startswith("facts_hnsw_")
    query = unit_vectors(rng, 1)[0]
    for eligible in (now_eligible(), Eligibility(at=T0, now=NOW, include_superseded=True)):
        with hnsw.read("big") as tx:
            assert f"Index Scan using {name}" in tx.vector_search_plan(query, eligible, 10)
        with hnsw.read("small") as tx:
            plan = tx.vector_search_plan(query, eligible, 10)
            assert "hnsw" not in plan and "Sort" in plan
    exact = PostgresStore(dsn, hnsw_threshold=None)  # HNSW searches turned off
    try:
        with exact.read("big") as tx:
            assert "hnsw" not in tx.vector_search_plan(query, now_eligible(), 10)
    finally:
        exact.close()


@pgvector_only
def test_a_search_of_a_large_profile_builds_its_index_and_new_facts_are_found(
    hnsw: PostgresStore,
) -> None:
    rng = np.random.default_rng(5)
    big = load(hnsw, "big", rng, ["active"] * 120)
    load(hnsw, "small", rng, ["active"] * 40)
    for profile in ("big", "small"):
        with hnsw.read(profile) as tx:
            tx.vector_search(unit_vectors(rng, 1)[0], now_eligible(), 5)
    assert hnsw._hnsw is not None and hnsw._hnsw.wait(timeout=60)
    assert hnsw.vector_searches == {"exact": 2}
    query = unit_vectors(rng, 1)[0]
    with hnsw.read("big") as tx:
        assert "Index Scan using facts_hnsw_" in tx.vector_search_plan(query, now_eligible(), 5)
        assert [i for i, _ in tx.vector_search(query, now_eligible(), 5)] == big.exact(query, 5)
    with hnsw.read("small") as tx:
        assert "hnsw" not in tx.vector_search_plan(query, now_eligible(), 5)
    assert hnsw.vector_searches["hnsw"] == 1
    # The index follows writes, seen by the writing transaction itself, then by all.
    newest = fact(profile="big", text="The newest fact.")
    with hnsw.write("big") as tx:
        tx.apply(lifecycle.create(newest, vector=query.tolist(), actor="test"))
        assert tx.vector_search(query, now_eligible(), 5)[0][0] == newest.id
    with hnsw.read("big") as tx:
        assert tx.vector_search(query, now_eligible(), 5)[0][0] == newest.id
        stored = tx.get_fact(newest.id)
    assert stored is not None
    with hnsw.write("big") as tx:
        tx.apply(lifecycle.retire(stored, at=NOW, actor="test", reason="test"))
    with hnsw.read("big") as tx:
        assert newest.id not in [i for i, _ in tx.vector_search(query, now_eligible(), 5)]
    assert hnsw.vector_searches["hnsw"] == 4 and hnsw.vector_searches["hnsw-short"] == 0


@pgvector_only
def test_an_interrupted_build_is_redone_and_erasing_drops_the_index(
    dsn: str, hnsw: PostgresStore
) -> None:
    rng = np.random.default_rng(9)
    big = load(hnsw, "big", rng, ["active"] * 100)
    name = hnsw.ensure_vector_index("big")
    assert name is not None
    with psycopg.connect(dsn, autocommit=True) as conn:  # as a cancelled build leaves it
        conn.execute(
            "UPDATE pg_index SET indisvalid = false WHERE indexrelid = %s::regclass", (name,)
        )
    query = unit_vectors(rng, 1)[0]
    with hnsw.read("big") as tx:  # an invalid index is not searched: exact it is
        assert [i for i, _ in tx.vector_search(query, now_eligible(), 5)] == big.exact(query, 5)
    assert hnsw.vector_searches == {"exact": 1}
    assert hnsw._hnsw is not None and hnsw._hnsw.wait(timeout=60)  # that search asked again
    with hnsw.read("big") as tx:
        assert [i for i, _ in tx.vector_search(query, now_eligible(), 5)] == big.exact(query, 5)
    assert hnsw.vector_searches["hnsw"] == 1
    hnsw.erase_profile("big")
    assert hnsw._hnsw.wait(timeout=60)
    with psycopg.connect(dsn) as conn:
        assert conn.execute("SELECT to_regclass(%s)", (name,)).fetchone() == (None,)
    assert hnsw.ensure_vector_index("small") is None  # a profile without facts


def test_hnsw_settings_are_checked_before_connecting() -> None:
    nowhere = "postgresql://somna@127.0.0.1:1/somna"
    with pytest.raises(ConfigurationError, match="hnsw_threshold"):
        PostgresStore(nowhere, hnsw_threshold=-1)
    with pytest.raises(ConfigurationError, match="hnsw_ef_search"):
        PostgresStore(nowhere, hnsw_ef_search=1001)
