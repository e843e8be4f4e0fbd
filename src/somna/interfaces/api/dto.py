"""What goes over the wire: request bodies and response documents of the REST API.

These are data transfer objects, kept apart from the domain models of
`somna.model`. The bodies a client sends are in `request_dto`, on the strict
base of `wire`; the documents it gets back are in `response_dto`. The routes
import both from here, with `Instant`, the type of a date a request gives.
"""

from somna.interfaces.api import request_dto, response_dto
from somna.interfaces.api.request_dto import *  # noqa: F403 (their __all__, listed once there)
from somna.interfaces.api.response_dto import *  # noqa: F403
from somna.memory.writes import Instant as Instant

__all__ = sorted([*request_dto.__all__, *response_dto.__all__, "Instant"])
