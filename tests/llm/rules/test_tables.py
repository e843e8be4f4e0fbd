"""Language tables: what a pattern names, and tables that say only what the engine reads."""

from __future__ import annotations

import pytest

from somna.llm.rules.dates import PHRASE_KINDS
from somna.llm.rules.language import Language
from somna.llm.rules.languages import LANGUAGES
from somna.llm.rules.tables import Tables

_TABLES = Tables(
    {
        "words": {"COLOURS": "red blue teal"},
        "fragments": {"HUE": "{COLOURS}ish", "PAINT": "(?:{HUE}|grey)"},
    }
)


def test_a_pattern_names_word_lists_longest_first_and_fragments_filled_in() -> None:
    assert _TABLES.text("^{PAINT}$") == "^(?:(?:blue|teal|red)ish|grey)$"


def test_a_pattern_parts_are_read_as_one_pattern() -> None:
    assert _TABLES.text(["^a", "{COLOURS}", "$"]) == _TABLES.text("^a{COLOURS}$")


def test_not_after_a_word_list_is_one_look_behind_a_word() -> None:
    assert _TABLES.text("{!COLOURS}x") == r"(?<!\bblue )(?<!\bred )(?<!\bteal )x"


def test_quantifiers_and_named_groups_are_left_as_written() -> None:
    assert _TABLES.text(r"(?P<n>\d{1,2})") == r"(?P<n>\d{1,2})"
    assert _TABLES.pattern("{COLOURS}").match("TEAL")


@pytest.mark.parametrize("language", LANGUAGES, ids=lambda language: language.code)
def test_a_language_says_only_date_phrases_the_engine_resolves(language: Language) -> None:
    known = {kind for kind, _ in PHRASE_KINDS}
    assert set(language.dates.phrases) <= known
