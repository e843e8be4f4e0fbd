"""The domain types validate what they hold."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from pydantic import ValidationError

from somna.model import (
    ACTIVE_STATUSES,
    Fact,
    FactStatus,
    Profile,
    check_fact_text,
    is_fact_text,
    new_id,
    normalize_text,
    text_hash,
)


@pytest.mark.parametrize(
    "text",
    [
        "Prefers tea to coffee.",
        "Works with Dr. Smith on Mondays.",
        "Was born in the U.S. in 1990.",
        "Likes fruit, e.g. apples and pears.",
        "Aime le thé plus que le café.",
        "Is 1.85 m tall.",
    ],
)
def test_one_sentence_is_a_valid_fact_text(text: str) -> None:
    assert check_fact_text(text) == text
    assert is_fact_text(text)


@pytest.mark.parametrize(
    "text",
    ["", "   ", "Likes tea. Hates coffee.", "Likes tea!\nHates coffee.", "...", "x" * 501],
)
def test_empty_multiple_or_oversized_texts_are_refused(text: str) -> None:
    with pytest.raises(ValueError):
        check_fact_text(text)
    assert not is_fact_text(text)


def test_fact_text_whitespace_is_collapsed() -> None:
    assert check_fact_text("  Likes   green  tea. ") == "Likes green tea."


def test_text_hash_ignores_case_punctuation_and_spacing() -> None:
    assert text_hash("Prefers tea to coffee.") == text_hash("  prefers TEA to coffee")
    assert text_hash("Prefers tea to coffee.") != text_hash("Prefers coffee to tea.")
    assert normalize_text("\uff34\uff45\uff41, please!") == "tea please"


def test_ascii_text_folds_as_the_unicode_rules_fold_it() -> None:
    every = "".join(chr(code) for code in range(128))
    texts = [every, every[::-1], *(f"A{chr(code)}b c" for code in range(128))]
    for text in texts:  # a non-ASCII word at the end takes the Unicode path
        assert normalize_text(text + " \u00e9") == f"{normalize_text(text)} \u00e9".strip()


def test_stored_text_hashes_do_not_change() -> None:
    # Stores index facts by this hash: a new folding must give the same hash.
    text = (
        """It's Anna's (new) e-mail: anna_b@example.org; "call" at 5:30 PM, ok?! """
        "[#1] {x} \\ / * % & $ + < = > ^ ` | ~"
    )
    assert text_hash(text) == "67baa7fcb29728a23ca6919950ebbe7d"


def test_status_type_and_resolution_are_closed_enums() -> None:
    with pytest.raises(ValidationError):
        Fact(profile_id="a", text="Likes tea.", status="forgotten")  # type: ignore[arg-type]
    with pytest.raises(ValidationError):
        Fact(profile_id="a", text="Likes tea.", type="opinion")  # type: ignore[arg-type]
    assert {FactStatus.UNVERIFIED, FactStatus.VERIFIED} == ACTIVE_STATUSES


def test_times_are_always_utc() -> None:
    paris = timezone(timedelta(hours=2))
    fact = Fact(
        profile_id="a", text="Likes tea.", valid_from=datetime(2026, 5, 3, 12, tzinfo=paris)
    )
    assert fact.valid_from == datetime(2026, 5, 3, 10, tzinfo=UTC)
    assert fact.valid_from.tzinfo is UTC
    naive = Fact(profile_id="a", text="Likes tea.", valid_from=datetime(2026, 5, 3))
    assert naive.valid_from.tzinfo is UTC


def test_valid_time_contains_its_start_and_excludes_its_end() -> None:
    start, end = datetime(2026, 1, 1, tzinfo=UTC), datetime(2026, 6, 1, tzinfo=UTC)
    fact = Fact(profile_id="a", text="Lives in Paris.", valid_from=start, valid_to=end)
    assert fact.is_valid_at(start) and not fact.is_valid_at(end)
    assert not fact.is_valid_at(start - timedelta(seconds=1))


def test_ids_are_unique_and_sort_by_creation() -> None:
    ids = [new_id("fct") for _ in range(1000)]
    assert len(set(ids)) == 1000 and all(i.startswith("fct_") and len(i) == 30 for i in ids)


@pytest.mark.parametrize("bad", ["", "-alice", "a b", "a/b", "x" * 129])
def test_profile_ids_are_slugs(bad: str) -> None:
    with pytest.raises(ValidationError):
        Profile(id=bad)
