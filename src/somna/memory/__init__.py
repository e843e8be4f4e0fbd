"""The public Python API: `Memory`, and what its calls return."""

from somna.memory.memory import DEFER, Memory
from somna.memory.results import (
    Added,
    Block,
    ConflictPair,
    Found,
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
    "Block",
    "ConflictPair",
    "Found",
    "History",
    "Ingested",
    "Memory",
    "Outcome",
    "Recalled",
    "SearchHit",
    "Similar",
]
