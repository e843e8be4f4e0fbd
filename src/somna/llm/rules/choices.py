"""A value chosen anew among a few of one kind: monthly billing then annual, email then calls.

"We'll take the annual plan." and "Finalement on repasse au forfait mensuel." share no
word and little cosine, in two languages, yet the second replaces the first: an agent
that quotes the annual plan afterwards quotes a value the client left. The kinds of
choice, the words that say what is chosen and those that name each value are a table
(`choices.toml`), English and French side by side.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from somna.llm.rules.languages import LANGUAGES, without_question
from somna.llm.rules.tables import read_toml
from somna.llm.rules.text import any_word, fold
from somna.model import Verdict

__all__ = [
    "Choice",
    "choice_reversed",
    "choice_verdict",
    "choices",
    "chosen",
    "names_another_value",
    "names_how_made",
    "turned_down",
]


@dataclass(frozen=True)
class Choice:
    name: str
    about: re.Pattern[str]
    values: tuple[tuple[str, re.Pattern[str]], ...]
    """Each value by name, and the pattern of the words that name it."""
    words: tuple[str, ...]
    """The words of every value's names ("quinze", "jours" of "tous les quinze jours"), to
    search facts for in full text."""
    made: bool = False
    """Whether the kind says how a thing looks or is made (a colour, a wood)."""


_TURNED_DOWN = re.compile(
    r"(?<!\w)(?:no|not|never|nor|instead\s+of|rather\s+than|than|pas|jamais|ni|plutôt\s+que|"
    r"au\s+lieu\s+d[eu']?|sans)(?!\w)(?:\W+\w+){0,2}\W*$",
    re.IGNORECASE,
)
"""A word that turns down the value right after it: "never by phone", "plutôt que par
email", "rather than monthly"."""


def turned_down(text: str, at: int) -> bool:
    """Whether the value named at `at` in `text` is turned down by the words right before
    it ("never by phone", "large instead of medium")."""
    return _TURNED_DOWN.search(text[max(0, at - 40) : at]) is not None


_TOPIC = re.compile(
    r"(?:(?:^|[,;:]|(?<!\w)(?:that|so|and|but|now|then|que|qu'|et|mais|alors|finalement|"
    r"du\s+coup))\s*(?:for|about|as\s+for|regarding|pour|quant|concernant)|"
    r"(?<!\bthinking\s)(?<!\bthink\s)(?<!\bthought\s)(?<!\w)about)\s+"
    r"(?:the|your|our|my|les|le|la|l'|vos|nos|mes|aux?)\s*$",
    re.IGNORECASE,
)
"""Words opening a clause that make the value right after them what it is about, not what
it chooses: "finalement pour les sms, mettez 24h avant" sets the reminders and reaches no
one by text, where "pays for the annual plan" chooses it; and "about the" after anything
but thinking ("he put his foot down about the white")."""


def _spoken_of(text: str, at: int) -> bool:
    return _TOPIC.search(text[max(0, at - 30) : at]) is not None


@cache
def choices() -> tuple[Choice, ...]:
    return tuple(
        Choice(
            name,
            any_word(entry["about"], whole=False),
            tuple((value, any_word(words, whole=True)) for value, words in entry["values"].items()),
            tuple(
                dict.fromkeys(
                    w for words in entry["values"].values() for n in words for w in n.split()
                )
            ),
            entry.get("made", False),
        )
        for name, entry in read_toml("choices").items()
    )


def names_how_made(text: str) -> bool:
    """Whether `text` names how a thing is to look or be made: a colour, a wood, a
    material ("can the stools be charcoal grey?")."""
    return any(
        choice.made and any(pattern.search(text) for _, pattern in choice.values)
        for choice in choices()
    )


def chosen(text: str, *, about: bool = True) -> dict[str, set[str]]:
    """The values `text` chooses, by kind of choice: named in what is said (not in the
    question it answers), about what is chosen (unless not `about`), and not turned down.

    >>> chosen("The user wants to be contacted by email, never by phone.")
    {'channel': {'email'}}
    >>> chosen("The user reads the monthly newsletter.")
    {}
    """
    text = fold(text)
    said = without_question(text)
    found: dict[str, set[str]] = {}
    for choice in choices():
        if about and not choice.about.search(text):
            continue
        values = {
            value
            for value, names in choice.values
            for match in names.finditer(said)
            if not turned_down(said, match.start()) and not _spoken_of(said, match.start())
        }
        if values:
            found[choice.name] = values
    return found


def _named_unchosen(new: str, kind: str, left: set[str]) -> bool:
    """Whether `new` speaks of one of the values `left` of a kind, not choosing it nor
    turning it down, beside the one it chooses: it was the one before ("he put his foot
    down about the white; he wants the anthracite", "j'ai montré le noir à l'équipe, ils
    trouvent ça triste; on part sur le bleu"). One turned down ("pays by transfer, never
    by card") says what holds, not that it changed."""
    said = fold(without_question(new))
    return any(
        not turned_down(said, match.start())
        for choice in choices()
        if choice.name == kind
        for value, names in choice.values
        if value in left
        for match in names.finditer(said)
    )


def names_another_value(clause: str, new: str) -> bool:
    """Whether `clause` names a value of a kind `new` chooses other than the one it chooses,
    whatever the clause is about: in "the Lite plan, 14 a month per seat, billed monthly",
    the price "a month" goes with the billing when annual billing comes.

    >>> names_another_value("14 a month per seat", "Switched to annual billing.")
    True
    >>> names_another_value("two years", "Switched to annual billing.")
    False
    """
    said = fold(without_question(clause))
    for choice in choices():
        taken = chosen(new).get(choice.name, set())
        if taken and any(v not in taken and names.search(said) for v, names in choice.values):
            return True
    return False


_PASSED_OVER = re.compile(
    r"(?<!\w)(?:" + "|".join(language.replaced for language in LANGUAGES) + r")\s*"
    r"(?:(?:" + "|".join(language.articles for language in LANGUAGES) + r")(?:\s+|(?<=')))?"
    r"(?P<passed>[^,;.!?()]{2,40})",
    re.IGNORECASE,
)
"""What a choice passes over, named after "rather than", "instead of", "plutôt que"."""
_CONTENT = re.compile(r"[^\W\d_]{3,}")
_STOPWORDS = frozenset().union(*(language.stopwords for language in LANGUAGES))


def choice_reversed(old: str, new: str, said: str | None = None) -> bool:
    """Whether `new` takes, and says it changed, what `old` chose against: "a buffet rather
    than a seated meal", then "change of mind: a seated meal after all".

    >>> choice_reversed("Un buffet plutôt qu'un repas assis.", "On a changé d'avis : repas assis.")
    True
    """
    passed = _PASSED_OVER.search(fold(without_question(old)))
    if passed is None or not _says_changed(new, said):
        return False
    words = {w for w in _CONTENT.findall(passed["passed"].casefold()) if w not in _STOPWORDS}
    taken = {w for w in _CONTENT.findall(fold(without_question(new)).casefold())}
    return len(words) > 1 and words <= taken  # one word ("phone") is named too often


def _moves(new: str, said: str | None) -> bool:
    """Whether `new` moves something to a value in so many words ("switch to", "make it",
    "on passe à"): what it moves need not be named again."""
    return any(
        language.reschedule.search(fold(text))
        for language in LANGUAGES
        for text in (new, said or "")
    )


def _says_changed(new: str, said: str | None) -> bool:
    return any(
        language.change.search(fold(text)) for language in LANGUAGES for text in (new, said or "")
    )


def choice_verdict(old: str, new: str, said: str | None = None) -> Verdict | None:
    """How `new` stands to `old` when it chooses a value of a kind `old` chose another of:
    it supersedes `old` when it (or `said`, the words it was said in) says it changed,
    and contradicts it otherwise; None when it makes no other choice. A move in so many
    words, old or new, need not name again what is chosen ("let's switch to every two
    weeks" after "once a month", to "How often?"; then "every week from June"). Taking what
    `old` passed over, and saying so, supersedes it too (`choice_reversed`).

    >>> choice_verdict("Takes the annual plan.", "Finalement on repasse au forfait mensuel.")
    <Verdict.SUPERSEDES: 'supersedes'>
    >>> choice_verdict("Prefers to be contacted by email.", "Prefers a call.")
    <Verdict.CONTRADICTS: 'contradicts'>
    >>> choice_verdict("Prefers to be contacted by email.", "Prefers email, or a call.") is None
    True
    >>> choice_verdict("Quarterly's fine to start.",
    ...                "Quarterly isn't cutting it, can we go monthly instead?")
    <Verdict.SUPERSEDES: 'supersedes'>
    """
    if choice_reversed(old, new, said):
        return Verdict.SUPERSEDES
    changed = _says_changed(new, said)
    before = chosen(old, about=not _moves(old, None))
    after = chosen(new, about=not _moves(new, said))
    if _moves(new, said):  # "quarterly isn't cutting it, can we go monthly instead?"
        for kind, values in chosen(old, about=False).items():
            if kind not in before and _named_unchosen(new, kind, values):
                before[kind] = values  # the one named again is the one it moves from
    for kind, values in chosen(new, about=False).items():  # the value left says what it is of
        left = before.get(kind, set())
        if kind not in after and values - left and _named_unchosen(new, kind, left):
            after[kind] = values - left  # the one named again is the one left
    for kind, values in after.items():
        was = before.get(kind)
        if not was or values <= was:
            continue  # nothing chosen before, or nothing chosen anew
        if changed or _named_unchosen(new, kind, was - values):
            return Verdict.SUPERSEDES  # the old value may be named again, as the one left
        if not was <= values:
            return Verdict.CONTRADICTS  # "email, or a call" adds a way, and leaves none
    return None
