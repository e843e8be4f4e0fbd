"""Is a session summary about this session? A cheap check before it is stored.

A summary is recalled like a fact and its session is archived on the strength of it, so
an invented one ("a girl meets a man…", from a model that never saw the transcript)
does lasting harm. A grounded summary names at least one speaker of the session and
shares content words with what was said. An empty summary stores nothing and passes.
"""

from __future__ import annotations

from collections.abc import Sequence

from somna.errors import LLMError
from somna.model import Message, Profile, normalize_text
from somna.ranking import keywords

__all__ = ["MIN_SHARED_WORDS", "check_summary", "ungrounded"]

MIN_SHARED_WORDS = 1
"""Content words (stop words and names aside) a summary must share with the session."""


def _speakers(messages: Sequence[Message], profile: Profile) -> set[str]:
    names = {str(profile.settings.get("user_name") or "user"), profile.id, profile.name or ""}
    for message in messages:
        names.add(message.role.value)
        speaker = message.meta.get("speaker")
        if isinstance(speaker, str) and speaker.strip():
            names.add(speaker)
    return names


def ungrounded(summary: str, messages: Sequence[Message], profile: Profile) -> str | None:
    """Why ``summary`` is not grounded in ``messages``, or None when it is (or is empty)."""
    if not summary.strip():
        return None
    speakers = _speakers(messages, profile)
    name_words = {word for name in speakers for word in normalize_text(name).split()}
    said = set(normalize_text(summary).split())
    if not said & name_words:
        shown = ", ".join(sorted(name for name in speakers if name))
        return f"it names none of the speakers ({shown})"
    spoken = {_stem(w) for w in keywords(" ".join(message.content for message in messages))}
    shared = {_stem(w) for w in keywords(summary) if w not in name_words} & spoken
    if len(shared) < MIN_SHARED_WORDS:
        return (
            f"it shares {len(shared)} content word{'' if len(shared) == 1 else 's'} with the "
            f"conversation (at least {MIN_SHARED_WORDS} needed)"
        )
    return None


def _stem(word: str) -> str:
    """A crude stem, enough to match "ferns" with "fern" and "reminder" with "remind"."""
    return word[:5] if len(word) > 5 else word.rstrip("s")


def check_summary(summary: str, messages: Sequence[Message], profile: Profile) -> None:
    """Raise `LLMError` (the session fails and stays open) when the summary is not grounded."""
    reason = ungrounded(summary, messages, profile)
    if reason is not None:
        shown = summary.strip()
        shown = shown if len(shown) <= 80 else shown[:77] + "..."
        raise LLMError(
            f"The model's summary is not grounded in the conversation: {reason}: {shown!r}. "
            "The session stays open for a later run."
        )
