"""What stored facts and summaries stand for in LoCoMo: the turns and sessions behind them."""

from __future__ import annotations

from collections.abc import Sequence

from somna.evaluation.metrics import normalize_dia_ids
from somna.memory import Memory
from somna.model import Summary, SummaryKind, fold_text
from somna.sources import Conversation

__all__ = ["Trace", "dia_order", "session_order", "turns_behind"]

_EVERY = 1_000_000


class Trace:
    """What stored facts and summaries stand for in the benchmark: turns and session keys.

    A fact's evidence names its message, whose meta keeps the turn's dia_id (from the
    hot table or the archive); once the archive is purged, the quote is looked up
    among the session's turns instead, as consolidation verified it (invariant 5).
    """

    def __init__(self, memory: Memory, profile: str, conversations: list[Conversation]) -> None:
        self.memory = memory
        self.profile = profile
        self.turns: dict[str, tuple[str, str]] = {}
        """dia_id: (session key, folded text)."""
        for conversation in conversations:
            for turn in conversation.turns:
                for dia_id in normalize_dia_ids(str(turn.meta.get("dia_id", "")))[:1]:
                    self.turns[dia_id] = (conversation.session_key, fold_text(turn.content))
        self._fact_turns: dict[str, set[str]] = {}
        self._fact_sessions: dict[str, set[str]] = {}
        self._summary_sessions: dict[str, set[str]] = {}
        self._keys: dict[str, str] = {}
        self._sessions_of: dict[str, str | None] = {}

    def facts(self, fact_ids: Sequence[str]) -> dict[str, set[str]]:
        """The turns behind each fact's evidence, read once per fact."""
        missing = [i for i in dict.fromkeys(fact_ids) if i not in self._fact_turns]
        if missing:
            for fact_id in missing:
                self._fact_turns[fact_id], self._fact_sessions[fact_id] = set(), set()
            for quote in self.memory.evidence(self.profile, missing):
                key, message, fact_id = quote.session_key, quote.message, quote.evidence.fact_id
                found = normalize_dia_ids(str(message.meta.get("dia_id", ""))) if message else []
                dia_id = found[0] if found else self._locate(quote.evidence.quote, key)
                if dia_id is not None:
                    self._fact_turns[fact_id].add(dia_id)
                if key is not None:
                    self._fact_sessions[fact_id].add(key)
        return {i: self._fact_turns[i] for i in fact_ids}

    def fact_sessions(self, fact_id: str) -> set[str]:
        return self._fact_sessions.get(fact_id, set())

    def summary_sessions(self, summary: Summary) -> set[str]:
        """The session of a session summary; the sessions of a day digest's summaries."""
        if summary.id not in self._summary_sessions:
            if summary.kind is SummaryKind.DAY:
                ids = self._sessions_of_summaries(summary.sources)
            else:
                ids = [summary.session_id]
            if any(i not in self._keys for i in ids if i):
                every = self.memory.sessions(self.profile, limit=_EVERY)
                self._keys.update((s.id, s.key) for s in every)
            self._summary_sessions[summary.id] = {self._keys[i] for i in ids if i in self._keys}
        return self._summary_sessions[summary.id]

    def _sessions_of_summaries(self, summary_ids: Sequence[str]) -> list[str | None]:
        """The session of each session summary (all of them read again when one is new)."""
        if any(i not in self._sessions_of for i in summary_ids):
            summaries = self.memory.summaries(self.profile, SummaryKind.SESSION, limit=_EVERY)
            self._sessions_of = {s.id: s.session_id for s in summaries}
        return [self._sessions_of.get(i) for i in summary_ids]

    def _locate(self, quote: str, key: str | None) -> str | None:
        needle = fold_text(quote)
        if len(needle) < 3:
            return None
        for dia_id, (session, text) in self.turns.items():
            if (key is None or session == key) and needle in text:
                return dia_id
        return None


def turns_behind(trace: Trace, fact_ids: list[str]) -> set[str]:
    """The turns behind any of these facts."""
    return set().union(*trace.facts(fact_ids).values()) if fact_ids else set()


def dia_order(dia_id: str) -> tuple[int, ...]:
    """`D2:10` after `D2:9`: turn ids in the conversation's order, not the alphabet's."""
    return tuple(int(part) for part in dia_id[1:].split(":"))


def session_order(key: str) -> tuple[int, str]:
    """`session_10` after `session_9`; a key without a number last."""
    number = key.rpartition("_")[2]
    return (int(number), key) if number.isdigit() else (1 << 30, key)
