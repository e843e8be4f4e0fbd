"""English retelling: a first-person clause said by Odile, told about Odile.

The shapes of `grammar.Grammar` for English; their patterns and the words they agree
are in `english.toml` (``[grammar.*]``). Five shapes are retold; anything else gives
None, since a missed fact costs less than a wrong one:

- "I …": the subject named, the verb agreed ("I love" → "Odile loves", "I'm" → "is");
- "my …": "Odile's …";
- "we …" and "my kids and I …": "Odile and their family …", only when the speaker's
  group is known (`Speaker.group`);
- "it was my first time …": "It was Odile's first time …";
- a clause about the speaker as object ("Gardening helps me relax"): "me" becomes the name.

Other first-person words after the head become "they/them/their"; "you" and, outside a
"we" clause, "we/our" are never guessed at. Verbs are known from small tables: an
unknown verb skips the clause.
"""

from __future__ import annotations

import re

from somna.llm.rules.grammar import Grammar, Unsure
from somna.llm.rules.language import Speaker
from somna.llm.rules.tables import read_tables

__all__ = ["ENGLISH_GRAMMAR", "PRESENT", "agreed", "nominative", "possessive", "retell_pronouns"]

_TABLES = read_tables("english")
_SHAPES = _TABLES.section_patterns("grammar")


def _third_singular(verb: str) -> str:
    irregular = {"have": "has", "do": "does", "go": "goes"}
    if verb in irregular:
        return irregular[verb]
    if verb.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if len(verb) > 2 and verb.endswith("y") and verb[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


PRESENT = {verb: _third_singular(verb) for verb in sorted(_TABLES.words("PRESENT"))}
PAST = _TABLES.words("PAST")
ADVERBS = _TABLES.words("ADVERBS")
_AUXILIARIES = _TABLES.maps("grammar")["auxiliaries"]
_KEPT = _TABLES.words("UNAGREED") | _TABLES.words("FILLER") | PAST | ADVERBS


def agreed(verb: str) -> str:
    """The word after "I", agreed with a named speaker: "handle" → "handles", "don't" →
    "does not". A retold observation keeps whatever verb was said, so any word that can
    only be a verb in the present is agreed, not only the known ones; a past tense, a
    modal, an adverb or another contraction keeps its form."""
    auxiliary = _AUXILIARIES.get(verb.casefold())
    if auxiliary is not None:
        return auxiliary
    if verb in PRESENT:
        return PRESENT[verb]
    if verb.casefold() in _KEPT or verb.endswith(("ed", "'t")):
        return verb
    return _third_singular(verb)


_MAPS = _TABLES.maps("grammar")
_HEAD, _WE_HEAD, _POSSESSIVE_HEAD, _FIRST_TIME, _PRONOUNS, _IS = (
    _SHAPES[name] for name in ("head", "we", "possessed", "first_time", "pronouns", "is")
)


def nominative(who: Speaker, initial: bool) -> str:
    return ENGLISH_GRAMMAR.name(who, initial)


def possessive(who: Speaker, initial: bool) -> str:
    return f"{nominative(who, initial)}'s"


def retell_pronouns(text: str, who: Speaker, instruction: bool, plural: bool = False) -> str:
    """First-person words after the head: "my" becomes "their", "I am" becomes "they are"…

    In an instruction, "me" and "my" name the speaker instead ("call the user Cara"), and
    "your" is the assistant's ("its"). "we" and "our" are retold only in a "we" clause
    (``plural``); "you" never.
    """

    def swap(match: re.Match[str]) -> str:
        word = " ".join(match.group().casefold().split())
        if instruction:
            if word in {"me", "myself"}:
                return nominative(who, initial=False)
            if word in {"my", "mine"}:
                return possessive(who, initial=False)
            if word in {"your", "yours"}:
                return "its"
            if word == "yourself":
                return "itself"
        if word == "me":
            return nominative(who, initial=False)
        if word in _MAPS["singular"]:
            return _MAPS["singular"][word]
        if plural and word in _MAPS["plural"]:
            return _MAPS["plural"][word]
        raise Unsure(word)

    return _PRONOUNS.sub(swap, text)


def _verb_phrase(words: list[str], plural: bool) -> list[str]:
    """The verb that opens ``words`` (popped, with its adverbs), agreed with the subject."""
    phrase = []
    while words and words[0].casefold() in ADVERBS:
        phrase.append(words.pop(0))
    if not words:
        raise Unsure("no verb")
    verb = words.pop(0).casefold()
    auxiliaries = _MAPS["plural_auxiliaries"] if plural else _MAPS["auxiliaries"]
    if verb in auxiliaries:
        phrase.append(auxiliaries[verb])
    elif verb in PRESENT:
        phrase.append(verb if plural else PRESENT[verb])
    elif verb in PAST or re.fullmatch(r"[a-z]{3,}ed", verb):
        phrase.append(verb)
    else:
        raise Unsure(verb)
    return phrase


def _retell_we(head: re.Match[str], who: Speaker, initial: bool) -> str | None:
    companions = f"their {head['with']}" if head["with"] else _MAPS["groups"].get(who.group or "")
    if companions is None or _PRONOUNS.search(companions[len("their ") :]):
        return None
    contraction = (head["contraction"] or "").casefold()
    if contraction == "'d":
        return None
    words = head["rest"].split()
    if contraction:
        verb_phrase = [_MAPS["plural_contractions"][contraction]]
    else:
        verb_phrase = _verb_phrase(words, plural=True)
    rest = retell_pronouns(" ".join(words), who, instruction=False, plural=True)
    subject = f"{nominative(who, initial)} and {companions}"
    return " ".join([subject, *verb_phrase, rest]).strip()


def _plain_is(text: str) -> str:
    """ "Gardening's a way", "my son's ok", "work's been": "'s" written out as "is" or "has"."""
    return _IS.sub(lambda m: " has " if m["has"] is not None else " is ", text)


def _retell_object(clause: str, who: Speaker, initial: bool) -> str:
    """ "Gardening helps me relax": "me" is the speaker by name, the first "my" too."""
    named = False

    def swap(match: re.Match[str]) -> str:
        nonlocal named
        word = match.group().casefold()
        if word == "me" or (word in {"my", "i"} and not named):
            named = True
            if word == "my":
                return possessive(who, initial=False)
            return nominative(who, initial=False)
        if word in _MAPS["singular"]:
            return _MAPS["singular"][word]
        raise Unsure(word)

    text = _PRONOUNS.sub(swap, _plain_is(clause))
    return text[:1].upper() + text[1:] if initial else text


def _retell_possessed(
    possessed: re.Match[str], who: Speaker, initial: bool, instruction: bool
) -> str:
    """ "my son's ok": "Odile's son is ok"."""
    rest = retell_pronouns(_plain_is(possessed["rest"]), who, instruction)
    return f"{possessive(who, initial)} {rest}"


def _retell_first_time(first: re.Match[str], who: Speaker, initial: bool, instruction: bool) -> str:
    rest = retell_pronouns(first["rest"], who, instruction)
    return f"{'It' if initial else 'it'} was {possessive(who, False)} first time {rest}"


def _retell_head(head: re.Match[str], who: Speaker, initial: bool, instruction: bool) -> str | None:
    """ "I love hiking": "Odile loves hiking"; "I'd …" is a wish, never retold."""
    contraction = (head["contraction"] or "").casefold()
    words = head["rest"].split()
    if contraction == "'d":
        return None
    if contraction:
        agreed = [_MAPS["contractions"][contraction]]
    else:
        agreed = _verb_phrase(words, plural=False)
    rest = retell_pronouns(" ".join(words), who, instruction)
    return " ".join([nominative(who, initial), *agreed, rest]).strip()


ENGLISH_GRAMMAR = Grammar(
    plain_user=_TABLES.data["plain_user"],
    shapes=(
        (_WE_HEAD, lambda match, who, initial, _: _retell_we(match, who, initial)),
        (_POSSESSIVE_HEAD, _retell_possessed),
        (_FIRST_TIME, _retell_first_time),
        (_HEAD, _retell_head),
    ),
    about_object=_retell_object,
)
