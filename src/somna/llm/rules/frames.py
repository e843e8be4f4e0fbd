"""Two statements in the same sentence frame with another value: a value that may have changed.

"The user lives in Paris." and "The user lives in Berlin." are far apart for an
embedder (the city is most of what they say), yet they fill one slot. Two texts are in
one frame when, once their ignorable words are left out, they share their opening (the
subject and more) and their ending, and differ only in a short stretch between them, the
value. The shared part
must hold a content word, or "The user is 41." and "The user is vegan." would be one
frame; and each stretch must look like a value (a number, a name, a channel, a plan, a
day), or "likes hiking in the Alps" and "likes skiing in the Alps" would be one slot when
a person may like both.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from somna.llm.rules.languages import ANSWERED, LANGUAGES, SAYS, without_question
from somna.llm.rules.text import fold
from somna.model import normalize_text

__all__ = [
    "MAX_VALUE_WORDS",
    "agrees",
    "changed_value",
    "holds_a_value",
    "opens_with_yes",
    "says_yes",
    "told_as_agreeing",
]

MAX_VALUE_WORDS = 4
"""The longest stretch of words taken for a value: longer, and the texts say other things."""
VALUE_WORDS = frozenset().union(*(language.value_words for language in LANGUAGES))
"""Lower-case words that name a value, in every language: channels, frequencies, days…"""
_NAME = re.compile(r"(?<![.!?]\s)(?<!^)\b[A-ZÀ-Ý][\w'-]*")
_QUOTED = re.compile(r"[«\"“]\s*\w+(?:\W+\w+)+\s*[»\"”]")
"""Two words or more between quotation marks."""
_SPEAKERS = frozenset(
    word
    for language in LANGUAGES
    for word in normalize_text(f"{language.plain_user} {language.plain_assistant}").split()
)
"""The words that name the two speakers ("user", "utilisateur"): no content of a frame."""


def changed_value(
    a: str, b: str, ignorable: Collection[str], negations: Collection[str]
) -> tuple[str, str] | None:
    """The two values when `a` and `b` are one frame with different values, else None.

    `ignorable` words (articles, auxiliaries) carry no meaning of the frame; a value made
    only of `negations` is a negation, not another value.

    >>> changed_value("The user lives in Paris.", "The user lives in Berlin.", {"the"}, {"not"})
    ('paris', 'berlin')
    >>> changed_value("The user is 41.", "The user is vegan.", {"the", "is"}, {"not"}) is None
    True
    >>> changed_value("L'utilisateur est Anouk.", "L'utilisateur préfère Signal.", {"l"}, {"pas"})
    """
    left = [w for w in normalize_text(a).split() if w not in ignorable]
    right = [w for w in normalize_text(b).split() if w not in ignorable]
    start = 0
    while start < min(len(left), len(right)) and left[start] == right[start]:
        start += 1
    end = 0
    while end < min(len(left), len(right)) - start and left[-1 - end] == right[-1 - end]:
        end += 1
    if start == 0:
        return None  # another opening is another subject ("Emma lives…" / "Odile lives…")
    middle_old, middle_new = left[start : len(left) - end], right[start : len(right) - end]
    # Words both middles hold belong to the frame ("est au forfait annuel" / "passe au
    # forfait mensuel"); one value extending the other ("Paris", "central Paris") is none.
    old = [w for w in middle_old if w not in middle_new]
    new = [w for w in middle_new if w not in middle_old]
    if not old or not new or max(len(old), len(new)) > MAX_VALUE_WORDS:
        return None
    if set(old) <= set(negations) or set(new) <= set(negations):
        return None
    shared = left[:start] + [w for w in middle_old if w in middle_new] + left[len(left) - end :]
    if not [w for w in shared if len(w) > 2 and w not in _SPEAKERS]:
        return None
    if not (_valued(old, a) and _valued(new, b)):
        return None
    return " ".join(old), " ".join(new)


def holds_a_value(text: str, *, names: bool = True) -> bool:
    """Whether a word of `text` could be a value (an email address is one): without one,
    `text` is in no frame with another value, so no neighbour need be searched for.
    Without `names`, only a number, an address or a value word counts ("Thanks, Odile!"
    names the listener, no value).

    >>> holds_a_value("The user lives in Paris."), holds_a_value("The user likes hiking.")
    (True, False)
    >>> holds_a_value("Thanks, Odile!", names=False)
    False

    Words quoted are a value too: what is to be written ("« Bon anniversaire Lisette »").
    """
    return (
        "@" in text
        or _QUOTED.search(without_question(text)) is not None
        or _valued(normalize_text(text).split(), text if names else "")
    )


def agrees(observation: str) -> bool:
    """Whether an observation answers a question with no value of its own ("yep", "yes
    please", to "So that's 4 boxes then?"): it takes up what the question proposed; not
    when it says another ("no more than 150 €", to "Fitting on 14 March, ok?") or turns
    it down ("no thanks").

    >>> agrees("The user agrees (in answer to: So that's 4 boxes then?).")
    True
    >>> agrees("The user says that 5 boxes (in answer to: How many boxes?).")
    False
    >>> agrees("The user says that no thanks, we're fine (in answer to: A dessert at £2?).")
    False
    """
    reply = _reply(observation)
    return (
        ANSWERED.search(observation) is not None
        and not holds_a_value(without_question(observation), names=False)
        and not any(language.declines.match(reply) for language in LANGUAGES)  # "no thanks"
    )


def says_yes(observation: str) -> bool:
    """Whether an observation opens with a yes to the question it answers ("The user
    agrees", "go on then, …", "parfait, on part sur…"): it takes up what the question
    proposed; "faut que j'en parle à l'équipe" to "a vegetarian menu?" takes up nothing.

    >>> says_yes("The user says that go on then (in answer to: A vegan menu on Fridays?).")
    True
    >>> says_yes("The user says that we'll see (in answer to: A vegan menu on Fridays?).")
    False
    >>> says_yes("L'utilisateur est d'accord (en réponse à « Un menu vegan ? »).")
    True
    """
    return opens_with_yes(_reply(observation)) or told_as_agreeing(observation)


def told_as_agreeing(observation: str) -> bool:
    """Whether an observation is a bare yes, told as agreeing to the question it answers
    ("The user agrees (in answer to: …)", "L'utilisateur est d'accord (en réponse à …)").

    >>> told_as_agreeing("The user agrees (in answer to: 4,280 now, ok?).")
    True
    >>> told_as_agreeing("The user says that ooh let me ask (in answer to: Add the cake?).")
    False
    """
    said = without_question(observation).casefold()
    return any(
        said.startswith(language.agreeing.format(language.plain_user).casefold())
        for language in LANGUAGES
    )


def opens_with_yes(reply: str) -> bool:
    """Whether the first words of a reply say yes ("oui envoyez, si c'est ça je signe")."""
    words = fold(reply).split()
    return any(
        language.assent.match(" ".join(words[:count]).rstrip(",.!"))
        for count in range(1, min(len(words), 3) + 1)
        for language in LANGUAGES
    )


def _reply(observation: str) -> str:
    """What the speaker of an observation said, without its opening and its question."""
    said = without_question(observation)
    opening = SAYS.match(said)
    return said[opening.end() :] if opening else said


def _valued(words: list[str], text: str) -> bool:
    """Whether a stretch of `text` looks like a value: a number, a name, or a value word."""
    names = {normalize_text(n) for n in _NAME.findall(text)}
    return any(any(ch.isdigit() for ch in w) or w in VALUE_WORDS or w in names for w in words)
