"""Every rule of the language tables against its own examples and counter-examples.

One case per rule and sentence, named after the rule (``en.preference.3``): the rule's
pattern must match an example and miss a counter-example, and the whole extractor must
file the example under that rule, with the fact the rule states for it. First match wins,
so an example taken by an earlier rule fails with that rule's name.
"""

from __future__ import annotations

from collections import Counter

import pytest

from somna.llm.rules.extract import LANGUAGES, typed_facts
from somna.llm.rules.language import Language, Rule
from somna.llm.rules.text import fold, trim_clause
from tests.llm.helpers import transcript

_RULES = [
    (language.rule_name(number), language, rule)
    for language in LANGUAGES
    for number, rule in enumerate(language.rules)
]
_EXAMPLES = [
    pytest.param(name, rule, said, fact, id=name)
    for name, _, rule in _RULES
    for said, fact in rule.examples.items()
]
_COUNTER_EXAMPLES = [
    pytest.param(name, rule, said, id=name)
    for name, _, rule in _RULES
    for said in rule.counter_examples
]


def _found(said: str) -> list[tuple[str, str]]:
    """``(rule, fact)`` of each typed fact the extractor finds in one message of the user."""
    typed, _, _ = typed_facts(transcript(("user", None, said)))
    return [(fact.rule or "", fact.text) for _, fact in typed]


def test_every_rule_has_a_unique_name_and_an_example() -> None:
    names = Counter(name for name, _, _ in _RULES)
    assert [name for name, count in names.items() if count > 1] == []
    assert [name for name, _, rule in _RULES if not rule.examples] == []


def test_examples_and_counter_examples_are_told_apart() -> None:
    for name, _, rule in _RULES:
        assert not set(rule.examples) & set(rule.counter_examples), name


@pytest.mark.parametrize(("name", "rule", "said", "fact"), _EXAMPLES)
def test_rule_finds_its_example(name: str, rule: Rule, said: str, fact: str) -> None:
    assert rule.pattern.search(trim_clause(fold(said))), f"{name} does not match {said!r}"
    found = _found(said)
    assert (name, fact) in found, f"{said!r} gave {found}, not {(name, fact)}"


@pytest.mark.parametrize(("name", "rule", "said"), _COUNTER_EXAMPLES)
def test_rule_leaves_its_counter_example(name: str, rule: Rule, said: str) -> None:
    assert not rule.pattern.search(trim_clause(fold(said))), f"{name} matches {said!r}"
    assert name not in [rule for rule, _ in _found(said)]


@pytest.mark.parametrize("language", LANGUAGES, ids=lambda language: language.code)
def test_rules_are_named_by_language_category_and_place(language: Language) -> None:
    assert language.rule_name(0) == f"{language.code}.{language.rules[0].category}.0"
