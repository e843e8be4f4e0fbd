"""A value put right in the same breath: the slip goes, the value said after it stays.

"We need 5 crates a week sorry typo, 6 crates", "ext 212.. sorry ext 221", "the blue
Vanto, no wait, the grey Vanto", "2719... pardon, 2791": a client who catches their own
slip says the right value at once, after a word that takes the slip back (each language's
`slip` table). What is taken back is the run of words just before that word whose first
word matches the first word said after it: the same word ("ext", "the"), or a code or a
number of the same shape ("84"/"48", "CA12"/"CA12"). Without such a match the word is
an apology, not a slip ("sorry, 3 of us can come"), and the text stays as it was.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from somna.llm.rules.languages import LANGUAGES, WEEKDAYS, every, is_name

__all__ = ["shape", "slips_joined", "takes_back", "without_slips"]

_LONGEST_SLIP = 8
"""The most words a slip taken back may hold ("14 Mill Way on the Park side", put right
by "41 Mill Way"): what it says beyond the words said again stays."""
_LONGEST_RIGHT = 5
"""The most words read after the word that takes a slip back ("6 crates")."""

_NAMED_REACH = 15
"""How far back a slip named after its correction ("41, not 14"), or a number put right
alone ("… no sorry 16"), is looked for."""
_STOPWORDS = frozenset().union(*(language.stopwords for language in LANGUAGES))
"""Words that may stand before a number put right alone ("pardon le 19", "sorry, the 19th")."""
_STOPS = ",;.!?:…"
_HARD_STOPS = (":", ";", "!", "?")
"""What ends a clause for sure before the word that takes a slip back (a full stop may
end an abbreviation: "3,05 m. non pardon 3,50")."""
_BREAK = re.compile(r"[,;.!?:…]$|^[\u2014\u2013-]+$")
"""A word that ends a clause, or a dash standing alone: a slip never reaches past it."""


def without_slips(text: str) -> str:
    """`text` without the values it takes back in the same breath; the words the slip said
    beyond what was said again stay ("le 16 juin, pardon le 18" is "le 18 juin")."""
    for _ in range(3):  # "3, sorry 4, sorry 5": a slip of a slip
        for found in _MARKER.finditer(text):
            rewritten = _put_right(text, found)
            if rewritten is not None:
                text = rewritten
                break
        else:
            return text
    return text


def takes_back(text: str) -> bool:
    """Whether `text` opens by taking back what was just said ("sorry, 15", "non pardon")."""
    return _MARKER.match(text) is not None


def slips_joined(text: str, spans: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The sentences of `text` (`spans`), each that opens by taking back a slip of the one
    before joined to it ("Made in 1912. No wait, sorry, 1921."), so that `without_slips`
    reads them as one."""
    joined: list[tuple[int, int]] = []
    for start, end in spans:
        if (
            joined
            and _MARKER.match(text, start)
            and text[start:end] == without_slips(text[start:end])
        ):
            both = text[joined[-1][0] : end]
            if without_slips(both) != both:
                joined[-1] = (joined[-1][0], end)
                continue
        joined.append((start, end))
    return joined


_MARKER = re.compile(
    rf"\s*(?:\.{{2,}}|…|[\u2014\u2013-]+|,)?\s*\b(?:(?:{every(lambda lang: lang.slip)})\b"
    rf"(?:\s*,?\s*\b(?:{every(lambda lang: lang.slip)})\b)*"
    rf"|(?P<weak>{every(lambda lang: lang.slip_before_value)})\b)\s*[,:]?\s+",
    re.IGNORECASE,
)
"""What takes a slip back ("… sorry,", "— argh", "… non"); group ``weak`` for a bare no."""
_NAMED = re.compile(
    rf"\s*,?\s*\b(?:{every(lambda lang: lang.instead)})\s+(?P<slip>[^\s,;.!?]+)",
    re.IGNORECASE,
)
"""What names the slip after the right value (", not 14", ", pas 14")."""


def _put_right(text: str, found: re.Match[str]) -> str | None:
    """`text` with the slip before `found` replaced by what it says after; None where the
    words before `found` are not said again after it."""
    right = _clause(text, found.end())
    if not right or (found["weak"] and not _is_value(right[0][0])):
        return None  # "no chicken treats": a "no" that puts nothing right
    before = list(re.finditer(r"\S+", text[: found.start()]))
    if len(right) == 1:  # "14 rue …, 56000 Vannes… pardon 41, pas 14": the slip is named
        named = _NAMED.match(text, right[0][1])
        if named is not None:
            slip = named["slip"]
            return _nearest_put_right(
                text, before, right[0][0], lambda said: said == slip, named.end()
            )
    size = _slip_size(before, [word for word, _ in right])
    *lead, (number, end) = right  # "18 pins … no sorry 16", "18 juin, pardon le 19"
    if size is None and _has_digit(number) and all(w.casefold() in _STOPWORDS for w, _ in lead):
        return _nearest_put_right(text, before, number, _shape_of(number), end)
    if size is None:
        return None
    slip = before[-size:]
    said_again = min(size, len(right))
    right_end = right[said_again - 1][1]
    tail = " ".join(word.group() for word in slip[said_again:]).rstrip(_STOPS)
    return (
        text[: slip[0].start()]
        + text[found.end() : right_end]
        + (f" {tail}" if tail else "")
        + text[right_end:]
    )


def _nearest_put_right(
    text: str, before: list[re.Match[str]], right: str, slip: Callable[[str], bool], end: int
) -> str | None:
    """`text` with the nearest of the last words `before` that is the `slip` replaced by
    `right`, and what puts it right (up to `end`) gone; None where none is."""
    for word in reversed(before[-_NAMED_REACH:]):
        said = word.group().rstrip(_STOPS)
        if word is not before[-1] and word.group().endswith(_HARD_STOPS):
            return None  # "About the Ashby order: …" names no slip of what follows
        if slip(said):
            tail = text[word.start() + len(said) : before[-1].end()]
            if text.startswith(",", end):  # "… 16 bags? sorry, 15, I …": no "?," left
                tail = tail.rstrip(".?!")
            return text[: word.start()] + right + tail + text[end:]
    return None


def _shape_of(right: str) -> Callable[[str], bool]:
    """A word that a number or a code `right` may put right: another of its shape."""
    return lambda said: said != right and _has_digit(said) and shape(said) == shape(right)


def _clause(text: str, start: int) -> list[tuple[str, int]]:
    """The first words from `start` to the end of their clause, without their punctuation,
    each with where it ends in `text`."""
    clause: list[tuple[str, int]] = []
    for word in re.finditer(r"\S+", text[start:]):
        said = word.group().rstrip(_STOPS)
        if not said:
            break
        clause.append((said, start + word.start() + len(said)))
        if _BREAK.search(word.group()) or len(clause) == _LONGEST_RIGHT:
            break
    return clause


def _slip_size(before: list[re.Match[str]], right: list[str]) -> int | None:
    """How many of the words `before` the slip word it takes back: as many as were said
    again where they match, else the most that do ("12 octobre 2025… non 12 novembre"
    takes back the date, not the year); None where no run of the clause's last words
    matches."""
    if not before or before[-1].group().endswith(_HARD_STOPS):
        return None  # "About the order: sorry, I …" apologises
    within = min(len(before), _LONGEST_SLIP)
    for back, word in enumerate(reversed(before[-_LONGEST_SLIP:]), start=1):
        if back > 1 and _BREAK.search(word.group()):
            within = back - 1
            break
    sizes: list[int] = [len(right), *range(within, 0, -1)]
    for size in sizes:
        if (
            0 < size <= within
            and _said_again(before[-size:], right, size == within)
            and (size <= _LONGEST_RIGHT or _opens_with_the_slip(before[-size], right[0]))
        ):
            return size
    return None


def _opens_with_the_slip(first: re.Match[str], right: str) -> bool:
    """Whether a long slip opens with the value put right ("14 Mill Way on the Park side",
    by "41"), not with a word said again ("le séminaire de printemps le 16", by "le 18")."""
    said = first.group().rstrip(_STOPS)
    return said.casefold() != right.casefold() and _alike(said, right)


def _said_again(slip: list[re.Match[str]], right: list[str], opens_clause: bool) -> bool:
    """Whether `right` says `slip` again with a value put right: its first word alike, and
    every word changed alike too ("84 pages" / "48 pages") or the only one changed ("the
    blue van" / "the grey van"). A name is not taken back by another at the head of a
    clause: "Thanks, sorry Noa can't come" apologises."""
    said = [word.group().rstrip(_STOPS) for word in slip]
    pairs = list(zip(said, right, strict=False))
    changed = [(a, b) for a, b in pairs if a.casefold() != b.casefold()]
    if not changed or not _alike(*pairs[0]):
        return False
    first, said_right = pairs[0]
    if opens_clause and pairs[0] in changed and _is_name(first) and _is_name(said_right):
        return False
    if len(pairs) >= 2 and len(changed) == 1:  # "the blue van" / "the grey van"
        slipped, put = changed[0]
        return _has_digit(slipped) == _has_digit(put)  # not "le lundi" for "le 16"
    return all(_alike(a, b) for a, b in changed)


def _alike(slip: str, right: str) -> bool:
    """Two words of one kind: the same, two numbers or codes of one shape, two names, two
    days of the week."""
    if slip.casefold() == right.casefold():
        return True
    if _has_digit(slip + right):
        return shape(slip) == shape(right)
    return (_is_name(slip) and _is_name(right)) or (_is_day(slip) and _is_day(right))


def _has_digit(word: str) -> bool:
    return any(char.isdigit() for char in word)


def _is_value(word: str) -> bool:
    """A number, a code, a name or a day: what a bare "no" may put right."""
    return _has_digit(word) or _is_name(word) or _is_day(word)


def _is_name(word: str) -> bool:
    return word.isalpha() and is_name(word)


def _is_day(word: str) -> bool:
    return word.casefold() in WEEKDAYS


def shape(word: str) -> str:
    """A word's characters by kind, a run of digits as one: "CA12" is "aa9", "£60" "£9",
    "9" and "19" alike."""
    kinds = ("9" if c.isdigit() else "a" if c.isalpha() else c for c in word.casefold())
    return re.sub(r"9+", "9", "".join(kinds))
