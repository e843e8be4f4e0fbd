"""What a question asks, as observations read it: whether it asks for anything at all,
which question a reply answers, where a statement ends before a question tagged on it,
and what a request puts to the listener ("Can we move all sessions to 6pm?")."""

from __future__ import annotations

import re
from dataclasses import dataclass

from somna.llm.rules.choices import names_how_made
from somna.llm.rules.frames import holds_a_value, opens_with_yes
from somna.llm.rules.language import Language
from somna.llm.rules.languages import LANGUAGES, weekday
from somna.llm.rules.numbers import names_a_sum
from somna.llm.rules.slips import takes_back
from somna.llm.rules.text import fold, split_sentences

__all__ = [
    "COMMA",
    "PROPOSAL",
    "TAGGED",
    "Request",
    "asks_something",
    "confirms",
    "lowered_opening",
    "offer_of",
    "proposed_value",
    "puts_off",
    "question_of",
    "request_in",
    "statement_before_question",
]

COMMA = re.compile(r"\s*[,;]\s+|\s+-\s+")
"""Where one clause of a sentence ends and the next starts."""
TAGGED = re.compile(rf"{COMMA.pattern}|(?<!:)\s+(?=(?:so|donc|du\s+coup)\s+\w)", re.IGNORECASE)
"""Where a question tagged on a statement may start: after a comma, or at a "so" ("Ines
has a do on the Saturday so could we do Friday?")."""
_TAG_WORDS = 5
"""At most this many words after a statement's last comma ask by their tone alone."""
_LABEL = re.compile(r"(?:[^\W\d_]+[ ,!]*){1,3}\s?:\s*")
"""A label of a few words before a colon: "Quick one:", "Petite question :"."""
_TONE_TAG = re.compile(r",?\s+(?:non|hein|right|no|yeah|yes|oui)\s*\?+\s*$", re.IGNORECASE)
"""A word that makes a statement a question by its tone alone: "…moins cher non ?"."""
_OFFERING = frozenset().union(
    *(language.stopwords | language.offers | language.greetings for language in LANGUAGES)
)
_TOKEN = re.compile(r"[^\W_]+")
"""Letters and digits, apart at apostrophes and hyphens ("puis-je", "aujourd'hui")."""
_VALUE = re.compile(r"\d+(?:h\d*|[:.]\d+)?(?:am|pm)?")
"""A number or a time as written ("16h", "9:30", "4pm")."""


@dataclass(frozen=True)
class Request:
    """A question asking the listener to do something, as `request_in` reads it."""

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

    def opening(self, language: Language) -> str:
        """How the language retells this kind of request: "{0} asks {1} to", "{0} asks for"…"""
        if self.what:
            return language.asking_for
        if self.that:
            return language.asking_that
        if self.negated:
            return language.asking_listener_not
        if self.of_listener:
            return language.asking_listener
        return language.asking


PROPOSAL = Request(0, of_listener=False, what=True)
"""A value the speaker proposed as a question and the listener took up: asked for."""


def proposed_value(sentence: str, language: Language) -> int | None:
    """Where the value a question proposes ends ("Le 14 avril ?", "le samedi à 10h ça
    irait ?", "so 4:30pm?"), before its tag; None for a question asked with a question
    word or a request, or one that names no value."""
    said = sentence.rstrip(" ?!.")
    if "?" not in sentence or any(
        pattern.match(said)
        for pattern in (language.interrogative, language.unmarked_question, language.asks_for)
    ):
        return None
    tag = language.proposal_tag.search(said)
    what = said[: tag.start() if tag else len(said)].rstrip(" ,")
    return len(what) if holds_a_value(what, names=False) else None


def confirms(reply: str, said: str) -> bool:
    """Whether a reply takes up a value the message before proposed ("Le 14 avril ?" "Le
    14 avril c'est noté"): it names one of its numbers or days and does not turn it down.

    >>> confirms("Yes, Saturday at 10 is free, I'll add it.", "Saturday at 10, ok?")
    True
    >>> confirms("Sorry, Saturday at 10 is taken.", "Saturday at 10, ok?")
    False
    """
    folded = fold(reply).strip()
    if any(language.declines.match(folded) for language in LANGUAGES):
        return False
    return bool(_values(folded) & _values(fold(said)))


def _values(text: str) -> set[str]:
    """The numbers and the days of the week `text` names ("mondays" is "monday")."""
    days = {weekday(w.casefold()) for w in _TOKEN.findall(text)}
    return set(_VALUE.findall(text.casefold())) | {str(day) for day in days if day is not None}


def request_in(sentence: str, language: Language) -> Request | None:
    """What a question asking the listener to do something asks for: "Can we move all
    sessions to 6pm?" is the speaker's decision, put to the listener, when it names a value
    (a time, a number, a name, a channel, a colour or a material chosen) or changes how
    things go (`_changes_how_things_go`).
    Without either ("Can you help me?") it asks for help: None. A short label may come
    first ("Quick one: can we…", "Petite question : on peut…")."""
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
    asked, _, after = sentence[start:].rstrip(" ?!.").partition("?")
    groups = opener.groupdict()
    if (after and not takes_back(after)) or not (
        holds_a_value(asked)
        or _changes_how_things_go(asked, language)
        or (groups.get("that") is not None and _done_by_another(asked, language))
        or names_how_made(asked)  # "can the planters be charcoal grey?"
    ):
        return None  # two questions; but "… 16 bags? sorry, 15" is one put right
    return Request(
        start,
        groups.get("listener") is not None,
        groups.get("that") is not None,
        groups.get("negated") is not None,
        groups.get("what") is not None,
    )


_SUBJECT_WORDS = 4
"""Words at most before the deed in a request of someone else ("one of your fitters")."""


def _done_by_another(asked: str, language: Language) -> bool:
    """Whether what is asked of someone else changes how things go once their name is left
    out: "your guy put two bait boxes out", "one of your fitters take the old boiler away"."""
    words = asked.split()
    return any(
        _changes_how_things_go(" ".join(words[k:]), language)
        for k in range(1, min(_SUBJECT_WORDS, len(words) - 1) + 1)
    )


_HOW_WORDS = 3
"""Content words from which a request says how a thing is to be done, or where."""


def _changes_how_things_go(asked: str, language: Language) -> bool:
    """Whether what is asked for changes how things go, though it names no value: a thing
    to have ("have the lemon tart"), done each time ("add a card to every order"), moved
    ("on peut décaler mes séances ?", "can it be half an hour earlier?"), put otherwise
    ("send it to our manager instead"), made a multiple ("can you double the boxes?"), or
    done in a way or a place of the speaker's ("can you wrap the mirror well?", "c possible
    de le mettre près de la fenêtre ?")."""
    folded = fold(asked)
    taken = language.takes.match(folded)
    named = _TOKEN.findall(folded[taken.end() :].casefold()) if taken else []
    if sum(w not in _OFFERING for w in named) > 1:  # "the lemon tart", not "some help"
        return True
    if language.manner.search(folded) and len(_content_words(folded)) >= _HOW_WORDS:
        return True  # "wash them with an unscented powder", not "help me with my order"
    return any(
        pattern.search(folded) is not None
        for pattern in (
            language.recurring,
            language.reschedule,
            language.change,
            language.time_shift,
            *language.scaled,
        )
    )


def statement_before_question(sentence: str, language: Language) -> int:
    """Where a statement ends when a question is tagged on after a comma ("I run 3 times a
    week now, is that enough?"): the statement tells, the question does not. The whole
    sentence otherwise."""
    if "?" not in sentence:
        return len(sentence)
    for comma in TAGGED.finditer(sentence):
        asked = sentence[comma.end() :]
        lead = language.lead.match(asked)  # "…until the 13th, so can we push it back?"
        asked = asked[lead.end() :] if lead else asked
        if (
            language.interrogative.match(asked) or language.asks_for.match(asked)
        ) and "?" not in sentence[: comma.start()]:
            return comma.start()
    # A short tag that asks by its tone alone ("…quarterly invoices from now on, ok for you?",
    # "…at 6pm, right?", "…ça coûtera moins cher non ?") after a statement that asks
    # nothing itself.
    tag = _TONE_TAG.search(sentence)
    if (
        tag is not None
        and "?" not in sentence[: tag.start()]
        and not language.interrogative.match(sentence)
        and not language.asks_for.match(sentence)
    ):
        return tag.start()
    commas = list(COMMA.finditer(sentence))
    if (
        commas
        and len(sentence[commas[-1].end() :].split()) <= _TAG_WORDS
        and "?" not in sentence[: commas[-1].start()]
        and not language.interrogative.match(sentence)
        and not language.asks_for.match(sentence)
    ):
        return commas[-1].start()
    return len(sentence)


def asks_something(asked: str) -> bool:
    """Whether a question asks for something in particular, not only offers help (in any
    language: the assistant may offer it in another than the answer's). A greeting, a
    name within the question (the business's own) and the deed a business offers ("what
    can we print for you?") ask nothing.

    >>> asks_something("How can I help?"), asks_something("Comment puis-je vous aider ?")
    (False, False)
    >>> asks_something("Good morning, Rosewood Bakes, what can we bake for you today?")
    False
    >>> asks_something("What do you do for a living?")
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


def offer_of(content: str, reply: str) -> str | None:
    """The options a message offers without asking ("Il reste une place le mercredi à 16h,
    ou le samedi à 9h."), when the reply takes one of them: its last sentence, which
    offers another option, or a value the reply says yes to ("On peut passer le lundi 22."
    "parfait le 22"), and names a time or a number the reply names too; or the thing
    it offers to take ("I'd suggest the oak one."), when the reply says yes, alone or
    before words about it ("ok, the oak one then").

    >>> offer_of("Noted. There's room on Wednesday at 4pm, or Saturday at 9am.", "4pm is great")
    "There's room on Wednesday at 4pm, or Saturday at 9am"
    >>> offer_of("Noted. There's room on Wednesday at 4pm, or Saturday at 9am.", "thanks!")
    >>> offer_of("Busy night. I'd suggest 7:30pm to 11:30pm. That's £90 more.", "Yes.")
    "I'd suggest 7:30pm to 11:30pm; that's £90 more"
    >>> offer_of("We have a 10-visit pass at £90, it might suit you.", "Ok, the pass then.")
    'We have a 10-visit pass at £90, it might suit you'
    """
    folded = fold(content)
    spans = split_sentences(folded)
    if not spans or "?" in folded:
        return None
    offered = [  # "I'd suggest 7:30pm to 11:30pm." "Yes."
        a
        for a, b in spans
        if any(language.offers_to_take.search(folded[a:b]) for language in LANGUAGES)
    ]
    if offered and (
        _assents(reply) or _yes_then_why(reply) or _takes_up(reply, folded[offered[-1] :])
    ):
        return _one_sentence(folded[offered[-1] :])  # with what it goes on to say
    if _takes_quoted(reply) and (quote := _quote(folded, spans)):
        return quote  # "It comes to £640 fitted." "ok go for that"
    last = folded[spans[-1][0] : spans[-1][1]].strip()
    words = {w.casefold() for w in _TOKEN.findall(last)}
    offers = any(words & language.alternative for language in LANGUAGES)
    proposes = any(words & language.proposing for language in LANGUAGES)
    named = set(_VALUE.findall(fold(reply).casefold()))
    offered_values = set(_VALUE.findall(last.casefold()))
    taken = (
        (offers and named & offered_values)
        or _said_yes_to(reply) & offered_values
        or (proposes and _okays(reply, offered_values))
    )
    return last.rstrip(" .!") if taken else None


def _okays(reply: str, offered: set[str]) -> bool:
    """Whether a reply's first sentence names only values a proposal gave, and a word of
    yes with them ("semaine du 14 septembre ok pour nous" to "on peut venir la semaine du
    14 septembre"): it takes the proposal, and what the proposal was for goes with it."""
    first = _first_sentence(reply)
    named = set(_VALUE.findall(first.casefold()))
    return (
        bool(named)
        and named <= offered
        and any(_assents(word) for word in _TOKEN.findall(first) if not _VALUE.fullmatch(word))
    )


def _first_sentence(reply: str) -> str:
    """The first sentence of a reply, folded; the whole of it when it has none."""
    folded = fold(reply)
    spans = split_sentences(folded)
    return folded[slice(*spans[0])] if spans else folded


def _quote(folded: str, spans: list[tuple[int, int]]) -> str | None:
    """The last sentence of a message that names a price, with the one before it when that
    one names a figure too, of what is priced ("A 9 kW pump. It comes to £6,400.")."""
    priced = [i for i, span in enumerate(spans) if names_a_sum(folded[slice(*span)])]
    if not priced:
        return None
    last = priced[-1]
    first = last - 1 if last and _VALUE.search(folded[slice(*spans[last - 1])]) else last
    return _one_sentence(folded[spans[first][0] : spans[last][1]])


def _takes_quoted(reply: str) -> bool:
    """Whether a reply takes what was quoted: says yes ("fine"), or takes it in so many
    words ("ok go for that", "ça nous va, on part là-dessus"), naming no figure of its
    own, and tells nothing else but may ask: what it went on to tell would carry the
    quote, and go when the price changes."""
    folded = fold(reply)
    first, *rest = [folded[slice(*span)] for span in split_sentences(folded)] or [folded]
    takes = all(  # "ok, go for that", not "do it, switch me to monthly from March"
        _assents(clause)
        or any(language.takes_quoted.fullmatch(clause.casefold()) for language in LANGUAGES)
        for clause in COMMA.split(first.strip().rstrip(" .!"))
    )
    return takes and not _VALUE.search(first) and all("?" in sentence for sentence in rest)


def _said_yes_to(reply: str) -> set[str]:
    """The values a reply names in its first two sentences after opening with a yes
    ("parfait le 22", "Yes. And the same for the bags, 66"): those it takes of what a
    statement put to it; none where it opens otherwise, or names its values later
    ("Perfect. Could you do the house too? 9 Elm Close, it's 7 windows")."""
    folded = fold(reply)
    spans = split_sentences(folded)
    head = folded[: spans[min(1, len(spans) - 1)][1]] if spans else ""
    value = _VALUE.search(head)
    if value and opens_with_yes(head[: value.start()]):
        return set(_VALUE.findall(head.casefold()))
    return set()


def question_of(content: str, reply: str | None = None) -> str | None:
    """The last question a message asks, as written, or None; with the sentence before it
    when it only asks about what that sentence proposes ("We can do Friday 9 May. Does that
    work?", "We do a box of 6 or of 12. Which suits you?"), or, when the `reply` only says
    yes, with the sentence before it that offers a thing to take ("We can offer you the
    oak one. Friday at 9, ok?" "ok") or that it offers to do ("We could move you to
    Fridays. Shall I switch it?" "go on").

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
        return _joined(sentences[last - 1], sentences[last])
    yes = reply is not None and _assents(reply)
    offers_to_do = any(language.offers_to_do.match(sentences[last]) for language in LANGUAGES)
    if (
        last > 0
        and offers_to_do
        and reply is not None
        and opens_with_yes(reply)
        and not holds_a_value(sentences[last], names=False)  # "move it to 2:30?" says it all
    ):
        return _joined(sentences[last - 1], sentences[last])  # "…, shall I switch it?" "yes"
    offered = [
        i
        for i, sentence in enumerate(sentences[:last])
        if any(language.offers_to_take.search(sentence) for language in LANGUAGES)
    ]
    if offered and yes:
        # "We can offer you the oak one at £40. Friday at 9, would that suit?" "ok"
        return _joined(sentences[offered[-1]], sentences[last])
    if yes and (priced := [s for s in sentences[:last] if names_a_sum(s)]):
        # "Full board is £210 a week. Shall we start on Monday?" "yep": at that price
        return _joined(priced[-1], sentences[last])
    return sentences[last]


def puts_off(asked: str, reply: str) -> bool:
    """Whether `reply` turns down or puts off what `asked` offered ("Would you like to add
    ink?" "not yet, we've a few spares"), its first sentence naming no value of its own
    ("no, Sunday please" proposes another): what the reply goes on to say answers nothing.

    >>> puts_off("Would you like to add ink to the order?", "not yet, we've spares")
    True
    >>> puts_off("Would you like Saturday?", "no, Sunday please")
    False
    """
    if not any(language.offers_more.search(fold(asked)) for language in LANGUAGES):
        return False
    first = _first_sentence(reply).strip().casefold()
    off = next((m for language in LANGUAGES if (m := language.puts_off.match(first))), None)
    return off is not None and not holds_a_value(first[off.end() :], names=False)


def _takes_up(reply: str, offered: str) -> bool:
    """Whether a reply opens with a yes and goes on about what was offered ("Ok ça me va,
    on part sur le carnet alors" to "on a un carnet de 5 séances…")."""
    first, _, rest = fold(reply).partition(",")
    return bool(rest) and _assents(first) and bool(_content_words(rest) & _content_words(offered))


def _content_words(text: str) -> set[str]:
    return {
        word
        for word in (w.casefold() for w in _TOKEN.findall(text))
        if len(word) > 3 and word not in _OFFERING
    }


def _assents(reply: str) -> bool:
    """Whether a reply only says yes ("ok", "parfait merci")."""
    return any(language.assent.match(fold(reply).strip()) for language in LANGUAGES)


def _yes_then_why(reply: str) -> bool:
    """Whether a reply says yes first, then only why ("go on then, good shout, it's a long
    road"): no value of its own after the yes, and nothing it denies."""
    head, _, rest = fold(reply).partition(",")
    words = set(rest.casefold().split())
    return (
        _assents(head)
        and not holds_a_value(rest, names=False)
        and not any(words & language.negators for language in LANGUAGES)
    )


def _one_sentence(text: str) -> str:
    """The sentences of `text` as one, as a fact is ("We could come fortnightly; we'd
    drop the call-out to £25")."""
    said = [text[a:b].strip().rstrip(" .!;") for a, b in split_sentences(text)]
    return "; ".join(said[:1] + [lowered_opening(sentence) for sentence in said[1:]])


def _joined(proposed: str, asked: str) -> str:
    """A proposal and the question about it, as one sentence, as a fact is."""
    return f"{proposed.rstrip(' .!;:')}, {lowered_opening(asked)}"


def lowered_opening(text: str) -> str:
    """`text` with its first letter in lower case, as it reads within a sentence; a day's or
    a month's name keeps its capital where its language writes one ("Saturday at 9am")."""
    first = _TOKEN.match(text)
    named = first is not None and first[0].casefold().removesuffix("s") in _CALENDAR
    return text if named else text[:1].lower() + text[1:]


_CALENDAR = frozenset().union(
    *(
        set(language.dates.weekdays) | language.month_names
        for language in LANGUAGES
        if language.capitalises_months
    )
)
"""The names of days and months where a language writes them with a capital."""
