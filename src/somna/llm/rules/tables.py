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

In a pattern, ``{NAME}`` stands for a fragment, or for a word list as an alternation
(longest word first); ``{!NAME}`` for "not right after a word of the list". A pattern is
one string, or a list of strings read as one, so that a long one keeps a line per part.
Patterns ignore case: chat is written in any.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Mapping
from functools import cache
from importlib import resources
from typing import Any

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
    entry of ``[[spoken]]``, ``[[persons]]`` or ``[[seeds]]`` calls it.
    """
    tables = read_tables(name)
    data = tables.data
    patterns = data["patterns"]
    return Language(
        code=data["code"],
        stopwords=tables.words("STOPWORDS"),
        skip=tables.patterns(patterns["skip"]),
        pleasantry=tables.pattern(patterns["pleasantry"]),
        greeting=tables.pattern(patterns["greeting"]),
        lead=tables.pattern(patterns["lead"]),
        segment_break=tables.pattern(patterns["segment_break"]),
        clause_break=tables.pattern(patterns["clause_break"]),
        together=tables.pattern(patterns["together"]),
        spoken=tuple(_spoken(tables, entry, spoken or {}) for entry in data.get("spoken", [])),
        elisions=tuple(
            (tables.pattern(entry["pattern"]), entry["replace"])
            for entry in data.get("elisions", [])
        ),
        unmarked_question=tables.pattern(patterns["unmarked_question"]),
        interrogative=tables.pattern(patterns["interrogative"]),
        hedges=tables.patterns(patterns["hedges"]),
        personal=tables.pattern(patterns["personal"]),
        rules=tuple(_rule(tables, entry) for entry in data["rules"]),
        vague=tables.pattern(patterns["vague"]),
        filler=tables.words("FILLER"),
        company=tuple((group, tables.pattern(p)) for group, p in data["company"].items()),
        third_person=third_person,
        instruction=instruction,
        slots=tuple(Slot(slot["name"], tables.pattern(slot["pattern"])) for slot in data["slots"]),
        negators=tables.words("NEGATORS"),
        negations=tables.words("NEGATIONS"),
        cessation=tables.pattern(patterns["cessation"]),
        change=tables.pattern(patterns["change"]),
        ignorable=tables.words("IGNORABLE"),
        lemmas=dict(data.get("lemmas", {})),
        request=tables.pattern(patterns["request"]),
        hypothetical=tables.pattern(patterns["hypothetical"]),
        undecided=tables.pattern(patterns["undecided"]),
        leaning=tables.pattern(patterns["leaning"]),
        plain_user=data["plain_user"],
        plain_assistant=data["plain_assistant"],
        letters=tables.pattern(patterns["letters"]) if "letters" in patterns else None,
        persons=tuple(
            (tables.pattern(entry["pattern"]), _person(entry, persons or {}))
            for entry in data["persons"]
        ),
        asks_for=tables.pattern(patterns["asks_for"]),
        says=data["says"],
        asking=data["asking"],
        asking_listener=data["asking_listener"],
        asking_that=data["asking_that"],
        answering=data["answering"],
        named=data["named"],
        age_told=data["age_told"],
        describes_self=tables.pattern(patterns["describes_self"]),
        names_relative=tables.pattern(patterns["names_relative"]),
        several_relatives=tables.words("SEVERAL_RELATIVES"),
        relative_said=tables.text(patterns["relative_said"]),
        relative_retold=tables.text(patterns["relative_retold"]),
        asks_name=tables.pattern(patterns["asks_name"]),
        before_name=tables.pattern(patterns["before_name"]),
        retell_questions=data["retell_questions"],
        seeds=tuple(_seed(tables, entry, seeds or {}) for entry in data.get("seeds", [])),
        dates=_dates(tables),
        first_person=tables.text(patterns["first_person"]),
        reaction=tables.text(patterns["reaction"]),
        instead=tables.text(patterns["instead"]),
        bounds=tables.text(patterns["bounds"]),
        age=tables.pattern(patterns["age"]),
        replaced=tables.text(patterns["replaced"]),
        which=tables.text(patterns["which"]),
        articles=tables.text(patterns["articles"]),
        months=tables.text(patterns["months"]),
        ordinals=tables.text(patterns.get("ordinals", "")),
        floating=tables.words("FLOATING"),
        not_topics=tables.words("NOT_TOPICS"),
        offers=tables.words("OFFERS"),
        value_words=tables.words("VALUE_WORDS"),
    )


def _dates(tables: Tables) -> DateWords:
    dates = tables.data["dates"]
    weekdays = {name: number for number, name in enumerate(dates["weekdays"])}
    return DateWords(
        phrases={kind: tables.text(phrase) for kind, phrase in dates["phrases"].items()},
        weekdays=weekdays | dates.get("short_weekdays", {}),
        numbers=dates["numbers"],
        units=dates["units"],
        weeks_on=dates.get("weeks_on", {}),
    )
