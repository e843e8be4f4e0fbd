"""The words of a query worth matching in full text: no stop words, no punctuation.

A question such as "what is her job?" must not match every fact that contains
"is"; BM25 damps frequent words but cannot ignore them on a small profile.
"""

from __future__ import annotations

import re

__all__ = ["STOP_WORDS", "keywords", "question_words"]

_WORD = re.compile(r"\w+", re.UNICODE)

_ENGLISH = """
a about above after again against all am an and any are as at be because been before being
below between both but by can could did do does doing down during each few for from further
had has have having he her here hers herself him himself his how i if in into is it its
itself just me more most my myself no nor not now of off on once only or other our ours
ourselves out over own same she should so some such than that the their theirs them
themselves then there these they this those through to too under until up very was we were
what when where which while who whom why will with would you your yours yourself
yourselves tell know remember anything something ever many much
good best better way ways thing things really please thanks let lot
away far suggest tips tip ideas idea worth without easy quick well nice lovely long
"""
_FRENCH = """
au aux avec ce ces cette dans de des du elle elles en est et eux il ils je la le les leur
leurs lui ma mais me mes moi mon ne nos notre nous on ou où par pas pour qu que quel quelle
quels quelles qui sa se ses son sur ta te tes toi ton tu un une vos votre vous est sont été
être avoir a ont fait comment quoi faire faut peut peuvent puis dois doit va vais vont
c'est ça cela ceci quand combien pourquoi aussi très bien plus moins tout tous toute toutes
bon bonne bons bonnes meilleur meilleure meilleurs meilleures mieux
entre si comme donc alors sans sous dont
"""

STOP_WORDS: frozenset[str] = frozenset((_ENGLISH + _FRENCH).split())
_USED = """
utilise utilises utilisez utilisons utilisent utiliser utilisé utilisée utilisés utilisées
utilisation
"""
_RETELLING = (
    frozenset(
        ["user", "users", "says", "said", "answer", "utilisateur", "utilisatrice", "dit", "réponse"]
    )
    | frozenset(["get", "gets", "got", "getting", "rid"])
    | frozenset(_USED.split())
)
"""The words an offline observation is told in ("The user says that…", "L'utilisateur dit
que… (en réponse à…)"), and the lightest verb ("how do I get red wine out?"): most facts
of a profile hold them, so a question that holds one ("Comment dit-on…?") shares it with
all and with none in particular; so does a question that holds "utilise", which the
French index stems as "utilisateur". "make" and "go" tell more: leaving them out cost LoCoMo
one question in a hundred."""


def keywords(text: str) -> list[str]:
    """The distinct content words of `text`, lower-cased, in order of appearance.

    >>> keywords("What is her job?")
    ['job']
    """
    words = (word.casefold() for word in _WORD.findall(text))
    return list(dict.fromkeys(w for w in words if len(w) > 1 and w not in STOP_WORDS))


def question_words(question: str) -> list[str]:
    """The `keywords` of a question that may tell one fact from another: not the words every
    observation is told in.

    >>> question_words("Comment dit-on merci en italien ?")
    ['merci', 'italien']
    >>> question_words("Quelle lessive on utilise pour leur linge ?")
    ['lessive', 'linge']
    """
    return [w for w in keywords(question) if w not in _RETELLING]
