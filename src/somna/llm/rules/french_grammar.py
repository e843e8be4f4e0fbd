"""French retelling: a first-person clause said by Camille, told about Camille.

The shapes of `grammar.Grammar` for French; their patterns and the verb and pronoun tables
are in `french.toml` (``[grammar.*]``).

French helps: a first-group verb has the same form for "je" and "il" ("j'aime", "il
aime"), and "mon/ma/mes" become "son/sa/ses" whatever the speaker's gender. The shapes
retold, as in English:

- "je …": the subject named, the verb agreed from small tables ("je suis" → "est");
- "mon/ma/mes …": "le/la/les … de Camille";
- "nous …", "on …", "mes enfants et moi …": "Camille et sa famille …", only when the
  speaker's group is known (`Speaker.group`);
- "c'était la première fois que je …": the inner clause retold;
- the speaker as object ("La peinture m'aide à …", "… est important pour moi"): the name
  in place of "me/moi".

An unknown form (irregular verb, "tu", "vous") skips the clause.
"""

from __future__ import annotations

import re

from somna.llm.rules.grammar import Grammar, Unsure
from somna.llm.rules.language import Speaker
from somna.llm.rules.tables import read_tables

__all__ = [
    "FRENCH_GRAMMAR",
    "agreed",
    "agreed_listener",
    "asked_of_listener",
    "modal_to_listener",
    "nominative",
    "reflexive",
    "said_to_listener",
    "starts_with_vowel",
]

_VOWEL = "aeiouyhéèêëàâîïôûù"

_TABLES = read_tables("french")
_SHAPES = _TABLES.section_patterns("grammar")
_MAPS = _TABLES.maps("grammar")
HEDGING_VERBS = _TABLES.words("HEDGING_VERBS")
_INDIRECT = _TABLES.words("INDIRECT")
_DIRECT = _TABLES.words("DIRECT")
_DIRECT_ASKED = _TABLES.words("DIRECT_ASKED")
_DIRECT_INFINITIVE = _TABLES.words("DIRECT_INFINITIVE")
_PLANNING = {verb: _TABLES.pattern(p) for verb, p in _MAPS["planning"].items()}
"""A hedging verb that states a plan when an infinitive follows: "je pense à partir"."""
(
    _HEAD,
    _WE_HEAD,
    _POSSESSIVE_HEAD,
    _FIRST_TIME,
    _FOR_ME,
    _ME_OBJECT,
    _PRONOUNS,
    _FIRST_POSSESSIVE,
    _REFLEXIVE_INFINITIVE,
) = (
    _SHAPES[name]
    for name in (
        "head",
        "we",
        "possessed",
        "first_time",
        "for_me",
        "me_object",
        "pronouns",
        "first_possessive",
        "reflexive_infinitive",
    )
)


def starts_with_vowel(word: str) -> bool:
    return bool(word) and word[0].casefold() in _VOWEL


def nominative(who: Speaker, initial: bool) -> str:
    return FRENCH_GRAMMAR.name(who, initial)


def genitive(who: Speaker) -> str:
    """ "de Odile", "d'Anne", "de l'utilisateur"."""
    if who.is_user:
        return "de l'utilisateur"
    return f"d'{who.name}" if starts_with_vowel(who.name) else f"de {who.name}"


def _dative(who: Speaker) -> str:
    """ "à Odile", "à l'utilisateur"."""
    return f"à {nominative(who, initial=False)}"


def _third_singular(verb: str, rest: str) -> str:
    folded = verb.casefold()
    if folded in HEDGING_VERBS and not (folded in _PLANNING and _PLANNING[folded].match(rest)):
        raise Unsure(verb)
    if folded in _MAPS["irregular"]:
        return _MAPS["irregular"][folded]
    if folded.endswith(("rais", "rait")):
        raise Unsure(verb)  # conditional: a hypothetical
    if folded.endswith("rai"):
        return verb[:-1]  # future: commencerai -> commencera
    if folded.endswith("ais"):
        return verb[:-1] + "t"  # imperfect: habitais -> habitait
    if folded.endswith("e"):
        return verb  # first group: j'aime -> il aime
    raise Unsure(verb)


def agreed(verb: str) -> str:
    """The word after "je", agreed with a named speaker: "peux" → "peut", "voudrais" →
    "voudrait", "habitais" → "habitait", "prends" → "prend"; a first-group verb ("aime")
    and any word the rules do not know keep their form.

    >>> [agreed(v) for v in ("sais", "voudrais", "aime", "attends", "finirai")]
    ['sait', 'voudrait', 'aime', 'attend', 'finira']
    """
    folded = verb.casefold()
    if folded in _MAPS["irregular"]:
        return _MAPS["irregular"][folded]
    if folded.endswith("ais"):
        return verb[:-1] + "t"  # imperfect, conditional: voudrais -> voudrait
    if folded.endswith("rai"):
        return verb[:-1]  # future: finirai -> finira
    if folded.endswith(("ds", "is")):
        return verb[:-1] + ("" if folded.endswith("ds") else "t")  # attends, choisis
    return verb


def reflexive(pronoun: str | None, verb: str = "") -> str:
    """ "me" of a reflexive verb after "je", as it reads after a named speaker before
    `verb` as agreed ("je me suis trompée": "s'est trompée").

    >>> reflexive("m'"), reflexive("me "), reflexive(None), reflexive("me ", "est")
    ("s'", 'se ', '', "s'")
    """
    if not pronoun:
        return ""
    return "s'" if pronoun.endswith("'") or starts_with_vowel(verb) else "se "


def said_to_listener(me: str, you: str, before: str, obj: str, verb: str, done: str) -> str:
    """ "je vous …" retold: the listener after the verb, as its object ("l'utilisateur
    rappelle l'assistant") or, for most verbs, with "à" ("l'utilisateur envoie à
    l'assistant le devis"); a past participle stays with its auxiliary ("l'utilisateur
    l'a renvoyée à l'assistant").

    >>> said_to_listener("Léa", "Théo", "", "l'", "ai", "renvoyée")
    "Léa l'a renvoyée à Théo"
    >>> said_to_listener("Léa", "Théo", "", "", "rappelle", "")
    'Léa rappelle Théo'
    """
    to = you if verb.casefold() in _DIRECT else f"à {you}"
    told = f"{me} {before}{obj}{agreed(verb)}"
    return f"{told} {done} {to}" if done else f"{told} {to}"


def modal_to_listener(me: str, you: str, before: str, modal: str, obj: str, verb: str) -> str:
    """ "je voulais vous dire" retold: the listener after the infinitive, as its object or
    with "à".

    >>> modal_to_listener("Léa", "Théo", "", "voulais", "", "dire")
    'Léa voulait dire à Théo'
    >>> modal_to_listener("Léa", "Théo", "", "vais", "", "appeler")
    'Léa va appeler Théo'
    """
    to = you if verb.casefold() in _DIRECT_INFINITIVE else f"à {you}"
    return f"{me} {before}{agreed(modal)} {obj}{verb} {to}"


def asked_of_listener(me: str, verb: str, obj: str = "", *, moved: bool = False) -> str:
    """ "appelez-moi" retold: the speaker as the verb's object ("appelez l'utilisateur"),
    or for most verbs with "à" ("écrivez à l'utilisateur"), and always after the verb's
    own object ("renvoyez-les-moi": "renvoyez-les à l'utilisateur"); the object too when
    the speaker is `moved` somewhere ("passe-moi en mensuel": "passe Léa en mensuel").

    >>> asked_of_listener("Léa", "Écrivez"), asked_of_listener("Léa", "appelez")
    ('Écrivez à Léa', 'appelez Léa')
    >>> asked_of_listener("Léa", "passe", moved=True), asked_of_listener("Léa", "Renvoyez", "les")
    ('passe Léa', 'Renvoyez-les à Léa')
    """
    if obj:
        return f"{verb}-{obj} à {me}"
    direct = moved or verb.casefold() in _DIRECT_ASKED
    return f"{verb} {me}" if direct else f"{verb} à {me}"


def agreed_listener(verb: str) -> str:
    """The verb after "vous" (or "tu") agreed with a listener named: "pouvez" → "peut",
    "envoyez" → "envoie", "notez" → "note", "pourriez" → "pourrait", "peux" → "peut".

    >>> [agreed_listener(v) for v in ("pouvez", "envoyez", "notez", "pourriez", "veux")]
    ['peut', 'envoie', 'note', 'pourrait', 'veut']
    """
    folded = verb.casefold()
    if folded in _MAPS["vous"]:
        return _MAPS["vous"][folded]
    if folded.endswith("riez"):
        return verb[:-3] + "ait"  # conditional: pourriez -> pourrait
    if folded.endswith("yez"):
        return verb[:-3] + "ie"  # envoyez -> envoie
    if folded.endswith("ez"):
        return verb[:-1]  # first group: notez -> note
    return agreed(verb)


def _third_plural(verb: str, pronoun_on: bool) -> str:
    """ "nous sommes" / "on est" → "sont", "nous aimons" / "on aime" → "aiment"."""
    folded = verb.casefold()
    table = _MAPS["on"] if pronoun_on else _MAPS["nous"]
    if folded in table:
        return table[folded]
    if folded.endswith("ons") and not pronoun_on:
        return verb[:-3] + "ent"  # nous aimons -> ils aiment
    if folded.endswith("e") and pronoun_on:
        return verb + "nt"  # on aime -> ils aiment
    raise Unsure(verb)


def retell_pronouns(text: str, plural: bool = False) -> str:
    """ "mon/ma/mes" become "son/sa/ses"; "me" before an infinitive "se"; other persons: unsure.

    In a "nous" clause (``plural``), "notre/nos" become "leur/leurs" and "nous" "eux".
    """
    text = _REFLEXIVE_INFINITIVE.sub(lambda m: "s'" if m.group().endswith("'") else "se ", text)

    def swap(match: re.Match[str]) -> str:
        word = (match["word"] or "").casefold()
        if word in _MAPS["own"]:
            replacement = _MAPS["own"][word]
        elif plural and word in _MAPS["ours"]:
            replacement = _MAPS["ours"][word]
        else:
            raise Unsure(match.group())
        return replacement.capitalize() if match.group()[0].isupper() else replacement

    return _PRONOUNS.sub(swap, text)


def _retell_possessed(possessed: re.Match[str], who: Speaker, initial: bool) -> str:
    det = possessed["det"].casefold()
    noun = possessed["noun"]
    elided = det != "mes" and starts_with_vowel(noun)
    head = f"l'{noun}" if elided else f"{_MAPS['articles'][det]} {noun}"
    name = possessed["name"] or possessed["bare"]
    named = f", {name}," if name else ""
    rest = retell_pronouns(possessed["rest"])
    text = f"{head} {genitive(who)}{named} {possessed['verb']}{rest}"
    return text[:1].upper() + text[1:] if initial else text


def _retell_head(head: re.Match[str], who: Speaker, initial: bool) -> str:
    verb = _third_singular(head["verb"], head["rest"])
    parts = [nominative(who, initial), " "]
    if head["reflexive"]:
        reflexive = "s'" if starts_with_vowel(verb) else "se "
        parts += ["ne " if head["neg"] else "", reflexive]
    elif head["neg"]:
        parts.append("n'" if starts_with_vowel(verb) else "ne ")
    parts += [verb, retell_pronouns(head["rest"])]
    return "".join(parts).strip()


def _retell_we(head: re.Match[str], who: Speaker, initial: bool) -> str | None:
    if head["with"]:
        companions = f"{_MAPS['own'][head['det'].casefold()]} {head['with']}"
    else:
        companions = _MAPS["groups"].get(who.group or "", "")
    if not companions:
        return None
    pronoun = (head["pronoun"] or head["again"] or "").casefold()
    verb = _third_plural(head["verb"], pronoun_on=pronoun == "on")
    negation = ("n'" if starts_with_vowel(verb) else "ne ") if head["neg"] else ""
    rest = retell_pronouns(head["rest"], plural=True)
    return f"{nominative(who, initial)} et {companions} {negation}{verb}{rest}".strip()


def _retell_object(clause: str, who: Speaker, initial: bool) -> str:
    """ "La danse m'aide à …", "… est important pour moi", "… est ma passion"."""
    text = clause
    for_me = _FOR_ME.match(text)
    if for_me:
        rest = retell_pronouns(for_me["rest"])
        return f"{'Pour' if initial else 'pour'} {nominative(who, False)}, {rest}"
    me = _ME_OBJECT.match(text)
    if me:
        verb = me["verb"]
        rest = me["rest"]
        if verb.casefold() in {"tient", "tiennent"}:
            text = f"{me['subject']} {verb}{rest} {_dative(who)}"
        elif verb.casefold() in _INDIRECT:
            text = f"{me['subject']} {verb} {_dative(who)}{rest}"
        else:
            text = f"{me['subject']} {verb} {nominative(who, False)}{rest}"
    else:
        text = re.sub(r"(?i)\bpour\s+moi\b", f"pour {nominative(who, False)}", text)
        first = _FIRST_POSSESSIVE.search(text)
        if first:
            det = first["det"].casefold()
            noun = first["noun"]
            elided = det != "mes" and starts_with_vowel(noun)
            article = "l'" if elided else f"{_MAPS['articles'][det]} "
            text = f"{text[: first.start()]}{article}{noun} {genitive(who)}{text[first.end() :]}"
    text = retell_pronouns(text)
    return text[:1].upper() + text[1:] if initial else text


def _retell_first_time(first: re.Match[str], who: Speaker, initial: bool) -> str | None:
    """ "C'était la première fois que je …": the inner clause retold."""
    inner = _HEAD.match(first["clause"])
    if inner is None:
        return None
    told = _retell_head(inner, who, initial=False)
    que = "qu'" if starts_with_vowel(told) else "que "
    head = first["head"]
    return f"{head[:1].upper() if initial else head[:1]}{head[1:]}{que}{told}"


FRENCH_GRAMMAR = Grammar(
    plain_user=_TABLES.data["plain_user"],
    shapes=(
        (_WE_HEAD, lambda match, who, initial, _: _retell_we(match, who, initial)),
        (_POSSESSIVE_HEAD, lambda match, who, initial, _: _retell_possessed(match, who, initial)),
        (_FIRST_TIME, lambda match, who, initial, _: _retell_first_time(match, who, initial)),
        (_HEAD, lambda match, who, initial, _: _retell_head(match, who, initial)),
    ),
    about_object=_retell_object,
)
