"""Full-text search leaves out the words most facts hold, on every backend."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

from somna.model import Fact, Profile, lifecycle
from somna.store import Eligibility, Store
from somna.store.french import french_terms
from somna.store.fulltext import COMMON_FLOOR, TermCounts, common_from
from somna.store.postgres import PostgresStore
from somna.store.sqlite import SQLiteStore
from tests.store.pg_servers import TestServers

T0 = datetime(2026, 1, 1, tzinfo=UTC)
NOW = datetime(2026, 6, 1, tzinfo=UTC)
EVERYWHERE = COMMON_FLOOR + 100


def fill(store: Store, texts: list[str]) -> list[str]:
    facts = [
        Fact(profile_id="ann", text=text, valid_from=T0, recorded_at=T0, subject=f"s{i}")
        for i, text in enumerate(texts)
    ]
    with store.write("ann") as tx:
        for fact in facts:
            tx.apply(lifecycle.create(fact, vector=[1.0, 0.0, 0.0, 0.0], actor="test"))
    if isinstance(store, PostgresStore):
        with store._connection() as conn:  # the estimate of the table's size comes from here
            conn.execute("ANALYZE facts")
    return [f.id for f in facts]


def found(store: Store, query: str) -> set[str]:
    with store.read("ann") as tx:
        return {i for i, _ in tx.text_search(query, Eligibility(at=NOW, now=NOW), 50)}


def test_a_word_most_facts_hold_is_left_out_when_a_rarer_one_remains(store: Store) -> None:
    store.create_profile(Profile(id="ann"))
    ids = fill(
        store,
        [f"The user keeps box number {i}." for i in range(EVERYWHERE)]
        + ["The user paddles a red kayak.", "The user sold the kayak."],
    )
    kayaks = set(ids[-2:])
    assert found(store, "user kayak") == kayaks
    assert found(store, "kayak") == kayaks
    assert found(store, "user") == set()  # it cannot tell one fact from another


def test_on_a_small_store_every_word_is_searched(store: Store) -> None:
    store.create_profile(Profile(id="ann"))
    ids = fill(store, [f"The user keeps box number {i}." for i in range(20)])
    assert found(store, "user") == set(ids)


def test_a_word_is_counted_once_until_the_store_grows_by_a_tenth() -> None:
    counted: list[str] = []

    def count(word: str, cap: int) -> int:
        counted.append(word)
        return cap if word == "user" else 3

    terms = TermCounts()
    assert terms.selective(["user", "kayak"], 10_000, count) == ["kayak"]
    assert terms.selective(["user", "kayak"], 10_900, count) == ["kayak"]
    assert counted == ["user", "kayak"]
    assert terms.selective(["user"], 11_500, count) == []
    assert counted == ["user", "kayak", "user"]


def test_every_word_is_kept_below_the_floor_and_common_words_are_counted_to_the_threshold() -> None:
    def count(word: str, cap: int) -> int:
        raise AssertionError("a store this small needs no count")

    assert TermCounts().selective(["user"], COMMON_FLOOR, count) == ["user"]
    caps: list[int] = []

    def capped(word: str, cap: int) -> int:
        caps.append(cap)
        return 0

    TermCounts().selective(["tea"], 100_000, capped)
    assert caps == [common_from(100_000) + 1]


def test_the_least_recently_used_words_are_forgotten() -> None:
    terms = TermCounts(max_words=2)
    counted: list[str] = []

    def count(word: str, cap: int) -> int:
        counted.append(word)
        return 0

    for word in ["a", "b", "a", "c", "b"]:
        terms.selective([word], 10_000, count)
    assert counted == ["a", "b", "c", "b"]


# -- French -----------------------------------------------------------------------------

FRENCH = [
    "L'utilisateur est allergique aux arachides.",
    "Le client voit son médecin chaque mois.",
    "Qu'il pleuve ou non, elle court le matin.",
    "The user is allergic to peanuts.",
]


def test_french_words_find_their_forms_with_and_without_accents(store: Store) -> None:
    store.create_profile(Profile(id="ann"))
    allergic, doctor, running, _peanuts = fill(store, FRENCH)
    assert found(store, "Est-ce que le client a des allergies ?") >= {allergic, doctor}
    assert found(store, "allergies") == {allergic}
    assert found(store, "medecins") == {doctor}
    assert found(store, "l'arachide") == {allergic}
    assert found(store, "Pleuvait-il ces matins ?") == {running}


def test_english_is_found_as_before(store: Store) -> None:
    store.create_profile(Profile(id="ann"))
    allergique, *_, peanuts = fill(store, FRENCH)
    assert found(store, "peanut") == {peanuts}
    # An English stem may reach its French cousin ("allerg"), never an unrelated fact.
    assert peanuts in found(store, "allergic") <= {allergique, peanuts}
    assert found(store, "the") == {peanuts}  # not a stop word at this level: the store's own


def test_french_terms_fold_stem_and_drop_elisions() -> None:
    assert french_terms("L'utilisateur a des allergies.") == ["utilis", "allerg"]
    assert french_terms("Le client est allergique.") == ["client", "allerg"]
    assert french_terms("Il voit son médecin, qu'il aime.") == ["voit", "medecin", "aim"]
    assert french_terms("l' d' qu' j'ai le la les des") == []


def test_an_older_sqlite_database_gets_its_facts_in_the_french_index(tmp_path: Path) -> None:
    path = tmp_path / "somna.db"
    store = SQLiteStore(path)
    store.create_profile(Profile(id="ann"))
    [allergic, *_] = fill(store, FRENCH)
    store.close()
    with sqlite3.connect(path) as conn:  # the database as it was before migration 15
        for trigger in ("insert", "delete", "update"):
            conn.execute(f"DROP TRIGGER facts_french_{trigger}")
        conn.execute("DROP TABLE facts_french")
        conn.execute("DELETE FROM schema_migrations WHERE version = 15")
    reopened = SQLiteStore(path)
    assert found(reopened, "allergies") == {allergic}
    reopened.close()


def test_an_older_postgres_database_gets_its_facts_in_the_french_index(
    tmp_path: Path, postgres_servers: TestServers
) -> None:
    dsn = postgres_servers.database("array", tmp_path)
    store = PostgresStore(dsn)
    store.create_profile(Profile(id="ann"))
    [allergic, *_] = fill(store, FRENCH)
    with store._connection() as conn:  # the database as it was before migration 15
        conn.execute("ALTER TABLE facts DROP COLUMN tsv_french")
        conn.execute("DROP FUNCTION somna_french_tsvector(text), somna_fold(text)")
        conn.execute("DELETE FROM schema_migrations WHERE version = 15")
    store.close()
    reopened = PostgresStore(dsn)
    assert found(reopened, "allergies") == {allergic}
    reopened.close()
