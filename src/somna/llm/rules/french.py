"""French tables for the rules provider: what counts as a fact, and how to retell it.

French helps the retelling: a first-group verb has the same form for "je" and "il"
("j'aime", "il aime"), and "mon/ma/mes" become "son/sa/ses" whatever the speaker's
gender. Everything else (irregular verbs, elision, "ne", reflexives) is in small tables;
an unknown form skips the sentence.
"""

from __future__ import annotations

import re

from somna.llm.rules.language import Language, Rule, Slot, Speaker
from somna.llm.rules.text import trim_clause
from somna.llm.rules.text import words as _words
from somna.model import FactType

__all__ = ["FRENCH"]

_I = re.IGNORECASE
_VOWEL = "aeiouyhéèêëàâîïôûù"


def _re(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, _I)


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
    _re(
        r"\b(?:si|peut-être|probablement|éventuellement|sans\s+doute|imaginons|supposons|"
        r"au\s+cas\s+où|hypothétiquement|un\s+jour)\b|\bs'il\b(?!\s+(?:te|vous)\s+pla[iî]t)|"
        r"\b\w+(?:rais|rait|rions|riez|raient)\b"
    ),
    _re(
        r"\b(?:je\s+pense|je\s+crois|je\s+suppose|il\s+me\s+semble|j'imagine|pas\s+sûre?|"
        r"je\s+ne\s+sais\s+pas|j'hésite|je\s+me\s+demande|j'envisage|je\s+réfléchis|"
        r"j'essaie|j'essaye)\b"
    ),
    PLEASANTRY,
    _re(
        r"^(?:\w+\s*,\s*)*je\s+(?:suis|me\s+sens)\s+(?:très\s+|si\s+|trop\s+|tellement\s+|un\s+peu\s+)?"
        r"(?:contente?|ravie?|désolée?|fatiguée?|heureuse|heureux|occupée?|bien|crevée?|triste|"
        r"prête?|là|de\s+retour|curieux|curieuse|stressée?|sûre?)\b"
    ),
    _re(r"\bje\s+vais\s+(?:bien|mieux|mal|super|très\s+bien|me\s+coucher|dormir)\b|\bça\s+va\b"),
)

_MARKERS = (
    r"(?:eh\s+bien|bon|alors|en\s+fait|d'ailleurs|au\s+fait|aussi|et|mais|sinon|franchement|"
    r"bref|ah|oh|oui|ouais|salut|bonjour|coucou|merci|du\s+coup|par\s+ailleurs|tiens|enfin)"
)
_DAYS = r"(?:lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche)"
_WHEN = (
    rf"(?:hier(?:\s+soir)?|aujourd'hui|demain|récemment|ce\s+(?:matin|soir|week-end|mois)|"
    rf"cette\s+(?:semaine|année)|la\s+semaine\s+(?:dernière|prochaine)|"
    rf"le\s+(?:mois|week-end)\s+(?:dernier|prochain)|l'(?:année|an)\s+(?:dernière?|prochaine?)|"
    rf"l'été\s+(?:dernier|prochain)|en\s+\d{{4}}|{_DAYS}(?:\s+(?:dernier|prochain))?|"
    rf"il\s+y\s+a\s+(?:\w+\s+)?(?:jours?|semaines?|mois|ans?))"
)
LEAD = _re(
    rf"^(?:{_MARKERS}\b[\s,!]*)*(?:(?P<when>{_WHEN})(?![\w-])[\s,]*)?(?:{_MARKERS}\b[\s,]*)*"
)
CLAUSE_BREAK = _re(
    r"\s*;\s*|\s+[-\u2013\u2014]+\s+|"
    r",?\s+(?:et|mais|donc|car|parce\s+que)\s+(?=je\b|j'|mon\b|ma\b|mes\b)|"
    r",\s+(?=(?:(?:et|mais|donc|car)\s+)?(?:ça|c'est|ce\s+qui|qui|il|elle|ils|elles)\b)"
)
VAGUE = _re(r"\b(?:ça|cela|ceci|celui-ci|celle-ci|il|elle|ils|elles|lui|leur|eux|truc|trucs)\b")

# --- what makes a fact ----------------------------------------------------------------------

_RELATIVES = (
    r"(?:sœur|soeur|frère|femme|mari|épouse|époux|conjointe?|compagne|compagnon|copine|copain|"
    r"petite\s+amie|petit\s+ami|amie?|meilleure?\s+amie?|mère|père|maman|papa|fils|fille|"
    r"enfants?|parents|grand-mère|grand-père|oncle|tante|cousine?|neveu|nièce|patronne?|"
    r"cheffe?|collègue|voisine?|fiancée?|chienne?|chatte?|chat|colocataire|coloc|jumelle?|"
    r"bébé)"
)
_FR_VERB3 = (
    r"(?:est|sont|était|étaient|s'appelle|s'appellent|habite|habitent|vit|vivent|travaille|"
    r"travaillent|a|ont|adore|adorent|aime|aiment|vient|viennent|va|vont|fait|font|commence|"
    r"commencent|part|partent|joue|jouent|étudie|étudient|arrive|arrivent|préfère|préfèrent)"
)
_POSSESSIVE = r"(?:mon|ma|mes)"

RULES = (
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
        _re(r"^je\s+(?:ne\s+|n')(?:aime|supporte|mange|bois|apprécie)\b.*\bpas\b"),
    ),
    Rule(
        "preference",
        FactType.FACT,
        _re(
            r"^je\s+suis\s+(?:(?:un|une)\s+)?(?:(?:grande?|très)\s+)?fan\s+de\b|"
            r"^je\s+suis\s+passionnée?\s+(?:de|par)\b"
        ),
    ),
    Rule(
        "preference",
        FactType.FACT,
        _re(rf"^{_POSSESSIVE}\s+[\w\s'-]+?\s+préférée?s?\b.*\b(?:est|sont|c'est)\b"),
    ),
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
    ),
    Rule(
        "relationship",
        FactType.FACT,
        _re(
            rf"^j'ai\s+(?:un|une|deux|trois|quatre|cinq|\d+)\s+(?:(?:grande?|petite?)\s+)?"
            rf"{_RELATIVES}"
        ),
    ),
    Rule(
        "identity",
        FactType.PERSONA,
        _re(r"^je\s+m'appelle\s+\S|^mon\s+(?:nom|prénom)\s+(?:est|c'est)\s+\S"),
    ),
    Rule(
        "identity",
        FactType.PERSONA,
        _re(r"^je\s+suis\s+(?:un|une)\s+(?!(?:peu|grande?|fan)\b)\w+"),
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
    ),
    Rule(
        "identity",
        FactType.PERSONA,
        _re(
            r"^je\s+(?:travaille|bosse|vis|habite|étudie|enseigne)\b(?!\s+(?:sur|dessus))|"
            r"^j'(?:habite|étudie|enseigne)\b"
        ),
    ),
    Rule("identity", FactType.PERSONA, _re(r"^j'ai\s+\d+\s+ans\b")),
    Rule("identity", FactType.PERSONA, _re(r"^je\s+parle\s+(?!de\b|d'|à\b|avec\b)\w+")),
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
        _re(r"^je\s+(?:vais|compte|prévois|projette)\s+\S|^j'ai\s+l'intention\s+d"),
    ),
    Rule("plan", FactType.FACT, _re(r"^(?:je\s+|j')\w+rai\b")),
    Rule(
        "plan",
        FactType.FACT,
        _re(
            r"^je\s+pars\b.*\b(?:demain|prochaine?|ce\s+week-end|bientôt|ce\s+soir|cet\s+été|"
            r"cette\s+semaine)\b"
        ),
    ),
    Rule(
        "event",
        FactType.FACT,
        _re(
            r"^je\s+suis\s+(?:(?:enfin|finalement|déjà|récemment)\s+)?(?:allée?|partie?|"
            r"arrivée?|revenue?|rentrée?|devenue?|montée?|retournée?)\b"
        ),
    ),
    Rule(
        "event",
        FactType.FACT,
        _re(r"^je\s+me\s+suis\s+(?:mariée?|inscrite?|installée?|pacsée?|fiancée?|lancée?)\b"),
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
)

# --- the grammar of retelling ---------------------------------------------------------------

IRREGULAR = {
    "suis": "est",
    "ai": "a",
    "vais": "va",
    "fais": "fait",
    "peux": "peut",
    "veux": "veut",
    "dois": "doit",
    "sais": "sait",
    "vis": "vit",
    "pars": "part",
    "sors": "sort",
    "dors": "dort",
    "viens": "vient",
    "deviens": "devient",
    "reviens": "revient",
    "prends": "prend",
    "apprends": "apprend",
    "comprends": "comprend",
    "bois": "boit",
    "écris": "écrit",
    "lis": "lit",
    "connais": "connaît",
    "mets": "met",
    "cours": "court",
    "conduis": "conduit",
    "reçois": "reçoit",
    "vois": "voit",
    "finis": "finit",
    "choisis": "choisit",
    "réussis": "réussit",
    "prévois": "prévoit",
    "vends": "vend",
    "attends": "attend",
    "rejoins": "rejoint",
}
HEDGES = _words(
    """crois pense suppose imagine trouve sens espère souhaite voudrais aimerais pourrais
    devrais hésite envisage"""
)
_HEAD = _re(
    r"^(?:je\s+|j')(?P<neg>ne\s+|n')?(?P<reflexive>me\s+|m')?(?P<verb>[^\W\d_]+)(?P<rest>.*)$"
)
_POSSESSIVE_HEAD = _re(
    rf"^(?P<det>mon|ma|mes)\s+(?P<noun>[^,]+?)"
    rf"(?:\s*,\s*(?P<name>(?-i:[A-Z])[\w-]+)\s*,|\s+(?P<bare>(?-i:[A-Z])[\w-]+))?"
    rf"\s+(?P<verb>{_FR_VERB3})(?P<rest>(?:\s.*)?)$"
)
_ARTICLE = {"mon": "le", "ma": "la", "mes": "les"}
_OWN = {"mon": "son", "ma": "sa", "mes": "ses"}
_PRONOUNS = _re(
    r"(?<![\w'])(?:(?P<elided>[jmt])'|(?P<word>mon|ma|mes|je|me|moi|nous|notre|nos|vous|votre|"
    r"vos|tu|te|toi|ton|ta|tes|mien|mienne|miens|miennes|on)\b)"
)
_REFLEXIVE_INFINITIVE = _re(r"(?<![\w'])(?:me\s+|m')(?=[^\W\d_]+(?:er|ir|re)\b)")


class _Unsure(Exception):
    """The clause uses a form this grammar does not retell with confidence."""


def _starts_with_vowel(word: str) -> bool:
    return bool(word) and word[0].casefold() in _VOWEL


def nominative(who: Speaker, initial: bool) -> str:
    if who.is_user:
        return "L'utilisateur" if initial else "l'utilisateur"
    return who.name


def genitive(who: Speaker) -> str:
    """ "de Caroline", "d'Anne", "de l'utilisateur"."""
    if who.is_user:
        return "de l'utilisateur"
    return f"d'{who.name}" if _starts_with_vowel(who.name) else f"de {who.name}"


def _third_singular(verb: str) -> str:
    folded = verb.casefold()
    if folded in HEDGES:
        raise _Unsure(verb)
    if folded in IRREGULAR:
        return IRREGULAR[folded]
    if folded.endswith(("rais", "rait")):
        raise _Unsure(verb)  # conditional: a hypothetical
    if folded.endswith("rai"):
        return verb[:-1]  # future: commencerai -> commencera
    if folded.endswith("ais"):
        return verb[:-1] + "t"  # imperfect: habitais -> habitait
    if folded.endswith("e"):
        return verb  # first group: j'aime -> il aime
    raise _Unsure(verb)


def _retell_pronouns(text: str) -> str:
    """ "mon/ma/mes" become "son/sa/ses"; "me" before an infinitive "se"; other persons: unsure."""
    text = _REFLEXIVE_INFINITIVE.sub(lambda m: "s'" if m.group().endswith("'") else "se ", text)

    def swap(match: re.Match[str]) -> str:
        word = match["word"]
        if word and word.casefold() in _OWN:
            replacement = _OWN[word.casefold()]
            return replacement.capitalize() if word[0].isupper() else replacement
        raise _Unsure(match.group())

    return _PRONOUNS.sub(swap, text)


def _retell(clause: str, who: Speaker, initial: bool) -> str | None:
    try:
        possessed = _POSSESSIVE_HEAD.match(clause)
        if possessed:
            det = possessed["det"].casefold()
            noun = possessed["noun"]
            article = _ARTICLE[det]
            elided = det != "mes" and _starts_with_vowel(noun)
            head = f"l'{noun}" if elided else f"{article} {noun}"
            name = possessed["name"] or possessed["bare"]
            named = f", {name}," if name else ""
            rest = _retell_pronouns(possessed["rest"])
            text = f"{head} {genitive(who)}{named} {possessed['verb']}{rest}"
            return text[:1].upper() + text[1:] if initial else text
        head_match = _HEAD.match(clause)
        if head_match is None:
            return None
        verb = _third_singular(head_match["verb"])
        parts = [nominative(who, initial), " "]
        if head_match["reflexive"]:
            reflexive = "s'" if _starts_with_vowel(verb) else "se "
            parts += ["ne " if head_match["neg"] else "", reflexive]
        elif head_match["neg"]:
            parts.append("n'" if _starts_with_vowel(verb) else "ne ")
        parts += [verb, _retell_pronouns(head_match["rest"])]
        return "".join(parts).strip()
    except _Unsure:
        return None


def third_person(clause: str, who: Speaker) -> str | None:
    """ "J'aime la randonnée" said by the user: "L'utilisateur aime la randonnée"."""
    return _retell(clause, who, initial=True)


# --- instructions to the assistant ----------------------------------------------------------

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


def instruction(sentence: str, who: Speaker) -> str | None:
    """ "Réponds toujours en français." : "L'utilisateur demande à l'assistant : « … »"."""
    clause = trim_clause(sentence)
    subject = nominative(who, initial=True)
    remember = _REMEMBER.match(clause)
    if remember:
        rest = remember["rest"]
        try:
            body = (
                _retell(rest, who, initial=False)
                if _HEAD.match(rest) or re.match(r"(?i)(?:mon|ma|mes)\s", rest)
                else _retell_pronouns(rest)
            )
        except _Unsure:
            body = None
        if not body:
            return None
        que = "qu'" if _starts_with_vowel(body) else "que "
        return f"{subject} demande à l'assistant de retenir {que}{body}"
    imperative = _IMPERATIVE.match(clause)
    if imperative and imperative["verb"].casefold() in IMPERATIVES and _STANDING.search(clause):
        request = clause[:1].upper() + clause[1:]
        return f"{subject} demande à l'assistant : « {request}. »"
    return None


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
    clause_break=CLAUSE_BREAK,
    rules=RULES,
    vague=VAGUE,
    third_person=third_person,
    instruction=instruction,
    slots=SLOTS,
    negators=NEGATORS,
    cessation=CESSATION,
    ignorable=IGNORABLE,
    lemmas=LEMMAS,
)
