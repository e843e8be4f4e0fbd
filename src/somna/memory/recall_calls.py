"""Search and recall of `Memory`, and the prompt block built from them.

The conversation path: no model is called unless query rewriting or multi-query
recall is asked for; a part that is down (the model, the embedder) is done
without, and the result's `degraded` says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from somna.embed import crosses_languages, languages_read
from somna.errors import InvalidInputError
from somna.memory.conversation_calls import ConversationCalls
from somna.memory.fact_calls import FactCalls
from somna.memory.inputs import as_enum
from somna.memory.multiquery import multi_recall, rewrite_query
from somna.memory.results import Block, Found, Recalled, SearchHit
from somna.memory.retrieval import names_one_recalled, relevant_facts, standing
from somna.memory.unsettled import unsettled
from somna.model import FactType
from somna.ranking import render_context
from somna.ranking.persons import points_at_someone

__all__ = ["RecallCalls"]


class RecallCalls(ConversationCalls, FactCalls):
    """What an agent asks of its memory on each turn."""

    def search(
        self, profile: str, query: str, k: int = 5, *, as_of: datetime | None = None
    ) -> Found[SearchHit]:
        """The `k` active facts most relevant to `query`, valid now or at `as_of`.

        Full-text (BM25) and vector candidates are fused by reciprocal rank. With the
        embedder down, full text alone answers and the result's `degraded` says so.
        """
        self._check_query(query, k)
        return self._retrieval.search(profile, query, k, as_of, self.now())

    def recall(
        self,
        profile: str,
        query: str,
        k: int = 5,
        *,
        as_of: datetime | None = None,
        types: Sequence[FactType | str] | None = None,
        include_summaries: bool = True,
        session_key: str | None = None,
        query_rewrite: bool | None = None,
        multi_query: bool | None = None,
    ) -> Found[Recalled]:
        """What the agent should remember now: facts and conversation summaries, best first.

        Candidates from full text and vectors are fused by rank, then weighed by
        recency, confidence and strength (`*_weight` settings). Each result says
        why it came. Recalled facts are reinforced in the background. No model is
        called unless `query_rewrite` (or the setting) asks for it, in which case
        the configured LLM rewrites a follow-up into a standalone query using the
        window of `session_key`. `multi_query` (or the setting) recalls 2-3 rephrasings
        proposed by the LLM too, fused by rank (`somna.memory.multiquery`).

        A part that is down is done without, and the result's `degraded` says so: the
        query as written when rewriting fails, full text alone when the embedder fails.
        """
        self._check_query(query, k)
        wanted = None if types is None else [as_enum(FactType, t, "fact type") for t in types]
        asked = (session_key, query_rewrite, multi_query, as_of, wanted, include_summaries)
        return self._recalled(profile, query, k, *asked, record=True)

    def context(
        self,
        profile: str,
        query: str,
        *,
        session_key: str | None = None,
        budget_tokens: int = 800,
        k: int | None = None,
    ) -> Block:
        """The block for a system prompt: the portrait, then dated facts, within the budget.

        Standing instructions always come first (those an agent proposed only once a
        person approved them); then at most `k` facts (default `context_facts`), each
        bearing on the question (`relevant_facts`: a topic it asks about, or closeness
        above the question's background, a lower one for a fact in another language
        with an embedder that crosses languages) and not faded (`context_strength_floor`): an
        unrelated question brings the portrait and the instructions alone. A question about
        this client (a dispute of theirs, "his", a name their facts write) is filled to five
        facts by rank. Then both sides of the open contradictions the question touches,
        marked as disputed, so the agent asks instead of picking one (`unsettled`). Only the
        facts in the block are reinforced. With the embedder down, facts that share a word
        with the question fill the block and `degraded` says so.

        With `session_key`, the conversation's thread follows (`thread`, within
        `thread_budget_tokens`): a running summary of the older turns, then the last ones.

        >>> print(m.context("alice", "what should I cook tonight?"))  # doctest: +SKIP
        About this user: Is vegetarian. Prefers spicy food.
        Known facts about this user:
        - [2026-05-03] Is allergic to peanuts. (unverified)
        """
        if budget_tokens < 1:
            raise InvalidInputError("The token budget must be at least 1.")
        limit = self.settings.context_facts if k is None else k
        self._check_query(query, limit)
        asked = (session_key, None, None, None, None, False)
        found = self._recalled(profile, query, limit, *asked, record=False)
        portrait, rules = standing(self.store, profile, self.now())
        disputed = unsettled(self.conflicts(profile), query)
        # a dispute of theirs, "his", or a name of theirs ("the Hobbs party")
        about = bool(disputed) or points_at_someone(query) or names_one_recalled(query, found)
        across = query if crosses_languages(self.embedder) else None
        chosen = [
            f
            for f in relevant_facts(
                found,
                self.settings,
                about_someone=about,
                across=across,
                read=languages_read(self.embedder),
                question=query,
            )
            if f.type is not FactType.INSTRUCTION
        ]
        # Only what reaches the prompt is reinforced: a fact left out, say for fading,
        # is not brought back to strength by the question that left it out.
        self._usage.record(profile, chosen, self.now())
        block = render_context(portrait, rules + chosen + disputed, budget_tokens)
        thread = None if session_key is None else self.thread(profile, session_key).text
        text = "\n\n".join(part for part in (block, thread) if part)
        return Block(text, found.degraded)

    def _recalled(
        self,
        profile: str,
        query: str,
        k: int,
        session_key: str | None,
        query_rewrite: bool | None,
        multi_query: bool | None,
        as_of: datetime | None,
        types: list[FactType] | None,
        include_summaries: bool,
        *,
        record: bool,
    ) -> Found[Recalled]:
        """`recall` for both callers: `context` records only what its block uses. The query
        is rewritten and rephrased when asked (unasked, the settings decide)."""
        degraded: list[str] = []
        if query_rewrite if query_rewrite is not None else self.settings.query_rewrite:
            window = [] if session_key is None else self.window(profile, session_key, n=6)
            query = rewrite_query(self.llm, query, window, degraded)
        multi = multi_query if multi_query is not None else self.settings.multi_query
        found = multi_recall(
            self._retrieval,
            self._rephrasings(self.llm, query) if multi else [],
            profile,
            query,
            k,
            as_of=as_of,
            types=types,
            include_summaries=include_summaries,
            now=self.now(),
            record=record,
        )
        return Found.of(found, degraded)
