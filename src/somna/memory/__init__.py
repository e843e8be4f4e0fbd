"""The public Python API: `Memory`, what its writes take, and what its calls return."""

from somna.memory.capture import Captured
from somna.memory.keys import Keys
from somna.memory.memory import Memory
from somna.memory.metrics import ProfileMetrics
from somna.memory.overview import ProfileOverview
from somna.memory.results import (
    Added,
    Block,
    ConflictPair,
    Found,
    History,
    Ingested,
    Outcome,
    Quote,
    Recalled,
    SearchHit,
    Similar,
    StoreInfo,
)
from somna.memory.sessions import SessionInfo
from somna.memory.thread import Thread
from somna.memory.writes import FactChanges, NewFact

__all__ = [
    "Added",
    "Block",
    "Captured",
    "ConflictPair",
    "FactChanges",
    "Found",
    "History",
    "Ingested",
    "Keys",
    "Memory",
    "NewFact",
    "Outcome",
    "ProfileMetrics",
    "ProfileOverview",
    "Quote",
    "Recalled",
    "SearchHit",
    "SessionInfo",
    "Similar",
    "StoreInfo",
    "Thread",
]
