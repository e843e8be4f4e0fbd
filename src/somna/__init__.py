"""Somna: long-term memory for AI agents.

>>> from somna import Memory
>>> m = Memory()                       # the configured store and embedder
>>> m.create_profile("alice")          # doctest: +SKIP

The names below are imported when first used, not with the package, so that
`somna`'s command line can set its signal handlers before the heavy imports
(numpy, the embedding model's runtime) and a tool importing `somna.errors`
alone pays for nothing else.
"""

import importlib
import typing

if typing.TYPE_CHECKING:
    from somna.config import Settings
    from somna.errors import (
        AuthenticationError,
        ConfigurationError,
        ConflictNotFoundError,
        ConflictStateError,
        EmbeddingError,
        FactNotFoundError,
        InvalidInputError,
        LLMError,
        NotFoundError,
        PermissionDeniedError,
        ProfileNotFoundError,
        SomnaError,
        StoreError,
    )
    from somna.memory import (
        Added,
        Block,
        Captured,
        ConflictPair,
        FactChanges,
        Found,
        History,
        Ingested,
        Keys,
        Memory,
        NewFact,
        Outcome,
        ProfileMetrics,
        ProfileOverview,
        Quote,
        Recalled,
        SearchHit,
        SessionInfo,
        Similar,
        StoreInfo,
        Thread,
    )
    from somna.model import (
        ApiKey,
        Conflict,
        ConflictStatus,
        Evidence,
        Fact,
        FactEvent,
        FactStatus,
        FactType,
        Message,
        Profile,
        RecalledKind,
        Resolution,
        Run,
        RunOptions,
        RunStatus,
        Session,
        SessionStatus,
        Summary,
        SummaryKind,
        Verdict,
    )
    from somna.sources import Conversation, N8nReport, N8nTable, ProfileFrom, Turn

__version__ = "0.1.0"

__all__ = [
    "Added",
    "ApiKey",
    "AuthenticationError",
    "Block",
    "Captured",
    "ConfigurationError",
    "Conflict",
    "ConflictNotFoundError",
    "ConflictPair",
    "ConflictStateError",
    "ConflictStatus",
    "Conversation",
    "EmbeddingError",
    "Evidence",
    "Fact",
    "FactChanges",
    "FactEvent",
    "FactNotFoundError",
    "FactStatus",
    "FactType",
    "Found",
    "History",
    "Ingested",
    "InvalidInputError",
    "Keys",
    "LLMError",
    "Memory",
    "Message",
    "N8nReport",
    "N8nTable",
    "NewFact",
    "NotFoundError",
    "Outcome",
    "PermissionDeniedError",
    "Profile",
    "ProfileFrom",
    "ProfileMetrics",
    "ProfileNotFoundError",
    "ProfileOverview",
    "Quote",
    "Recalled",
    "RecalledKind",
    "Resolution",
    "Run",
    "RunOptions",
    "RunStatus",
    "SearchHit",
    "Session",
    "SessionInfo",
    "SessionStatus",
    "Settings",
    "Similar",
    "SomnaError",
    "StoreError",
    "StoreInfo",
    "Summary",
    "SummaryKind",
    "Thread",
    "Turn",
    "Verdict",
]

_HOMES = ("somna.errors", "somna.config", "somna.model", "somna.sources", "somna.memory")
"""The modules the public names come from, the lightest first."""


def __getattr__(name: str) -> typing.Any:
    if name in __all__:
        for home in _HOMES:
            module = importlib.import_module(home)
            if name in module.__all__:
                value = getattr(module, name)
                globals()[name] = value  # found once
                return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
