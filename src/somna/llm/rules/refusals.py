"""What a person says they do not have, do or want, as a restriction a later plan may break.

"We don't have pets" and, weeks later, "mind the dog, he guards the yard"; "no calls
before 10am, I work nights" and "call me tomorrow at 8": an agent that acts on the second
must know that a person should settle which holds. What opens a refusal, the words that
say the same thing, and the kinds a word names ("pets": a dog, a cat) are a table
(`refusals.toml`), English and French side by side.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, lru_cache

from somna.llm.rules.languages import LANGUAGES, is_name, without_question
from somna.llm.rules.restriction import NOTHING, Restriction, names_in, stem
from somna.llm.rules.tables import read_toml
from somna.llm.rules.text import clock_times, hours_between

__all__ = ["conditional", "free_of_said_as_no", "refusals", "refused_by_words"]

_CLAUSE = re.compile(r"[^,.;:!?()]*")
_WORD = re.compile(r"[^\W\d_][\w'-]*[^\W\d_]|[^\W\d_]")
_STOPWORDS = frozenset().union(*(language.stopwords for language in LANGUAGES))
_ELIDED = re.compile(r"^(?:d|l|j|qu|n|s|m|t|c)'", re.IGNORECASE)
"""An elided article or pronoun opening a word ("d'escaliers"): no part of what is refused."""


@dataclass(frozen=True)
class _Table:
    opens: re.Pattern[str]
    denies: re.Pattern[str]
    """What opens a refusal only after its subject."""
    not_subjects: frozenset[str]
    skipped: frozenset[str]
    """Words a plan need not repeat: light verbs, "any", "please", and stopwords."""
    empty: frozenset[str]
    """Words of a refusal that rules out nothing a plan holds ("no problem")."""
    before: re.Pattern[str]
    after: re.Pattern[str]
    qualifier: re.Pattern[str]
    """Where what is refused ends and what qualifies it starts."""
    alternative: re.Pattern[str]
    """Between two things refused alike ("no candles or flames"), each a refusal."""
    condition: re.Pattern[str]
    """A word that makes what follows in its clause a condition ("if nobody answers")."""
    nobody: re.Pattern[str]
    """What opens a refusal of anyone at all: bounded by a time and naming nothing else
    ("nobody in before 8am"), it refuses their coming (`coming`)."""
    nobody_words: tuple[str, ...]
    coming: str
    comes: re.Pattern[str]
    """The words that stand for `coming` on a plan ("turn up", "arrive", "venir")."""
    standing_for: dict[str, frozenset[str]]
    """For a word, the words that stand for it on a plan: itself, the words of its
    `[[same]]` group, and the members of the kind it names."""
    naming: dict[str, frozenset[str]]
    """For a word, the words whose refusal it breaks: the inverse of `standing_for`."""
    free_of: re.Pattern[str]
    """A thing left out by its "-free" ("fragrance-free"), group `thing`; not one only
    spared (`spared`: "hands-free", "hassle-free")."""


@cache
def _table() -> _Table:
    table = read_toml("refusals")
    standing_for: dict[str, set[str]] = {}
    for group in table["same"]:
        for word in group["words"]:
            standing_for.setdefault(stem(word), set()).update(group["words"])
    for kind in table["kind"]:
        for name in kind["names"]:
            standing_for.setdefault(stem(name), set()).update(kind["members"])
    naming: dict[str, set[str]] = {}
    for word, alternatives in standing_for.items():
        for alternative in alternatives:
            naming.setdefault(stem(alternative), set()).add(word)
    return _Table(
        _opens(table["opens"]),
        _opens(table["denies"]),
        frozenset(table["not_subjects"]),
        frozenset(stem(w) for w in table["light"]) | _STOPWORDS,
        frozenset(stem(w) for w in table["empty"]),
        _bound(table["before"]),
        _bound(table["after"]),
        _between(table["qualifiers"]),
        _between(table["alternatives"]),
        _opens(table["conditions"]),
        _opens(table["nobody"]),
        tuple(table["nobody"]),
        table["coming"],
        _inflected(standing_for[stem(table["coming"])]),
        {word: frozenset(words) for word, words in standing_for.items()},
        {word: frozenset(words) for word, words in naming.items()},
        re.compile(
            rf"\b(?!(?:{'|'.join(table['spared'])})-)(?P<thing>[^\W\d_]{{3,}})-free\b",
            re.IGNORECASE,
        ),
    )


def _opens(patterns: list[str]) -> re.Pattern[str]:
    """What opens a refusal, up to a word's end ("no", not "nothing"), or to an elision."""
    ended = [p if p.endswith("'") else rf"{p}(?!\w)" for p in patterns]
    alternatives = "|".join(sorted(ended, key=len, reverse=True))
    return re.compile(rf"(?<!\w)(?:{alternatives})", re.IGNORECASE)


def _between(words: Iterable[str]) -> re.Pattern[str]:
    """Any of `words` standing alone between two others."""
    return re.compile(r"\s(?:" + "|".join(words) + r")\s", re.IGNORECASE)


def _bound(words: Iterable[str]) -> re.Pattern[str]:
    return re.compile(
        r"(?<!\w)(?:" + "|".join(re.escape(w) for w in words) + r")\s+(?P<time>[^,;.]*)",
        re.IGNORECASE,
    )


@lru_cache(maxsize=4096)
def refusals(text: str) -> tuple[Restriction, ...]:
    """What `text` says is not had, done or wanted, each a restriction that a plan holding
    all its words (or what stands for them) breaks. Cached: a fact is held against many.

    >>> [r.name for r in refusals("We don't have pets, and no calls before 10am please.")]
    ['refuses pet', 'refuses call before 10:00']
    >>> refusals("No problem, see you then.")
    ()
    >>> [r.name for r in refusals("The party is alcohol-free, and hassle-free we hope.")]
    ['refuses alcohol']
    >>> [r.name for r in refusals("Nobody in before 8am, the baby sleeps late.")]
    ['refuses arrive before 8:00']
    >>> [r.name for r in refusals("No drop-offs during lunch service, 12 till 3.")]
    ['refuses drop-off before 15:00 after 11:59']
    """
    table = _table()
    said = free_of_said_as_no(without_question(text))
    openings = [(m, False) for m in table.opens.finditer(said)]
    openings += [(m, True) for m in _denials(said, table)]
    found = []
    for opening, denied in sorted(openings, key=lambda found: found[0].start()):
        if _conditional(said, opening.start(), table):
            continue
        clause = _CLAUSE.match(said, opening.end())
        refused = clause[0] if clause else ""
        earlier, refused = _time_bound(table.before, refused)
        later, refused = _time_bound(table.after, refused)
        if earlier is later is None and (stretch := _stretch_after(said, opening.end())):
            later, earlier = stretch[0] - 1, stretch[1]  # "no drop-offs at lunch, 12 till 3"
        refused = table.qualifier.split(refused, maxsplit=1)[0]
        if (earlier or later) and table.nobody.match(opening[0]) and not _things(refused, table):
            refused = table.coming  # "nobody in before 8am": no one to come before 8
        holders = _holders(said, opening.start())
        for one in table.alternative.split(refused):  # "no drilling or fixings": each
            restriction = _refusal(one, table, denied, holders, earlier, later)
            if restriction is not None:
                found.append(restriction)
    return tuple({r.name: r for r in found}.values())


def _stretch_after(said: str, at: int) -> tuple[int, int] | None:
    """The stretch of hours the statement from `at` on names, if it names one."""
    statement = _STATEMENT.match(said, at)
    return hours_between(statement[0]) if statement else None


def free_of_said_as_no(text: str) -> str:
    """`text` with a thing left out by its "-free" said with a "no", as a refusal says it:
    "the party is alcohol-free" is "the party is no alcohol", and a plan's "egg-free tart"
    holds no egg.

    >>> free_of_said_as_no("The party is alcohol-free, the parking hassle-free.")
    'The party is no alcohol, the parking hassle-free.'
    """
    return _table().free_of.sub(r"no \g<thing>", text)


_STATEMENT = re.compile(r"[^;.!?]+")
"""One statement of a text: what an observation joins with ";" or a sentence."""
_SOMEONE = re.compile(r"(?<!\w)(?:he|she|his|her|him|il|elle|lui|son|sa|ses)(?!\w)", re.I)


def _holders(said: str, at: int) -> frozenset[str]:
    """Who a refusal at `at` is told of: the names of its own statement, or of the whole
    text when the statement names someone by a pronoun alone ("Theo; he won't eat nuts").
    "Irish sacred music; all a cappella, no instruments" is no refusal of an Irish one."""
    statement = next((m[0] for m in _STATEMENT.finditer(said) if m.start() <= at < m.end()), said)
    everyone = names_in(said)  # a statement's first word is no name for opening it
    named = names_in(statement) & everyone
    return named or (everyone if _SOMEONE.search(statement) else frozenset())


def _things(refused: str, table: _Table) -> list[str]:
    """The words of `refused` that name what is refused, as stems: not the light ones."""
    written = [_ELIDED.sub("", w.removesuffix("'s")) for w in _WORD.findall(refused)]
    kept = list(dict.fromkeys(stem(w) for w in written if len(w) > 2))
    return [w for w in kept if w not in table.skipped]


def _refusal(
    refused: str,
    table: _Table,
    denied: bool,
    holders: frozenset[str],
    earlier: int | None,
    later: int | None,
) -> Restriction | None:
    """The restriction that `refused`, the words after what opened a refusal, states; None
    where they refuse no thing: light words, small talk ("no problem"), or a person denied
    ("we don't invite Theo"; "no Windows" is a thing)."""
    written = [_ELIDED.sub("", w.removesuffix("'s")) for w in _WORD.findall(refused)]
    kept = _things(refused, table)
    if not kept or any(w in table.empty for w in kept):
        return None
    if denied and all(stem(w) not in kept or is_name(w) for w in written):
        return None
    alike = [{word, *table.standing_for.get(word, ())} for word in kept]
    foods = tuple(sorted(set().union(*alike)))
    return Restriction(
        _named(kept, earlier, later),
        NOTHING,
        _inflected(foods),
        NOTHING,
        (),
        foods,
        together=tuple(tuple(sorted({_base(w) for w in group})) for group in alike),
        holders=holders,
        earlier_than=earlier,
        later_than=later,
    )


_ENDINGS = "s|es|ing|ed|er|ers|ez|é|ée|és|ées|x"
"""What a word refused may end in on a plan ("calls", "appeler", "chiens"), and a short
word no more: "quit" is no part of "quite"."""


def _inflected(words: Iterable[str]) -> re.Pattern[str]:
    """Any of `words` as a whole word, or inflected (`_ENDINGS`; an "e" too after five
    letters: "grande"); a word refused as it was inflected is found in any of its forms
    ("nothing engraved": "engrave"; "no drilling": "drilled"; "bougies", kept as
    "bougy": "bougie").

    >>> bool(_inflected(["engraved"]).search("Please engrave it")), bool(
    ...     _inflected(["bougy"]).search("des bougies"))
    (True, True)
    """
    alternatives = "|".join(
        re.escape(base).replace(r"\ ", r"\s+")
        + ("(?:y|ie)" if base != w and w.endswith("y") else "")
        + (f"(?:{_ENDINGS}|e)?" if len(w) > 4 else f"(?:{_ENDINGS})?")
        for w in sorted(words, key=len, reverse=True)
        for base in (_base(w),)
    )
    return re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)", re.IGNORECASE)


_INFLECTION = re.compile(r"(?<=\w{4})(?:ing|ed|é|y)$")
"""An ending after four letters at least: "lined" is no "liner"."""
_DOUBLED = re.compile(r"(?<=\w{2})([bdgmnprt])\1(?=(?:ing|ed)$)")
"""A consonant doubled before a verb's ending ("wrapping", "stopped"), single without it."""


def _base(word: str) -> str:
    """`word` without the ending it was refused in, which another form may not have: a
    verb's "ing", "ed" or "é" ("wrapping" is "wrap"), a "y" that was "ie" before a plural's
    "s" ("bougies")."""
    return word if " " in word else _INFLECTION.sub("", _DOUBLED.sub(r"\1", word))


_BEFORE = re.compile(r"([\w'-]+)\s*$")


def _denials(said: str, table: _Table) -> list[re.Match[str]]:
    """The denials of `said` that follow their subject ("we never…"), not an imperative or
    an aside ("don't give up", "keep going and never look back")."""
    found = []
    for denial in table.denies.finditer(said):
        before = _BEFORE.search(said, 0, denial.start())
        if before and before[1].casefold() not in table.not_subjects:
            found.append(denial)
    return found


_CLAUSE_START = re.compile(_CLAUSE.pattern + "$")


def conditional(text: str) -> bool:
    """Whether a clause of `text` holds only in a case ("if it rains", "si personne n'est là")."""
    return _table().condition.search(text) is not None


def _conditional(said: str, at: int, table: _Table) -> bool:
    """Whether the clause `said` has up to `at` opens with a condition ("if", "si")."""
    clause = _CLAUSE_START.search(said, 0, at)
    return clause is not None and table.condition.search(clause[0]) is not None


def _time_bound(bound: re.Pattern[str], refused: str) -> tuple[int | None, str]:
    """The time of day a refusal is bounded by ("before 10am"), and the refusal without it."""
    match = bound.search(refused)
    times = list(clock_times(match["time"]).values()) if match else []
    if not match or not times:
        return None, refused
    return times[0], refused[: match.start()]


def _named(words: list[str], earlier: int | None, later: int | None) -> str:
    name = "refuses " + " ".join(words)
    if earlier is not None:
        name += f" before {earlier // 60}:{earlier % 60:02d}"
    if later is not None:
        name += f" after {later // 60}:{later % 60:02d}"
    return name


def refused_by_words(plan: str) -> set[str]:
    """The words a refusal that `plan` may break could be written in: the kinds its words
    are of and the words that say the same ("pets" for "the dog"), to search facts for;
    and "nobody" for a plan of coming ("the crew can arrive from 7")."""
    table = _table()
    words = {w for word in _WORD.findall(plan) for w in table.naming.get(stem(word), ())}
    if table.comes.search(plan):
        words |= set(table.nobody_words)
    return words
