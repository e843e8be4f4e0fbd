"""A person's age told twice: the second may follow the calendar, or contradict the first.

"Her son Theo, he is 12" and, weeks later, "put Theo with the juniors, he is 10"
share a name and little else; an agent that books the group must know a person should
settle which is true. An age grows by one a year at most: a younger age, or one older
than the time between allows, contradicts the first.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from somna.llm.rules.language import Language
from somna.llm.rules.languages import LANGUAGES

__all__ = ["age_contradicts", "ages"]

_NAME = re.compile(r"\b[A-ZÀ-Ý][\w-]*")
_NAME_REACH = 60
"""How many characters before an age the person it belongs to is named."""
_SENTENCE_END = re.compile(r"[.!?]\s")


def ages(text: str, languages: Sequence[Language] = LANGUAGES) -> dict[str, int]:
    """The ages `text` gives, by the name of the person each belongs to: the name written
    last before it in the same sentence ("Theo, he is 12"). An age with no name before it,
    or the speaker's ("I'm 34", "the user is 34"), is left out.

    >>> ages("The user says that her son is Theo, he is 12 (in the chess club).")
    {'Theo': 12}
    >>> ages("L'utilisateur dit que Noé a 9 ans, il entre en CE2.")
    {'Noé': 9}
    >>> ages("The gig is at the Derby Arena, the user is 52 and drums.")
    {}
    """
    found: dict[str, int] = {}
    for language in languages:
        for match in language.age.finditer(text):
            before = text[max(0, match.start() - _NAME_REACH) : match.start()]
            clause = before[max((m.end() for m in _SENTENCE_END.finditer(before)), default=0) :]
            names = [n for n in _NAME.finditer(clause) if n[0].casefold() not in language.stopwords]
            number = next(v for k, v in match.groupdict().items() if k.startswith("age") and v)
            speaker = clause.rstrip().casefold().endswith(language.plain_user)
            if names and not speaker:  # "Derby Arena, the user is 52": the speaker's age
                found[names[-1][0]] = int(number)
    return found


def age_contradicts(old: str, new: str, years_between: float) -> bool:
    """Whether `new` gives a person named in `old` an age the calendar rules out: younger,
    or older by more than the years between the two (and one for a birthday).

    >>> age_contradicts("Theo is 12.", "Put Theo with the juniors, he is 10.", 0.1)
    True
    >>> age_contradicts("Theo is 12.", "Theo is 13 now.", 1.0)
    False
    """
    before = ages(old)
    return any(
        name in before and (age < before[name] or age > before[name] + years_between + 1)
        for name, age in ages(new).items()
    )
