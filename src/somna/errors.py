"""Every error Somna raises, under one base class.

    SomnaError
    ├── InvalidInputError        bad argument: empty text, unknown type, malformed date…
    ├── NotFoundError            no such profile, fact, conflict or session in this profile
    │   ├── ProfileNotFoundError
    │   ├── FactNotFoundError
    │   └── ConflictNotFoundError
    ├── ConflictStateError       the operation does not fit the object's current state
    ├── AuthenticationError      no API key, or one that is unknown or revoked
    ├── PermissionDeniedError    the caller may not do this: an agent approving a rule
    ├── ConfigurationError       a setting is missing or malformed
    ├── StoreError               the database refused or could not be opened
    ├── EmbeddingError           the embedder could not produce vectors
    └── LLMError                 the language model failed or answered out of shape

Callers catch `SomnaError`; each interface turns it into its own shape at the
edge (an exit code, an HTTP status, an MCP error). `status` is the HTTP status
that error deserves, `code` the stable snake_case word a program reads in the
HTTP error body; a subclass that sets neither takes its parent's.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "AuthenticationError",
    "ConfigurationError",
    "ConflictNotFoundError",
    "ConflictStateError",
    "EmbeddingError",
    "FactNotFoundError",
    "InvalidInputError",
    "LLMError",
    "NotFoundError",
    "PermissionDeniedError",
    "ProfileNotFoundError",
    "SomnaError",
    "StoreError",
]


class SomnaError(Exception):
    """Base class of every error Somna raises on purpose.

    A subclass names its `status` and `code` in its header, so the table of the module
    docstring reads the same in the code: `class StoreError(SomnaError, status=503, ...)`.
    """

    status: int = 500
    code: str = "error"

    def __init_subclass__(
        cls, *, status: int | None = None, code: str | None = None, **kwargs: Any
    ) -> None:
        super().__init_subclass__(**kwargs)
        if status is not None:
            cls.status = status
        if code is not None:
            cls.code = code


class InvalidInputError(SomnaError, ValueError, status=422, code="invalid_input"):
    """A bad argument: empty text, unknown type, malformed date…"""


class NotFoundError(SomnaError, LookupError, status=404, code="not_found"):
    """No such profile, fact, conflict or session in this profile."""


class ProfileNotFoundError(NotFoundError, code="profile_not_found"):
    def __init__(self, profile: str) -> None:
        super().__init__(f"There is no profile named {profile!r}; create it first.")
        self.profile = profile


class FactNotFoundError(NotFoundError, code="fact_not_found"):
    def __init__(self, fact_id: str, profile: str) -> None:
        super().__init__(f"Profile {profile!r} has no fact with id {fact_id!r}.")
        self.fact_id = fact_id
        self.profile = profile


class ConflictNotFoundError(NotFoundError, code="conflict_not_found"):
    def __init__(self, conflict_id: str, profile: str) -> None:
        super().__init__(f"Profile {profile!r} has no conflict with id {conflict_id!r}.")
        self.conflict_id = conflict_id
        self.profile = profile


class ConflictStateError(SomnaError, status=409, code="conflict_state"):
    """The operation does not fit the object's current state."""


class AuthenticationError(SomnaError, status=401, code="unauthorized"):
    """No API key, or one that is unknown or revoked."""


class PermissionDeniedError(SomnaError, status=403, code="forbidden"):
    """The caller may not do this, such as an agent approving a rule."""


class ConfigurationError(SomnaError, status=500, code="configuration_error"):
    """A setting is missing or malformed."""


class StoreError(SomnaError, status=503, code="store_unavailable"):
    """The database refused or could not be opened."""


class EmbeddingError(SomnaError, status=503, code="embedder_unavailable"):
    """The embedder could not produce vectors."""


class LLMError(SomnaError, status=502, code="llm_failed"):
    """The language model failed or answered out of shape."""
