"""Someone who held a part has left: "Ines has left us, Tomas signs for parcels now",
"Lucien est parti, c'est Ambre qui s'en occupe".

What an older statement says of that person (who signs, who pays, whom to write to) is
no longer so, though the new statement names no value of the same kind: it is replaced,
and a successor named there stands alone. Where the successor takes the same part, the
newer fact keeps it without the clause of the departure (`without_the_departed`): memory
says who holds the keys now, history who held them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from somna.llm.rules.language import Language, detect_language
from somna.llm.rules.languages import (
    LANGUAGES,
    SAYS,
    Retold,
    is_name,
    without_question,
)
from somna.llm.rules.text import clauses, without_clauses

__all__ = ["departed", "someone_left", "without_the_departed"]

_FIRST_NAMES = re.compile(r"(?:(?<!\w)[A-ZÀ-Ý][\w'-]*\s+)+$")
"""Names right before the one a departure matched: "Gordon " of "Gordon Fyfe retired"."""
_ELIDED = re.compile(r"^[a-z]{1,3}'")
"""An elided word before a name ("qu'Anselme", "d'Honorine")."""


def departed(text: str, languages: Sequence[Language] = LANGUAGES) -> frozenset[str]:
    """The names `text` says have left: words that may name someone (`is_name`).

    >>> sorted(departed("Sad news: Ines has left us, so Tomas signs for parcels now."))
    ['Ines']
    >>> sorted(departed("Lucien est parti à la retraite, c'est Ambre qui gère."))
    ['Lucien']
    >>> sorted(departed("Attention, c'est plus Anatole sur place, demandez Ottoline."))
    ['Anatole']
    >>> sorted(departed("He has left the keys under the mat."))
    []
    """
    names = (
        _ELIDED.sub("", match["name"])
        for language in languages
        for pattern in language.departed
        for match in pattern.finditer(text)
    )
    return frozenset(name for name in names if is_name(name))


def someone_left(old: str, new: str, languages: Sequence[Language] = LANGUAGES) -> bool:
    """Whether `new` says that someone `old` names has left.

    >>> someone_left("Ines Vidal signs for our parcels.", "Ines has left us; Tomas signs now.")
    True
    >>> someone_left("Ines Vidal signs for our parcels.", "Tomas has left us.")
    False

    What they did once, measured or counted, stays so:

    >>> someone_left("Ines measured the fence: 40 metres.", "Ines has left us.")
    False
    """
    gone = departed(new, languages) - departed(old, languages)
    return any(
        any(not _did_once(old, m.end()) for m in re.finditer(rf"\b{re.escape(name)}\b", old))
        for name in gone
    )


_PAST_DEED = re.compile(
    r"(?:\s+(?-i:[A-ZÀ-Ý])[\w'-]+)?\s+(?:[a-z]+ed|(?:a|avait)\s+[a-zà-ÿ]+(?:é|i|u|is|it))\b"
)
"""A deed done once, right after a name (and its surname): "Ambrose measured the fence",
"Anatole a mesuré la façade"."""


def _did_once(text: str, at: int) -> bool:
    """Whether the name ending at `at` in `text` is told of only as the doer of a deed done
    once: a count they took, not a part they hold, which their leaving does not undo."""
    return _PAST_DEED.match(text, at) is not None


def without_the_departed(old: str, new: str) -> str | None:
    """`new`, which says that someone `old` names has left, without the clauses saying so,
    when what is left gives their part to someone else in words of `old` ("for the gate
    ask…" after "he has the key to the quay gate"); None otherwise, a departure with no
    successor for the part among them.

    >>> without_the_departed("Odran Kell has the key to the yard gate.",
    ...     "The user says that Odran retired in May; for the gate ask Ilse Marrow now.")
    'The user says that for the gate ask Ilse Marrow now.'
    >>> without_the_departed("Odran Kell has the key to the yard gate.",
    ...     "The user says that Odran has left us; he runs a farm in Wales now.") is None
    True
    """
    retold = Retold.of(new)
    told = retold.told
    language = detect_language(told, LANGUAGES, LANGUAGES[0])
    gone = {name.casefold() for name in _gone(told, old, language)}
    if not gone:
        return None
    told = told.rstrip(" .")
    if not any(_departure(clause, language) for clause in clauses(told)):
        return None  # "she runs rehearsals now that Baptiste has gone" stays whole
    rest = without_clauses(
        told,
        lambda clause: _departure(clause, language) or _only_markers(clause, language),
        language.lead,
    ).rstrip(" ,;")
    first = rest.split(" ", 1)[0]
    if first.casefold() in language.stopwords:  # "; Pour la trappe…" goes on the opening
        rest = first.casefold() + rest[len(first) :]
    if not rest or not _words(rest, language) & (_words(old, language) - gone):
        return None
    return retold.telling(rest, language)


def _departure(clause: str, language: Language) -> bool:
    """Whether `clause` opens with a departure ("Caspian has left us", "Gordon Fyfe retired
    in May": the first name before the one matched; not "she runs rehearsals now that
    Baptiste has gone", which says more than that)."""
    found = [match for pattern in language.departed if (match := pattern.search(clause))]
    return any(
        _only_markers(_FIRST_NAMES.sub("", clause[: match.start()]), language) for match in found
    )


def _only_markers(words: str, language: Language) -> bool:
    """Whether `words` are no more than discourse markers ("sadly", "btw") or nothing."""
    lead = language.lead.match(words)
    return lead is not None and not lead["when"] and not words[lead.end() :].strip(" ,;:")


def _gone(told: str, old: str, language: Language) -> list[str]:
    """The names `told` says have left that `old` names, whatever their case ("corvin")."""
    return [
        match["name"]
        for pattern in language.departed
        for match in pattern.finditer(told)
        if re.search(rf"\b{re.escape(_ELIDED.sub('', match['name']))}\b", old, re.IGNORECASE)
    ]


def _words(text: str, language: Language) -> set[str]:
    """The content words of what `text` says, folded: a part and its place."""
    said = SAYS.sub("", without_question(text))
    return {w for w in re.findall(r"[^\W\d_]{4,}", said.casefold()) if w not in language.stopwords}
