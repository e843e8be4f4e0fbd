"""Domain types of Somna: pure data and the rules of a fact's life, no I/O."""

from somna.model import entities, enums, run_options
from somna.model import lifecycle as lifecycle
from somna.model.entities import *  # noqa: F403 (their __all__, listed once there)
from somna.model.enums import *  # noqa: F403
from somna.model.run_options import *  # noqa: F403

__all__ = sorted([*entities.__all__, *enums.__all__, *run_options.__all__, "lifecycle"])
