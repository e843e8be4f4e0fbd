"""Pieces of SQL shared by the scope's queries, and the fast adapters of real[] embeddings."""

from __future__ import annotations

import re
import struct
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np
from psycopg.abc import Buffer
from psycopg.adapt import Dumper, Loader
from psycopg.pq import Format
from psycopg.types.json import Jsonb

from somna.store.sql import Json, Params

__all__ = [
    "FLOAT4_ARRAY_OID",
    "Float4ArrayDumper",
    "Float4ArrayLoader",
    "bind",
    "named",
    "query_words",
    "text_match_sql",
    "tsquery_of",
    "tsquery_texts",
]

FLOAT4_ARRAY_OID = 1021
_FLOAT4_OID = 700
_WORD = re.compile(r"\w+", re.UNICODE)
_PREFIX_FROM = 3  # shorter words match whole only: "a" is a prefix of too much
_ARRAY_HEADER = struct.Struct(">iii")  # dimensions, has nulls, element oid
_DIMENSION = struct.Struct(">ii")  # length, lower bound
_ELEMENTS = np.dtype([("size", ">i4"), ("value", ">f4")])
_NAMED = re.compile(r"(?<![:\w]):(\w+)")  # `:name`, not a `::type` cast


@lru_cache(maxsize=256)
def named(sql: str) -> str:
    """A statement of the shared queries (`:name` parameters) in psycopg's `%(name)s`."""
    return _NAMED.sub(r"%(\1)s", sql.replace("%", "%%"))


def bind(params: Params) -> dict[str, Any]:
    """Named parameters as psycopg sends them: `Json` as jsonb, the rest as they are."""
    return {
        name: (None if value.value is None else Jsonb(value.value))
        if isinstance(value, Json)
        else value
        for name, value in params.items()
    }


def tsquery_texts(text: str) -> tuple[str, str]:
    """A user's words as `to_tsquery` inputs: (exact, widened); never a syntax error.

    Both match any of the words, as the SQLite store's FTS5 query does. Each word
    is a quoted operand, so operators and punctuation in the input are only
    separators. The widened query also takes words of three letters or more as
    prefixes ("peanut" finds "peanuts", "mange" finds "manger"): the default
    `simple` configuration does not stem, and this recovers the commonest case
    in any language. Ranking adds the exact query's rank, so whole words come first.
    """
    return tsquery_of(query_words(text))


def query_words(text: str) -> list[str]:
    """The distinct words of `text`, case-folded, in order."""
    return list(dict.fromkeys(word.casefold() for word in _WORD.findall(text)))


def tsquery_of(words: Sequence[str]) -> tuple[str, str]:
    """`tsquery_texts` of words already split."""
    exact = " | ".join(f"'{word}'" for word in words)
    wide = " | ".join(f"'{word}':*" if len(word) >= _PREFIX_FROM else f"'{word}'" for word in words)
    return exact, wide


def text_match_sql(alias: str) -> tuple[str, str]:
    """(FROM items, rank expression) of a full-text match on `{alias}.tsv`.

    Takes the named parameters `config`, `exact` and `wide` (see `tsquery_texts`).
    `ts_rank`, not `ts_rank_cd`: the cover density costs about ten times as much per
    matching fact for a query of many words (a topic's thirty: 42 against 4.6 ms over
    800 facts), and ranked LoCoMo's evidence no better.
    """
    return (
        "to_tsquery(%(config)s::regconfig, %(exact)s) AS e (query), "
        "to_tsquery(%(config)s::regconfig, %(wide)s) AS w (query)",
        f"ts_rank({alias}.tsv, e.query) + ts_rank({alias}.tsv, w.query)",
    )


class Float4ArrayDumper(Dumper):
    """Sends a one-dimensional numpy array as a binary real[], in one numpy copy.

    The generic dumper of a Python list writes it element by element: on a night's
    consolidation that was a sixth of the time the writing process held the interpreter.
    """

    format = Format.BINARY
    oid = FLOAT4_ARRAY_OID

    def dump(self, obj: np.ndarray) -> Buffer:
        if obj.ndim != 1:
            raise ValueError("an embedding must be a one-dimensional array")
        items = np.empty(obj.size, dtype=_ELEMENTS)
        items["size"] = _ELEMENTS["value"].itemsize
        items["value"] = obj
        header = _ARRAY_HEADER.pack(1, 0, _FLOAT4_OID) + _DIMENSION.pack(obj.size, 1)
        return header + items.tobytes()


class Float4ArrayLoader(Loader):
    """Loads a binary one-dimensional real[] straight into a float32 array.

    The generic loader makes one Python float per element; at 384 dimensions and
    thousands of facts that is most of the time it takes to build a vector index.
    """

    format = Format.BINARY

    def load(self, data: Buffer) -> np.ndarray:
        buffer = bytes(data) if isinstance(data, memoryview) else data
        ndim, has_nulls, _oid = _ARRAY_HEADER.unpack_from(buffer)
        if ndim == 0:
            return np.zeros(0, dtype=np.float32)
        if ndim != 1 or has_nulls:
            raise ValueError("an embedding must be a one-dimensional real[] without nulls")
        length, _lower = _DIMENSION.unpack_from(buffer, _ARRAY_HEADER.size)
        offset = _ARRAY_HEADER.size + _DIMENSION.size
        items = np.frombuffer(buffer, dtype=_ELEMENTS, count=length, offset=offset)
        return items["value"].astype(np.float32)
