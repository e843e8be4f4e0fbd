"""Somna: long-term memory for AI agents.

>>> from somna import Memory
>>> m = Memory()                       # the configured store and embedder
>>> m.create_profile("alice")          # doctest: +SKIP
"""

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
    ProfileNotFoundError,
    SomnaError,
    StoreError,
)
from somna.memory import DEFER, Added, ConflictPair, History, Memory, Outcome, SearchHit, Similar
from somna.model import (
    Conflict,
    ConflictStatus,
    Evidence,
    Fact,
    FactEvent,
    FactStatus,
    FactType,
    Message,
    Profile,
    Resolution,
    Session,
    Verdict,
)

__version__ = "0.1.0"

__all__ = [
    "DEFER",
    "Added",
    "AuthenticationError",
    "ConfigurationError",
    "Conflict",
    "ConflictNotFoundError",
    "ConflictPair",
    "ConflictStateError",
    "ConflictStatus",
    "EmbeddingError",
    "Evidence",
    "Fact",
    "FactEvent",
    "FactNotFoundError",
    "FactStatus",
    "FactType",
    "History",
    "InvalidInputError",
    "LLMError",
    "Memory",
    "Message",
    "NotFoundError",
    "Outcome",
    "Profile",
    "ProfileNotFoundError",
    "Resolution",
    "SearchHit",
    "Session",
    "Settings",
    "Similar",
    "SomnaError",
    "StoreError",
    "Verdict",
]
