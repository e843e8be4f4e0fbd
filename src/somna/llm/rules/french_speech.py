"""French as it is chatted: what surrounds a fact in a sentence, and what is never one.

The tables the engine (`extract`) applies before any rule, as in `english_speech`:
sentences and clauses that are never facts (`SKIP`, `HEDGES`), where a sentence is cut,
what leads a clause and is left out ("Coucou Bram !", "Ouais,", a time phrase), spoken
forms made plain, the words a self-contained clause does without (`VAGUE`) and who
"nous" or "on" is (`COMPANY`).
"""

from __future__ import annotations

import re

from somna.llm.rules.language import Replacement
from somna.llm.rules.text import regex as _re
from somna.llm.rules.text import words as _words

STOPWORDS = _words(
    """le la les un une des du de et est sont je j tu il elle nous vous ils elles mon ma
    mes ton ta tes notre nos votre vos pour avec dans sur pas que qui ne n qu c ce cette
    ces ai suis au aux très mais ou où bien aussi comme chez moi toi lui leur y d l"""
)

# --- sentences that are never facts ---------------------------------------------------------

PLEASANTRY = _re(
    r"^(?!.*(?:\bje\b|\bj'|\bmon\b|\bma\b|\bmes\b))"
    r"(?:merci|bonjour|bonsoir|salut|coucou|au\s+revoir|à\s+bientôt|à\s+plus|"
    r"bonne\s+(?:journée|soirée|nuit)|de\s+rien|d'accord|ok|super|génial|parfait|cool|top|"
    r"pardon|désolée?|excellent|bravo|oui|non)\b(?:[\s\W]*[\w']+){0,6}[\s\W]*$"
)

SKIP = (
    # conditionals: the whole part of the sentence is suspended
    _re(
        r"\b(?:si|imaginons|supposons|au\s+cas\s+où|hypothétiquement)\b|"
        r"\bs'il\b(?!\s+(?:te|vous)\s+pla[iî]t)"
    ),
    PLEASANTRY,
    _re(r"\bje\s+vais\s+(?:bien|mieux|mal|super|très\s+bien|me\s+coucher|dormir)\b|\bça\s+va\b"),
)
REQUEST = _re(
    r"^(?:s'il (?:te|vous) pla[iî]t|merci de|pourrais-tu|pouvez-vous|retiens|rappelle-moi|"
    r"n'oublie pas|note que|souviens-toi)\b"
)
HYPOTHETICAL = _re(r"\bsi\b.*\b\w+(?:rais|rait|rions|riez|raient)\b|\b\w+(?:rais|rait)\b.*\bsi\b")
INTERROGATIVE = _re(
    r"^(?:est-ce|qu'est-ce|que\b|quoi|comment|pourquoi|où|quand|qui\b|quel(?:le)?s?\b|"
    r"combien|[\w']+-(?:tu|vous|il|elle|ils|elles|on)\b|tu\b|vous\b)"
)
HEDGES = (
    # modals, the conditional mood, wishes
    _re(
        r"\b(?:peut-être|probablement|éventuellement|sans\s+doute|un\s+jour)\b|"
        r"\b\w+(?:rais|rait|rions|riez|raient)\b"
    ),
    # hedges and musings ("je pense à partir" is a plan, not a hedge)
    _re(
        r"\b(?:je\s+pense(?!\s+à\s+[\w']+(?:er|ir|re)\b)|je\s+crois|je\s+suppose|"
        r"il\s+me\s+semble|j'imagine|pas\s+sûre?|je\s+ne\s+sais\s+pas|j'hésite|"
        r"je\s+me\s+demande|je\s+réfléchis|j'essaie|j'essaye|je\s+suis\s+sûre?)\b"
    ),
    # passing moods
    _re(
        r"^je\s+(?:suis|me\s+sens)\s+(?:très\s+|si\s+|trop\s+|tellement\s+|un\s+peu\s+|super\s+)?"
        r"(?:contente?|ravie?|désolée?|fatiguée?|heureuse|heureux|occupée?|bien|crevée?|triste|"
        r"prête?|là|de\s+retour|curieux|curieuse|stressée?|sûre?|débordée?|épuisée?|fière?|"
        r"(?:impatiente?|pressée?)(?!\s+de\s+\w))"
    ),
)

_MARKERS = (
    r"(?:eh\s+bien|bon|alors|en\s+fait|d'ailleurs|au\s+fait|aussi|et|mais|sinon|franchement|"
    r"bref|ah|oh|oui|ouais|du\s+coup|par\s+ailleurs|tiens|enfin|bah|ben|ouah|waouh|wow|"
    r"en\s+tout\s+cas|à\s+propos|devine\s+quoi|malheureusement|heureusement|honnêtement|"
    r"depuis\s+la\s+dernière\s+fois|"
    r"(?:salut|bonjour|coucou|merci|hé|hey|bravo|félicitations)"
    r"(?:[\s,]+(?-i:[A-Z])[a-zà-ÿ]+\b(?!'))?)"
)
_DAYS = r"(?:lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche)"
_WHEN = (
    rf"(?:hier(?:\s+soir)?|aujourd'hui|demain|récemment|ce\s+(?:matin|soir|week-end|mois)|"
    rf"cette\s+(?:semaine|année)|cet\s+(?:été|hiver|automne)|la\s+semaine\s+(?:dernière|prochaine)|"
    rf"le\s+(?:mois|week-end)\s+(?:dernier|prochain)|l'(?:année|an)\s+(?:dernière?|prochaine?)|"
    rf"l'été\s+(?:dernier|prochain)|en\s+\d{{4}}|{_DAYS}(?:\s+(?:dernier|prochain))?|"
    rf"il\s+y\s+a\s+(?:\w+\s+)?(?:jours?|semaines?|mois|ans?))"
)
LEAD = _re(
    rf"^(?:{_MARKERS}\b[\s,!]*)*(?:(?P<when>{_WHEN})(?![\w-])[\s,]*)?(?:{_MARKERS}\b[\s,]*)*"
)
SEGMENT_BREAK = _re(r"\s*;\s*|\s+[-\u2013\u2014]+\s+|(?<=\w)[-\u2013\u2014]+\s+|\s*\u2014\s*")
CLAUSE_BREAK = _re(
    r",?\s+(?:et|mais|donc|car|parce\s+que)\s+(?=je\b|j'|mon\b|ma\b|mes\b)|"
    r",\s+(?=(?:(?:et|mais|donc|car)\s+)?(?:ça|c'est|c'était|ce\s+qui|qui|il|elle|ils|elles|on)\b)|"
    r"\s+(?:et|mais)\s+(?=(?:c'était|c'est|ça)\b)|"
    r",\s+(?=(?:je|j'|mon|ma|mes)\b)"
)
SPOKEN: tuple[tuple[re.Pattern[str], Replacement], ...] = (
    (_re(r"\bj'suis\b|\bchuis\b"), "je suis"),
    # a photo shared is a thing the speaker did: "Voici une photo de ma famille à la plage"
    (
        _re(r"^voici\s+(?=(?:une|un)\s+(?:[\w-]+\s+){0,2}?(?:de|d')\s*(?:mon|ma|mes)\b)"),
        "j'ai partagé ",
    ),
)
VAGUE = _re(
    r"\b(?:ça|cela|ceci|celui-ci|celle-ci|il|elle|ils|elles|lui|leur|eux|truc|trucs|y|"
    r"quelque\s+chose|tout\s+ça)\b"
)
FILLER = _words(
    """le la les l un une des du de d à a au aux en y ça ce c cela très trop bien aussi
    beaucoup plus encore vraiment tout tous toute toutes et ou mais donc pas ne n là ici
    fois"""
)
COMPANY = (
    (
        "family",
        _re(
            r"\b(?:mon|ma|mes|notre|nos)\s+(?:\w+\s+)?(?:enfants?|gosses|famille|mari|femme|fils|"
            r"filles?|parents|conjointe?|petits)\b|\bfamille\b|\bles\s+enfants\b"
        ),
    ),
    ("friends", _re(r"\b(?:ami(?:e|s|es)?|copains?|copines?|potes|bande)\b")),
)

PERSONAL = _re(r"(?<![\w'])(?:(?:je|me|moi|mon|ma|mes|nous|on)(?![\w-])|[jm]')")

TOGETHER = _re(r"^(?:mon|ma|mes)\s+[\w'-]+(?:\s+[\w'-]+)?\s+et\s+moi\b")
