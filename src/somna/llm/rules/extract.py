"""Facts from first-person sentences, by pattern: the offline stand-in for an extraction model.

Only the user's own messages are read, one sentence at a time. A question is dropped
whole; a standing instruction to the assistant is one fact. Otherwise the sentence is
cut into parts at strong breaks ("; ", " - "), a part that is a hypothetical, a hedge or
a pleasantry is dropped, and the others are cut into first-person clauses that each may
match a rule and be retold in the third person: leading interjections ("Wow,", "Hey
Bram!") are left out, a clause leaning on a pronoun ("I love it"), about a passing mood
("I'm so tired") or saying nothing after its verb ("I love to.") gives no fact. The
quote of a fact is always the whole sentence, sliced verbatim from the message.
"""

from __future__ import annotations

import re
from collections.abc import Sequence, Set
from dataclasses import dataclass
from datetime import date

from somna.llm.rules.agreed import with_the_time_agreed
from somna.llm.rules.choices import chosen
from somna.llm.rules.contacts import ways
from somna.llm.rules.language import Language, Speaker, detect_language
from somna.llm.rules.languages import LANGUAGES
from somna.llm.rules.names import NamedAs, described, name_given, who_is
from somna.llm.rules.observe import (
    FIRST_CLASS,
    ITEMS_PER_MESSAGE,
    Observation,
    observe,
    select,
)
from somna.llm.rules.questions import confirms, offer_of, puts_off, question_of
from somna.llm.rules.relatives import name_relatives, relatives
from somna.llm.rules.rescheduled import dates_named
from somna.llm.rules.seeds import seed_fact
from somna.llm.rules.text import finish_sentence, fold, split_sentences, trim_clause
from somna.llm.tasks import CandidateFact, SessionTranscript
from somna.model import FactType, Role, is_fact_text, normalize_text

__all__ = ["CONFIDENCE", "LANGUAGES", "Found", "extract_facts", "facts_of_sentence"]

CONFIDENCE = 0.6
"""What a pattern knows: less than a model that read the whole conversation."""
OBSERVATION = "observation"
"""The category of an observation (`observe`): what was said, dated, not a typed fact."""
CLIENT_INFO = "client_info"


_SWITCH = 2.0
"""How much a sentence must show of another language to be read in it, not the message's."""


@dataclass(frozen=True)
class Found:
    type: FactType
    category: str
    text: str
    rule: str
    """Which rule found it: ``en.preference.3`` (language, category, place in the table)."""


def facts_of_sentence(
    sentence: str, who: Speaker, language: Language, names: Set[str] = frozenset()
) -> list[Found]:
    """The facts one sentence of ``who`` states; ``sentence`` is folded (see `text.fold`).

    ``names`` are the people in the conversation: one of them addressed at the end of a
    clause ("…, Tariq.") is left out of the fact.
    """
    lead = language.lead.match(sentence)
    when = (lead["when"] or "") if lead else ""
    core = trim_clause(sentence[lead.end() :] if lead else sentence)
    asked = "?" in sentence
    seed = None if asked else seed_fact(core, who, language)
    if seed is not None:  # "We decided to go with the annual plan."
        text = finish_sentence(seed.text)
        seeded = Found(FactType.FACT, seed.category, text, f"{language.code}.seed.{seed.category}")
        return [seeded] if is_fact_text(text) else []
    if not asked and not _skipped(core, language.skip):
        request = language.instruction(core, who)  # "Also, always answer in French."
        # how to reach them, or where things go ("send the bills to ines@…"): what they said
        if request and "channel" not in chosen(core) and not ways(core):
            text = finish_sentence(request) if not request.endswith("»") else request
            rule = f"{language.code}.instruction"
            return (
                [Found(FactType.INSTRUCTION, "instruction", text, rule)]
                if is_fact_text(text)
                else []
            )
    found: list[Found] = []
    for part in language.segment_break.split(sentence[lead.end() :] if lead else sentence):
        segment = trim_clause(part.strip(_LEADING))
        if asked and ("?" in part or language.interrogative.match(segment)):
            if not found:
                return []  # "Did you know I love jazz - it's great?" asks, all of it
            continue
        if _skipped(segment, language.skip):
            continue
        for clause in _clauses(segment, language):
            item = _fact_of_clause(clause, when, who, language, names)
            if item is not None:
                found.append(item)
    return found


_LEADING = " \t-\u2013\u2014,;:"


def _clauses(segment: str, language: Language) -> list[str]:
    """The clauses of one part of a sentence, its subject "my kids and I" kept whole."""
    lead = language.lead.match(segment)
    start = lead.end() if lead else 0
    together = language.together.match(segment[start:])
    if together is None:
        return language.clause_break.split(segment)
    end = start + together.end()
    clauses = language.clause_break.split(segment[end:])
    clauses[0] = segment[:end] + clauses[0]
    return clauses


def _skipped(text: str, patterns: Sequence[re.Pattern[str]]) -> bool:
    return any(pattern.search(text) for pattern in patterns)


def _fact_of_clause(
    clause: str, when: str, who: Speaker, language: Language, names: Set[str]
) -> Found | None:
    """The fact one clause states, its time phrase (said before the clause) told after it."""
    lead = language.lead.match(trim_clause(clause.strip(_LEADING)))
    if lead is None:
        return None
    when = when or lead["when"] or ""
    clause = _unaddressed(lead.string[lead.end() :], names)
    for pattern, replacement in language.spoken:
        clause = pattern.sub(replacement, clause)
    clause = trim_clause(clause)
    if not clause or not language.personal.search(clause) or language.vague.search(clause):
        return None
    if _skipped(clause, language.hedges):
        return None
    probe = f"{clause} {when}" if when else clause
    found = next(
        ((n, r, m) for n, r in enumerate(language.rules) if (m := r.pattern.search(probe))), None
    )
    if found is None:
        return None
    number, rule, match = found
    if not rule.bare and not _says_something(clause, match.end(), language.filler):
        return None
    retold = language.third_person(clause, who)
    if not retold:
        return None
    if when:
        retold = f"{retold} {when[:1].lower()}{when[1:]}"
    text = finish_sentence(retold)
    name = language.rule_name(number)
    return Found(rule.type, rule.category, text, name) if is_fact_text(text) else None


_VOCATIVE = re.compile(r"^(?P<head>.*?)[\s,]*,\s*(?P<name>[^\W\d_]+)[\s!.]*$")


def _unaddressed(clause: str, names: Set[str]) -> str:
    """The clause without a name it ends on as an address ("Done, Bram!"): "Bram" for Bramwell."""
    match = _VOCATIVE.match(clause)
    if match is None:
        return clause
    called = match["name"].casefold()
    if any(len(called) >= 3 and name.casefold().startswith(called) for name in names):
        return match["head"]
    return clause


_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)?")


def _says_something(clause: str, end: int, filler: frozenset[str]) -> bool:
    """Whether the words from ``end`` (backed up to the start of its word) are not all filler."""
    end = min(end, len(clause))
    while 0 < end < len(clause) and clause[end - 1].isalnum() and clause[end].isalnum():
        end -= 1
    return any(word.casefold() not in filler for word in _WORD.findall(clause[end:]))


def _company(text: str, language: Language) -> str | None:
    return next((group for group, pattern in language.company if pattern.search(text)), None)


def _category(observed: str) -> str:
    """An observation that chooses a way to be reached ("By text only, never a call (in
    answer to: How should we contact you?)") is what a business keeps about its client:
    `client_info`, judged as such and in the portrait. Any other stays an observation."""
    return CLIENT_INFO if "channel" in chosen(observed) else OBSERVATION


def extract_facts(
    transcript: SessionTranscript, languages: Sequence[Language] = LANGUAGES
) -> tuple[list[CandidateFact], set[tuple[int, int]]]:
    """The session's facts in order of appearance, once each, and the sentences they came from.

    Typed facts first (`typed_facts`), then the observations of the most informative
    messages (`observe.select`) within `ITEMS_PER_MESSAGE`, one at least (typed facts:
    `MIN_ROOM` at least). The second value holds ``(message position, sentence start)`` of
    each sentence that gave a typed fact, so the summary can favour them.
    """
    typed, observed, sources = typed_facts(transcript, languages)
    known = relatives((m.content for m in transcript.messages if m.role is Role.USER), languages)
    facts = []

    def covers(position: int, fact: CandidateFact) -> bool:
        item = observed[position]
        content = transcript.messages[position].content
        return item is not None and fact.quote in content[item.start : item.end]

    room = max(1, int(ITEMS_PER_MESSAGE * len(transcript.messages)))  # one message tells one
    for position, fact in select(observed, typed, room, covers):
        item, message = observed[position], transcript.messages[position]
        if fact is None and item is not None:
            fact = CandidateFact(
                type=FactType.FACT,
                category=_category(item.text),
                subject=message.speaker or transcript.user,
                text=item.text,
                quote=message.content[item.start : item.end],
                message_index=message.index,
                valid_from=transcript.date,
                confidence=CONFIDENCE,
                rule=OBSERVATION,
            )
        if fact is not None:
            told = name_relatives(fact.text, fact.quote, known, languages)
            reply = _reply_to(transcript, position)
            told = told if reply is None else with_the_time_agreed(told, reply)
            facts.append(fact if told == fact.text else fact.model_copy(update={"text": told}))
    return facts, sources


def _reply_to(transcript: SessionTranscript, position: int) -> str | None:
    """The next message when the other side said it: the reply to the one at ``position``."""
    if position + 1 >= len(transcript.messages):
        return None
    if _speaker_of(transcript, position + 1) == _speaker_of(transcript, position):
        return None
    return transcript.messages[position + 1].content


def typed_facts(
    transcript: SessionTranscript, languages: Sequence[Language] = LANGUAGES
) -> tuple[list[tuple[int, CandidateFact]], list[Observation | None], set[tuple[int, int]]]:
    """The facts the typed rules find, each with its message's position, once each; every
    message's observation (None for what tells nothing, or is not the user's); and the
    sentences that gave a typed fact."""
    spoken = detect_language(  # a client who only says "parfait merci" speaks as spoken to
        " ".join(m.content for m in transcript.messages), languages, languages[0]
    )
    default = detect_language(
        " ".join(m.content for m in transcript.messages if m.role is Role.USER), languages, spoken
    )
    names = {m.speaker for m in transcript.messages if m.speaker} | {transcript.user}
    typed: list[tuple[int, CandidateFact]] = []
    who_said: dict[str, tuple[int, NamedAs, Language]] = {}  # the name each speaker gave
    named_within = {
        n[0] for m in transcript.messages for n in _NAMED_WITHIN.finditer(fold(m.content))
    }
    descriptions: list[tuple[int, str, str, str]] = []  # (position, speaker, quote, what)
    sources: set[tuple[int, int]] = set()
    seen: set[str] = set()
    observed: list[Observation | None] = []
    for position, message in enumerate(transcript.messages):
        if message.role is not Role.USER:
            observed.append(None)
            continue  # what the assistant says is never a fact about the user
        who = Speaker(message.speaker or transcript.user)
        language = detect_language(message.content, languages, default)
        said_on = date.fromisoformat((message.at or transcript.date)[:10])
        listener = _listener(transcript, who.name)
        folded = fold(message.content)
        said_typed: set[int] = set()  # sentences a first-class typed fact says: observed once
        for start, end in split_sentences(folded):
            sentence = folded[start:end]
            # Per sentence, for messages that switch language; a tie keeps the message's.
            spoken = detect_language(sentence, languages, language, evidence=_SWITCH)
            if (what := described(sentence, spoken)) is not None:
                descriptions.append((position, who.name, message.content[start:end], what))
            group = _company(sentence, spoken) or _company(folded, spoken)
            found = facts_of_sentence(sentence, Speaker(who.name, group), spoken, names)
            first_class = [item.text for item in found if item.category in FIRST_CLASS]
            if first_class and _says_all(sentence, first_class, spoken):
                said_typed.add(start)
            for item in found:
                key = normalize_text(item.text)
                sources.add((position, start))
                if key in seen:
                    continue
                seen.add(key)
                typed.append(
                    (
                        position,
                        CandidateFact(
                            type=item.type,
                            category=item.category,
                            subject=who.name,
                            text=item.text,
                            quote=message.content[start:end],
                            message_index=message.index,
                            valid_from=transcript.date,
                            confidence=CONFIDENCE,
                            rule=item.rule,
                        ),
                    )
                )
        asked = _asked(transcript, position, listener)
        named = name_given(folded, asked, who, language)
        if named is not None and not any(
            p == position and f.category in FIRST_CLASS and named.name in f.text for p, f in typed
        ):  # "May I have your name?" "Ines Varga, buyer at…", "Hi, Ines Varga here": who
            # the client is, told once ("My name is Ines" gives no second fact)
            typed = [(p, f) for p, f in typed if p != position or named.name not in f.text]
            who_said.setdefault(who.name, (len(typed), named, language))
            typed.append(
                (
                    position,
                    CandidateFact(
                        type=FactType.FACT,
                        category=CLIENT_INFO,
                        subject=who.name,
                        text=named.text,
                        quote=message.content[named.start : named.end],
                        message_index=message.index,
                        valid_from=transcript.date,
                        confidence=CONFIDENCE,
                        rule=f"{language.code}.answer.{CLIENT_INFO}",
                    ),
                )
            )
        observed.append(
            observe(
                message.content,
                who.name,
                language.plain_assistant if listener == _ASSISTANT else listener,
                language,
                said_on,
                asked,
                typed=said_typed,
                names=named_within,
                about=_date_spoken_of(transcript, position, said_on),
                confirmed=_confirmed(transcript, position, speaker_of_next=listener),
                echoed=_dates_echoed(transcript, position, said_on, asked),
            )
        )
    _describe(transcript, typed, who_said, descriptions)
    return typed, observed, sources


def _describe(
    transcript: SessionTranscript,
    typed: list[tuple[int, CandidateFact]],
    who_said: dict[str, tuple[int, NamedAs, Language]],
    descriptions: list[tuple[int, str, str, str]],
) -> None:
    """Who each speaker who gave their name is, with what they said they are elsewhere in
    the session ("Theo." … "I'm 38", "je suis sage-femme"): the name's fact tells both,
    and is said again with each quote that says more, so it keeps every quote."""
    for speaker, (place, named, language) in who_said.items():
        said = [(p, quote, what) for p, who, quote, what in descriptions if who == speaker]
        whats = list(dict.fromkeys(what for _, _, what in said))[:_DESCRIPTIONS]
        if not whats:
            continue
        position, fact = typed[place]
        text = who_is(named.name, whats, Speaker(speaker), language)
        typed[place] = (position, fact.model_copy(update={"text": text}))
        for p, quote, what in said:
            if what not in whats:
                continue  # a third thing said of them: not told, not quoted
            message = transcript.messages[p]
            typed.append(
                (
                    p,
                    fact.model_copy(
                        update={"text": text, "quote": quote, "message_index": message.index}
                    ),
                )
            )


_NAMED_WITHIN = re.compile(r"(?<=[a-zà-ÿ0-9] )[A-ZÀ-Ý][a-zà-ÿ'-]+\b(?![,!])")
"""A word written with a capital within a sentence ("see Noa", "merci Bastien"): a name."""
_DESCRIPTIONS = 2
"""What a speaker said they are, told after their name: a trade and an age, say."""
_ASSISTANT = "the assistant"
_SPOKEN_OF = 2
"""How many messages back a date may stand that a message putting a date right corrects."""
_LEFT_UNSAID = 2
"""Content words of a sentence its typed facts leave out from which the observation still
retells it: "we'll take the 250 excess, I prefer to pay a bit more" says a choice the
preference leaves out."""
_CONTENT = re.compile(r"[^\W_]{3,}")


def _says_all(sentence: str, texts: list[str], language: Language) -> bool:
    """Whether typed facts say (nearly) all a sentence says, so it is not observed again."""
    said = {w.casefold() for text in texts for w in _CONTENT.findall(text)}
    left = {
        w.casefold()
        for w in _CONTENT.findall(sentence)
        if w.casefold() not in language.stopwords and w.casefold() not in said
    }
    return len(left) < _LEFT_UNSAID


def _asked(transcript: SessionTranscript, position: int, listener: str) -> str | None:
    """The question the message at ``position`` answers: the one the message before asks,
    or the options it offers and the message takes (`offer_of`), when ``listener`` said it."""
    if position == 0:
        return None
    before = transcript.messages[position - 1]
    if _speaker_of(transcript, position - 1) != listener:
        return None
    reply = transcript.messages[position].content
    asked = question_of(before.content, reply) or offer_of(before.content, reply)
    return None if asked is None or puts_off(asked, reply) else asked


def _confirmed(transcript: SessionTranscript, position: int, speaker_of_next: str) -> bool:
    """Whether the next message, the listener's, takes up a value the message at
    ``position`` proposed ("Le 14 avril ?" "Le 14 avril c'est noté")."""
    if position + 1 >= len(transcript.messages):
        return False
    reply = transcript.messages[position + 1].content
    said = transcript.messages[position].content
    return _speaker_of(transcript, position + 1) == speaker_of_next and confirms(reply, said)


def _dates_echoed(
    transcript: SessionTranscript, position: int, said_on: date, asked: str | None
) -> list[date]:
    """The dates the reply to the message at ``position`` writes out (`_reply_to`), then
    those of the question ``asked`` it answers: "the 13th suits" to "Monday 13 April?"
    is in April, whatever month it is said in."""
    reply = _reply_to(transcript, position)
    texts = [text for text in (reply, asked) if text is not None]
    return [day for text in texts for day in dates_named(text, said_on)]


def _speaker_of(transcript: SessionTranscript, position: int) -> str:
    """Who said the message at ``position``: its speaker, the user, or the assistant."""
    message = transcript.messages[position]
    return (message.speaker or transcript.user) if message.role is Role.USER else _ASSISTANT


def _date_spoken_of(transcript: SessionTranscript, position: int, said_on: date) -> date | None:
    """The date the two messages before the one at ``position`` last wrote out, whoever
    said them, else the first it writes itself: the date a message that puts one right
    corrects ("Friday 18 June, I mean the 19th, sorry")."""
    for message in reversed(transcript.messages[max(0, position - _SPOKEN_OF) : position]):
        if found := list(dates_named(message.content, said_on)):
            return found[-1]
    return next(dates_named(transcript.messages[position].content, said_on), None)


def _listener(transcript: SessionTranscript, speaker: str) -> str:
    """Who "you" is for ``speaker``: the one other person, else the assistant."""
    others = {m.speaker for m in transcript.messages if m.speaker and m.speaker != speaker}
    if len(others) == 1:
        return others.pop()
    return _ASSISTANT
