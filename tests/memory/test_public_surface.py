"""The public API in one place: what `Memory` takes and returns is importable from `somna`,
each write takes one input model, and the store stays behind `Memory`."""

from __future__ import annotations

import builtins
import collections.abc
import inspect
import types
import typing
from typing import Any

import pytest

import somna
from somna import FactChanges, InvalidInputError, Keys, Memory, NewFact, StoreInfo


def _public_methods(cls: type) -> list[str]:
    """The public methods of `cls` and of the parts it is built from (`Memory`'s are by idea)."""
    own = [c for c in cls.__mro__ if c.__module__.startswith("somna.")]
    return sorted(
        {
            name
            for part in own
            for name, member in vars(part).items()
            if not name.startswith("_") and inspect.isfunction(member)
        }
    )


def _unexported(hint: Any) -> list[str]:
    """The types in `hint` that are neither builtins, collections, dates nor exported from
    `somna`."""
    if hint is Any or hint is None or hint is type(None):
        return []
    origin = typing.get_origin(hint)
    if origin is not None:
        outer = [] if origin in (typing.Union, types.UnionType) else _unexported(origin)
        return outer + [name for arg in typing.get_args(hint) for name in _unexported(arg)]
    if getattr(builtins, getattr(hint, "__name__", ""), None) is hint:
        return []
    if getattr(collections.abc, getattr(hint, "__name__", ""), None) is hint:
        return []
    if hint.__module__ == "datetime":
        return []
    return [] if getattr(somna, hint.__name__, None) is hint else [repr(hint)]


@pytest.mark.parametrize(
    "cls, method", [(cls, m) for cls in (Memory, Keys) for m in _public_methods(cls)]
)
def test_every_public_method_returns_types_exported_from_somna(cls: type, method: str) -> None:
    hints = typing.get_type_hints(getattr(cls, method))
    assert _unexported(hints["return"]) == [], f"{cls.__name__}.{method}"


def test_the_fact_list_is_list_facts_and_no_builtin_is_shadowed() -> None:
    assert not hasattr(Memory, "list")
    assert {"list_facts", "keys"} <= set(dir(Memory(store=_store(), embedder=_Flat())))


def test_add_fact_takes_a_new_fact_or_its_text_and_fields(memory: Memory) -> None:
    memory.create_profile("alice")
    whole = memory.add_fact("alice", NewFact(text="Owns a red bicycle.", category="belongings"))
    apart = memory.add_fact("alice", "Owns a red bicycle.", category="belongings")
    assert whole.created and not apart.created and apart.fact.id == whole.fact.id
    with pytest.raises(InvalidInputError, match="in the NewFact, not beside it"):
        memory.add_fact("alice", NewFact(text="Owns a kite."), category="toys")
    with pytest.raises(InvalidInputError, match="Invalid colour"):
        memory.add_fact("alice", "Owns a kite.", colour="green")


def test_update_takes_fact_changes_or_their_fields(memory: Memory) -> None:
    memory.create_profile("alice")
    added = memory.add_fact("alice", "Owns a red bicycle.")
    first = memory.update("alice", added.fact.id, FactChanges(text="Owns a blue bicycle."))
    second = memory.update("alice", first.id, category="belongings")
    assert (second.text, second.category) == ("Owns a blue bicycle.", "belongings")
    with pytest.raises(InvalidInputError, match="Nothing to change"):
        memory.update("alice", second.id, FactChanges())


def test_describe_says_where_the_data_lives_without_handing_out_the_store() -> None:
    with Memory(store=_store(), embedder=_Flat()) as memory:
        info = memory.describe()
    assert info == StoreInfo(location=":memory:", schema_version=info.schema_version)
    assert info.schema_version >= 1


def test_evidence_and_events_read_where_a_fact_came_from(memory: Memory) -> None:
    memory.create_profile("alice")
    added = memory.add_fact("alice", "Owns a red bicycle.", quote="my red bike")
    [quote] = memory.evidence("alice", [added.fact.id])
    assert (quote.evidence.quote, quote.message, quote.session_key) == ("my red bike", None, None)
    assert [e.fact_id for e in memory.events("alice", [added.fact.id])] == [added.fact.id]


def _store() -> Any:
    from somna.store import open_store

    return open_store(":memory:")


class _Flat:
    """An embedder that places every text at the same point: enough to open a `Memory`."""

    name = "flat"
    dim = 4

    def embed(self, texts: Any) -> Any:
        import numpy as np

        return np.ones((len(texts), 4), dtype=np.float32) / 2
