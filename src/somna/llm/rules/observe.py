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

from somna.llm.rules.counts import corrects_the_question
from somna.llm.rules.dates import resolve_dates
from somna.llm.rules.frames import holds_a_value
from somna.llm.rules.language import Language, Speaker, retell_speaker
from somna.llm.rules.languages import LANGUAGES
from somna.llm.rules.refusals import refusals
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
    "question_of",
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
_TAG_WORDS = 5
"""At most this many words after a statement's last comma ask by their tone alone."""


@dataclass(frozen=True)
class Observation:
    """One message's informative sentences retold; the quote is ``content[start:end]``."""

    text: str
    start: int
    end: int
    score: float


_I = re.IGNORECASE


def _every(alternatives: Callable[[Language], str]) -> str:
    """The alternatives every language gives of one table, as one alternation."""
    return "|".join(alternatives(language) for language in LANGUAGES)


_COMMA = re.compile(r"\s*[,;]\s+|\s+-\s+")
_OLD_NUMBER = re.compile(
    r"(?<=\d)(?P<unit>(?:\s*[^\W\d_]+){0,3})\s*,?\s+"
    rf"(?:{_every(lambda language: language.instead)})"
    r"\s+[£€$]?\d[\d,.\u202f\u00a0]*\s*[kK€£$]?(?=[\s.,;!)]|$)",
    _I,
)
"""The number a correction replaces ("14 desks not 11", "36, pas 30"): the old value is
history, not what the fact says now."""
_OLD_CHOICE = re.compile(
    rf",?\s+(?:{_every(lambda language: language.replaced)})\s*[^,;.!?()]{{1,40}}(?=[,;.!?()]|$)",
    _I,
)
"""The value a choice replaces ("monthly instead of per session", "le matin plutôt que par
email"), likewise history."""
_CAPTION = re.compile(r"\s*\[[^\[\]]{0,300}\]")
"""What a chat export writes for an attachment ("[shares a photo: …]", "[image]"): no part
of what the speaker said."""
_WORD = re.compile(r"[^\W\d_]+(?:['-][^\W\d_]+)*|\d+")
_LABEL = re.compile(r"(?:[^\W\d_]+[ ,!]*){1,3}\s?:\s*")
"""A label of a few words before a colon: "Quick one:", "Petite question :"."""
_FIRST = re.compile(rf"\b(?:{_every(lambda language: language.first_person)})(?=\W|$)", _I)
_REACTION = re.compile(rf"(?:{_every(lambda language: language.reaction)})(?=\W|$)", _I)
"""How a reaction to the other person opens: praise, surprise, wishes, remarks on "you"."""


def _informative(sentence: str, language: Language, answering: bool = False) -> tuple[float, int]:
    """How much a sentence tells (0: nothing), and where what it tells starts. An answer
    that names a value ("Monthly, that suits us.", "Ok, Tuesday then.") or rules something
    out ("No, no pets.") tells it, however short, and whatever courtesy comes with it: the
    question says what the value is."""
    trimmed = trim_clause(sentence)
    answered = answering and (  # a name may be the listener's
        holds_a_value(trimmed, names=False) or bool(refusals(trimmed))
    )
    greeted = language.greeting.match(trimmed)  # "hi, the new hire starts on monday"
    opening = language.lead.match(trimmed)  # "btw do you ship to Norway"
    if (
        "?" in sentence
        or language.unmarked_question.match(trimmed[opening.end() if opening else 0 :])
        or (language.pleasantry.search(trimmed[greeted.end() if greeted else 0 :]) and not answered)
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
    if len(words) < (1 if answered else _MIN_WORDS) or (
        not personal and len(words) < _REACTION_WORDS and _REACTION.match(core)
    ):
        return 0.0, start
    named = sum(1 for w in words[1:] if w[:1].isupper() or w.isdigit())
    return len(words) + 2.0 * personal + named, start


def _undecided(sentence: str, language: Language) -> bool:
    """Whether a sentence decides nothing yet: each clause puts off ("Not sure, I'll think
    about it.", "Maybe later, thanks.") and none gives a number. "Not sure about the floor,
    I'll take the oak" decides."""
    clauses = [clause.strip() for clause in _COMMA.split(sentence) if clause.strip()]
    return (
        any(language.undecided.match(clause) for clause in clauses)
        and all(
            language.undecided.match(clause) or language.pleasantry.search(clause)
            for clause in clauses
        )
        and not any(ch.isdigit() for ch in sentence)
    )


@dataclass(frozen=True)
class _Asked:
    """A question asking the listener to do something, as `_asked_for` reads it."""

    score: float
    start: int
    """Where what is asked for starts."""
    of_listener: bool
    """Whether the listener is to do it ("Can you call me?"), not the speaker."""
    that: bool = False
    """Whether something of the speaker's is to be done ("Can the stock count be moved?")."""
    negated: bool = False
    """Whether the listener is asked not to do it ("Please don't post it online")."""
    what: bool = False
    """Whether a thing or a time is asked for, no deed ("Possible le samedi à 10h ?")."""


def _asked_for(sentence: str, language: Language) -> _Asked | None:
    """How much a question asking the listener to do something tells, and what it asks
    for: "Can we move all sessions to 6pm?" is the speaker's decision, put to the listener,
    when it names a value (a time, a number, a name, a channel) or changes how things go
    (`_changes_how_things_go`). Without either ("Can you help me?") it asks for help, and
    tells nothing. A short label may come first ("Quick one: can we…", "Petite question :
    on peut…")."""
    label = _LABEL.match(sentence)
    start = label.end() if label else 0
    opener = language.asks_for.match(sentence[start:])  # "merci de …" before "merci" leads
    if opener is None:
        lead = language.lead.match(sentence[start:])
        start += lead.end() if lead else 0
        opener = language.asks_for.match(sentence[start:])
    if opener is None:
        return None
    start += opener.end()
    asked = sentence[start:].rstrip(" ?!.")
    if "?" in asked or not (holds_a_value(asked) or _changes_how_things_go(asked, language)):
        return None
    score, _ = _informative(asked, language, answering=True)  # "call me", "décaler à 17h"
    if score <= 0:
        return None
    groups = opener.groupdict()
    return _Asked(
        score,
        start,
        groups.get("listener") is not None,
        groups.get("that") is not None,
        groups.get("negated") is not None,
        groups.get("what") is not None,
    )


def _changes_how_things_go(asked: str, language: Language) -> bool:
    """Whether what is asked for changes how things go, though it names no value: a thing
    to have ("have the lemon tart"), done each time ("add a card to every order"), moved
    ("on peut décaler mes séances ?") or put otherwise ("send it to our manager instead")."""
    folded = fold(asked)
    taken = language.takes.match(folded)
    named = _TOKEN.findall(folded[taken.end() :].casefold()) if taken else []
    if sum(w not in _OFFERING for w in named) > 1:  # "the lemon tart", not "some help"
        return True
    return any(
        pattern.search(folded) is not None
        for pattern in (language.recurring, language.reschedule, language.change)
    )


def _statement_before_question(sentence: str, language: Language) -> int:
    """Where a statement ends when a question is tagged on after a comma ("I run 3 times a
    week now, is that enough?"): the statement tells, the question does not. The whole
    sentence otherwise."""
    if "?" not in sentence:
        return len(sentence)
    commas = list(_COMMA.finditer(sentence))
    for comma in commas:
        asked = sentence[comma.end() :]
        if (
            language.interrogative.match(asked) or language.asks_for.match(asked)
        ) and "?" not in sentence[: comma.start()]:
            return comma.start()
    # A short tag that asks by its tone alone ("…quarterly invoices from now on, ok for you?",
    # "…at 6pm, right?") after a statement that asks nothing itself.
    if (
        commas
        and len(sentence[commas[-1].end() :].split()) <= _TAG_WORDS
        and "?" not in sentence[: commas[-1].start()]
        and not language.interrogative.match(sentence)
        and not language.asks_for.match(sentence)
    ):
        return commas[-1].start()
    return len(sentence)


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


def _elided(text: str, language: Language) -> str:
    """`text` as the language writes it once retold: "ne est" as "n'est"."""
    for elision, written in language.elisions:
        text = elision.sub(written, text)
    return text


def _joined(opening: str, first: str, language: Language) -> str:
    """An opening and the first letter of what it tells, as the language writes them:
    "dit que il" as "dit qu'il", "demande de envoyer" as "demande d'envoyer"."""
    return _elided(f"{opening} {first}", language)


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
    if not words or not text[1:2].islower():
        return False
    first = words[0].strip(",;:!?.")
    if first.casefold().removesuffix("s") in language.dates.weekdays or not first[1:].islower():
        return False  # a day, or a name written with a capital within ("WhatsApp")
    named_again = re.search(rf"(?<=[^\s.!?]\s){re.escape(first)}\b", text[len(first) :])
    second = words[1].strip(",;:!?.") if len(words) > 1 else ""
    followed_by_name = second[:1].isupper() and not second.isupper()  # "SMS" names no one
    return not (named_again or followed_by_name)


def _answering(asked: str, listener: str, speaker: str, language: Language, said_on: date) -> str:
    """ "in answer to: What does Odile do?": the question retold, or quoted as it was asked
    where the language's tables say retelling would garble it (`Language.retell_questions`)."""
    if language.retell_questions:
        asked = retell_speaker(asked, listener, speaker, language)
    return language.answering.format(resolve_dates(asked, said_on).strip())


def _asks_something(asked: str) -> bool:
    """Whether a question asks for something in particular, not only offers help (in any
    language: the assistant may offer it in another than the answer's). A greeting, a
    name within the question (the business's own) and the deed a business offers ("what
    can we print for you?") ask nothing.

    >>> _asks_something("How can I help?"), _asks_something("Comment puis-je vous aider ?")
    (False, False)
    >>> _asks_something("Good morning, Rosewood Bakes, what can we bake for you today?")
    False
    >>> _asks_something("What do you do for a living?")
    True
    """
    offered = {
        m["deed"].casefold()
        for language in LANGUAGES
        for m in language.offered_deed.finditer(asked)
    }
    tokens = list(_TOKEN.finditer(asked))
    named = {  # within the question, or opening it with another capital ("Swiftline Vans, …")
        i
        for i, m in enumerate(tokens)
        if m[0][:1].isupper() and (i > 0 or (len(tokens) > 1 and tokens[1][0][:1].isupper()))
    }
    return any(
        (token := m[0].casefold()) not in _OFFERING and token not in offered and i not in named
        for i, m in enumerate(tokens)
    )


_OFFERING = frozenset().union(
    *(language.stopwords | language.offers | language.greetings for language in LANGUAGES)
)
_TOKEN = re.compile(r"[^\W_]+")
"""Letters and digits, apart at apostrophes and hyphens ("puis-je", "aujourd'hui")."""


def question_of(content: str) -> str | None:
    """The last question a message asks, as written, or None; with the sentence before it
    when it only asks about what that sentence proposes ("We can do Friday 9 May. Does that
    work?", "We do a box of 6 or of 12. Which suits you?").

    >>> question_of("Noted. We can move it to Friday 9 May. Does that work for you?")
    'We can move it to Friday 9 May, does that work for you?'
    """
    folded = fold(content)
    sentences = [folded[a:b].strip() for a, b in split_sentences(folded)]
    asked = [i for i, sentence in enumerate(sentences) if "?" in sentence]
    if not asked:
        return None
    last = asked[-1]
    if last > 0 and any(language.refers_back.match(sentences[last]) for language in LANGUAGES):
        proposed, confirm = sentences[last - 1].rstrip(" .!;:"), sentences[last]
        return f"{proposed}, {confirm[:1].lower()}{confirm[1:]}"  # one sentence, as a fact is
    return sentences[last]


def observe(
    content: str,
    speaker: str,
    listener: str,
    language: Language,
    said_on: date,
    asked: str | None = None,
    typed: Collection[int] = (),
    names: Collection[str] = (),
) -> Observation | None:
    """The observation of one message, or None when it tells nothing. ``asked`` is the
    question of ``listener`` that the message answers (`question_of` their message);
    ``typed``, where the sentences start that a typed fact already says, so that one
    statement is not stored twice; ``names``, the names the conversation writes within
    its sentences, kept as written when one opens a statement ("Noa has a cold")."""
    if Speaker(speaker).is_user:
        speaker = language.plain_user
    folded = fold(content)
    answering = bool(asked and _asks_something(asked))
    if asked and answering and language.assent.match(folded.strip()):
        return _agreement(asked, len(folded.rstrip()), speaker, listener, language, said_on)
    kept: list[tuple[int, int, int, float, _Asked | None]] = []
    for start, end in split_sentences(folded):
        if start in typed:
            continue
        stated = start + _statement_before_question(folded[start:end], language)
        score, offset = _informative(folded[start:stated], language, answering)
        if score > 0:
            kept.append((start, start + offset, stated, score, None))
        # A request alone, or tagged on a statement ("I hate email, can you call me?").
        tagged = _COMMA.match(folded, stated)
        for asks_from in ([start] if score == 0 else []) + ([tagged.end()] if tagged else []):
            request = _asked_for(folded[asks_from:end], language)
            if request is not None:
                kept.append((asks_from, asks_from + request.start, end, request.score, request))
                break
    parts: list[str] = []
    used = 0
    capital_said = False
    for start, told_from, end, _, request in kept:
        said = folded[told_from:end].rstrip(" ?") if request else folded[told_from:end]
        told = resolve_dates(
            _elided(retell_speaker(said, speaker, listener, language), language), said_on
        )
        told = _OLD_CHOICE.sub("", _OLD_NUMBER.sub(lambda m: m["unit"], _CAPTION.sub("", told)))
        told = trim_clause(told)
        if not told:
            continue
        if request is not None:
            asking = (
                language.asking_for
                if request.what
                else language.asking_that
                if request.that
                else language.asking_listener_not
                if request.negated
                else language.asking_listener
                if request.of_listener
                else language.asking
            )
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
        if len(text) + len(question) + 3 <= MAX_FACT_CHARS and not corrects_the_question(
            text, asked, language
        ):  # "Still 30?": the old value, which "36 in the end" replaces
            text = finish_sentence(f"{text[:-1]} ({question})")
    if not is_fact_text(text):
        return None
    kept = kept[: len(parts)]
    return Observation(text, kept[0][0], kept[-1][2], weight * sum(item[3] for item in kept))


def _agreement(
    asked: str, said: int, speaker: str, listener: str, language: Language, said_on: date
) -> Observation | None:
    """A bare yes ("yep", "parfait") to a question that proposes a value ("So that's 4
    boxes then?", "On passe au samedi 21 mars. Ça vous convient ?"): the speaker agrees to
    what it proposes. To a question that proposes none ("Anything else?"), it tells nothing.
    `said`: the length of the answer, all of it the quote."""
    if not holds_a_value(asked, names=False):
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
