"""Sessions across devices, merging and the thread of a live conversation, on every backend."""

from __future__ import annotations

from datetime import timedelta

import pytest

from somna import Memory
from somna.errors import ConflictStateError, InvalidInputError, NotFoundError
from somna.memory.thread import EARLIER
from somna.model import SessionStatus
from tests.support import Clock


def _say(memory: Memory, key: str, clock: Clock, *turns: tuple[str, str], device: str) -> None:
    for role, content in turns:
        memory.add_messages("ann", key, [{"role": role, "content": content, "device": device}])
        clock.advance(minutes=1)


@pytest.fixture
def ann(memory: Memory) -> Memory:
    memory.create_profile("ann")
    return memory


def test_sessions_are_listed_latest_first_with_their_device(ann: Memory, clock: Clock) -> None:
    _say(ann, "a", clock, ("user", "Book a table for two."), device="phone")
    _say(ann, "b", clock, ("user", "What is on my calendar?"), device="laptop")
    _say(ann, "a", clock, ("assistant", "Which evening suits you?"), device="laptop")
    listed = ann.list_sessions("ann")
    assert [i.session.key for i in listed] == ["a", "b"]
    assert [i.device for i in listed] == ["laptop", "laptop"]
    assert listed[0].messages == 2 and listed[0].last_message == "Which evening suits you?"
    assert [i.session.key for i in ann.list_sessions("ann", device="laptop", limit=1)] == ["a"]
    clock.advance(hours=5)
    assert {i.status for i in ann.list_sessions("ann")} == {SessionStatus.CLOSED}
    assert ann.list_sessions("ann", status="open") == []


def test_another_device_resumes_the_latest_live_session(ann: Memory, clock: Clock) -> None:
    _say(ann, "old", clock, ("user", "Remind me to water the ficus."), device="phone")
    _say(ann, "new", clock, ("user", "Plan my Saturday run."), device="phone")
    resumed = ann.resume("ann")
    assert resumed.session.key == "new" and resumed.device == "phone"
    _say(ann, resumed.session.key, clock, ("user", "Make it ten kilometres."), device="desk")
    assert ann.list_sessions("ann")[0].device == "desk"
    ann.consolidate("ann", idle_hours=0)
    with pytest.raises(NotFoundError, match="no open session"):
        ann.resume("ann")


def test_two_sessions_merge_in_time_order_and_consolidate_as_one(ann: Memory, clock: Clock) -> None:
    _say(ann, "phone", clock, ("user", "I want to learn the cello."), device="phone")
    _say(ann, "desk", clock, ("user", "Find me a teacher nearby."), device="desk")
    _say(ann, "phone", clock, ("assistant", "Here are three teachers."), device="phone")
    merged = ann.merge_sessions("ann", "phone", "desk")
    assert merged.messages == 3 and merged.session.key == "phone"
    window = ann.window("ann", "phone")
    assert [m.content for m in window] == [
        "I want to learn the cello.",
        "Find me a teacher nearby.",
        "Here are three teachers.",
    ]
    assert [m.seq for m in window] == [0, 1, 2]
    assert window[1].meta == {"device": "desk", "merged_from": "desk"}
    assert [i.session.key for i in ann.list_sessions("ann")] == ["phone"]
    run = ann.consolidate("ann", idle_hours=0)
    assert run.sessions_consolidated == 1
    assert len(ann.summaries("ann")) == 1


def test_a_merge_is_refused_for_a_consolidated_or_unknown_session(
    ann: Memory, clock: Clock
) -> None:
    _say(ann, "done", clock, ("user", "I moved to Lisbon."), device="phone")
    ann.consolidate("ann", idle_hours=0)
    _say(ann, "live", clock, ("user", "Any news?"), device="phone")
    with pytest.raises(ConflictStateError, match="already consolidated"):
        ann.merge_sessions("ann", "live", "done")
    with pytest.raises(NotFoundError):
        ann.merge_sessions("ann", "live", "nowhere")
    with pytest.raises(InvalidInputError):
        ann.merge_sessions("ann", "live", "live")
    assert [m.content for m in ann.window("ann", "live")] == ["Any news?"]


def test_a_device_id_must_be_short_text(ann: Memory) -> None:
    with pytest.raises(InvalidInputError, match="device"):
        ann.add_messages("ann", "k", [{"role": "user", "content": "hi", "device": ""}])


def test_a_long_thread_folds_its_older_turns_and_keeps_them(ann: Memory, clock: Clock) -> None:
    topics = ["garden", "budget", "holiday", "car", "piano", "kitchen", "taxes", "wedding"]
    for i, topic in enumerate(topics):
        _say(
            ann,
            "long",
            clock,
            ("user", f"I decided that the {topic} project starts in week {i + 10} this year."),
            ("assistant", f"Noted: the {topic} project starts in week {i + 10}."),
            device="phone",
        )
    whole = ann.thread("ann", "long", budget_tokens=5000)
    assert whole.summary is None and len(whole.turns) == 16
    thread = ann.thread("ann", "long", budget_tokens=200, keep_turns=4)
    assert thread.folded == 12 and [m.seq for m in thread.turns] == [12, 13, 14, 15]
    assert thread.summary and thread.summarised_by == "extractive"
    assert thread.text.startswith(f"{EARLIER} ") and thread.tokens <= 200
    assert thread.tokens < whole.tokens
    assert len(ann.window("ann", "long", n=100)) == 16  # nothing folded is lost
    again = ann.thread("ann", "long", budget_tokens=200, keep_turns=4)
    assert again.summary == thread.summary and again.summarised_by == "saved"
    listed = ann.list_sessions("ann")[0]
    assert listed.summary is not None and listed.summary in thread.summary + " …"
    ann.settings = ann.settings.model_copy(
        update={"thread_budget_tokens": 200, "thread_keep_turns": 4}
    )
    ann.add_fact("ann", "Plays the piano on Sundays.")
    block = ann.context("ann", "when do I play the piano?", session_key="long")
    facts, thread_block = block.split("\n\n")
    assert "Plays the piano on Sundays." in facts
    assert thread_block == again.text


def test_a_thread_of_an_unknown_session_is_empty(ann: Memory) -> None:
    thread = ann.thread("ann", "nobody")
    assert thread.session is None and thread.text == "" and thread.turns == []


def test_listing_uses_the_nightly_summary_once_consolidated(ann: Memory, clock: Clock) -> None:
    _say(ann, "s", clock, ("user", "I decided to adopt a rescue greyhound next month."),
         device="phone")  # fmt: skip
    clock.advance(hours=5)
    ann.consolidate("ann")
    [info] = ann.list_sessions("ann")
    assert info.session.status is SessionStatus.ARCHIVED and info.summary
    assert info.messages == 1  # still in the archive
    clock.advance(days=30)
    assert clock.now - info.session.last_message_at > timedelta(days=7)
