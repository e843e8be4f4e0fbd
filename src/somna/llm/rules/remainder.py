"""What an observation still tells once a newer fact replaces or disputes part of it.

An observation (`observe`) joins the statements of one message with "; ", and a statement
its clauses with commas: "Ines, buyer at a studio of 12; billed monthly" leaves "Ines,
buyer at a studio of 12" when billing turns annual, and "two coeliac, it's serious, and 4
vegan" leaves "4 vegan" when the garlic bread for everyone disputes the first clause.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from somna.llm.rules.contacts import ways
from somna.llm.rules.frames import holds_a_value
from somna.llm.rules.language import Language, detect_language
from somna.llm.rules.languages import ANSWERED, LANGUAGES, SAYS, opening_whole
from somna.llm.rules.text import finish_sentence, trim_clause

__all__ = ["rest_of"]


def rest_of(
    observation: str,
    replaced: Callable[[str], bool],
    recounted: Callable[[str], bool] = lambda clause: False,
) -> str | None:
    """What an observation still tells once a newer fact replaced some of what it says,
    the question it answers kept; None when nothing is left, or nothing could be told apart.

    Its statements (joined by "; ") are tested one by one: "Ines, buyer; billed monthly"
    leaves "Ines, buyer" once billing is annual. In a statement replaced, the clauses
    (apart at commas) that a newer number replaces by themselves (`recounted`) go, the
    others stay: "SARL, 4 staff, year end 31 December" leaves "SARL, year end 31 December" when "5
    staff" comes; a statement replaced only with its question ("unit 4, Mill Lane", to
    "Delivery address?") goes whole. A question that names a value leaves with the first
    statement, which answered it."""
    asked = ANSWERED.search(observation)
    told = observation[: asked.start()] if asked else trim_clause(observation)
    question = observation[asked.start() :].removesuffix(".") if asked else ""  # " (in …)"
    opening = SAYS.match(told)
    start = opening.end() if opening else 0
    parts = told[start:].split("; ")
    # The question goes with the first statement, which answers it; failing that, with each.
    gone = [replaced(part + question * (i == 0)) for i, part in enumerate(parts)]
    if not any(gone) and question:
        gone = [replaced(part + question) for part in parts]
    if not any(gone):
        return None
    language = detect_language(observation, LANGUAGES, LANGUAGES[0])
    kept = [
        rest
        for part, out in zip(parts, gone, strict=True)
        if (rest := _clauses_left(part, recounted, language) if out else part)
    ]
    if not kept:
        return None
    rest = finish_sentence(language.elided(opening_whole(told[:start]) + "; ".join(kept)))
    if gone[0] and holds_a_value(question, names=False):
        return rest  # "Tuesday suits (to: We come on Tuesdays, ok?)": the day went with it
    return f"{rest[:-1]}{question}." if asked else rest


def _clauses_left(
    statement: str, recounted: Callable[[str], bool], language: Language
) -> str | None:
    """The clauses of a replaced statement that a newer number does not replace by
    themselves, when some are; None otherwise (the statement goes whole). A clause is
    what a comma parts, or a short phrase that counts at its end ("… in Exeter with 6
    riders"). A clause that leans on one that goes ("coeliac, it's a real allergy")
    goes with it, unless both open with the same pronoun ("il a eu 8, il bloque sur …"),
    and the first clause left loses its "and". A street address given anew
    takes the statement whole ("unit 4, Mill Yard, 31 Rope Rd, G3"), but for who the
    speaker is, named before it ("The user is Ines Varga, buyer at Folio, 4 Mill Rd")."""
    pieces = _CLAUSE_OR_COUNT.split(statement)
    clauses, breaks = pieces[::2], ["", *pieces[1::2]]
    kept: list[tuple[str, str]] = []
    going = False
    previous = ""
    for clause, before in zip(clauses, breaks, strict=True):
        leans = language.leaning.match(clause) is not None and not _one_subject(previous, clause)
        going = recounted(clause) or (going and leans)
        previous = clause
        if going and "street" in ways(clause):
            if kept and _introduces(statement, language):
                break  # the address goes with what follows it, who the speaker is stays
            return None  # an address's commas part the address, not clauses: it goes whole
        if not going:
            kept.append((before, clause))
    if not kept or len(kept) == len(clauses):
        return None
    if all(language.framing.match(clause) for _, clause in kept):
        return None  # "for the visit on Monday" alone tells nothing
    if _adrift([clause for _, clause in kept], clauses[0], language):
        return None  # "The user asks to do Wednesday 14th, in the morning": the rest leans on it
    first = kept[0][1]
    lead = language.lead.match(first)
    if first != clauses[0] and lead:  # "… and 4 are vegan": "4 are vegan"
        first = first[lead.start("when") if lead["when"] else lead.end() :]
    told = first + "".join(before + clause for before, clause in kept[1:])
    return told if first else None


_ADRIFT_WORDS = 3
"""Words a clause left without the first one holds at most to lean on it."""


def _adrift(left: list[str], first: str, language: Language) -> bool:
    """Whether the first clause `left` of a statement is a few words with no number that
    leaned on its first clause, which went: the one that named the speaker ("The user
    asks to do Wednesday 14th, in the morning"), or any where nothing left holds a value
    ("du calcaire blond, comme la maison"; not "the rye loaf, sliced, every Friday")."""
    return (
        left[0] != first
        and len(left[0].split()) <= _ADRIFT_WORDS
        and not any(c.isdigit() for c in left[0])
        and (
            first.casefold().startswith(language.plain_user)
            or not any(holds_a_value(clause, names=False) for clause in left)
        )
    )


def _one_subject(before: str, clause: str) -> bool:
    """Whether two clauses open with the same word, a pronoun for one subject ("il a eu 8,
    il bloque sur les fractions"): the second says more of it, and leans on no value."""
    first, second = _FIRST_WORD.match(before), _FIRST_WORD.match(clause)
    return first is not None and second is not None and first[0].casefold() == second[0].casefold()


_FIRST_WORD = re.compile(r"\w+")


def _introduces(statement: str, language: Language) -> bool:
    """Whether a statement says who the speaker is ("The user is Ines Varga, …")."""
    return statement.casefold().startswith(language.named.format(language.plain_user, ""))


_CLAUSE_OR_COUNT = re.compile(
    "(, |" + "|".join(language.parts_at.pattern for language in LANGUAGES) + ")", re.IGNORECASE
)
"""Where a replaced statement parts: at a comma, or where a language's `parts_at` says."""
