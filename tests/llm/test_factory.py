"""create_llm and the public surface of somna.llm."""

from __future__ import annotations

import pytest

import somna.llm
from somna.errors import ConfigurationError
from somna.llm import LLM, OpenAILLM, RulesLLM, create_llm


def test_default_is_the_offline_rules_provider() -> None:
    assert isinstance(create_llm(), RulesLLM)
    assert isinstance(create_llm(" Rules "), LLM)


def test_rules_refuses_settings_it_would_ignore() -> None:
    with pytest.raises(ConfigurationError, match="takes no settings, but got model"):
        create_llm("rules", model="gpt-4o-mini")
    assert isinstance(create_llm("rules", model=None), RulesLLM)


def test_openai_reads_the_given_environment_and_options_win() -> None:
    environ = {"SOMNA_LLM_BASE_URL": "http://127.0.0.1:9/v1", "SOMNA_LLM_MODEL": "from-env"}
    llm = create_llm("openai", environ=environ, model="from-options", timeout=5.0, api_key=None)
    assert isinstance(llm, OpenAILLM)
    with llm:
        assert llm.name == "openai:from-options"


def test_anthropic_is_not_in_this_build() -> None:
    with pytest.raises(ConfigurationError, match="not available in this build"):
        create_llm("anthropic")


def test_unknown_provider_names_the_choices() -> None:
    with pytest.raises(ConfigurationError, match=r"'rules'.*'openai'"):
        create_llm("gpt")


def test_all_is_sorted_and_complete() -> None:
    exported = somna.llm.__all__
    assert exported == sorted(exported)
    public = {
        name
        for name, value in vars(somna.llm).items()
        if not name.startswith("_") and getattr(value, "__module__", "").startswith("somna.llm")
    }
    assert public <= set(exported)
    for name in exported:
        assert hasattr(somna.llm, name)
