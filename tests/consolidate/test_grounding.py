"""Summary grounding: a summary names a speaker and shares words with what was said."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from somna.consolidate.evidence import locate_quote
from somna.consolidate.grounding import check_summary, ungrounded
from somna.errors import LLMError
from somna.model import Message, Profile, Role

_AT = datetime(2026, 3, 2, 18, 0, tzinfo=UTC)


def _said(*turns: tuple[Role, str | None, str]) -> list[Message]:
    return [
        Message(
            session_id="ses_1",
            seq=i,
            role=role,
            content=content,
            created_at=_AT,
            meta={"speaker": speaker} if speaker else {},
        )
        for i, (role, speaker, content) in enumerate(turns)
    ]


TWO_FRIENDS = _said(
    (Role.USER, "Noor", "I adopted a grey kitten from the shelter on Saturday."),
    (Role.USER, "Idris", "Lovely! Did you pick a name for the kitten yet?"),
)
PROFILE = Profile(id="noor-and-idris")


@pytest.mark.parametrize(
    "summary",
    [
        "Noor adopted a kitten from the shelter; Idris asked about its name.",
        "idris asked noor whether the kitten had a name.",
        "",
    ],
)
def test_a_summary_naming_a_speaker_and_their_words_is_grounded(summary: str) -> None:
    assert ungrounded(summary, TWO_FRIENDS, PROFILE) is None
    check_summary(summary, TWO_FRIENDS, PROFILE)


def test_an_invented_summary_is_not() -> None:
    invented = "A girl meets a man who has been dating for two years."
    assert ungrounded(invented, TWO_FRIENDS, PROFILE) == (
        "it names none of the speakers (Idris, Noor, noor-and-idris, user)"
    )
    with pytest.raises(LLMError, match=r"not grounded in the conversation.*stays open"):
        check_summary(invented, TWO_FRIENDS, PROFILE)


def test_a_speaker_alone_is_not_enough() -> None:
    reason = ungrounded("Noor talked about the weather and football.", TWO_FRIENDS, PROFILE)
    assert reason == "it shares 0 content words with the conversation (at least 1 needed)"


def test_a_session_without_names_is_summarised_by_role_or_the_users_name() -> None:
    said = _said((Role.USER, None, "Remind me to water the ferns every Sunday."))
    assert ungrounded("The user asked for a fern reminder.", said, Profile(id="p1")) is None
    named = Profile(id="p1", settings={"user_name": "Lea"})
    assert ungrounded("Lea wants to water the ferns.", said, named) is None
    assert ungrounded("Somebody wants to water the ferns.", said, named) is not None


def test_a_bare_ok_is_evidence_only_as_the_whole_message_it_names() -> None:
    """A quote of two letters would be found in almost any message: it grounds a fact only
    as the whole of the message the fact names ("ok" to an offer)."""
    said = _said(
        (Role.ASSISTANT, None, "We can offer the oak table at £40. Friday at 9, ok?"),
        (Role.USER, None, "ok"),
        (Role.USER, None, "ok then, see you Friday"),
    )
    assert locate_quote("ok", said, hint=1) is said[1]
    assert locate_quote("ok", said, hint=0) is None  # "ok?" ends a longer message
    assert locate_quote("ok", said, hint=2) is None
    assert locate_quote("ok", said) is None
    assert locate_quote("ok then", said) is said[2]
