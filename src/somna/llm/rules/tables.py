"""A language's tables, read from its TOML file (`english.toml`, `french.toml`) into a `Language`.

The engine (`extract`, `observe`, `judge`, `dates`, `summary`) knows no language of its
own: all it knows of one is a `Language`, and all of a `Language` but its few functions
(how a clause is retold, what a standing instruction is) is data. A table file holds:

- ``[words]``: word lists, blank-separated (stopwords, filler, negators…);
- ``[fragments]``: pieces of patterns that other patterns name as ``{NAME}``;
- ``[patterns]``: the patterns of `Language` by field name (``lead``, ``hedges``…);
- ``[company]``: who "we" is, a pattern per group;
- ``[[spoken]]``: rewrites of spoken forms, each a ``replace`` template or a ``call``;
- ``[[persons]]``: "I", "my", "you"… in what one person tells another, retold by name, each
  a ``replace`` template of ``{me}``, ``{you}`` and the match's groups, or a ``call``;
- ``[[seeds]]``: the seed's business categories, each a ``says`` template of ``{who}`` and
  the match's groups, or a ``call``;
- ``[[rules]]`` and ``[[slots]]``: what makes a fact, and the one-value attributes;
- ``[grammar.*]``: the shapes and words of retelling, read by the language's grammar;
- ``[dates]``: relative dates, with the weekdays, counts and units they name.

A field of `Language` that is a pattern, a word set, a string or a flag is read by its
name and type, with no code of its own (`_as_written`); the others are built by
`load_language`.

In a pattern, ``{NAME}`` stands for a fragment, or for a word list as an alternation
(longest word first); ``{!NAME}`` for "not right after a word of the list". A pattern is
one string, or a list of strings read as one, so that a long one keeps a line per part.
Patterns ignore case: chat is written in any.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Collection, Mapping
from functools import cache
from importlib import resources
from typing import Any, get_type_hints

from somna.llm.rules.language import (
    SUBJECT,
    DateWords,
    Language,
    Replacement,
    Retold,
    Rule,
    Seed,
    Slot,
    Speaker,
    Told,
)
from somna.llm.rules.text import regex
from somna.model import FactType

__all__ = ["Tables", "load_language", "read_tables", "read_toml"]

Pattern = str | list[str]
"""A pattern as a table writes it: one string, or its parts in order."""
_NAME = re.compile(r"\{(?P<not_after>!?)(?P<name>[A-Z][A-Z0-9_]*)\}")


class Tables:
    """One language's table file: its words, and its patterns with their names filled in."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.data = data
        self._words = {name: frozenset(text.split()) for name, text in data["words"].items()}
        self._fragments: dict[str, str] = {"SUBJECT": SUBJECT}
        for name, fragment in data.get("fragments", {}).items():
            self._fragments[name] = self.text(fragment)

    def words(self, name: str) -> frozenset[str]:
        return self._words[name]

    def text(self, pattern: Pattern) -> str:
        """The pattern's text, each ``{NAME}`` filled in."""
        joined = pattern if isinstance(pattern, str) else "".join(pattern)
        return _NAME.sub(self._fill, joined)

    def pattern(self, pattern: Pattern) -> re.Pattern[str]:
        return regex(self.text(pattern))

    def patterns(self, patterns: list[Pattern]) -> tuple[re.Pattern[str], ...]:
        return tuple(self.pattern(pattern) for pattern in patterns)

    def section_patterns(self, section: str) -> dict[str, re.Pattern[str]]:
        """The patterns of ``[section.patterns]`` by name."""
        return {name: self.pattern(p) for name, p in self.data[section]["patterns"].items()}

    def maps(self, section: str) -> dict[str, dict[str, str]]:
        """The word-for-word tables of ``[section.*]``: all of the section but its patterns."""
        return {name: table for name, table in self.data[section].items() if name != "patterns"}

    def _fill(self, match: re.Match[str]) -> str:
        name = match["name"]
        if match["not_after"]:
            return "".join(rf"(?<!\b{word} )" for word in sorted(self._words[name]))
        if name in self._fragments:
            return self._fragments[name]
        if name not in self._words:
            raise KeyError(f"{{{name}}} names neither a fragment nor a word list of the tables.")
        words = sorted(self._words[name], key=lambda w: (-len(w), w))
        return "(?:" + "|".join(words) + ")"


def read_toml(name: str) -> dict[str, Any]:
    """The data of ``<name>.toml``, next to this module."""
    text = resources.files("somna.llm.rules").joinpath(f"{name}.toml").read_text("utf-8")
    return tomllib.loads(text)


@cache
def read_tables(name: str) -> Tables:
    """The tables of ``<name>.toml``, next to this module."""
    return Tables(read_toml(name))


def _rule(tables: Tables, entry: Mapping[str, Any]) -> Rule:
    return Rule(
        entry["category"],
        FactType(entry.get("type", "fact")),
        tables.pattern(entry["pattern"]),
        bare=entry.get("bare", False),
        examples=dict(entry.get("examples", [])),
        counter_examples=tuple(entry.get("counter_examples", ())),
    )


def _spoken(
    tables: Tables, entry: Mapping[str, Any], calls: Mapping[str, Replacement]
) -> tuple[re.Pattern[str], Replacement]:
    replacement = calls[entry["call"]] if "call" in entry else entry["replace"]
    return tables.pattern(entry["pattern"]), replacement


def _person(entry: Mapping[str, Any], calls: Mapping[str, Retold]) -> Retold:
    if "call" in entry:
        return calls[entry["call"]]
    template, cased = entry["replace"], entry.get("cased", False)

    def retold(match: re.Match[str], me: str, you: str) -> str:
        text: str = template.format(**match.groupdict(), me=me, you=you)
        return text[:1].upper() + text[1:] if cased and match[0][:1].isupper() else text

    return retold


def _seed(tables: Tables, entry: Mapping[str, Any], calls: Mapping[str, Told]) -> Seed:
    if "call" in entry:
        tell = calls[entry["call"]]
    else:
        template = entry["says"]

        def tell(match: re.Match[str], who: str) -> str:
            return str(template.format(**match.groupdict(), who=who))

    return Seed(entry["category"], tables.pattern(entry["pattern"]), tell)


def load_language(
    name: str,
    third_person: Callable[[str, Speaker], str | None],
    instruction: Callable[[str, Speaker], str | None],
    spoken: Mapping[str, Replacement] | None = None,
    persons: Mapping[str, Retold] | None = None,
    seeds: Mapping[str, Told] | None = None,
) -> Language:
    """The `Language` of ``<name>.toml``, with the functions its tables cannot hold.

    ``spoken``, ``persons`` and ``seeds`` are what a template cannot write, by the name an
    entry of ``[[spoken]]``, ``[[persons]]`` or ``[[seeds]]`` calls it. The fields built
    here are those a table writes in a shape of its own; every other one is read as
    written (`_as_written`).
    """
    tables = read_tables(name)
    data = tables.data
    patterns = data["patterns"]
    built: dict[str, Any] = {
        "third_person": third_person,
        "instruction": instruction,
        "spoken": tuple(_spoken(tables, entry, spoken or {}) for entry in data.get("spoken", [])),
        "elisions": tuple(
            (tables.pattern(entry["pattern"]), entry["replace"])
            for entry in data.get("elisions", [])
        ),
        "rules": tuple(_rule(tables, entry) for entry in data["rules"]),
        "company": tuple((group, tables.pattern(p)) for group, p in data["company"].items()),
        "slots": tuple(
            Slot(slot["name"], tables.pattern(slot["pattern"])) for slot in data["slots"]
        ),
        "lemmas": dict(data.get("lemmas", {})),
        "letters": tables.pattern(patterns["letters"]) if "letters" in patterns else None,
        "ordinals": tables.text(patterns.get("ordinals", "")),
        "persons": tuple(
            (tables.pattern(entry["pattern"]), _person(entry, persons or {}))
            for entry in data["persons"]
        ),
        "seeds": tuple(_seed(tables, entry, seeds or {}) for entry in data.get("seeds", [])),
        "dates": _dates(tables),
    }
    return Language(**_as_written(tables, skip=built.keys()), **built)


def _as_written(tables: Tables, skip: Collection[str]) -> dict[str, Any]:
    """The fields of `Language` a table writes as they are, each read by its type: a
    pattern (or a tuple of them) from ``[patterns]`` by the field's name; a word set from
    ``[words]`` by its name in capitals; a string from ``[patterns]`` as a pattern's text,
    else, like a flag, from the top of the file."""
    data, patterns = tables.data, tables.data["patterns"]
    read: dict[str, Any] = {}
    for name, kind in get_type_hints(Language).items():
        if name in skip:
            continue
        if kind == re.Pattern[str]:
            read[name] = tables.pattern(patterns[name])
        elif kind == tuple[re.Pattern[str], ...]:
            read[name] = tables.patterns(patterns[name])
        elif kind == frozenset[str]:
            read[name] = tables.words(name.upper())
        elif kind is str and name in patterns:
            read[name] = tables.text(patterns[name])
        elif kind in (str, bool):
            read[name] = data[name]
        else:
            raise TypeError(f"Language.{name} is read by load_language, not from its tables.")
    return read


def _dates(tables: Tables) -> DateWords:
    dates = tables.data["dates"]
    weekdays = {name: number for number, name in enumerate(dates["weekdays"])}
    return DateWords(
        phrases={kind: tables.text(phrase) for kind, phrase in dates["phrases"].items()},
        weekdays=weekdays | dates.get("short_weekdays", {}),
        numbers=dates["numbers"],
        units=dates["units"],
        weeks_on=dates.get("weeks_on", {}),
        named_times=dates.get("named_times", {}),
        day_parts=dates.get("day_parts", {}),
        clock_phrases={
            int(minutes): tables.text(phrase)
            for minutes, phrase in dates.get("clock_phrases", {}).items()
        },
        clock_written=dates["clock_written"],
    )
