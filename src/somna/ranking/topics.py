"""Standing topics: the words a fact holds when it answers a kind of question.

"How do I reach her?" is answered by "Prefers email, never calls", which shares no
word with the question and little of its meaning for a small embedder. A question
that asks about a topic (contact, diet, whereabouts, money) brings the facts that
name it through full text, whatever their cosine. The table lives in `topics.toml`,
one list of words per topic and language side by side.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources

__all__ = ["Topic", "asking", "filler_words", "topic_words", "topics"]


@dataclass(frozen=True)
class Topic:
    name: str
    asks: re.Pattern[str]
    """Matches a question that asks about the topic."""
    says: tuple[str, ...]
    """Words a fact that bears on the topic holds, to search in full text."""
    fills: bool = False
    """Whether the topic only fills the block of a question another fact bears on."""
    unless: re.Pattern[str] | None = None
    """Phrases that hold an asking word and mean something else ("Comment s'appelle la
    salle ?" asks a name, not how to call anyone): the question is read without them."""

    def asked_in(self, question: str) -> bool:
        """Whether `question` asks about this topic."""
        if self.unless is not None:
            question = self.unless.sub(" ", question.replace("\u2019", "'"))
        return self.asks.search(question) is not None


@cache
def topics() -> tuple[Topic, ...]:
    table = tomllib.loads(
        resources.files("somna.ranking").joinpath("topics.toml").read_text("utf-8")
    )
    return tuple(
        Topic(
            name,
            asking(entry["asks"]),
            tuple(dict.fromkeys(entry["says"])),
            entry.get("fills", False),
            asking(entry["unless"]) if "unless" in entry else None,
        )
        for name, entry in table.items()
    )


def asking(phrases: list[str]) -> re.Pattern[str]:
    """A question holding any of `phrases`, case-folded, on word boundaries."""
    alternatives = "|".join(re.escape(phrase) for phrase in phrases)
    return re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)", re.IGNORECASE)


def topic_words(question: str) -> list[str]:
    """The words of every topic `question` asks about, to search facts for.

    >>> topic_words("How should I contact her?")[:3]
    ['email', 'e-mail', 'mail']
    >>> topic_words("How many legs does a spider have?")
    []
    """
    return _words(question, fills=False)


def filler_words(question: str) -> list[str]:
    """The words of the topics `question` asks about that only fill a block.

    >>> filler_words("Which day do the crates come?")[:2]
    ['monday', 'tuesday']
    """
    return _words(question, fills=True)


def _words(question: str, *, fills: bool) -> list[str]:
    words: dict[str, None] = {}
    for topic in topics():
        if topic.fills is fills and topic.asked_in(question):
            words.update(dict.fromkeys(topic.says))
    return list(words)
