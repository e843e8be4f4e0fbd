"""An extractive summary: the few most informative sentences of a session, with their speakers.

A sentence scores by how frequent its content words are across the whole session
(a plain term-frequency score, normalized by length), and more when it gave a fact:
decisions, plans and preferences are what a summary should keep.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence, Set

from somna.llm.rules.language import Language
from somna.llm.rules.text import fold, split_sentences
from somna.llm.tasks import SessionTranscript
from somna.model import Role, normalize_text

__all__ = ["summarise"]

_FACT_BONUS = 1.5
_MIN_WORDS = 4


def _speaker(transcript: SessionTranscript, role: Role, speaker: str | None) -> str:
    if speaker:
        return speaker
    if role is Role.USER and transcript.user.casefold() != "user":
        return transcript.user
    return role.value.capitalize()


def summarise(
    transcript: SessionTranscript,
    languages: Sequence[Language],
    sources: Set[tuple[int, int]] = frozenset(),
) -> str:
    """3 to 5 sentences ("Odile: I decided to …"), in the order they were said."""
    stopwords = frozenset().union(*(language.stopwords for language in languages))
    candidates: list[tuple[int, int, str, str, list[str]]] = []
    for position, message in enumerate(transcript.messages):
        if message.role not in (Role.USER, Role.ASSISTANT):
            continue
        folded = fold(message.content)
        for start, end in split_sentences(folded):
            sentence = " ".join(folded[start:end].split())
            words = normalize_text(sentence).split()
            if "?" in sentence or len(words) < _MIN_WORDS:
                continue
            if any(language.pleasantry.search(sentence) for language in languages):
                continue
            content = [w for w in words if w not in stopwords and len(w) > 2]
            speaker = _speaker(transcript, message.role, message.speaker)
            candidates.append((position, start, speaker, sentence, content))
    if not candidates:
        return ""
    frequency = Counter(word for *_, content in candidates for word in set(content))

    def score(item: tuple[int, int, str, str, list[str]]) -> float:
        position, start, _, _, content = item
        value = sum(frequency[w] for w in set(content)) / math.sqrt(len(content) + 1)
        return value * (_FACT_BONUS if (position, start) in sources else 1.0)

    count = min(len(candidates), max(3, min(5, len(candidates) // 4)))
    ranked = sorted(range(len(candidates)), key=lambda i: (-score(candidates[i]), i))[:count]
    return " ".join(f"{candidates[i][2]}: {_closed(candidates[i][3])}" for i in sorted(ranked))


def _closed(sentence: str) -> str:
    return sentence if sentence[-1] in ".!\u2026\"'\u00bb)" else sentence + "."
