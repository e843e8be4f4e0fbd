"""English retelling: a first-person clause said by Odile, told about Odile.

Five shapes are retold; anything else gives None, since a missed fact costs less than a
wrong one:

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
from somna.llm.rules.text import words as _words

__all__ = ["ENGLISH_GRAMMAR", "PRESENT", "nominative", "possessive", "retell_pronouns"]

_I = re.IGNORECASE

_PRESENT_VERBS = _words(
    """love like enjoy prefer hate adore dislike detest work live study teach speak own
    plan intend aim need want eat drink play use volunteer practice practise miss cook
    read write watch drive ride swim travel run collect paint sing dance visit go do
    have hope value cherish appreciate treasure admire believe care mentor draw bake
    knit garden hike climb surf ski skate attend train coach make create keep take try
    support help spend find stay roast camp bond celebrate look sing"""
)


def _third_singular(verb: str) -> str:
    irregular = {"have": "has", "do": "does", "go": "goes"}
    if verb in irregular:
        return irregular[verb]
    if verb.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if len(verb) > 2 and verb.endswith("y") and verb[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


PRESENT = {verb: _third_singular(verb) for verb in sorted(_PRESENT_VERBS)}
PAST = read_tables("english").words("PAST")
PARTICIPLES = read_tables("english").words("PARTICIPLES")
AUXILIARIES = {
    "am": "is",
    "was": "was",
    "have": "has",
    "had": "had",
    "will": "will",
    "do": "does",
    "did": "did",
    "don't": "does not",
    "didn't": "did not",
    "can": "can",
    "can't": "cannot",
    "cannot": "cannot",
    "won't": "will not",
    "haven't": "has not",
    "wasn't": "was not",
    "must": "must",
}
_PLURAL_AUXILIARIES = {
    "are": "are",
    "were": "were",
    "have": "have",
    "had": "had",
    "will": "will",
    "did": "did",
    "didn't": "did not",
    "haven't": "have not",
    "weren't": "were not",
}
_CONTRACTIONS = {"'m": "is", "'ve": "has", "'ll": "will", "'re": "are"}
_PLURAL_CONTRACTIONS = {"'re": "are", "'ve": "have", "'ll": "will"}
ADVERBS = _words(
    """really also absolutely just still totally truly usually always never often sometimes
    recently finally already actually currently now even definitely mostly generally
    especially genuinely officially both all"""
)
_HEAD = re.compile(r"^i(?P<contraction>'m|'ve|'ll|'d)?\s+(?P<rest>.+)$", _I)
_WE_HEAD = re.compile(
    r"^(?:we|my\s+(?P<with>[\w'-]+(?:\s+[\w'-]+){0,2}?)\s+and\s+i)"
    r"(?P<contraction>'re|'ve|'ll|'d)?\s+(?P<rest>.+)$",
    _I,
)
_POSSESSIVE_HEAD = re.compile(r"^my\s+(?P<rest>.+)$", _I)
_FIRST_TIME = re.compile(r"^it\s+was\s+my\s+first\s+time\s+(?P<rest>.+)$", _I)
_PRONOUNS = re.compile(
    r"(?<![\w-])(?:i\s+am|i'm|i\s+was|i've|i'll|i'd|i|me|my|mine|myself|we're|we've|we'll|"
    r"we'd|we|us|our|ours|ourselves|you|your|yours|yourself|yourselves|ya|y'all|yall|u)(?![\w-])",
    _I,
)
_IS = re.compile(
    r"(?<=\w)'s\s+(?:(?P<has>(?=(?:been|allowed|helped|made|given|brought|taught|shown|"
    r"inspired|changed|become)\b))|(?=(?:a|an|my|the|so|really|definitely|such|always|totally|"
    r"super|very|mostly|also|just|truly|like|one|important|special|ok|okay|fine|doing|getting|"
    r"going|open|finally|now|still)\b))",
    _I,
)
_SINGULAR = {
    "i am": "they are",
    "i'm": "they are",
    "i was": "they were",
    "i've": "they have",
    "i'll": "they will",
    "i": "they",
    "me": "them",
    "my": "their",
    "mine": "theirs",
    "myself": "themselves",
}
_PLURAL = {
    "we're": "they are",
    "we've": "they have",
    "we'll": "they will",
    "we": "they",
    "us": "them",
    "our": "their",
    "ours": "theirs",
    "ourselves": "themselves",
}
_GROUPS = {"family": "their family", "friends": "their friends"}


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
        if word in _SINGULAR:
            return _SINGULAR[word]
        if plural and word in _PLURAL:
            return _PLURAL[word]
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
    auxiliaries = _PLURAL_AUXILIARIES if plural else AUXILIARIES
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
    companions = f"their {head['with']}" if head["with"] else _GROUPS.get(who.group or "")
    if companions is None or _PRONOUNS.search(companions[len("their ") :]):
        return None
    contraction = (head["contraction"] or "").casefold()
    if contraction == "'d":
        return None
    words = head["rest"].split()
    if contraction:
        verb_phrase = [_PLURAL_CONTRACTIONS[contraction]]
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
        if word in _SINGULAR:
            return _SINGULAR[word]
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
    agreed = [_CONTRACTIONS[contraction]] if contraction else _verb_phrase(words, plural=False)
    rest = retell_pronouns(" ".join(words), who, instruction)
    return " ".join([nominative(who, initial), *agreed, rest]).strip()


ENGLISH_GRAMMAR = Grammar(
    plain_user=read_tables("english").data["plain_user"],
    shapes=(
        (_WE_HEAD, lambda match, who, initial, _: _retell_we(match, who, initial)),
        (_POSSESSIVE_HEAD, _retell_possessed),
        (_FIRST_TIME, _retell_first_time),
        (_HEAD, _retell_head),
    ),
    about_object=_retell_object,
)
