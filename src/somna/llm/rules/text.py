"""Sentences with their offsets, so that every quote is a verbatim slice of its message."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

__all__ = [
    "STRETCH",
    "clauses",
    "clock_moved",
    "clock_times",
    "finish_sentence",
    "fold",
    "hours_between",
    "maybe_one_of",
    "one_of",
    "regex",
    "split_sentences",
    "stretch_ends",
    "trim_clause",
    "without_clauses",
    "words",
]


def words(text: str) -> frozenset[str]:
    """A table of words written as one string, one word per blank."""
    return frozenset(text.split())


def regex(pattern: str) -> re.Pattern[str]:
    """A pattern of the language tables: chat is written in any case ("i", "I", "MY")."""
    return re.compile(pattern, re.IGNORECASE)


def any_word(words: Iterable[str], *, whole: bool) -> re.Pattern[str]:
    """A pattern of any of `words` (or phrases, their blanks any blanks) at a word's start,
    and up to its end when `whole`: "allerg" finds "allergic", "nut" alone not "nutmeg"."""
    end = r"(?!\w)" if whole else ""
    alternatives = "|".join(
        re.escape(w).replace(r"\ ", r"\s+") for w in sorted(words, key=len, reverse=True)
    )
    return regex(rf"(?<!\w)(?:{alternatives}){end}")


def one_of(alternatives: str) -> str:
    """A pattern of one of ``alternatives`` (one per blank, tried in their order)."""
    return "(?:" + "|".join(alternatives.split()) + ")"


def maybe_one_of(alternatives: str) -> str:
    """A pattern of one of ``alternatives`` and the blanks after it, or of nothing."""
    return rf"(?:{one_of(alternatives)}\s+)?"


# One character for one character, so offsets in the folded text are offsets in the original.
_FOLD = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "\u00a0": " ", "\u202f": " "})
_END = re.compile(
    r"[.!?\u2026]+[\"'\u201d\u00bb)\]]*(?=\s|$)|\n+"
    r"|[\u2600-\u27bf\U0001f300-\U0001faff]+\ufe0f?(?=\s+(?:[A-Z\u00c0-\u00dd]|"
    r"(?!(?:and|or|but|so|because|as|with|for|to|than|too|et|ou|mais|donc|car|avec|pour|que|"
    r"aussi)\b)[a-z\u00e0-\u00ff]))"
)
"""Where a sentence ends: its mark, a line break, or an emoji before a word that does not
tie on to what came before ("a friend of the mayor's \U0001f604 Could you deliver
there?", "the van was late \U0001f62c can we do mornings?"; not "\U0001f60d and the
kids too")."""
_BULLET = re.compile(r"[-*\u2022>]+\s+|\d+[.)]\s+")
_ABBREVIATIONS = words(
    """mr mrs ms dr st jr sr vs etc e.g i.e prof mt no approx dept est mme mlle m cf p.ex"""
)
_TRAILING_OFF = re.compile(r"(?:\.{2,}|\u2026)$")
"""An ellipsis: a pause, when the sentence goes on in lower case after it."""
_GOES_ON = re.compile(
    r"[ \t]+(?!(?:can|could|would|will)\s+(?:you|u|we)\b"
    r"|(?:vous|tu|on)\s+(?:pouvez|peux|peut|pourriez|pourrais|pourrait)\b|est-ce\b)[a-zà-ÿ]"
)
"""Lower case after an ellipsis, but for a request that opens ("de garde mardi... vous
pouvez décaler ?", "stuck at work... can you come later?"): a sentence of its own."""
_TRAILING = re.compile(r"[^\w)\]\"'\u00bb%]+$")


def fold(text: str) -> str:
    """Curly apostrophes and no-break spaces made plain, keeping every offset."""
    return text.translate(_FOLD)


def split_sentences(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each sentence, ending at . ! ? … or a line break (not after "Dr.",
    nor at an ellipsis the sentence goes on after in lower case).

    Leading bullets ("- ", "1. ") and surrounding whitespace are left out of the span.
    """
    spans: list[tuple[int, int]] = []
    start = 0
    for match in _END.finditer(text):
        if _TRAILING_OFF.match(match.group()) and _GOES_ON.match(text, match.end()):
            continue  # "the older partners are... not super techy": one thought
        if match.group().startswith(".") and match.group().rstrip("\"')]\u201d\u00bb") == ".":
            before = text[start : match.start()].split()
            word = before[-1].casefold() if before else ""
            measured = len(before) > 1 and before[-2].isdigit()  # "6 pots de 500 g." ends
            if word in _ABBREVIATIONS or (len(word) == 1 and word.isalpha() and not measured):
                continue
        _add(text, start, match.end(), spans)
        start = match.end()
    _add(text, start, len(text), spans)
    return spans


def _add(text: str, start: int, end: int, spans: list[tuple[int, int]]) -> None:
    while start < end and text[start].isspace():
        start += 1
    bullet = _BULLET.match(text, start, end)
    if bullet:
        start = bullet.end()
    while end > start and text[end - 1].isspace():
        end -= 1
    if end > start:
        spans.append((start, end))


def trim_clause(text: str) -> str:
    """A clause without its closing punctuation, emoji or spaces."""
    return _TRAILING.sub("", text.strip())


def finish_sentence(text: str) -> str:
    """Capitalised, single-spaced, ending with one full stop."""
    cleaned = " ".join(trim_clause(text).split())
    if not cleaned:
        return cleaned
    return cleaned[0].upper() + cleaned[1:] + "."


_CLOCK = re.compile(
    r"(?<![\w:.])(?P<hour>[01]?\d|2[0-3])"
    r"(?P<h>\s*[h:]\s*(?P<minute>[0-5]\d)?|\.(?P<dotted>[0-5]\d)(?=\s*[ap]\.?m))?"
    r"(?:\s*(?P<half>[ap])\.?m\b\.?)?(?!\w)",
    re.IGNORECASE,
)
"""A time of day: "8h", "14h30", "7:30", "8am", "2 pm", "6.30pm"."""


def clock_moved(text: str, by: int) -> str | None:
    """The one time of day `text` gives, moved by `by` minutes and written as `text` writes
    it; None where it gives none, or several, or the day would change.

    >>> clock_moved("Wednesdays, 4pm would be ideal.", 60), clock_moved("mercredi 18h30", -30)
    ('5pm', '18h')
    """
    found = [
        (match, minutes)
        for match in _CLOCK.finditer(text)
        if (minutes := _minutes(match)) is not None
    ]
    if len(found) != 1:
        return None
    match, minutes = found[0]
    hour, minute = divmod(minutes + by, 60)
    if not 0 <= hour < 24:
        return None
    if match["half"]:
        half = "pm" if hour >= 12 else "am"
        spaced = " " if re.search(r"\d\s+[ap]", match[0], re.IGNORECASE) else ""
        separator = "." if match["dotted"] else ":"
        shown = f"{hour % 12 or 12}{separator}{minute:02d}" if minute else str(hour % 12 or 12)
        return f"{shown}{spaced}{half.upper() if match['half'].isupper() else half}"
    if match["h"].strip()[:1].casefold() == "h":
        return f"{hour}h{minute:02d}" if minute else f"{hour}h"
    return f"{hour}:{minute:02d}"


STRETCH = re.compile(
    r"(?<![\w:.])(?P<a>[01]?\d|2[0-3])(?:[.:](?P<a_minute>[0-5]\d))?\s*"
    r"(?:till|til|until|to|-|\u2013|à|a)\s*"
    r"(?P<b>[01]?\d|2[0-3])(?:[.:](?P<b_minute>[0-5]\d))?(?![\w:]|[.,]\d)"
    r"(?!\s+(?!(?:in|on|at|every|each|from|and|or|then|dans|le|la|les|du|de|et|ou|puis|"
    r"chaque|tous)\b)[^\W\d_])",  # not "3 to 4 vans"
    re.IGNORECASE,
)
"""Two hours a stretch of the day runs between ("2 till 5", "8.30 til 11.30")."""


_OPENING_HOUR = 7
"""An hour said bare before which a stretch of business hours is in the afternoon: "no
deliveries 1 to 4" is 13:00 to 16:00."""


def hours_between(text: str) -> tuple[int, int] | None:
    """The first stretch of the day `text` names in bare hours, in minutes after midnight,
    read as business hours: "no drop-offs at lunch, 12 till 3" is 12:00 to 15:00.

    >>> hours_between("no drop-offs during lunch service, 12 till 3")
    (720, 900)
    >>> hours_between("no calls 1 to 4, we're closed"), hours_between("3 to 4 vans")
    ((780, 960), None)
    """
    match = STRETCH.search(text)
    return stretch_ends(match, _OPENING_HOUR) if match else None


def stretch_ends(match: re.Match[str], afternoon_below: int) -> tuple[int, int]:
    """The two ends of a stretch `STRETCH` found, in minutes after midnight: a start below
    `afternoon_below` is in the afternoon, and an end before the start ("11 till 2") too."""
    start, end = int(match["a"]), int(match["b"])
    if start < afternoon_below and start < 12:
        start += 12
    if end < start and end < 12:  # "11 till 2": 11:00 to 14:00
        end += 12
    return start * 60 + int(match["a_minute"] or 0), end * 60 + int(match["b_minute"] or 0)


def clock_times(text: str) -> dict[int, int]:
    """The times of day `text` gives, in minutes after midnight, by where each starts.

    >>> clock_times("At 8h, or 14h30; not after 7:45 pm, nor at 6.30pm; 3 days.")
    {3: 480, 10: 870, 27: 1185, 43: 1110}
    """
    return {
        match.start(): minutes
        for match in _CLOCK.finditer(text)
        if (minutes := _minutes(match)) is not None
    }


def _minutes(match: re.Match[str]) -> int | None:
    """The minutes after midnight of a `_CLOCK` match; None for a number alone ("3 days")
    or an hour no half of the day has ("14pm")."""
    if not (match["h"] or match["half"]):
        return None
    hour = int(match["hour"])
    if match["half"]:
        if hour > 12:
            return None
        hour = hour % 12 + (12 if match["half"].casefold() == "p" else 0)
    return hour * 60 + int(match["minute"] or match["dotted"] or 0)


_CLAUSE_STOP = re.compile(
    r"(,\s+|;\s+|\s*:\s+|\s+(?=(?:so|donc|alors)\s)|"
    r"\s+(?=(?:and|et)\s+(?:forget|scratch|scrap|ditch|oubliez|oublie|annulez)\b))"
)
"""Where a clause ends: its stop, or before what ties the next one to it ("Algernon's
gone so Benedikta has the keys"), or before a thing dropped ("let's go with the walnut and
forget the oak")."""


def clauses(text: str) -> list[str]:
    """The clauses of `text`, cut at their stops (`_CLAUSE_STOP`)."""
    return _CLAUSE_STOP.split(text)[::2]


def without_clauses(text: str, drop: Callable[[str], bool], lead: re.Pattern[str]) -> str:
    """`text` without the clauses `drop` picks; a clause after one left out loses what tied
    it to that one ("so", "donc": a match of `lead` that names no time).

    >>> lead = re.compile("^(?:so )*(?P<when>)")
    >>> without_clauses("Ann has left so Bo has the keys, ring him", lambda c: "left" in c, lead)
    'Bo has the keys, ring him'
    """
    parts = _CLAUSE_STOP.split(text)
    kept = []
    after_one_left_out = False
    for clause, stop in zip(parts[::2], [*parts[1::2], ""], strict=True):
        if drop(clause):
            after_one_left_out = True
            continue
        tie = lead.match(clause) if after_one_left_out else None
        if tie and not tie["when"]:
            clause = clause[tie.end() :]
        kept.append(clause + stop)
        after_one_left_out = False
    return "".join(kept)
