"""Runs keep their counters for everyone and each profile's entries under that profile."""

from __future__ import annotations

from datetime import UTC, datetime

from somna.model import Profile, Role, Run, RunStatus
from somna.store import NewMessage, Store

T0 = datetime(2026, 5, 3, 9, 0, tzinfo=UTC)


def session_of(store: Store, profile: str) -> str:
    store.create_profile(Profile(id=profile))
    with store.write(profile) as tx:
        return tx.add_messages("chat", [NewMessage(Role.USER, "hello", T0)]).id


def test_a_run_reads_back_with_its_entries_in_order(store: Store) -> None:
    alice, bob = session_of(store, "alice"), session_of(store, "bob")
    run = Run(
        started_at=T0,
        rejections=[
            {"session": bob, "text": "Hates rain.", "reason": "no quote"},
            {"session": alice, "text": "Likes tea.", "reason": "no quote"},
        ],
        failures=[{"session": alice, "key": "chat", "error": "The model failed."}],
    )
    store.save_run(run)
    store.save_run(run.model_copy(update={"status": RunStatus.SUCCEEDED}))
    [found] = store.list_runs()
    assert found == run.model_copy(update={"status": RunStatus.SUCCEEDED})


def test_erasing_a_profile_takes_its_runs_and_entries_and_keeps_the_others(store: Store) -> None:
    alice, bob = session_of(store, "alice"), session_of(store, "bob")
    everyone = Run(
        started_at=T0,
        rejections=[
            {"session": alice, "text": "Likes tea.", "reason": "r"},
            {"session": bob, "text": "Keeps bees.", "reason": "r"},
        ],
    )
    alices = Run(profile_id="alice", started_at=T0, failures=[{"session": alice, "error": "e"}])
    store.save_run(everyone)
    store.save_run(alices)
    receipt = store.erase_profile("alice")
    assert receipt["runs"] == 1 and receipt["run_entries"] == 2
    [kept] = store.list_runs()
    assert kept.id == everyone.id and [r["text"] for r in kept.rejections] == ["Keeps bees."]


def test_a_run_saved_after_its_profile_was_erased_writes_nothing_of_it(store: Store) -> None:
    alice = session_of(store, "alice")
    run = Run(profile_id="alice", started_at=T0)
    store.save_run(run)
    store.erase_profile("alice")
    store.create_profile(Profile(id="alice"))  # the same id, a new person
    late = run.model_copy(update={"rejections": [{"session": alice, "text": "Likes tea."}]})
    store.save_run(late)
    assert [r.rejections for r in store.list_runs()] == [[]]
