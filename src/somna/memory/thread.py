"""The thread of a live conversation, folded to fit a budget.

When an open session's turns take more than `thread_budget_tokens`, the older ones
are told in a running summary (by the configured model, or extractively by the
offline rules provider) and only the last `thread_keep_turns` are shown word for
word. The summary is kept with the session and extended as the conversation
grows; the folded turns stay in the session, for the nightly job.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from somna.errors import ConflictStateError, LLMError
from somna.model import Message, Role, Session, SessionStatus
from somna.ranking.tokens import count_tokens
from somna.store import Store, ThreadState

if TYPE_CHECKING:
    from somna.llm import LLM

__all__ = ["EARLIER", "Thread", "ThreadBuilder", "render_turns"]

EARLIER = "Earlier in this conversation:"
_LIVE = (SessionStatus.OPEN, SessionStatus.CLOSED)


def render_turns(turns: Sequence[Message]) -> str:
    """One line per turn, `user: text`, whitespace folded."""
    return "\n".join(f"{m.role.value}: {' '.join(m.content.split())}" for m in turns)


@dataclass(frozen=True)
class Thread:
    """What a prompt gets of the conversation: a running summary, then the last turns."""

    session: Session | None
    summary: str | None
    turns: list[Message] = field(default_factory=list)
    folded: int = 0
    """How many older turns the summary tells."""
    summarised_by: str | None = None
    """`model` or `extractive` when folded by this call, `saved` when the kept summary still
    covers the folded turns, None when nothing is folded."""

    @property
    def text(self) -> str:
        head = [f"{EARLIER} {self.summary}"] if self.summary else []
        body = [render_turns(self.turns)] if self.turns else []
        return "\n".join(head + body)

    @property
    def tokens(self) -> int:
        return count_tokens(self.text)


class ThreadBuilder:
    """Builds threads of one store; `llm` is asked only when a thread must fold."""

    def __init__(
        self,
        store: Store,
        llm: Callable[[], LLM],
        clock: Callable[[], datetime],
    ) -> None:
        self._store = store
        self._llm = llm
        self._clock = clock

    def build(self, profile: str, session_key: str, *, budget: int, keep: int) -> Thread:
        with self._store.read(profile) as tx:
            session = tx.latest_session(session_key)
            if session is None or session.status not in _LIVE:
                return Thread(session, None)
            messages = tx.session_messages(session.id)
            state = tx.thread_state(session.id)
        if count_tokens(render_turns(messages)) <= budget or len(messages) <= 1:
            return Thread(session, None, messages)
        kept = _kept(messages, budget, keep)
        folded_seq = messages[-kept - 1].seq
        if state is not None:
            folded_seq = max(folded_seq, state.folded_seq)
        shown = [m for m in messages if m.seq > folded_seq]
        if state is not None and state.folded_seq == folded_seq:
            summary, by = state.summary, "saved"
        else:
            summary, by = self._fold(session, messages, state, folded_seq)
            self._save(profile, ThreadState(session.id, folded_seq, summary, self._clock()))
        room = max(budget - count_tokens(render_turns(shown)) - count_tokens(EARLIER) - 1, 0)
        folded = len(messages) - len(shown)
        return Thread(session, _trim(summary, room) or None, shown, folded, by)

    def _fold(
        self,
        session: Session,
        messages: Sequence[Message],
        state: ThreadState | None,
        folded_seq: int,
    ) -> tuple[str, str]:
        # Imported here: a thread that fits its budget never loads the model side.
        from somna.llm.conversation import THREAD_SUMMARY, FoldRequest
        from somna.llm.rules import RulesLLM
        from somna.llm.tasks import ChatTurn

        llm = self._llm()
        if not isinstance(llm, RulesLLM):
            since = -1 if state is None else state.folded_seq
            request = FoldRequest(
                previous="" if state is None else state.summary,
                turns=[
                    ChatTurn(role=m.role, content=m.content)
                    for m in messages
                    if since < m.seq <= folded_seq
                ],
            )
            try:
                told = llm.structured(THREAD_SUMMARY, request).value.summary.strip()
            except LLMError:
                told = ""  # a model that fails leaves the extractive summary, never no thread
            if told:
                return told, "model"
        return _extractive(session, [m for m in messages if m.seq <= folded_seq]), "extractive"

    def _save(self, profile: str, state: ThreadState) -> None:
        try:
            with self._store.write(profile) as tx:
                tx.save_thread_state(state)
        except ConflictStateError:
            pass  # consolidated meanwhile: the nightly job has the turns, no summary to keep


def _kept(messages: Sequence[Message], budget: int, keep: int) -> int:
    """How many last turns to show word for word: `keep`, fewer if they alone pass the budget."""
    kept = min(keep, len(messages) - 1)
    while kept > 1 and count_tokens(render_turns(messages[-kept:])) > budget:
        kept -= 1
    return kept


def _extractive(session: Session, folded: Sequence[Message]) -> str:
    from somna.llm.rules.extract import LANGUAGES
    from somna.llm.rules.summary import summarise
    from somna.llm.tasks import SessionTranscript, TranscriptMessage

    transcript = SessionTranscript(
        session_key=session.key,
        date=session.started_at.date().isoformat(),
        messages=[
            TranscriptMessage(index=i, role=m.role, content=m.content)
            for i, m in enumerate(folded)
            if m.role in (Role.USER, Role.ASSISTANT)
        ],
    )
    summary = summarise(transcript, LANGUAGES)
    if summary:
        return summary
    # Nothing long enough to pick: the first words of each folded user turn.
    return " ".join(
        f"The user said: {' '.join(m.content.split()[:12])}." for m in folded if m.role is Role.USER
    )[:1000]


def _trim(summary: str, room: int) -> str:
    """The summary cut to `room` tokens, by whole words."""
    if count_tokens(summary) <= room:
        return summary
    words = summary.split()
    low, high = 0, len(words)
    while low < high:
        middle = (low + high + 1) // 2
        if count_tokens(" ".join(words[:middle]) + " …") <= room:
            low = middle
        else:
            high = middle - 1
    return (" ".join(words[:low]) + " …") if low else ""
