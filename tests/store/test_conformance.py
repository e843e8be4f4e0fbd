"""The store conformance suite: what every `Store` backend must do, run against each one.

These tests talk to the `Store` port directly, with small hand-made vectors, so
they specify the port and not the embedder.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from somna.errors import (
    ConflictStateError,
    InvalidInputError,
    ProfileNotFoundError,
    StoreError,
)
from somna.model import (
    Conflict,
    ConflictStatus,
    Evidence,
    Fact,
    FactStatus,
    FactType,
    Profile,
    Role,
    lifecycle,
)
from somna.model.lifecycle import Change
from somna.store import Eligibility, FactFilter, NewMessage, Store

T0 = datetime(2026, 1, 1, tzinfo=UTC)
NOW = datetime(2026, 6, 1, tzinfo=UTC)
EAST, NORTH, WEST = [1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [-1.0, 0.0, 0.0, 0.0]


def fact(profile: str = "alice", text: str = "Prefers tea to coffee.", **fields: object) -> Fact:
    return Fact.model_validate(
        {"profile_id": profile, "text": text, "valid_from": T0, "recorded_at": T0, **fields}
    )


def add(store: Store, new: Fact, vector: list[float] = EAST, **extra: object) -> Fact:
    with store.write(new.profile_id) as tx:
        tx.apply(lifecycle.create(new, vector=vector, actor="test", **extra))  # type: ignore[arg-type]
    return new


def now_eligible(at: datetime = NOW) -> Eligibility:
    return Eligibility(at=at, now=NOW)


@pytest.fixture
def alice(store: Store) -> Store:
    store.create_profile(Profile(id="alice"))
    store.create_profile(Profile(id="bob"))
    return store


# -- profiles ---------------------------------------------------------------------------


def test_profiles_are_created_listed_and_found(store: Store) -> None:
    store.create_profile(Profile(id="bob", name="Bob"))
    store.create_profile(Profile(id="alice", settings={"language": "french"}))
    assert [p.id for p in store.list_profiles()] == ["alice", "bob"]
    found = store.get_profile("alice")
    assert found is not None and found.settings == {"language": "french"}
    assert store.get_profile("carol") is None


def test_creating_a_profile_twice_is_refused(store: Store) -> None:
    store.create_profile(Profile(id="alice"))
    with pytest.raises(ConflictStateError, match="already exists"):
        store.create_profile(Profile(id="alice"))


def test_a_scope_on_an_unknown_profile_is_refused(store: Store) -> None:
    with pytest.raises(ProfileNotFoundError), store.read("nobody"):
        pass
    with pytest.raises(ProfileNotFoundError), store.write("nobody"):
        pass


# -- facts ------------------------------------------------------------------------------


def test_a_created_fact_reads_back_with_its_event_and_evidence(alice: Store) -> None:
    new = fact(category="preference", confidence=0.8)
    quote = Evidence(fact_id=new.id, quote="I prefer tea", observed_at=T0)
    add(alice, new, evidence=[quote])
    with alice.read("alice") as tx:
        assert tx.get_fact(new.id) == new
        assert [e.action.value for e in tx.events([new.id])] == ["created"]
        assert [e.quote for e in tx.evidence([new.id])] == ["I prefer tea"]


def test_an_update_changes_state_and_appends_history(alice: Store) -> None:
    new = add(alice, fact())
    with alice.write("alice") as tx:
        tx.apply(lifecycle.retire(new, at=NOW, actor="test", reason="test"))
    with alice.read("alice") as tx:
        stored = tx.get_fact(new.id)
        assert stored is not None and stored.status is FactStatus.RETIRED
        assert stored.retired_at == NOW
        assert [e.action.value for e in tx.events([new.id])] == ["created", "retired"]


def test_a_change_without_its_event_is_refused_and_writes_nothing(alice: Store) -> None:
    new = add(alice, fact())
    silent = Change(facts=[new.model_copy(update={"status": FactStatus.RETIRED})])
    with pytest.raises(StoreError, match="history event"), alice.write("alice") as tx:
        tx.apply(silent)
    with alice.read("alice") as tx:
        assert tx.get_fact(new.id) == new


def test_an_error_inside_a_write_scope_rolls_everything_back(alice: Store) -> None:
    with pytest.raises(RuntimeError), alice.write("alice") as tx:
        tx.apply(lifecycle.create(fact(), vector=EAST, actor="test"))
        raise RuntimeError("boom")
    with alice.read("alice") as tx:
        assert tx.list_facts(FactFilter(), NOW) == []


def test_a_second_active_fact_with_the_same_hash_is_refused(alice: Store) -> None:
    add(alice, fact(text="Prefers tea to coffee."))
    with pytest.raises(ConflictStateError):
        add(alice, fact(text="prefers TEA to coffee"))
    add(alice, fact(text="prefers TEA to coffee", subject="Bob"))  # another subject is fine


def test_find_active_matches_type_subject_and_hash(alice: Store) -> None:
    stored = add(alice, fact())
    with alice.read("alice") as tx:
        assert tx.find_active(FactType.FACT, "user", stored.text_hash) == stored
        assert tx.find_active(FactType.PERSONA, "user", stored.text_hash) is None


def test_facts_worded_alike_are_found_whatever_their_status(alice: Store) -> None:
    first = add(alice, fact())
    with alice.write("alice") as tx:
        tx.apply(lifecycle.retire(first, at=NOW, actor="test", reason="test"))
    again = add(alice, fact(text="prefers  TEA to coffee.", recorded_at=NOW))  # same wording
    add(alice, fact(subject="Bob"))
    add(alice, fact(type=FactType.PERSONA))
    add(alice, fact(profile="bob"))
    with alice.read("alice") as tx:
        found = tx.worded_like([again.wording, again.wording])
        assert sorted(f.id for f in found) == sorted([first.id, again.id])
        assert tx.find_active(*again.wording) == again
        assert tx.find_gone(*again.wording).id == first.id  # type: ignore[union-attr]
        assert tx.worded_like([]) == []


def test_many_wordings_are_found_at_once(alice: Store) -> None:
    facts = [add(alice, fact(text=f"Owns {n} books.")) for n in range(150)]
    with alice.read("alice") as tx:
        found = tx.worded_like(f.wording for f in facts)
    assert sorted(f.id for f in found) == sorted(f.id for f in facts)


def test_list_filters_by_status_type_category_subject_text_and_time(alice: Store) -> None:
    tea = add(alice, fact(category="preference"))
    job = add(alice, fact(text="Works at Acme.", type=FactType.PERSONA, category="work"), NORTH)
    old = add(alice, fact(text="Lives in Paris.", valid_to=T0 + timedelta(days=30)), WEST)
    with alice.write("alice") as tx:
        tx.apply(lifecycle.retire(job, at=NOW, actor="test", reason="test"))

    def ids(**flt: object) -> list[str]:
        with alice.read("alice") as tx:
            return [f.id for f in tx.list_facts(FactFilter.model_validate(flt), NOW)]

    assert set(ids()) == {tea.id, old.id}
    assert ids(statuses=["retired"]) == [job.id]
    assert ids(types=["persona"], statuses=["retired"]) == [job.id]
    assert ids(category="preference") == [tea.id]
    assert ids(text="PARIS") == [old.id]
    assert set(ids(subject="user")) == {tea.id, old.id}
    assert set(ids(as_of=T0 + timedelta(days=1))) == {tea.id, old.id}
    assert ids(as_of=T0 + timedelta(days=60)) == [tea.id]
    assert len(ids(limit=1)) == 1


def test_a_count_matches_the_list_without_its_limit(alice: Store) -> None:
    for n in range(7):
        add(alice, fact(text=f"Owns {n} red bicycles."))
    add(alice, fact(text="Owns a kayak."))
    add(alice, fact(profile="bob", text="Owns 3 red bicycles."))

    def count(**flt: object) -> int:
        with alice.read("alice") as tx:
            return tx.count_facts(FactFilter.model_validate(flt), NOW)

    assert count() == 8
    assert count(text="BICYCLES", limit=2, offset=3) == 7
    assert count(text="nothing like this") == 0
    assert count(statuses=["retired"]) == 0


def test_predecessors_follow_superseded_by(alice: Store) -> None:
    old = add(alice, fact(text="Lives in Paris."))
    new = add(alice, fact(text="Lives in Berlin.", valid_from=NOW), NORTH)
    with alice.write("alice") as tx:
        tx.apply(lifecycle.supersede(old, new, at=NOW, actor="test"))
    with alice.read("alice") as tx:
        assert [f.id for f in tx.predecessors(new.id)] == [old.id]
        moved = tx.get_fact(old.id)
    assert moved is not None and moved.valid_to == NOW and moved.superseded_by == new.id


# -- search -----------------------------------------------------------------------------


def test_text_search_ranks_matches_and_skips_inactive_facts(alice: Store) -> None:
    tea = add(alice, fact(text="Drinks green tea every morning."))
    add(alice, fact(text="Owns a red bicycle."), NORTH)
    gone = add(alice, fact(text="Drinks black tea at night."), WEST)
    with alice.write("alice") as tx:
        tx.apply(lifecycle.retire(gone, at=NOW, actor="test", reason="test"))
    with alice.read("alice") as tx:
        hits = tx.text_search("what tea does she drink?", now_eligible(), 10)
        assert [i for i, _ in hits] == [tea.id]
        assert tx.text_search("?!", now_eligible(), 10) == []


def test_word_search_finds_the_words_as_written_and_text_search_their_french_stems(
    alice: Store,
) -> None:
    apples = add(alice, fact(text="Aime manger des pommes."))
    early = add(alice, fact(text="Voudrait manger plus tôt."), NORTH)
    with alice.read("alice") as tx:
        assert {i for i, _ in tx.word_search("manger", now_eligible(), 10)} == {
            apples.id,
            early.id,
        }
        assert tx.word_search("mangé", now_eligible(), 10) == []
        assert {i for i, _ in tx.text_search("mangé", now_eligible(), 10)} == {
            apples.id,
            early.id,
        }


def test_vector_search_many_answers_each_query_as_vector_search_does(alice: Store) -> None:
    add(alice, fact(text="Fact east."), EAST)
    add(alice, fact(text="Fact north."), NORTH)
    add(alice, fact(text="Fact west."), WEST)
    add(alice, fact(text="Fact gone.", expires_at=NOW - timedelta(days=1)), EAST)
    queries = np.array([[0.9, 0.1, 0.0, 0.0], [0.0, -1.0, 0.0, 0.0], WEST], dtype=np.float32)
    with alice.read("alice") as tx:
        each = [tx.vector_search(query, now_eligible(), 2) for query in queries]
        together = tx.vector_search_many(queries, now_eligible(), 2)
        with pytest.raises(StoreError, match="dimensions"):
            tx.vector_search_many(np.ones((2, 3), dtype=np.float32), now_eligible(), 2)
    assert [[i for i, _ in hits] for hits in together] == [[i for i, _ in h] for h in each]
    for hits, alone in zip(together, each, strict=True):
        assert [s for _, s in hits] == pytest.approx([s for _, s in alone])


def test_vector_search_orders_by_cosine_and_respects_valid_time(alice: Store) -> None:
    east = add(alice, fact(text="Fact east."), EAST)
    north = add(alice, fact(text="Fact north."), NORTH)
    future = add(alice, fact(text="Fact later.", valid_from=NOW + timedelta(days=9)), EAST)
    query = np.array([0.9, 0.1, 0.0, 0.0], dtype=np.float32)
    with alice.read("alice") as tx:
        hits = tx.vector_search(query, now_eligible(), 10)
        assert [i for i, _ in hits] == [east.id, north.id]
        assert hits[0][1] == pytest.approx(0.9)
        later = tx.vector_search(query, now_eligible(NOW + timedelta(days=10)), 1)
        assert next(i for i, _ in later) in {east.id, future.id}


def test_search_sees_writes_made_after_it_was_cached(alice: Store) -> None:
    query = np.array(EAST, dtype=np.float32)
    first = add(alice, fact(text="Fact one."), NORTH)
    with alice.read("alice") as tx:
        assert [i for i, _ in tx.vector_search(query, now_eligible(), 5)] == [first.id]
    second = add(alice, fact(text="Fact two."), EAST)
    with alice.write("alice") as tx:
        tx.apply(lifecycle.retire(first, at=NOW, actor="test", reason="test"))
    with alice.read("alice") as tx:
        assert [i for i, _ in tx.vector_search(query, now_eligible(), 5)] == [second.id]


def test_a_write_sees_its_own_writes_before_commit_and_a_rollback_forgets_them(
    alice: Store,
) -> None:
    query = np.array(EAST, dtype=np.float32)
    east, north = (
        add(alice, fact(text="Fact east."), EAST),
        add(alice, fact(text="Fact north."), NORTH),
    )
    with alice.read("alice") as tx:
        assert [i for i, _ in tx.vector_search(query, now_eligible(), 5)] == [east.id, north.id]
    near, brief = fact(text="Fact near east."), fact(text="Fact gone at once.")
    with pytest.raises(RuntimeError), alice.write("alice") as tx:
        tx.apply(lifecycle.create(near, vector=[0.9, 0.1, 0.0, 0.0], actor="test"))
        tx.apply(lifecycle.retire(east, at=NOW, actor="test", reason="test"))
        tx.apply(lifecycle.create(brief, vector=EAST, actor="test"))
        tx.apply(lifecycle.retire(brief, at=NOW, actor="test", reason="test"))
        inside = tx.vector_search_many(np.array([EAST, NORTH], dtype=np.float32), now_eligible(), 5)
        assert [[i for i, _ in hits] for hits in inside] == [
            [near.id, north.id],
            [north.id, near.id],
        ]
        raise RuntimeError("roll back")
    with alice.read("alice") as tx:
        assert [i for i, _ in tx.vector_search(query, now_eligible(), 5)] == [east.id, north.id]


def test_superseded_facts_are_found_only_as_of_their_valid_time(alice: Store) -> None:
    old = add(alice, fact(text="Codes in Python."), EAST)
    new = add(alice, fact(text="Codes in Rust.", valid_from=T0 + timedelta(days=150)), EAST)
    with alice.write("alice") as tx:
        tx.apply(lifecycle.supersede(old, new, at=NOW, actor="test"))
    query = np.array(EAST, dtype=np.float32)
    in_march = Eligibility(at=T0 + timedelta(days=60), now=NOW, include_superseded=True)
    with alice.read("alice") as tx:
        assert [i for i, _ in tx.vector_search(query, now_eligible(), 5)] == [new.id]
        assert [i for i, _ in tx.vector_search(query, in_march, 5)] == [old.id]
        assert [i for i, _ in tx.text_search("codes", in_march, 5)] == [old.id]


def test_candidates_carry_what_recall_weighs_in_the_order_asked(alice: Store) -> None:
    later = T0 + timedelta(days=3)
    tea = add(alice, fact(confidence=0.9, strength=0.4, valid_from=later))
    rule = add(alice, fact(text="Answer in French.", type=FactType.INSTRUCTION), NORTH)
    theirs = add(alice, fact(profile="bob", text="Bob's secret."))
    with alice.read("alice") as tx:
        found = tx.candidates([rule.id, "fct_unknown", theirs.id, tea.id])
        assert tx.candidates([]) == []
    assert [c.id for c in found] == [rule.id, tea.id]
    for candidate, whole in zip(found, [rule, tea], strict=True):
        assert (
            candidate.type,
            candidate.text,
            candidate.confidence,
            candidate.strength,
            candidate.valid_from,
            candidate.recorded_at,
        ) == (
            whole.type,
            whole.text,
            whole.confidence,
            whole.strength,
            whole.valid_from,
            whole.recorded_at,
        )
    assert found[1].valid_from == later and found[1].valid_from.tzinfo == UTC


def test_facts_past_their_expiry_are_not_searchable(alice: Store) -> None:
    add(alice, fact(text="Wants a quote by Friday.", expires_at=NOW - timedelta(days=1)))
    with alice.read("alice") as tx:
        assert tx.vector_search(np.array(EAST, dtype=np.float32), now_eligible(), 5) == []
        assert tx.text_search("quote friday", now_eligible(), 5) == []


def test_a_vector_of_another_dimension_is_refused(alice: Store) -> None:
    add(alice, fact())
    with pytest.raises(StoreError, match="dimensions"), alice.read("alice") as tx:
        tx.vector_search(np.ones(3, dtype=np.float32), now_eligible(), 5)


# -- conflicts --------------------------------------------------------------------------


def test_conflicts_are_opened_listed_and_updated(alice: Store) -> None:
    a = add(alice, fact(text="Is vegetarian."))
    b = add(alice, fact(text="Eats meat every day."), NORTH)
    change = lifecycle.dispute(b, a, at=NOW, actor="test")
    with alice.write("alice") as tx:
        tx.apply(change)
    opened = change.conflicts[0]
    with alice.read("alice") as tx:
        assert tx.get_conflict(opened.id) == opened
        assert tx.list_conflicts([ConflictStatus.OPEN], fact_id=a.id) == [opened]
        assert tx.list_conflicts([ConflictStatus.RESOLVED]) == []
    deferred = opened.model_copy(update={"status": ConflictStatus.DEFERRED})
    with alice.write("alice") as tx:
        tx.apply(Change(conflicts=[deferred]))
    with alice.read("alice") as tx:
        assert tx.list_conflicts([ConflictStatus.DEFERRED]) == [deferred]


def test_a_conflict_over_unknown_facts_is_refused(alice: Store) -> None:
    bogus = Conflict(profile_id="alice", fact_a_id="fct_nope", fact_b_id="fct_nada")
    with pytest.raises(InvalidInputError), alice.write("alice") as tx:
        tx.apply(Change(conflicts=[bogus]))


# -- isolation (DESIGN invariant 7) -----------------------------------------------------


def test_no_scope_reads_or_writes_another_profiles_rows(alice: Store) -> None:
    theirs = add(alice, fact(profile="bob", text="Bob's secret."))
    with alice.read("alice") as tx:
        assert tx.get_fact(theirs.id) is None
        assert tx.get_facts([theirs.id]) == []
        assert tx.events([theirs.id]) == []
        assert tx.list_facts(FactFilter(), NOW) == []
        assert tx.text_search("secret", now_eligible(), 5) == []
        assert tx.vector_search(np.array(EAST, dtype=np.float32), now_eligible(), 5) == []
    with pytest.raises(InvalidInputError), alice.write("alice") as tx:
        tx.apply(lifecycle.retire(theirs, at=NOW, actor="mallory", reason="x"))
    forged = theirs.model_copy(update={"profile_id": "alice", "status": FactStatus.RETIRED})
    with pytest.raises(InvalidInputError), alice.write("alice") as tx:
        tx.apply(lifecycle.retire(forged, at=NOW, actor="mallory", reason="x"))
    with alice.read("bob") as tx:
        assert tx.get_fact(theirs.id) == theirs


# -- sessions ---------------------------------------------------------------------------


def test_messages_append_to_the_live_session_and_window_returns_the_tail(alice: Store) -> None:
    turns = [
        NewMessage(Role.USER if i % 2 == 0 else Role.ASSISTANT, f"turn {i}", T0 + timedelta(i))
        for i in range(6)
    ]
    with alice.write("alice") as tx:
        first = tx.add_messages("chat", turns[:4])
        again = tx.add_messages("chat", turns[4:])
    assert again.id == first.id and again.last_message_at == turns[-1].created_at
    with alice.read("alice") as tx:
        assert [m.content for m in tx.window("chat", 3)] == ["turn 3", "turn 4", "turn 5"]
        assert [m.seq for m in tx.window("chat", 10)] == list(range(6))
        assert tx.window("other", 3) == []
        latest = tx.latest_session("chat")
    assert latest is not None and latest.id == first.id
    with alice.read("bob") as tx:
        assert tx.window("chat", 3) == [] and tx.latest_session("chat") is None
