"""Observations: what a speaker said that informs, one self-contained sentence per message.

Typed rules know a few shapes of durable fact ("I work at…", "please always…"); most of
what people tell each other has no such shape. An observation keeps it anyway: the
informative sentences of one message, with the speaker named instead of "I", "you"
resolved to the person spoken to, relative dates made absolute (`dates`), and the
message's span as the verbatim quote. Questions, greetings, thanks and reactions to the
other person ("That's so cool!") are left out; the session keeps the observations of
its most informative messages only (`select`), so memory stays smaller than the chat.

An answer means little without its question ("About five hundred euros."), and what one
person asks another is what is asked of memory later: an observation of a message that
answers the previous speaker's question carries that question, retold, and counts more.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from datetime import date

from somna.llm.rules.counts import corrects_the_question, with_the_unit_asked
from somna.llm.rules.dates import last_date, resolve_dates
from somna.llm.rules.frames import holds_a_value
from somna.llm.rules.language import Language, Speaker, retell_speaker
from somna.llm.rules.languages import LANGUAGES, every, is_name
from somna.llm.rules.questions import (
    COMMA,
    PROPOSAL,
    TAGGED,
    Request,
    asks_something,
    lowered_opening,
    proposed_value,
    request_in,
    statement_before_question,
)
from somna.llm.rules.refusals import refusals
from somna.llm.rules.said_times import times_in_digits
from somna.llm.rules.slips import slips_joined, without_slips
from somna.llm.rules.text import finish_sentence, fold, split_sentences, trim_clause
from somna.llm.tasks import CandidateFact
from somna.model import MAX_FACT_CHARS, is_fact_text

__all__ = [
    "ANSWER_WEIGHT",
    "FIRST_CLASS",
    "ITEMS_PER_MESSAGE",
    "MIN_ROOM",
    "Observation",
    "observe",
    "retell_speaker",
    "select",
]

FIRST_CLASS = frozenset({"preference", "decision", "client_info", "instruction"})
"""Typed facts of these categories are kept even when their message is observed whole: the
seed's categories and standing instructions. Keeping identity and relationship facts too
cost 2.3 points of evidence recall@10 on the development conversation."""
ITEMS_PER_MESSAGE = 0.75
"""At most this many stored items (typed facts and observations) per message of a session:
fewer than the chat holds. 0.5 kept 7 points less of LoCoMo's evidence at 10 (60.6% against
67.8% on the two conversations of shared/data), and clients' short answers went missing."""
MIN_ROOM = 4
"""A short session keeps this many typed facts whatever its length: two statements in a row
("I work as a nurse.", "I love hiking.") are both worth keeping, and the per-message budget
is meant for long chats, where most turns say little."""
ANSWER_WEIGHT = 2.0
"""How much more an answer to the other speaker's question counts when a session chooses the
messages it keeps (`select`): 2 gained 3.7 points of evidence recall@10 on the development
conversation, 1.25 and 3 less."""
_MIN_WORDS = 2
"""Fewer content words than this says nothing worth keeping ("Me too!", "Love that one"). A
client's answers are short ("Annual, please.", "By text, 6pm."): 4 left most of them out."""
_REACTION_WORDS = 8
"""A reaction ("That's so cool, what a view!") this long tells something after all."""


@dataclass(frozen=True)
class Observation:
    """One message's informative sentences retold; the quote is ``content[start:end]``."""

    text: str
    start: int
    end: int
    score: float


_I = re.IGNORECASE


_WRITTEN_DATE = r"(?:\s*\((?:[A-Z][a-z]+day )?\d{1,2} [A-Z][a-z]+ \d{4}\))?"
"""The date the retelling wrote after a day it resolved ("(Saturday 18 April 2026)"): it
goes with the old value it dates."""
_OLD_NUMBER = re.compile(
    r"(?<=\d)(?P<unit>(?:\s*[^\W\d_]+){0,3})\s*,?\s+"
    rf"(?:{every(lambda language: language.instead)})\s+(?:(?:the|le|la|les|l')\s+)?"
    r"[£€$]?\d[\d,.\u202f\u00a0]*(?:[h:]\d\d|st|nd|rd|th)?\s*(?:[kK€£$]|[ap]m\b)?"
    rf"{_WRITTEN_DATE}(?=[\s.,;!)]|$)",
    _I,
)
"""The number a correction replaces ("14 desks not 11", "36, pas 30", "le 5, pas le 12"):
the old value is history, not what the fact says now."""
_OLD_CHOICE = re.compile(
    rf",?\s+(?:{every(lambda language: language.replaced)})"
    rf"\s*(?:[^,;.!?()]|(?<=\d)\.(?=\d)){{1,40}}?{_WRITTEN_DATE}"
    r"(?=\s*(?:[,;!?()]|\.(?!\d)|$))",
    _I,
)
"""The value a choice replaces ("monthly instead of per session", "le matin plutôt que par
email", "dimanche 26 au lieu du samedi (Saturday 18 April 2026)" with its date, "8 instead
of 8.30" whole), likewise history."""
_CAPTION = re.compile(r"\s*\[[^\[\]]{0,300}\]")
"""What a chat export writes for an attachment ("[shares a photo: …]", "[image]"): no part
of what the speaker said."""
_WORD = re.compile(r"[^\W\d_]+(?:['-][^\W\d_]+)*|\d+")
_PROPOSED = re.compile(r"(?<=\w )[A-ZÀ-Ý][^\W\d_]+")
"""A name within a question, neither opening it nor after a comma (the listener's): what
it may propose ("Would Fern work?")."""
_FIRST = re.compile(rf"\b(?:{every(lambda language: language.first_person)})(?=\W|$)", _I)
_REACTION = re.compile(rf"(?:{every(lambda language: language.reaction)})(?=\W|$)", _I)
"""How a reaction to the other person opens: praise, surprise, wishes, remarks on "you"."""
_PRONOUN = re.compile(r"(?:she|he|elle)(?=\s|'s\b)", _I)
"""A person named by a pronoun alone, opening a sentence (not "il": "il faut", "il pleut")."""
_FULL_NAME = re.compile(r"\b[A-ZÀ-Ý][a-zà-ÿ'-]+\s+[A-ZÀ-Ý][a-zà-ÿ'-]+\b")
"""A first name and a surname ("Tamsin Orrow"): whom such a pronoun stands for."""
_NAMED_NEXT = re.compile(r"\s+[A-ZÀ-Ý][^\W\d_]+\s+[A-ZÀ-Ý][^\W\d_]+\s+[^\W\d_]")
"""A full name right after such an opening, the clause going on: someone put forward
("C'est Anaïs Morel à l'accueil qui signe"), no reaction nor "c'est Anaïs Morel" again."""


def _informative(
    sentence: str, language: Language, answering: bool = False, proposed: Collection[str] = ()
) -> tuple[float, int]:
    """How much a sentence tells (0: nothing), and where what it tells starts. An answer
    that names a value ("Monthly, that suits us.", "Ok, Tuesday then.", or a name the
    question proposed: "Would Fern suit?" "Perfect, go with Fern") or rules something out
    ("No, no pets.") tells it, however short, and whatever courtesy comes with it: the
    question says what the value is."""
    trimmed = trim_clause(sentence)
    answered = answering and (  # another name may be the listener's
        holds_a_value(trimmed, names=False)
        or bool(refusals(trimmed))
        or any(word in proposed for word in _WORD.findall(trimmed))
    )
    greeted = language.greeting.match(trimmed)  # "hi, the new hire starts on monday"
    opening = language.lead.match(trimmed)  # "btw do you ship to Norway"
    if (
        "?" in sentence
        or language.unmarked_question.match(trimmed[opening.end() if opening else 0 :])
        or (
            language.pleasantry.search(
                trimmed[_courtesy_ends(greeted, opening, answering, language) :]
            )
            and not answered
        )
        or language.request.search(trimmed)
        or language.hypothetical.search(trimmed)
        or _undecided(trimmed, language)
    ):
        return 0.0, 0  # questions, pleasantries, requests, what-ifs, "not sure" tell nothing
    lead = language.lead.match(sentence)
    start = lead.end() if lead else 0
    if lead and lead["when"]:
        start = lead.start("when")  # "Yesterday, I…": the time is part of what was said
    core = sentence[start:]
    personal = _FIRST.search(core) is not None
    words = [  # a number counts however short ("the 5k on the 9th")
        w
        for w in _WORD.findall(core)
        if w.isdigit() or (len(w) > 2 and w.casefold() not in language.stopwords)
    ]
    reaction = _REACTION.match(core)
    if len(words) < (1 if answered else _MIN_WORDS) or (
        not personal
        and len(words) < _REACTION_WORDS
        and reaction is not None
        and not _NAMED_NEXT.match(core, reaction.end())  # "C'est Anaïs qui signera"
        and not any(w.isdigit() for w in words)  # "c'est le samedi 19 septembre" dates it
        and not answered  # "your fitters go to 12 Mill Lane" asked for: no remark on "you"
    ):
        return 0.0, start
    named = sum(1 for w in words[1:] if w[:1].isupper() or w.isdigit())
    return len(words) + 2.0 * personal + named, start


def _courtesy_ends(
    greeted: re.Match[str] | None,
    opening: re.Match[str] | None,
    answering: bool,
    language: Language,
) -> int:
    """Where what may be a pleasantry starts: after a greeting, or in an answer after the
    yes that opens it ("oui : lessive sans parfum" answers, "oui merci" does not)."""
    if answering and opening is not None and language.assent.match(opening[0].strip(" ,:!")):
        return opening.end()
    return greeted.end() if greeted else 0


def _says_yes(reply: str, language: Language) -> bool:
    """Whether a reply only says yes, or yes and how the speaker feels about it ("ok
    parfait, ça a l'air top", "great, sounds lovely"): no value, nothing else told."""
    said = reply.strip().rstrip(" .!")
    head, *after = [part.strip() for part in COMMA.split(said) if part.strip()] or [""]
    return language.assent.match(said) is not None or (
        language.assent.match(head) is not None
        and all(
            language.assent.match(part)
            or (
                _REACTION.match(part)
                and not _FIRST.search(part)  # "yes, it's for my daughter" tells more
                and not holds_a_value(part, names=False)
            )
            for part in after
        )
    )


def _undecided(sentence: str, language: Language) -> bool:
    """Whether a sentence decides nothing yet: each clause puts off ("Not sure, I'll think
    about it.", "Maybe later, thanks.") and none gives a number. "Not sure about the floor,
    I'll take the oak" decides."""
    clauses = [clause.strip() for clause in COMMA.split(sentence) if clause.strip()]
    return (
        any(language.undecided.match(clause) for clause in clauses)
        and all(
            language.undecided.match(clause) or language.pleasantry.search(clause)
            for clause in clauses
        )
        and not any(ch.isdigit() for ch in sentence)
    )


def _named(text: str, speaker: str, language: Language, capital_said: bool = False) -> str:
    """``text`` opened with "<speaker> says that" unless its first clause names the speaker; its
    first word lower-cased when common, unless (`capital_said`) it was written with a
    capital within its sentence ("by the way, Bruno leaves")."""
    opening = re.split(r"[,;] ", text, maxsplit=1)[0]
    if re.search(rf"(?<!\w){re.escape(speaker)}(?!\w)", opening, re.IGNORECASE):
        return text  # "Ines Varga, buyer…" retold names the speaker first
    says = language.says.format(speaker)
    common = not capital_said and _common_opening(text, language)
    return _joined(says, text[:1].lower() if common else text[:1], language) + text[1:]


def _joined(opening: str, first: str, language: Language) -> str:
    """An opening and the first letter of what it tells, as the language writes them:
    "dit que il" as "dit qu'il", "demande de envoyer" as "demande d'envoyer"."""
    return language.elided(f"{opening} {first}")


def _a_name_opens(said: str, start: int, told_from: int, names: Collection[str]) -> bool:
    """Whether what is told from `told_from` opens with a name: one the conversation writes
    within its sentences, or a capital after what opened the sentence at `start` ("by the
    way, Bruno leaves"), on no common word."""
    first = _WORD.match(said, told_from)
    if first is None:
        return False
    word = first[0]
    return word in names or (
        told_from > start
        and word[:1].isupper()
        and said[first.end() : first.end() + 1] not in {",", "!"}  # "Nah, …", "Agreed!"
        and all(word.casefold() not in language.stopwords for language in LANGUAGES)
    )


def _common_opening(text: str, language: Language) -> bool:
    """Whether `text` opens with a common word, lower-cased after "says that" ("Around nine
    hundred…"), rather than a name ("Ines Vargo, buyer…", "Noa loves it, Noa says so",
    "Tuesday then", "WhatsApp please")."""
    words = text.split(maxsplit=2)
    if words and _contracted(words[0].strip(",;:!?.").casefold(), language):
        return True  # "It's Tobiah on reception who…", "C'est Anaïs qui…"
    if not words or not text[1:2].islower():
        return False
    first = words[0].strip(",;:!?.")
    if first.casefold().removesuffix("s") in language.dates.weekdays or not first[1:].islower():
        return False  # a day, or a name written with a capital within ("WhatsApp")
    named_again = re.search(rf"(?<=[^\s.!?]\s){re.escape(first)}\b", text[len(first) :])
    second = words[1].strip(",;:!?.") if len(words) > 1 else ""
    followed_by_name = second[:1].isupper() and not second.isupper()  # "SMS" names no one
    return not (named_again or followed_by_name)


def _contracted(word: str, language: Language) -> bool:
    """Whether a word is two common words run together ("it's", "c'est"), no name
    ("O'Brien")."""
    head, apostrophe, tail = word.partition("'")
    return (
        bool(apostrophe)
        and head in language.stopwords
        and (tail in language.stopwords or tail == "s")
    )


def _answering(asked: str, listener: str, speaker: str, language: Language, said_on: date) -> str:
    """ "in answer to: What does Odile do?": the question retold, or quoted as it was asked
    where the language's tables say retelling would garble it (`Language.retell_questions`);
    the value it proposes to replace left out, as in a statement ("8am instead of 7am?")."""
    if language.retell_questions:
        asked = retell_speaker(asked, listener, speaker, language)
    asked = _OLD_CHOICE.sub("", asked)
    asked = times_in_digits(resolve_dates(asked, said_on), language)
    return language.answering.format(asked.strip())


def observe(
    content: str,
    speaker: str,
    listener: str,
    language: Language,
    said_on: date,
    asked: str | None = None,
    typed: Collection[int] = (),
    names: Collection[str] = (),
    about: date | None = None,
    confirmed: bool = False,
    echoed: Sequence[date] = (),
) -> Observation | None:
    """The observation of one message, or None when it tells nothing. ``asked`` is the
    question of ``listener`` that the message answers (`question_of` their message);
    ``typed``, where the sentences start that a typed fact already says, so that one
    statement is not stored twice; ``names``, the names the conversation writes within
    its sentences, kept as written when one opens a statement ("Noa has a cold"); ``about``,
    the date the conversation spoke of just before, that a date put right is near ("sorry,
    I meant the 18th"); ``confirmed``, whether the listener's reply takes up a value the
    message proposed as a question ("Le 14 avril ?" "Le 14 avril c'est noté"); ``echoed``,
    the dates that reply writes out, which date a bare day of the month ("the 22nd")."""
    if Speaker(speaker).is_user:
        speaker = language.plain_user
    folded = fold(content)
    answering = bool(asked and asks_something(asked))
    proposed = frozenset(_PROPOSED.findall(asked or ""))
    if asked and answering and _says_yes(folded, language):
        return _agreement(asked, len(folded.rstrip()), speaker, listener, language, said_on)
    kept: list[tuple[int, int, int, float, Request | None]] = []
    for start, end in slips_joined(folded, split_sentences(folded)):
        if start in typed:
            continue
        stated = start + statement_before_question(folded[start:end], language)
        score, offset = _informative(folded[start:stated], language, answering, proposed)
        if score > 0:
            kept.append((start, start + offset, stated, score, None))
        # A request alone, or tagged on a statement ("I hate email, can you call me?").
        tagged = TAGGED.match(folded, stated)
        for asks_from in ([start] if score == 0 else []) + ([tagged.end()] if tagged else []):
            request = request_in(folded[asks_from:end], language)
            stop = end
            if request is None and confirmed:  # "le samedi à 10h ça irait ?" "oui, …"
                value_ends = proposed_value(folded[asks_from:end], language)
                request = None if value_ends is None else PROPOSAL
                stop = end if value_ends is None else asks_from + value_ends
            if request is None:
                continue
            asked_for = folded[asks_from + request.start : stop].rstrip(" ?!.")
            asked_for = asked_for.partition("?")[0]  # "… 16 bags? sorry, 15": put right after
            tells, _ = _informative(asked_for, language, answering=True)  # "call me", "décaler"
            if tells > 0:
                kept.append((asks_from, asks_from + request.start, stop, tells, request))
                break
    parts: list[str] = []
    used = 0
    capital_said = False
    dated: date | None = None  # the last date told, that "the Thursday after" follows
    for start, told_from, end, _, request in kept:
        said = folded[told_from:end].rstrip(" ?") if request else folded[told_from:end]
        said = without_slips(said)  # before its dates are read: "le 16, pardon le 18"
        said = _pronoun_named(said, folded[:told_from], {item[0] for item in kept})
        told = resolve_dates(
            language.elided(retell_speaker(said, speaker, listener, language)),
            said_on,
            about if language.puts_right.search(folded) else None,
            echoed,
            dated,
        )
        dated = last_date(told, said_on) or dated
        told = times_in_digits(told, language)  # "quarter to ten": 9:45
        told = _OLD_NUMBER.sub(lambda m: m["unit"], _CAPTION.sub("", told))
        told = _OLD_CHOICE.sub("", told)
        told = trim_clause(told)
        if not told:
            continue
        if request is not None:
            asking = request.opening(language)
            if request is PROPOSAL and not _a_name_opens(folded, start, told_from, names):
                told = lowered_opening(told)  # "Le 14 avril ?" asked for: "demande le 14…"
            told = _joined(asking.format(speaker, listener), told[:1], language) + told[1:]
        if used + len(told) + 2 > MAX_FACT_CHARS:
            break
        if not parts:
            capital_said = _a_name_opens(folded, start, told_from, names)
        parts.append(told)
        used += len(told) + 2
    if not parts:
        return None
    text = finish_sentence(_named("; ".join(parts), speaker, language, capital_said))
    weight = 1.0
    if asked and answering:
        weight = ANSWER_WEIGHT
        question = _answering(asked, listener, speaker, language, said_on)
        answered = finish_sentence(f"{text[:-1]} ({question})")
        if corrects_the_question(text, asked, language, folded):
            text = with_the_unit_asked(text, asked)  # "Still 30 riders?": "no, 34 riders"
        elif len(answered) <= MAX_FACT_CHARS and is_fact_text(answered):
            text = answered
    if not is_fact_text(text):
        return None
    kept = kept[: len(parts)]
    return Observation(text, kept[0][0], kept[-1][2], weight * sum(item[3] for item in kept))


def _pronoun_named(said: str, before: str, told: Collection[int]) -> str:
    """`said` with the "she" or "he" that opens it named, where the sentence before it,
    left untold (its start not in `told`), names one person in full ("can you give Tamsin
    Orrow the map? She runs production"): a fact stands alone."""
    pronoun = _PRONOUN.match(said)
    spans = split_sentences(before)
    if pronoun is None or not spans or spans[-1][0] in told:
        return said
    last = before[spans[-1][0] :].strip()
    named = {
        found[0]
        for found in _FULL_NAME.finditer(last)
        if all(is_name(word) for word in found[0].split())
    }
    return f"{named.pop()}{said[pronoun.end() :]}" if len(named) == 1 else said


def _agreement(
    asked: str, said: int, speaker: str, listener: str, language: Language, said_on: date
) -> Observation | None:
    """A bare yes ("yep", "parfait") to a question that proposes a value ("So that's 4
    boxes then?", "On passe au samedi 21 mars. Ça vous convient ?") or a thing to take
    ("We could put your keys on our register. Shall I set that up?"): the speaker agrees to
    what it proposes. To a question that proposes none ("Anything else?"), it tells nothing.
    `said`: the length of the answer, all of it the quote."""
    offers = any(other.offers_to_take.search(fold(asked)) for other in LANGUAGES)
    if not (holds_a_value(asked, names=False) or offers):
        return None
    question = _answering(asked, listener, speaker, language, said_on)
    text = finish_sentence(f"{language.agreeing.format(speaker)} ({question})")
    if not is_fact_text(text):
        return None
    return Observation(text, 0, said, ANSWER_WEIGHT * len(_WORD.findall(asked)))


def select(
    observations: Sequence[Observation | None],
    typed: Sequence[tuple[int, CandidateFact]],
    room: int,
    covers: Callable[[int, CandidateFact], bool],
) -> list[tuple[int, CandidateFact | None]]:
    """What the session keeps: ``(message position, typed fact)``, or ``None`` in place of
    the fact for the message's observation; at most ``room`` items, first-class ones aside.

    Every typed fact counts first. Then observations, most informative first, while there
    is room: an observation retells its message, so it takes the place of the typed facts
    it ``covers`` (their sentence is in its quote; first-class ones, `FIRST_CLASS`, stay
    anyway), and a message with several typed facts makes room for others. Typed facts
    beyond the room (a session of statements only) are cut, first-class ones never, and
    never below `MIN_ROOM`.
    """
    replaced: dict[int, int] = {}
    for position, fact in typed:
        if fact.category not in FIRST_CLASS and covers(position, fact):
            replaced[position] = replaced.get(position, 0) + 1
    used = len({fact.text for _, fact in typed})  # a fact said twice counts once
    ranked = sorted(
        (i for i, item in enumerate(observations) if item is not None),
        key=lambda i: (-observations[i].score, i),  # type: ignore[union-attr]
    )
    chosen: set[int] = set()
    for position in ranked:
        cost = 1 - replaced.get(position, 0)
        if used + cost <= room:
            chosen.add(position)
            used += cost
    kept: list[tuple[int, CandidateFact | None]] = [(p, None) for p in chosen]
    kept += [(p, f) for p, f in typed if f.category in FIRST_CLASS]
    rest = [
        (p, f)
        for p, f in typed
        if f.category not in FIRST_CLASS and not (p in chosen and covers(p, f))
    ]
    # Typed facts alone may say more than room; a short session keeps `MIN_ROOM` of them.
    kept += rest[: max(0, max(room, MIN_ROOM) - len(kept))]
    return sorted(kept, key=lambda pair: (pair[0], pair[1] is None))
