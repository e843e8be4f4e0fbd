"""A way to reach a client given anew: a phone number, an email address, a street address.

"Ring me on 07700 900100 after 5", then weeks later "anything about the install, just
call my husband on 07700 900200": the second number replaces the first though no word
says it changed, and an agent that rings the first rings a number the client left. The
words that say to use a number or an address, those that only add one, and the kinds of
street are a table (`contacts.toml`), English and French side by side.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from functools import cache

from somna.llm.rules.languages import without_question
from somna.llm.rules.refusals import conditional
from somna.llm.rules.restriction import names_in
from somna.llm.rules.tables import read_toml
from somna.llm.rules.text import any_word, regex

__all__ = [
    "PHONE",
    "may_reach_elsewhere",
    "reached_elsewhere",
    "street_kinds",
    "ways",
    "without_ways",
]

PHONE = re.compile(r"(?<![\w+])\+?\d(?:[ .-]?\d){8,13}(?!\w)")
"""Nine digits or more, spaced or not: a phone number, not a price or a date."""
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")


@dataclass(frozen=True)
class _Table:
    use: re.Pattern[str]
    adds: re.Pattern[str]
    app_too: re.Pattern[str]
    """An app the number also works on ("whatsapp aussi"): no number added."""
    others: re.Pattern[str]
    """The one before, named as such ("l'autre je la relève plus"), or another point of the
    message opened ("autre chose, …"): no number added."""
    theirs: re.Pattern[str]
    """A way of someone else's, told as theirs ("her email is …")."""
    whenever_needed: re.Pattern[str]
    """A case that is every case ("if you need me, text …"): no condition."""
    documents: tuple[tuple[str, re.Pattern[str]], ...]
    """Each kind of document, and the words that name it."""
    street: re.Pattern[str]
    kinds: frozenset[str]


@cache
def _table() -> _Table:
    table = read_toml("contacts")
    kinds = frozenset(table["streets"])
    names = "|".join(sorted((re.escape(w) for w in kinds), key=len, reverse=True))
    documents = [word for words in table["documents"].values() for word in words]
    sent = rf"{any_word(documents, whole=False).pattern}\w*\s+{_pattern(table['sent_to'])}"
    return _Table(
        regex(f"{any_word(table['use'], whole=False).pattern}|{sent}"),  # "bills to …"
        any_word(table["adds"], whole=True),
        regex(rf"{_pattern(table['apps'])}\W+{_pattern(table['adds'])}"),
        any_word(table["others"] + table["asides"], whole=True),
        regex(rf"{_pattern(table['theirs'])}\s+(?:[\w-]+\s+)?(?:{_pattern(table['use'])})"),
        regex(rf"\b(?:{'|'.join(table['whenever_needed'])})\b"),
        tuple((kind, any_word(words, whole=False)) for kind, words in table["documents"].items()),
        re.compile(  # "22 Mill Road", "Unit 3 Tannery Yard", "9 rue des Lilas"
            rf"(?<![\w:.])(?P<number>\d{{1,4}})[a-z]?,?\s+"  # not the minutes of 12:30
            rf"(?:(?:{names})(?:\s+[\w'-]+){{1,3}}|(?:[\w'-]+,?\s+){{1,3}}(?:{names}))(?!\w)",
            re.IGNORECASE,
        ),
        kinds,
    )


def street_kinds() -> frozenset[str]:
    """The kinds of street an address names ("road", "yard", "rue", "quai")."""
    return _table().kinds


def _pattern(words: list[str]) -> str:
    return any_word(words, whole=True).pattern


def _street(found: re.Match[str], kinds: frozenset[str]) -> str:
    """A street address as plain as can compare: its number and the long words of its name
    ("9 lilas" for "9 rue des Lilas à …")."""
    words = [w.strip(",") for w in found[0].casefold().split()[1:]]
    return " ".join([found["number"], *sorted(w for w in words if len(w) > 3 and w not in kinds)])


def ways(text: str) -> dict[str, set[str]]:
    """The numbers and addresses `text` gives, by kind ("phone", "email", "street"), each
    as plain as can compare."""
    table = _table()
    found = {
        "phone": {re.sub(r"\D", "", m[0])[-9:] for m in PHONE.finditer(text)},
        "email": {m[0].casefold() for m in _EMAIL.finditer(text)},
        "street": {_street(m, table.kinds) for m in table.street.finditer(text)},
    }
    return {kind: ways for kind, ways in found.items() if ways}


def without_ways(text: str, kinds: Collection[str] = ("email", "phone", "street")) -> str:
    """`text` with its numbers and addresses of `kinds` blanked: what it says of them."""
    patterns = {"email": _EMAIL, "phone": PHONE, "street": _table().street}
    for kind in kinds:
        text = patterns[kind].sub(" ", text)
    return text


def may_reach_elsewhere(new: str) -> bool:
    """Whether `reached_elsewhere` can hold for `new` against any text: a way to reach,
    in words that say to use it, neither added to the first nor given for another person
    a question asked about ("Is there someone else to call on the day?") nor only told
    as theirs ("Ottilie approves now; her email is …", where "she'll be your contact;
    her email is …" says to use it). An answer to a question that asks where to send a
    document ("Who should we send the invoice to?") says to use the way it gives for it."""
    told = without_question(new)
    table = _table()
    asked = new[len(told) :]  # "(in answer to: Is there another person to call?)"
    return (
        bool(ways(told))
        and (table.use.search(table.theirs.sub(" ", told)) is not None or bool(_sent(asked)))
        and table.adds.search(table.others.sub(" ", table.app_too.sub(" ", told))) is None
        and table.adds.search(asked) is None
        and not conditional(table.whenever_needed.sub(" ", told))
    )


def reached_elsewhere(old: str, new: str) -> bool:
    """Whether `new` gives, in words that say to use it, a number or an address of a kind
    `old` gives another of, and neither adds it to the first, nor keeps it for a case or
    for a document `old` does not name.

    >>> reached_elsewhere("Ring the user on 07700 900100 after 5pm.",
    ...                   "For the install, just call the user's husband on 07700 900200.")
    True
    >>> reached_elsewhere("Ring the user on 07700 900100 after 5pm.",
    ...                   "The user says they can also be texted on 07700 900200.")
    False
    >>> reached_elsewhere("Ring the user on 07700 900100.",
    ...                   "If the alarm goes off, call the neighbour on 07700 900300.")
    False
    >>> reached_elsewhere("Ring the user on 07700 900100.",
    ...                   "The user's number is 07700 900400, whatsapp too.")
    True

    A document sent to someone named, then to another way of reaching:

    >>> reached_elsewhere("Send the invoices to the user's partner Hollis Pike.",
    ...                   "Invoices go to our new accountants, accounts@brisk.example, now.")
    True
    """
    if not may_reach_elsewhere(new):
        return False
    told = without_question(new)
    if not _documents(told) | _sent(new[len(told) :]) <= _documents(old):
        return False  # the invoice to accounts, the proofs to the client
    before, after = ways(old), ways(told)
    if any(kind in before and not given & before[kind] for kind, given in after.items()):
        return True
    return bool(_documents(told) & _documents(old)) and bool(_recipients(old) - _recipients(told))


def _recipients(text: str) -> set[str]:
    """Whom `text` names, when it says where to send a document: "the invoice to my partner
    Hollis Pike" is sent to Hollis Pike, and "the invoices to accounts@… from now on" to
    someone else than Hollis."""
    if not _documents(text) or not _table().use.search(text):
        return set()
    return set(names_in(without_ways(text)))


def _sent(question: str) -> set[str]:
    """The kinds of document `question` asks where to send, if it asks that ("À qui
    j'envoie la facture ?")."""
    return _documents(question) if _table().use.search(question) else set()


def _documents(text: str) -> set[str]:
    """The kinds of document `text` names ("the bills" and "invoices" are one kind)."""
    return {kind for kind, words in _table().documents if words.search(text)}
