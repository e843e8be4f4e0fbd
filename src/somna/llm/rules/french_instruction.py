"""French standing instructions to the assistant: "toujours …", "désormais …", "retiens que …".

An imperative is kept only when its verb is one a user asks of an assistant (`IMPERATIVES`)
and the sentence says it stands ("toujours", "jamais", "désormais"); "retiens que …" is
kept only when what is to be remembered is about the speaker ("Retiens que je suis
végétarienne").
"""

from __future__ import annotations

from somna.llm.rules.french_grammar import FRENCH_GRAMMAR, nominative, starts_with_vowel
from somna.llm.rules.language import Speaker
from somna.llm.rules.text import regex as _re
from somna.llm.rules.text import trim_clause
from somna.llm.rules.text import words as _words

__all__ = ["IMPERATIVES", "instruction"]


IMPERATIVES = _words(
    """réponds répondez écris écrivez parle parlez utilise utilisez appelle appelez tutoie
    tutoyez vouvoie vouvoyez évite évitez donne donnez fais faites mets mettez sois
    soyez garde gardez rappelle rappelez envoie envoyez signe signez traduis traduisez
    résume résumez commence commencez termine terminez ajoute ajoutez indique indiquez
    cite citez propose proposez vérifie vérifiez demande demandez formule formulez
    explique expliquez emploie employez présente présentez dis dites mentionne
    mentionnez préviens prévenez"""
)
_POLITE = r"(?:(?:s'il\s+te\s+pla[iî]t|s'il\s+vous\s+pla[iî]t|stp|svp)\s*,?\s*)?"
_STANDING = _re(
    r"\b(?:toujours|jamais|désormais|dorénavant|à\s+partir\s+de\s+maintenant|à\s+l'avenir|"
    r"chaque\s+fois)\b|^(?:appelle|appelez)-moi\b"
)
_IMPERATIVE = _re(
    rf"^{_POLITE}(?:(?:désormais|dorénavant|à\s+partir\s+de\s+maintenant|à\s+l'avenir)\s*,?\s*)?"
    rf"{_POLITE}(?:ne\s+|n')?(?:me\s+|m')?(?P<verb>[^\W\d_]+)(?:-(?:moi|nous|le|la|les|lui))?\b"
)
_REMEMBER = _re(
    rf"^{_POLITE}(?:retiens|retenez|rappelle-toi|souviens-toi|n'oublie\s+pas|n'oubliez\s+pas|"
    r"n'oublie\s+jamais|note|notez|garde\s+en\s+tête|garde\s+à\s+l'esprit)(?:\s+bien)?\s*[,:]?\s*"
    r"(?:que\s+|qu')(?P<rest>.+)$"
)
_ABOUT_ME = _re(r"^(?:je\s|j'|mon\s|ma\s|mes\s)")


def instruction(sentence: str, who: Speaker) -> str | None:
    """ "Réponds toujours en français." : "L'utilisateur demande à l'assistant : « … »"."""
    clause = trim_clause(sentence)
    subject = nominative(who, initial=True)
    remember = _REMEMBER.match(clause)
    if remember:
        if not _ABOUT_ME.match(remember["rest"]):
            return None
        body = FRENCH_GRAMMAR.retell(remember["rest"], who, initial=False, objects=False)
        if not body:
            return None
        que = "qu'" if starts_with_vowel(body) else "que "
        return f"{subject} demande à l'assistant de retenir {que}{body}"
    imperative = _IMPERATIVE.match(clause)
    if imperative and imperative["verb"].casefold() in IMPERATIVES and _STANDING.search(clause):
        request = clause[:1].upper() + clause[1:]
        return f"{subject} demande à l'assistant : « {request}. »"
    return None
