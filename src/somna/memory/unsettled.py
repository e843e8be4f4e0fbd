"""The contradictions a question touches: both sides, marked, for the agent to ask about.

Recall never returns a disputed fact as if it were true. But a contradiction left open
is something the agent must know before it replies: "has a severe peanut allergy"
disputed by "wants peanut brittle in the welcome basket" must not simply vanish from
the prompt of a question about meals. So the block lists, after its facts, the open
conflicts whose sides share a word or a standing topic with the question, each side
marked as disputed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from somna.memory.results import ConflictPair
from somna.model import Fact, shared_words
from somna.ranking import keywords, question_words, topic_words

__all__ = ["unsettled"]

MAX_PAIRS = 2
"""The most open contradictions one block lists."""


def unsettled(pairs: Sequence[ConflictPair], question: str) -> list[Fact]:
    """Both facts of each open conflict that bears on `question`, oldest pair first."""
    asked = [w for w in question_words(question) if len(w) > 2]
    topical = [re.compile(rf"(?<!\w){re.escape(w)}(?!\w)", re.I) for w in topic_words(question)]

    def bears(fact: Fact) -> bool:  # a word shared, as written or inflected ("allergic")
        return shared_words(asked, keywords(fact.text)) > 0 or any(
            word.search(fact.text) for word in topical
        )

    touched = [pair for pair in pairs if bears(pair.fact_a) or bears(pair.fact_b)]
    return [fact for pair in touched[:MAX_PAIRS] for fact in (pair.fact_a, pair.fact_b)]
