"""LoCoMo as a recall benchmark: ingest a conversation, consolidate it, ask its questions.

For each conversation file (one profile), the sessions are ingested with `read_locomo`
and consolidated by the memory's configured LLM at the moment one day after the last
turn, so the night's hygiene sees the conversation as just finished. Then every
question of the chosen categories is put to `Memory.recall` with no `as_of` (at the
real now: consolidated facts carry no `expires_at`, so nothing expires between the
night and the question; category TTLs act only when the hygiene runs). A recalled fact
hits when one of its evidence messages is an evidence turn (dia_id) of the question.

Recall reinforces what it returns (strength, recall count), which reorders later
questions; `Memory.flush` after every call makes that effect land in the same order on
every run, and results of equal score (which recall orders by their random ids) are
put in order of kind and text, so two runs on fresh databases give the same figures
(latency aside). Token counts of the context block come from a second pass, so the
wider context recall (k=20) does not reinforce facts before the recall figures are
taken.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from datetime import timedelta
from pathlib import Path

from somna.errors import InvalidInputError
from somna.evaluation.baseline import TurnIndex
from somna.evaluation.locomo_figures import distribution, group_figures
from somna.evaluation.locomo_files import (
    LocomoQuestion,
    read_locomo_observations,
    read_locomo_questions,
)
from somna.evaluation.locomo_trace import Trace, dia_order, session_order, turns_behind
from somna.evaluation.metrics import (
    block_facts,
    mean,
    recall_at_k,
)
from somna.evaluation.report import (
    CATEGORY_NAMES,
    ConsolidationFigures,
    ConversationFigures,
    LocomoReport,
    QuestionResult,
    RecalledItem,
    RuleFigures,
)
from somna.memory import Memory, Recalled
from somna.model import EventAction, Fact, FactStatus, SummaryKind
from somna.ranking import HEADER, count_tokens
from somna.sources import Conversation, read_locomo

__all__ = [
    "CONSOLIDATE_AFTER",
    "LocomoQuestion",
    "evaluate_locomo",
    "read_locomo_observations",
    "read_locomo_questions",
]

CONSOLIDATE_AFTER = timedelta(days=1)
"""How long after a conversation's last turn its consolidation runs."""

_PAGE = 10_000
_PROGRESS_EVERY = 50

Progress = Callable[[str], None]


def evaluate_locomo(
    memory: Memory,
    paths: Sequence[Path],
    *,
    k_values: Iterable[int] = (5, 10),
    categories: Iterable[int] = (1, 2, 3, 4),
    consolidate: bool = True,
    baseline: bool = False,
    progress: Progress | None = None,
) -> LocomoReport:
    """Evaluate recall on LoCoMo conversation files, one profile per file.

    Each file is ingested (sessions already stored are skipped), consolidated unless
    `consolidate` is False (for a database consolidated beforehand), and each of its
    questions of `categories` is recalled with `k = max(k_values)`. Use a fresh
    database: recall reinforces facts, so a second evaluation on the same one starts
    from a different state. With `baseline`, every question is also put to an index of
    the raw turns (`TurnIndex`) and scored the same way. `progress` receives one line of
    narration now and then.

    >>> report = evaluate_locomo(Memory(), [Path("26.json")], k_values=[10])  # doctest: +SKIP
    >>> report.by_category[4].evidence_recall  # doctest: +SKIP
    {10: 0.061}
    """
    ks = sorted(set(k_values))
    wanted = sorted(set(categories))
    if not paths:
        raise InvalidInputError("Give at least one LoCoMo conversation file.")
    if not ks or ks[0] < 1:
        raise InvalidInputError("Every k must be at least 1, and at least one k is needed.")
    if not wanted or not set(wanted) <= set(CATEGORY_NAMES):
        raise InvalidInputError(
            f"LoCoMo categories are {', '.join(map(str, CATEGORY_NAMES))}; got {wanted or 'none'}."
        )
    say = progress or (lambda line: None)
    # Every file is read before anything is written, so a bad one stops the run early.
    loaded = [
        (Path(path), read_locomo(Path(path)), read_locomo_questions(Path(path))) for path in paths
    ]
    profiles: dict[str, Path] = {}
    for path, conversations, _ in loaded:
        if not conversations:
            raise InvalidInputError(f"{path} holds no session with turns.")
        profile = conversations[0].profile
        if profile in profiles:
            raise InvalidInputError(
                f"{profiles[profile]} and {path} would both be profile {profile!r}: "
                "give the files different names."
            )
        profiles[profile] = path
    figures: list[ConversationFigures] = []
    results: list[QuestionResult] = []
    for path, conversations, asked in loaded:
        questions = [q for q in asked if q.category in wanted and q.question]
        run = _Conversation(memory, path, conversations, ks, say)
        prepared = run.prepare(consolidate, len(questions))
        answered = run.ask(questions, baseline)
        figures.append(prepared.model_copy(update={"figures": group_figures(answered, ks)}))
        results += answered
    return LocomoReport(
        k_values=ks,
        categories=wanted,
        conversations=figures,
        by_category={c: group_figures([r for r in results if r.category == c], ks) for c in wanted},
        overall=group_figures(results, ks),
        latency_ms=distribution([r.latency_ms for r in results]),
        context_tokens=distribution([float(r.context_tokens) for r in results]),
        questions=results,
    )


class _Conversation:
    """One file's profile: ingest and consolidate it, then ask its questions."""

    def __init__(
        self,
        memory: Memory,
        path: Path,
        conversations: list[Conversation],
        ks: list[int],
        say: Progress,
    ) -> None:
        self.memory = memory
        self.path = path
        self.conversations = conversations
        self.profile = conversations[0].profile
        self.ks = ks
        self.say = say
        self.trace = Trace(memory, self.profile, conversations)
        self.covered: set[str] = set()
        self.expired: set[str] = set()
        self.texts: dict[str, set[str]] = {}
        """The turns behind each active fact's text, to read a context block."""

    def prepare(self, consolidate: bool, questions: int) -> ConversationFigures:
        memory, name = self.memory, self.path.name
        turns = sum(len(c.turns) for c in self.conversations)
        ingested = memory.ingest(self.conversations)
        self.say(f"{name}: {ingested.sessions} sessions ingested ({ingested.messages} turns).")
        consolidation = None
        if consolidate:
            last = max(t.at for c in self.conversations for t in c.turns)
            started = time.perf_counter()
            run = memory.consolidate(self.profile, now=last + CONSOLIDATE_AFTER)
            seconds = time.perf_counter() - started
            consolidation = ConsolidationFigures.of_runs(memory.llm.name, [run], seconds)
            self.say(
                f"{name}: {run.sessions_consolidated} sessions consolidated in {seconds:.1f} s, "
                f"{run.facts_added} facts added."
            )
        facts = _every_fact(memory, self.profile)
        active = [f.id for f in facts if f.status.is_active]
        expired = [f.id for f in facts if f.status is FactStatus.EXPIRED]
        self.covered = turns_behind(self.trace, active)
        self.expired = turns_behind(self.trace, expired) - self.covered
        self.texts = {f.text: self.trace.facts([f.id])[f.id] for f in facts if f.status.is_active}
        stored = turns_behind(self.trace, [f.id for f in facts])
        observed = [t for t in read_locomo_observations(self.path) if t in self.trace.turns]
        rules: dict[str, list[bool]] = {}
        events = memory.events(self.profile, [f.id for f in facts])
        behind = self.trace.facts([f.id for f in facts])
        for event in events:
            if event.action is EventAction.CREATED:
                rule = str((event.after or {}).get("rule") or "unnamed")
                rules.setdefault(rule, []).append(bool(behind[event.fact_id] & set(observed)))
        return ConversationFigures(
            path=str(self.path),
            profile=self.profile,
            sessions=len(self.conversations),
            turns=turns,
            sessions_already_stored=ingested.skipped,
            questions=questions,
            facts_stored=len(facts),
            facts_active=len(active),
            facts_expired=sum(f.status is FactStatus.EXPIRED for f in facts),
            session_summaries=_count_summaries(memory, self.profile, SummaryKind.SESSION),
            day_digests=_count_summaries(memory, self.profile, SummaryKind.DAY),
            facts_per_turn=round(len(active) / turns, 4) if turns else 0.0,
            items_per_turn=round(len(facts) / turns, 4) if turns else 0.0,
            observations=len(observed),
            observation_recall=mean(float(t in stored) for t in observed),
            rules={
                r: RuleFigures(items=len(v), on_reference=sum(v)) for r, v in sorted(rules.items())
            },
            consolidation=consolidation,
        )

    def ask(self, questions: Sequence[LocomoQuestion], baseline: bool) -> list[QuestionResult]:
        memory, k = self.memory, max(self.ks)
        asked: list[tuple[LocomoQuestion, list[Recalled], float]] = []
        for done, question in enumerate(questions, start=1):
            started = time.perf_counter()
            recalled: list[Recalled] = memory.recall(self.profile, question.question, k=k)
            latency = (time.perf_counter() - started) * 1000
            # Equal scores come in the order of their random ids: order them by content.
            recalled.sort(key=lambda r: (-r.score, r.kind, r.text))
            memory.flush()  # reinforcement lands before the next question, on every run alike
            asked.append((question, recalled, latency))
            if done % _PROGRESS_EVERY == 0 or done == len(questions):
                self.say(f"{self.path.name}: {done}/{len(questions)} questions recalled.")
        index = TurnIndex(self.conversations, memory.embedder) if baseline else None
        results = []
        for question, recalled, latency in asked:
            block = memory.context(self.profile, question.question)
            memory.flush()
            result = self._score(question, recalled, latency, block)
            if index is not None:
                found = [{t} for t in index.search(question.question, k)]
                scores = {q: recall_at_k(result.evidence, found, q) for q in self.ks}
                result = result.model_copy(
                    update={"baseline_recall": {q: v for q, v in scores.items() if v is not None}}
                )
            results.append(result)
        if index is not None:
            index.close()
        return results

    def _score(
        self, question: LocomoQuestion, recalled: list[Recalled], latency: float, block: str
    ) -> QuestionResult:
        turns = self.trace.turns
        evidence = [t for t in question.evidence if t in turns]
        sessions = list(dict.fromkeys(turns[t][0] for t in evidence))
        behind_facts = self.trace.facts([r.fact.id for r in recalled if r.fact is not None])
        items = []
        for rank, result in enumerate(recalled, start=1):
            if result.fact is not None:
                dia_ids = behind_facts[result.fact.id]
                keys = {turns[t][0] for t in dia_ids} | self.trace.fact_sessions(result.fact.id)
                summary_kind = None
            else:
                assert result.summary is not None
                dia_ids, keys = set(), self.trace.summary_sessions(result.summary)
                summary_kind = result.summary.kind.value
            items.append(
                RecalledItem(
                    rank=rank,
                    kind=result.kind,
                    summary_kind=summary_kind,
                    id=result.id,
                    text=result.text,
                    score=round(result.score, 6),
                    turns=sorted(dia_ids, key=dia_order),
                    sessions=sorted(keys, key=session_order),
                )
            )
        by_turn = [set(item.turns) for item in items]
        by_session = [set(item.sessions) for item in items]
        evidence_recall = {k: recall_at_k(evidence, by_turn, k) for k in self.ks}
        session_recall = {k: recall_at_k(sessions, by_session, k) for k in self.ks}
        return QuestionResult(
            conversation=self.profile,
            number=question.number,
            category=question.category,
            question=question.question,
            answer=question.answer,
            evidence=evidence,
            evidence_sessions=sessions,
            unknown_evidence=[t for t in question.evidence if t not in turns],
            covered_evidence=[t for t in evidence if t in self.covered],
            expired_evidence=[t for t in evidence if t in self.expired],
            evidence_recall={k: v for k, v in evidence_recall.items() if v is not None},
            session_recall={k: v for k, v in session_recall.items() if v is not None},
            latency_ms=round(latency, 3),
            context_tokens=count_tokens(block),
            context_facts=len(lines := block_facts(block, HEADER)),
            context_evidence=any(self.texts.get(line, set()) & set(evidence) for line in lines),
            recalled=items,
        )


def _every_fact(memory: Memory, profile: str) -> list[Fact]:
    facts: list[Fact] = []
    while True:
        page = memory.list_facts(profile, status=list(FactStatus), limit=_PAGE, offset=len(facts))
        facts += page
        if len(page) < _PAGE:
            return facts


def _count_summaries(memory: Memory, profile: str, kind: SummaryKind) -> int:
    return len(memory.summaries(profile, kind, limit=1_000_000))
