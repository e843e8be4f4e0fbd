"""French tables for the rules provider: what counts as a fact, and what never does.

As in English, a clause is a fact when a rule of `RULES` matches it (first match wins)
and `french_grammar` can retell it; the generic rules (any "j'ai" + past participle,
"je suis en train de …") come last and leave out the verbs of talk and thought.
What surrounds a fact in chat is in `french_speech`, retelling in `french_grammar`,
standing instructions in `french_instruction`.
"""

from __future__ import annotations

import re

from somna.llm.rules.french_grammar import third_person
from somna.llm.rules.french_instruction import instruction
from somna.llm.rules.french_speech import (
    CLAUSE_BREAK,
    COMPANY,
    FILLER,
    HEDGES,
    HYPOTHETICAL,
    INTERROGATIVE,
    LEAD,
    PERSONAL,
    PLEASANTRY,
    REQUEST,
    SEGMENT_BREAK,
    SKIP,
    SPOKEN,
    STOPWORDS,
    TOGETHER,
    VAGUE,
)
from somna.llm.rules.language import Language, Rule, Slot
from somna.model import FactType

__all__ = ["FRENCH"]

_I = re.IGNORECASE


def _re(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, _I)


# --- what makes a fact ----------------------------------------------------------------------

_RELATIVES = (
    r"(?:sœur|soeur|frère|femme|mari|épouse|époux|conjointe?|compagne|compagnon|copine|copain|"
    r"petite\s+amie|petit\s+ami|amie?|meilleure?\s+amie?|mère|père|maman|papa|fils|fille|"
    r"enfants?|parents|grand-mère|grand-père|oncle|tante|cousine?|neveu|nièce|patronne?|"
    r"cheffe?|collègue|voisine?|fiancée?|chienne?|chatte?|chat|colocataire|coloc|jumelle?|"
    r"bébé|famille|aînée?|cadette?)"
)
_FR_VERB3 = (
    r"(?:est|sont|était|étaient|s'appelle|s'appellent|habite|habitent|vit|vivent|travaille|"
    r"travaillent|a|ont|avait|avaient|adore|adorent|aime|aiment|vient|viennent|va|vont|fait|"
    r"font|commence|commencent|part|partent|joue|jouent|étudie|étudient|arrive|arrivent|"
    r"préfère|préfèrent|reste|restent|devient|deviennent)"
)
_POSSESSIVE = r"(?:mon|ma|mes)"
_ADV = (
    r"(?:(?:enfin|finalement|déjà|récemment|aussi|officiellement|même|juste|toujours|jamais|"
    r"vraiment|beaucoup|bien|encore|souvent|tellement)\s+)*"
)
# Past participles of talk and thought: what follows them is rarely a fact of its own.
_UNSAID = (
    r"(?:pensé|cru|dit|demandé|voulu|pu|dû|su|entendu|oublié|remarqué|compris|senti|"
    r"ressenti|trouvé|essayé|hésité|souhaité|espéré|imaginé|eu\s+(?:peur|envie|besoin|"
    r"l'impression|l'idée))\b"
)
_PARTICIPLE = (
    rf"(?!{_UNSAID})[a-zà-ÿ]+(?:é|ée|és|ées|i|ie|is|ies|ise|ises|it|ite|ites|u|ue|us|ues|ert|"
    r"erte|int|ainte?|einte?|ait|aite)\b"
)
_BEEN = (
    r"(?:allée?s?|partie?s?|venue?s?|arrivée?s?|rentrée?s?|devenue?s?|née?s?|tombée?s?|"
    r"restée?s?|sortie?s?|montée?s?|descendue?s?|passée?s?|retournée?s?|revenue?s?)"
)
_NP = (
    r"(?!(?:ça|cela|ce|il|elle|ils|elles|on|tu|vous|nous|je|ton|ta|tes|votre|vos|qui|que|"
    r"quoi|merci|tout)\b|c'|j'|qu')[\w'-]+(?:\s+(?!(?:me|m'|pour)\b)[\w'-]+){0,6}?"
)
_DEAR = (
    r"(?:(?:très|vraiment|super|si|tellement|hyper|trop)\s+)?(?:importante?s?|précieuse?s?|"
    r"précieux|spéciale?s?|spéciaux|essentielle?s?|primordiale?s?)"
)

RULES = (
    # preferences -----------------------------------------------------------------------
    Rule(
        "preference",
        FactType.FACT,
        _re(
            r"^(?:je\s+|j')(?:(?:aime|adore|préfère|déteste|apprécie|kiffe)\b)(?!\s+bien\s+l'idée)"
        ),
    ),
    Rule(
        "preference",
        FactType.FACT,
        _re(r"^je\s+(?:ne\s+|n')(?:aime|supporte|mange|bois|apprécie)\b(?=.*\bpas\b)"),
    ),
    Rule(
        "preference",
        FactType.FACT,
        _re(
            r"^je\s+suis\s+(?:(?:un|une)\s+)?(?:(?:grande?|très)\s+)?fan\s+de\b|"
            r"^je\s+suis\s+(?:vraiment\s+|très\s+)?(?:passionnée?|accro|dingue|fou|folle)\s+"
            r"(?:de|d'|par|à)|^je\s+m'intéresse\s+(?:à|au|aux|beaucoup)\b|"
            r"^j'ai\s+un\s+faible\s+pour\b"
        ),
    ),
    Rule(
        "preference",
        FactType.FACT,
        _re(rf"^{_POSSESSIVE}\s+[\w\s'-]+?\s+préférée?s?\b.*\b(?:est|sont|c'est)\b"),
    ),
    # the speaker as object: "La danse est importante pour moi", "La peinture m'aide à…"
    Rule("preference", FactType.FACT, _re(r"^pour\s+moi\s*,\s*(?=\w)")),
    Rule(
        "preference",
        FactType.FACT,
        _re(
            rf"^{_NP}\s+(?:est|sont|reste|restent)\s+{_DEAR}\s+pour\s+moi$|"
            rf"^{_NP}\s+(?:compte|comptent)\s+(?:beaucoup\s+|énormément\s+|tellement\s+)?"
            rf"pour\s+moi$|^{_NP}\s+(?:me|m')\s*(?:tient|tiennent)\s+(?:vraiment\s+)?à\s+cœur$|"
            rf"^{_NP}\s+fait\s+partie\s+de\s+ma\s+vie$|"
            rf"^{_NP}\s+(?:me|m')\s*(?:calme|calment|détend|détendent|inspire|inspirent|motive|"
            r"motivent|passionne|passionnent)$"
        ),
        bare=True,
    ),
    Rule(
        "preference",
        FactType.FACT,
        _re(rf"^{_NP}\s+(?:est|sont|c'est)\s+(?:ma|mon|mes)\s+[\w-]+(?:\s+[\w-]+)?$"),
        bare=True,
    ),
    Rule(
        "preference",
        FactType.FACT,
        _re(
            rf"^{_NP}\s+(?:me|m')\s*(?:aide|aident|aidé|rend|rendent|apporte|apportent|donne|"
            r"donnent|permet|permettent|rappelle|rappellent)\b"
        ),
    ),
    # relationships ---------------------------------------------------------------------
    Rule(
        "relationship",
        FactType.FACT,
        _re(
            rf"^{_POSSESSIVE}\s+(?:(?:grande?|petite?|ex|nouvelle?|demi)[- ])?{_RELATIVES}"
            rf"(?:\s*,?\s*(?-i:[A-Z])[\w-]+\s*,?)?\s+{_FR_VERB3}\b"
        ),
    ),
    Rule(
        "relationship",
        FactType.FACT,
        _re(
            r"^je\s+suis\s+(?:mariée?|fiancée?|divorcée?|veuve|veuf|célibataire|en\s+couple|"
            r"pacsée?)\b"
        ),
        bare=True,
    ),
    Rule(
        "relationship",
        FactType.FACT,
        _re(
            rf"^j'ai\s+(?:un|une|deux|trois|quatre|cinq|\d+)\s+(?:(?:grande?|petite?)\s+)?"
            rf"{_RELATIVES}"
        ),
        bare=True,
    ),
    Rule(
        "relationship",
        FactType.FACT,
        _re(
            r"^j'ai\s+(?:vraiment\s+|beaucoup\s+de\s+)?(?:la\s+)?chance\s+d'avoir\b|"
            r"^je\s+suis\s+(?:très\s+|vraiment\s+|tellement\s+)?reconnaissante?\s+(?:pour|de|envers)\b"
        ),
    ),
    # identity --------------------------------------------------------------------------
    Rule(
        "identity",
        FactType.PERSONA,
        _re(r"^je\s+m'appelle\s+\S|^mon\s+(?:nom|prénom)\s+(?:est|c'est)\s+\S"),
    ),
    Rule(
        "identity",
        FactType.PERSONA,
        _re(r"^je\s+suis\s+(?:un|une)\b(?=\s+(?!(?:peu|grande?|fan|mélange)\b)\w)"),
    ),
    Rule(
        "identity",
        FactType.PERSONA,
        _re(
            r"^je\s+suis\s+(?:originaire\s+d|née?\s+(?:à|en|le|au)|de\s+nationalité|végétarien|"
            r"végétarienne|végane|vegan|végétalien|végétalienne|allergique\s+(?:à|au|aux)|"
            r"intolérante?\s+(?:au|à)|diabétique|retraitée?|étudiante?|médecin|infirmière?|"
            r"infirmier|ingénieure?|professeure?|enseignante?|avocate?|développeuse|"
            r"développeur|architecte|comptable|journaliste|designer|consultante?|"
            r"française?|français|belge|suisse|canadienne?|québécoise?)"
        ),
        bare=True,
    ),
    Rule(
        "identity",
        FactType.PERSONA,
        _re(
            r"^je\s+(?:travaille|bosse|vis|habite|étudie|enseigne)\b(?!\s+(?:sur|dessus))|"
            r"^j'(?:habite|étudie|enseigne)\b"
        ),
    ),
    Rule("identity", FactType.PERSONA, _re(r"^j'ai\s+\d+\s+ans\b"), bare=True),
    Rule("identity", FactType.PERSONA, _re(r"^je\s+parle\s+(?!de\b|d'|à\b|avec\b)\w+")),
    # decisions and plans ---------------------------------------------------------------
    Rule(
        "decision",
        FactType.FACT,
        _re(
            r"^j'ai\s+(?:finalement\s+|enfin\s+)?(?:décidé|choisi|opté|tranché)\b|"
            r"^je\s+me\s+suis\s+décidée?\b"
        ),
    ),
    Rule(
        "plan",
        FactType.FACT,
        _re(
            r"^je\s+(?:vais|compte|prévois|projette|veux|souhaite)\b(?=\s+\S)|"
            r"^j'ai\s+l'intention\s+d|^j'ai\s+(?:vraiment\s+)?(?:hâte|envie)\s+d|"
            r"^j'envisage\s+d|^je\s+pense\s+à\s+(?=[\w']+(?:er|ir|re)\b)|"
            r"^j'espère\s+(?=[\w']+(?:er|ir|re)\b)"
        ),
    ),
    Rule("plan", FactType.FACT, _re(r"^(?:je\s+|j')\w+rai\b")),
    Rule(
        "plan",
        FactType.FACT,
        _re(
            r"^je\s+pars\b(?=.*\b(?:demain|prochaine?|ce\s+week-end|bientôt|ce\s+soir|cet\s+été|"
            r"cette\s+semaine)\b)"
        ),
    ),
    Rule(
        "plan",
        FactType.FACT,
        _re(
            r"^(?:nous|on|(?:mon|ma|mes)\s+\w+(?:\s+\w+)?\s+et\s+moi)\s+"
            r"(?:allons|va|comptons|prévoyons)\b"
        ),
    ),
    # events ----------------------------------------------------------------------------
    Rule(
        "event",
        FactType.FACT,
        _re(rf"^je\s+suis\s+{_ADV}{_BEEN}\b"),
    ),
    Rule(
        "event",
        FactType.FACT,
        _re(
            r"^je\s+me\s+suis\s+(?!(?:demandée?|dite?|sentie?|rendue?\s+compte)\b)"
            rf"{_ADV}{_PARTICIPLE}"
        ),
    ),
    Rule(
        "event",
        FactType.FACT,
        _re(
            r"^j'ai\s+(?:(?:enfin|finalement|déjà|récemment|aussi|officiellement)\s+)?"
            r"(?:commencé|fini|terminé|visité|acheté|adopté|rencontré|déménagé|quitté|rejoint|"
            r"obtenu|vendu|lancé|gagné|réservé|signé|couru|appris|passé|réussi|démissionné|"
            r"été\s+promue?|emménagé|voyagé|publié|ouvert|perdu|eu\s+(?:un|une|mon|ma))\b"
        ),
    ),
    Rule("event", FactType.FACT, _re(rf"^j'ai\s+{_ADV}{_PARTICIPLE}")),
    Rule("event", FactType.FACT, _re(r"^je\s+viens\s+(?:tout\s+juste\s+)?d(?:e\s+|')")),
    Rule("event", FactType.FACT, _re(r"^je\s+suis\s+en\s+train\s+d(?:e\s+|')")),
    Rule(
        "event",
        FactType.FACT,
        _re(r"^c'(?:était|est)\s+(?:la|ma)\s+première\s+fois\s+que\s+(?:je\s|j')"),
    ),
    Rule(
        "event",
        FactType.FACT,
        _re(
            r"^(?:nous\s+(?:sommes|avons)|on\s+(?:est|a)|(?:mon|ma|mes)\s+\w+(?:\s+\w+)?\s+et\s+moi"
            rf"(?:\s*,\s*(?:nous|on))?\s+(?:sommes|avons|est|a))\s+{_ADV}(?:{_BEEN}|{_PARTICIPLE})"
        ),
    ),
    # activities ------------------------------------------------------------------------
    Rule(
        "activity",
        FactType.FACT,
        _re(
            r"^je\s+(?:fais\s+(?:du|de\s+la|de\s+l'|des)|joue\s+(?:du|de\s+la|de\s+l'|au|aux)|"
            r"pratique|peins|dessine|cours|nage|chante|danse|cuisine|écris|collectionne|"
            r"fais\s+partie\s+d|continue\s+(?:à|de|d')|fais\s+du\s+bénévolat)"
        ),
    ),
    Rule("activity", FactType.FACT, _re(r"^je\s+\w+\b(?=.*\bdepuis\b)")),
    Rule(
        "activity",
        FactType.FACT,
        _re(r"^(?:nous|on)\s+(?:adorons|aimons|adore|aime|allons|va|faisons|fait)\b"),
    ),
)

# --- judging: slots, negation ---------------------------------------------------------------

_S = r"^(?P<subject>.+?)"
_AT = r"(?:à|en|au|aux|dans)"
SLOTS = (
    Slot(
        "lives_in",
        _re(
            rf"{_S}\s+(?:habite|vit|réside)\s+(?:maintenant\s+|désormais\s+|toujours\s+)?{_AT}\s+(?P<value>.+)$"
        ),
    ),
    Slot(
        "lives_in",
        _re(rf"{_S}\s+(?:a\s+déménagé|a\s+emménagé|s'est\s+installée?)\s+{_AT}\s+(?P<value>.+)$"),
    ),
    Slot(
        "works_as",
        _re(
            rf"{_S}\s+travaille\s+(?:maintenant\s+|désormais\s+)?(?:comme|en\s+tant\s+que)\s+(?P<value>.+)$"
        ),
    ),
    Slot(
        "works_at",
        _re(rf"{_S}\s+travaille\s+(?:maintenant\s+|désormais\s+)?(?:chez|pour)\s+(?P<value>.+)$"),
    ),
    Slot(
        "favourite",
        _re(
            r"^(?:le|la|les|l')\s*(?P<thing>.+?)\s+préférée?s?\s+(?:de\s+|d')(?P<subject>.+?)\s+(?:est|sont)\s+(?P<value>.+)$"
        ),
    ),
    Slot(
        "married_to", _re(rf"{_S}\s+est\s+(?:maintenant\s+)?mariée?\s+(?:à|avec)\s+(?P<value>.+)$")
    ),
    Slot("prefers", _re(rf"{_S}\s+préfère\s+(?:maintenant\s+|désormais\s+)?(?P<value>.+)$")),
    Slot("age", _re(rf"{_S}\s+a\s+(?P<value>\d+)\s+ans$")),
    Slot("name", _re(rf"{_S}\s+s'appelle\s+(?P<value>.+)$")),
)
NEGATORS = frozenset({"ne", "n", "pas", "jamais", "aucun", "aucune"})
CESSATION = _re(r"\b(?:ne|n')\s*(?:\S+\s+){1,3}?plus\b|\bplus\s+jamais\b")
IGNORABLE = frozenset(["le", "la", "les", "l", "un", "une", "des", "du", "de", "d", "plus"])
LEMMAS: dict[str, str] = {}

FRENCH = Language(
    code="fr",
    stopwords=STOPWORDS,
    skip=SKIP,
    pleasantry=PLEASANTRY,
    lead=LEAD,
    segment_break=SEGMENT_BREAK,
    clause_break=CLAUSE_BREAK,
    spoken=SPOKEN,
    interrogative=INTERROGATIVE,
    hedges=HEDGES,
    together=TOGETHER,
    personal=PERSONAL,
    rules=RULES,
    vague=VAGUE,
    filler=FILLER,
    company=COMPANY,
    third_person=third_person,
    instruction=instruction,
    slots=SLOTS,
    negators=NEGATORS,
    cessation=CESSATION,
    ignorable=IGNORABLE,
    lemmas=LEMMAS,
    request=REQUEST,
    hypothetical=HYPOTHETICAL,
    plain_user="l'utilisateur",
)
