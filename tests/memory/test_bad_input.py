"""Bad input raises a `SomnaError` a person can read, and changes nothing."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest

from somna import (
    ConflictNotFoundError,
    FactNotFoundError,
    InvalidInputError,
    Memory,
    ProfileNotFoundError,
    SomnaError,
)
from somna.config import Settings
from somna.embed import BundledEmbedder
from somna.llm.tasks import SUMMARY_CHARS
from somna.memory.inputs import META_DEPTH, META_SIZE
from somna.store import Store
from tests.consolidate.scripted import ScriptedLLM, proposing
from tests.support import Clock, snapshot


@pytest.fixture
def alice(memory: Memory) -> Memory:
    memory.create_profile("alice")
    memory.create_profile("bob")
    memory.add_fact("alice", "Prefers tea to coffee.", quote="tea, please")
    return memory


def bobs_fact(memory: Memory) -> str:
    return memory.add_fact("bob", "Collects stamps.").fact.id


CASES: dict[str, tuple[Callable[[Memory], object], type[SomnaError], str]] = {
    "empty text": (lambda m: m.add_fact("alice", "   "), InvalidInputError, "must not be empty"),
    "two sentences": (
        lambda m: m.add_fact("alice", "Likes tea. Hates coffee."),
        InvalidInputError,
        "single sentence",
    ),
    "text too long": (lambda m: m.add_fact("alice", "a" * 501), InvalidInputError, "at most 500"),
    "unknown type": (
        lambda m: m.add_fact("alice", "Likes tea.", type="opinion"),
        InvalidInputError,
        "The fact type 'opinion' is not valid; use one of: fact, entity",
    ),
    "confidence out of range": (
        lambda m: m.add_fact("alice", "Likes tea.", confidence=1.5),
        InvalidInputError,
        "confidence",
    ),
    "unknown status filter": (
        lambda m: m.list_facts("alice", status="forgotten"),
        InvalidInputError,
        "fact status 'forgotten' is not valid",
    ),
    "unknown verdict": (
        lambda m: m.resolve("alice", "fct_a", "fct_b", "maybe"),
        InvalidInputError,
        "verdict 'maybe' is not valid",
    ),
    "unknown fact id": (
        lambda m: m.update("alice", "fct_nope", text="Likes milk."),
        FactNotFoundError,
        "Profile 'alice' has no fact with id 'fct_nope'",
    ),
    "id of another profile": (
        lambda m: m.delete("alice", bobs_fact(m)),
        FactNotFoundError,
        "Profile 'alice' has no fact with id",
    ),
    "unknown conflict": (
        lambda m: m.resolve_conflict("alice", "cfl_nope", "a_true"),
        ConflictNotFoundError,
        "no conflict with id 'cfl_nope'",
    ),
    "unknown resolution": (
        lambda m: m.resolve_conflict("alice", "cfl_nope", "both"),
        InvalidInputError,
        "resolution 'both' is not valid",
    ),
    "unknown profile": (
        lambda m: m.add_fact("carol", "Likes tea."),
        ProfileNotFoundError,
        "There is no profile named 'carol'",
    ),
    "bad profile id": (
        lambda m: m.create_profile("../etc"),
        InvalidInputError,
        "not a valid profile id",
    ),
    "empty query": (lambda m: m.search("alice", " "), InvalidInputError, "must not be empty"),
    "message without content": (
        lambda m: m.add_messages("alice", "chat", [{"role": "user", "content": ""}]),
        InvalidInputError,
        "non-empty text",
    ),
    "message with unknown role": (
        lambda m: m.add_messages("alice", "chat", [{"role": "robot", "content": "hi"}]),
        InvalidInputError,
        "message role 'robot' is not valid",
    ),
    "message with a bad date": (
        lambda m: m.add_messages(
            "alice", "chat", [{"role": "user", "content": "hi", "at": "soon"}]
        ),
        InvalidInputError,
        "created_at",
    ),
    "message dated far in the future": (
        lambda m: m.add_messages(
            "alice", "chat", [{"role": "user", "content": "hi", "at": "9999-12-31T00:00:00Z"}]
        ),
        InvalidInputError,
        "more than 1 day ahead of now",
    ),
    "fact of zero-width characters": (
        lambda m: m.add_fact("alice", "\u200b\u200d\ufeff"),
        InvalidInputError,
        "visible characters",
    ),
    "fact of NUL characters": (lambda m: m.add_fact("alice", "\x00\x00"), InvalidInputError, "NUL"),
    "fact with a NUL inside": (
        lambda m: m.add_fact("alice", "Likes\x00 tea."),
        InvalidInputError,
        "NUL",
    ),
    "quote of control characters": (
        lambda m: m.add_fact("alice", "Likes tea.", quote="\x01\x02\u200b"),
        InvalidInputError,
        "visible characters",
    ),
    "message of control characters": (
        lambda m: m.add_messages("alice", "chat", [("user", "\x01\x7f\u200b\u2060")]),
        InvalidInputError,
        "visible characters",
    ),
    "session key with a NUL": (
        lambda m: m.add_messages("alice", "chat\x00", [("user", "hi")]),
        InvalidInputError,
        "A session key must not contain NUL",
    ),
    "message with a NUL": (
        lambda m: m.add_messages("alice", "chat", [("user", "hi\x00")]),
        InvalidInputError,
        "NUL",
    ),
    "valid_to before valid_from": (
        lambda m: m.add_fact(
            "alice",
            "Likes tea.",
            valid_from="2026-05-01",
            valid_to="2026-04-01",  # type: ignore[arg-type]
        ),
        InvalidInputError,
        "valid_to\\) must come after its start",
    ),
    "a category with a NUL": (
        lambda m: m.add_fact("alice", "Likes tea.", category="drinks\x00"),
        InvalidInputError,
        "Invalid category: it must not contain NUL characters",
    ),
    "a number as valid_from": (
        lambda m: m.add_fact("alice", "Likes tea.", valid_from=0),
        InvalidInputError,
        "Invalid valid_from: 0 is a number, not a date",
    ),
    "a number in a text as valid_from": (
        lambda m: m.add_fact("alice", "Likes tea.", valid_from="1714550400"),
        InvalidInputError,
        "is a number, not a date",
    ),
    "a number as a message's date": (
        lambda m: m.add_messages("alice", "chat", [{"role": "user", "content": "hi", "at": 0}]),
        InvalidInputError,
        "0 is not a date and time",
    ),
    "meta nested too deep": (
        lambda m: m.add_messages(
            "alice", "chat", [{"role": "user", "content": "hi", "meta": _nested(META_DEPTH + 1)}]
        ),
        InvalidInputError,
        "meta may nest at most 32 levels",
    ),
    "meta too large": (
        lambda m: m.add_messages(
            "alice", "chat", [{"role": "user", "content": "hi", "meta": {"x": "a" * META_SIZE}}]
        ),
        InvalidInputError,
        "at most 65,536 are kept",
    ),
    "meta with a NUL": (
        lambda m: m.add_messages(
            "alice", "chat", [{"role": "user", "content": "hi", "meta": {"id": ["m\x001"]}}]
        ),
        InvalidInputError,
        "meta must not contain NUL",
    ),
}


def _nested(levels: int) -> dict[str, object]:
    """A meta object `levels` deep: {"a": {"a": … {}}}."""
    meta: dict[str, object] = {}
    for _ in range(levels - 1):
        meta = {"a": meta}
    return meta


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_input_raises_a_clear_error_and_changes_nothing(alice: Memory, case: str) -> None:
    call, error, message = CASES[case]
    before = {p: snapshot(alice, p) for p in ("alice", "bob")}
    sessions = alice.window("alice", "chat")
    with pytest.raises(error, match=message) as raised:
        call(alice)
    text = str(raised.value)
    assert text[0].isupper() and text.endswith(".") and "\n" not in text
    after = {p: snapshot(alice, p) for p in ("alice", "bob")}
    if case == "id of another profile":  # the helper itself added Bob's fact
        after["bob"] = before["bob"] = None  # type: ignore[assignment]
    assert after == before
    assert alice.window("alice", "chat") == sessions


def test_a_message_a_little_ahead_of_the_clock_is_kept(alice: Memory) -> None:
    ahead = alice.now() + timedelta(hours=23)
    session = alice.add_messages("alice", "chat", [{"role": "user", "content": "hi", "at": ahead}])
    assert session.last_message_at == ahead


def test_meta_as_deep_as_allowed_is_kept_and_read_back(alice: Memory) -> None:
    meta = _nested(META_DEPTH)
    alice.add_messages("alice", "chat", [{"role": "user", "content": "hi", "meta": meta}])
    assert alice.window("alice", "chat")[-1].meta == meta
    assert alice.export("alice")["sessions"]


def test_a_model_s_runaway_summary_with_nul_is_stored_alike_on_every_store(
    store: Store, embedder: BundledEmbedder, clock: Clock
) -> None:
    said = "The user grows tomatoes on a balcony. "
    runaway = "The user\x00 grows tomatoes on a balcony. " + said * 40_000  # about 1.5 MB
    llm = ScriptedLLM(proposing(summary=runaway))
    memory = Memory(store=store, embedder=embedder, llm=llm, settings=Settings(), clock=clock)
    memory.create_profile("alice")
    memory.add_messages("alice", "chat", [("user", "I grow tomatoes on my balcony.")])
    clock.advance(hours=4)
    run = memory.consolidate()
    assert (run.sessions_consolidated, run.failures) == (1, [])
    (summary,) = memory.summaries("alice")
    assert "\x00" not in summary.text
    assert summary.text.startswith("The user grows tomatoes on a balcony.")
    assert len(summary.text) <= SUMMARY_CHARS and summary.text.endswith("…")
