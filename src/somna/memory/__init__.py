"""The public Python API: `Memory`, and what its calls return."""

from somna.memory.memory import DEFER, Memory
from somna.memory.results import (
    Added,
    ConflictPair,
    History,
    Ingested,
    Outcome,
    Recalled,
    SearchHit,
    Similar,
)

__all__ = [
    "DEFER",
    "Added",
    "ConflictPair",
    "History",
    "Ingested",
    "Memory",
    "Outcome",
    "Recalled",
    "SearchHit",
    "Similar",
]
