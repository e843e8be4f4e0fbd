"""French tables for the rules provider: what counts as a fact, and what never does.

As in English, a clause is a fact when a rule of `RULES` matches it (first match wins)
and `french_grammar` can retell it; the generic rules (any "j'ai" + past participle,
"je suis en train de …") come last and leave out the verbs of talk and thought.
What surrounds a fact in chat is in `french_speech`, retelling in `french_grammar`,
standing instructions in `french_instruction`.
"""

from __future__ import annotations

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
from somna.llm.rules.language import SUBJECT, Language, Rule, Slot
from somna.llm.rules.text import maybe_one_of
from somna.llm.rules.text import regex as _re
from somna.llm.rules.text import words as _words
from somna.model import FactType

__all__ = ["FRENCH"]


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

_I = r"(?:je\s+|j')"
_I_AM = r"je\s+suis\s+"
_I_HAVE = r"j'ai\s+"
_AND_I = rf"{_POSSESSIVE}\s+\w+(?:\s+\w+)?\s+et\s+moi"
"""The speaker and another: "ma sœur et moi", "mon mari et moi"."""
_ME = r"(?:me|m')"

RULES = (
    # preferences -----------------------------------------------------------------------
    Rule(
        "preference",
        FactType.FACT,
        _re(rf"^{_I}(?:(?:aime|adore|préfère|déteste|apprécie|kiffe)\b)(?!\s+bien\s+l'idée)"),
        examples={
            "J'adore le fromage de chèvre.": "L'utilisateur adore le fromage de chèvre.",
            "Je préfère le thé au café.": "L'utilisateur préfère le thé au café.",
        },
        counter_examples=("J'aime bien l'idée.",),
    ),
    Rule(
        "preference",
        FactType.FACT,
        _re(r"^je\s+(?:ne\s+|n')(?:aime|supporte|mange|bois|apprécie)\b(?=.*\bpas\b)"),
        examples={"Je n'aime pas les huîtres.": "L'utilisateur n'aime pas les huîtres."},
        counter_examples=("Je ne mange que des légumes.",),
    ),
    Rule(
        "preference",
        FactType.FACT,
        _re(
            rf"^{_I_AM}{maybe_one_of('un une')}{maybe_one_of('grande? très')}fan\s+de\b|"
            rf"^{_I_AM}(?:vraiment\s+|très\s+)?(?:passionnée?|accro|dingue|fou|folle)\s+"
            r"(?:de|d'|par|à)|^je\s+m'intéresse\s+(?:à|au|aux|beaucoup)\b|"
            rf"^{_I_HAVE}un\s+faible\s+pour\b"
        ),
        examples={
            "Je suis une grande fan de jazz.": "L'utilisateur est une grande fan de jazz.",
            "Je suis passionnée d'astronomie.": "L'utilisateur est passionnée d'astronomie.",
            "Je m'intéresse à l'histoire médiévale.": (
                "L'utilisateur s'intéresse à l'histoire médiévale."
            ),
            "J'ai un faible pour les croissants.": "L'utilisateur a un faible pour les croissants.",
        },
    ),
    Rule(
        "preference",
        FactType.FACT,
        _re(rf"^{_POSSESSIVE}\s+[\w\s'-]+?\s+préférée?s?\b.*\b(?:est|sont|c'est)\b"),
        examples={
            "Mon plat préféré est la ratatouille.": (
                "Le plat préféré de l'utilisateur est la ratatouille."
            )
        },
    ),
    # the speaker as object: "La danse est importante pour moi", "La peinture m'aide à…"
    Rule(
        "preference",
        FactType.FACT,
        _re(r"^pour\s+moi\s*,\s*(?=\w)"),
        examples={
            "Pour moi, la famille passe avant tout.": (
                "Pour l'utilisateur, la famille passe avant tout."
            )
        },
    ),
    Rule(
        "preference",
        FactType.FACT,
        _re(
            rf"^{_NP}\s+(?:est|sont|reste|restent)\s+{_DEAR}\s+pour\s+moi$|"
            rf"^{_NP}\s+(?:compte|comptent)\s+(?:beaucoup\s+|énormément\s+|tellement\s+)?"
            rf"pour\s+moi$|^{_NP}\s+{_ME}\s*(?:tient|tiennent)\s+(?:vraiment\s+)?à\s+cœur$|"
            rf"^{_NP}\s+fait\s+partie\s+de\s+ma\s+vie$|"
            rf"^{_NP}\s+{_ME}\s*(?:calme|calment|détend|détendent|inspire|inspirent|motive|"
            r"motivent|passionne|passionnent)$"
        ),
        bare=True,
        examples={
            "La musique est très importante pour moi.": (
                "La musique est très importante pour l'utilisateur."
            ),
            "Le jardinage me calme.": "Le jardinage calme l'utilisateur.",
        },
        counter_examples=("Ça compte beaucoup pour moi.",),
    ),
    Rule(
        "preference",
        FactType.FACT,
        _re(rf"^{_NP}\s+(?:est|sont|c'est)\s+(?:ma|mon|mes)\s+[\w-]+(?:\s+[\w-]+)?$"),
        bare=True,
        examples={"Le vélo est ma passion.": "Le vélo est la passion de l'utilisateur."},
        counter_examples=("C'est ma faute.",),
    ),
    Rule(
        "preference",
        FactType.FACT,
        _re(
            rf"^{_NP}\s+{_ME}\s*(?:aide|aident|aidé|rend|rendent|apporte|apportent|donne|"
            r"donnent|permet|permettent|rappelle|rappellent)\b"
        ),
        examples={
            "La lecture m'aide à me détendre.": "La lecture aide l'utilisateur à se détendre."
        },
        counter_examples=("Ça m'aide beaucoup.",),
    ),
    # relationships ---------------------------------------------------------------------
    Rule(
        "relationship",
        FactType.FACT,
        _re(
            rf"^{_POSSESSIVE}\s+(?:(?:grande?|petite?|ex|nouvelle?|demi)[- ])?{_RELATIVES}"
            rf"(?:\s*,?\s*(?-i:[A-Z])[\w-]+\s*,?)?\s+{_FR_VERB3}\b"
        ),
        examples={
            "Ma sœur habite à Nantes.": "La sœur de l'utilisateur habite à Nantes.",
            "Mon frère Hugo travaille à Lille.": (
                "Le frère de l'utilisateur, Hugo, travaille à Lille."
            ),
        },
    ),
    Rule(
        "relationship",
        FactType.FACT,
        _re(
            rf"^{_I_AM}(?:mariée?|fiancée?|divorcée?|veuve|veuf|célibataire|en\s+couple|"
            r"pacsée?)\b"
        ),
        bare=True,
        examples={
            "Je suis mariée.": "L'utilisateur est mariée.",
            "Je suis célibataire.": "L'utilisateur est célibataire.",
        },
    ),
    Rule(
        "relationship",
        FactType.FACT,
        _re(
            rf"^{_I_HAVE}(?:un|une|deux|trois|quatre|cinq|\d+)\s+{maybe_one_of('grande? petite?')}"
            rf"{_RELATIVES}"
        ),
        bare=True,
        examples={
            "J'ai deux enfants.": "L'utilisateur a deux enfants.",
            "J'ai une petite sœur.": "L'utilisateur a une petite sœur.",
        },
    ),
    Rule(
        "relationship",
        FactType.FACT,
        _re(
            rf"^{_I_HAVE}(?:vraiment\s+|beaucoup\s+de\s+)?(?:la\s+)?chance\s+d'avoir\b|"
            rf"^{_I_AM}(?:très\s+|vraiment\s+|tellement\s+)?reconnaissante?\s+(?:pour|de|envers)\b"
        ),
        examples={
            "J'ai la chance d'avoir des amis fidèles.": (
                "L'utilisateur a la chance d'avoir des amis fidèles."
            ),
            "Je suis reconnaissante pour mes voisins.": (
                "L'utilisateur est reconnaissante pour ses voisins."
            ),
        },
    ),
    # identity --------------------------------------------------------------------------
    Rule(
        "identity",
        FactType.PERSONA,
        _re(r"^je\s+m'appelle\s+\S|^mon\s+(?:nom|prénom)\s+(?:est|c'est)\s+\S"),
        examples={
            "Je m'appelle Bastien.": "L'utilisateur s'appelle Bastien.",
            "Mon prénom est Léa.": "Le prénom de l'utilisateur est Léa.",
        },
    ),
    Rule(
        "identity",
        FactType.PERSONA,
        _re(rf"^{_I_AM}(?:un|une)\b(?=\s+(?!(?:peu|grande?|fan|mélange)\b)\w)"),
        examples={"Je suis une cheffe pâtissière.": "L'utilisateur est une cheffe pâtissière."},
        counter_examples=("Je suis un peu fatigué.",),
    ),
    Rule(
        "identity",
        FactType.PERSONA,
        _re(
            rf"^{_I_AM}(?:originaire\s+d|née?\s+(?:à|en|le|au)|de\s+nationalité|végétarien|"
            r"végétarienne|végane|vegan|végétalien|végétalienne|allergique\s+(?:à|au|aux)|"
            r"intolérante?\s+(?:au|à)|diabétique|retraitée?|étudiante?|médecin|infirmière?|"
            r"infirmier|ingénieure?|professeure?|enseignante?|avocate?|développeuse|"
            r"développeur|architecte|comptable|journaliste|designer|consultante?|"
            r"française?|français|belge|suisse|canadienne?|québécoise?)"
        ),
        bare=True,
        examples={
            "Je suis végétarienne.": "L'utilisateur est végétarienne.",
            "Je suis originaire de Bretagne.": "L'utilisateur est originaire de Bretagne.",
            "Je suis infirmière.": "L'utilisateur est infirmière.",
        },
    ),
    Rule(
        "identity",
        FactType.PERSONA,
        _re(
            r"^je\s+(?:travaille|bosse|vis|habite|étudie|enseigne)\b(?!\s+(?:sur|dessus))|"
            r"^j'(?:habite|étudie|enseigne)\b"
        ),
        examples={
            "Je travaille dans une librairie.": "L'utilisateur travaille dans une librairie.",
            "J'habite à Grenoble.": "L'utilisateur habite à Grenoble.",
        },
        counter_examples=("Je travaille dessus.",),
    ),
    Rule(
        "identity",
        FactType.PERSONA,
        _re(rf"^{_I_HAVE}\d+\s+ans\b"),
        bare=True,
        examples={"J'ai 35 ans.": "L'utilisateur a 35 ans."},
    ),
    Rule(
        "identity",
        FactType.PERSONA,
        _re(r"^je\s+parle\s+(?!de\b|d'|à\b|avec\b)\w+"),
        examples={"Je parle couramment l'italien.": "L'utilisateur parle couramment l'italien."},
        counter_examples=("Je parle de mon voyage.",),
    ),
    # decisions and plans ---------------------------------------------------------------
    Rule(
        "decision",
        FactType.FACT,
        _re(
            rf"^{_I_HAVE}(?:finalement\s+|enfin\s+)?(?:décidé|choisi|opté|tranché)\b|"
            r"^je\s+me\s+suis\s+décidée?\b"
        ),
        examples={
            "J'ai décidé d'apprendre le violon.": "L'utilisateur a décidé d'apprendre le violon.",
            "Je me suis décidée à partir.": "L'utilisateur s'est décidée à partir.",
        },
    ),
    Rule(
        "plan",
        FactType.FACT,
        _re(
            r"^je\s+(?:vais|compte|prévois|projette|veux|souhaite)\b(?=\s+\S)|"
            rf"^{_I_HAVE}l'intention\s+d|^{_I_HAVE}(?:vraiment\s+)?(?:hâte|envie)\s+d|"
            r"^j'envisage\s+d|^je\s+pense\s+à\s+(?=[\w']+(?:er|ir|re)\b)|"
            r"^j'espère\s+(?=[\w']+(?:er|ir|re)\b)"
        ),
        examples={
            "Je vais apprendre l'espagnol.": "L'utilisateur va apprendre l'espagnol.",
            "J'ai hâte de voir la mer.": "L'utilisateur a hâte de voir la mer.",
            "J'espère visiter le Japon.": "L'utilisateur espère visiter le Japon.",
        },
        counter_examples=("Je pense à toi.",),
    ),
    Rule(
        "plan",
        FactType.FACT,
        _re(rf"^{_I}\w+rai\b"),
        examples={"J'irai à Québec cet été.": "L'utilisateur ira à Québec cet été."},
    ),
    Rule(
        "plan",
        FactType.FACT,
        _re(
            r"^je\s+pars\b(?=.*\b(?:demain|prochaine?|ce\s+week-end|bientôt|ce\s+soir|cet\s+été|"
            r"cette\s+semaine)\b)"
        ),
        examples={
            "Je pars à Marseille ce week-end.": "L'utilisateur part à Marseille ce week-end."
        },
        counter_examples=("Je pars souvent en voyage.",),
    ),
    Rule(
        "plan",
        FactType.FACT,
        _re(rf"^(?:nous|on|{_AND_I})\s+(?:allons|va|comptons|prévoyons)\b"),
        examples={
            "Mon mari et moi comptons acheter une maison.": (
                "L'utilisateur et son mari comptent acheter une maison."
            ),
            "Nous allons déménager à Lyon avec nos enfants.": (
                "L'utilisateur et sa famille vont déménager à Lyon avec leurs enfants."
            ),
        },
    ),
    # events ----------------------------------------------------------------------------
    Rule(
        "event",
        FactType.FACT,
        _re(rf"^{_I_AM}{_ADV}{_BEEN}\b"),
        examples={
            "Je suis allée au marché ce matin.": "L'utilisateur est allée au marché ce matin.",
            "Je suis enfin rentrée de voyage.": "L'utilisateur est enfin rentrée de voyage.",
        },
    ),
    Rule(
        "event",
        FactType.FACT,
        _re(
            r"^je\s+me\s+suis\s+(?!(?:demandée?|dite?|sentie?|rendue?\s+compte)\b)"
            rf"{_ADV}{_PARTICIPLE}"
        ),
        examples={
            "Je me suis inscrite à un club d'échecs.": (
                "L'utilisateur s'est inscrite à un club d'échecs."
            )
        },
        counter_examples=("Je me suis demandé pourquoi.",),
    ),
    Rule(
        "event",
        FactType.FACT,
        _re(
            rf"^{_I_HAVE}{maybe_one_of('enfin finalement déjà récemment aussi officiellement')}"
            r"(?:commencé|fini|terminé|visité|acheté|adopté|rencontré|déménagé|quitté|rejoint|"
            r"obtenu|vendu|lancé|gagné|réservé|signé|couru|appris|passé|réussi|démissionné|"
            r"été\s+promue?|emménagé|voyagé|publié|ouvert|perdu|eu\s+(?:un|une|mon|ma))\b"
        ),
        examples={
            "J'ai commencé un nouveau travail.": "L'utilisateur a commencé un nouveau travail.",
            "J'ai acheté un vélo.": "L'utilisateur a acheté un vélo.",
        },
    ),
    Rule(
        "event",
        FactType.FACT,
        _re(rf"^{_I_HAVE}{_ADV}{_PARTICIPLE}"),
        examples={"J'ai planté des tomates.": "L'utilisateur a planté des tomates."},
        counter_examples=("J'ai pensé à toi.",),
    ),
    Rule(
        "event",
        FactType.FACT,
        _re(r"^je\s+viens\s+(?:tout\s+juste\s+)?d(?:e\s+|')"),
        examples={"Je viens de finir mon livre.": "L'utilisateur vient de finir son livre."},
        counter_examples=("Je viens souvent ici.",),
    ),
    Rule(
        "event",
        FactType.FACT,
        _re(rf"^{_I_AM}en\s+train\s+d(?:e\s+|')"),
        examples={
            "Je suis en train d'apprendre la guitare.": (
                "L'utilisateur est en train d'apprendre la guitare."
            )
        },
    ),
    Rule(
        "event",
        FactType.FACT,
        _re(r"^c'(?:était|est)\s+(?:la|ma)\s+première\s+fois\s+que\s+(?:je\s|j')"),
        examples={
            "C'était la première fois que je voyais la mer.": (
                "C'était la première fois que l'utilisateur voyait la mer."
            )
        },
    ),
    Rule(
        "event",
        FactType.FACT,
        _re(
            rf"^(?:nous\s+(?:sommes|avons)|on\s+(?:est|a)|{_AND_I}"
            rf"(?:\s*,\s*(?:nous|on))?\s+(?:sommes|avons|est|a))\s+{_ADV}(?:{_BEEN}|{_PARTICIPLE})"
        ),
        examples={
            "Mon frère et moi avons construit une cabane.": (
                "L'utilisateur et son frère ont construit une cabane."
            ),
            "Nous sommes allés à la plage avec nos enfants.": (
                "L'utilisateur et sa famille sont allés à la plage avec leurs enfants."
            ),
        },
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
        examples={
            "Je fais du yoga.": "L'utilisateur fait du yoga.",
            "Je joue du piano.": "L'utilisateur joue du piano.",
            "Je fais partie d'une chorale.": "L'utilisateur fait partie d'une chorale.",
        },
    ),
    Rule(
        "activity",
        FactType.FACT,
        _re(r"^je\s+\w+\b(?=.*\bdepuis\b)"),
        examples={"Je jardine depuis dix ans.": "L'utilisateur jardine depuis dix ans."},
    ),
    Rule(
        "activity",
        FactType.FACT,
        _re(r"^(?:nous|on)\s+(?:adorons|aimons|adore|aime|allons|va|faisons|fait)\b"),
        examples={
            "Nous adorons les randonnées avec nos enfants.": (
                "L'utilisateur et sa famille adorent les randonnées avec leurs enfants."
            )
        },
    ),
)

# --- judging: slots, negation ---------------------------------------------------------------

_AT = r"(?:à|en|au|aux|dans)"
SLOTS = (
    Slot(
        "lives_in",
        _re(
            rf"{SUBJECT}\s+(?:habite|vit|réside)\s+(?:maintenant\s+|désormais\s+|toujours\s+)?{_AT}\s+(?P<value>.+)$"
        ),
    ),
    Slot(
        "lives_in",
        _re(
            rf"{SUBJECT}\s+(?:a\s+déménagé|a\s+emménagé|s'est\s+installée?)\s+{_AT}\s+(?P<value>.+)$"
        ),
    ),
    Slot(
        "works_as",
        _re(
            rf"{SUBJECT}\s+travaille\s+(?:maintenant\s+|désormais\s+)?(?:comme|en\s+tant\s+que)\s+(?P<value>.+)$"
        ),
    ),
    Slot(
        "works_at",
        _re(
            rf"{SUBJECT}\s+travaille\s+(?:maintenant\s+|désormais\s+)?(?:chez|pour)\s+(?P<value>.+)$"
        ),
    ),
    Slot(
        "favourite",
        _re(
            r"^(?:le|la|les|l')\s*(?P<thing>.+?)\s+préférée?s?\s+(?:de\s+|d')(?P<subject>.+?)\s+(?:est|sont)\s+(?P<value>.+)$"
        ),
    ),
    Slot(
        "married_to",
        _re(rf"{SUBJECT}\s+est\s+(?:maintenant\s+)?mariée?\s+(?:à|avec)\s+(?P<value>.+)$"),
    ),
    Slot("prefers", _re(rf"{SUBJECT}\s+préfère\s+(?:maintenant\s+|désormais\s+)?(?P<value>.+)$")),
    Slot("age", _re(rf"{SUBJECT}\s+a\s+(?P<value>\d+)\s+ans$")),
    Slot("name", _re(rf"{SUBJECT}\s+s'appelle\s+(?P<value>.+)$")),
)
NEGATORS = frozenset({"ne", "n", "pas", "jamais", "aucun", "aucune"})
NEGATIONS = _words("ne n pas plus jamais rien aucun")
CESSATION = _re(r"\b(?:ne|n')\s*(?:\S+\s+){1,3}?plus\b|\bplus\s+jamais\b")
CHANGE = _re(
    r"\b(?:finalement|désormais|dorénavant|maintenant|à\s+partir\s+de\s+maintenant|au\s+lieu\s+de|"
    r"plutôt|on\s+(?:passe|repasse)\s+(?:à|au|aux|sur)|on\s+part\s+sur|en\s+fait|"
    r"(?:nouveau|nouvel|nouvelle|nouveaux|nouvelles)|déménag\w*|chang\w*|pass\w*\s+(?:à|au|aux)|"
    r"repass\w*|augment\w*|baiss\w*|modifi\w*|remplac\w*|(?:ne|n')\s*(?:\S+\s+){1,3}?plus)\b"
)
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
    negations=NEGATIONS,
    cessation=CESSATION,
    change=CHANGE,
    ignorable=IGNORABLE,
    lemmas=LEMMAS,
    request=REQUEST,
    hypothetical=HYPOTHETICAL,
    plain_user="l'utilisateur",
    plain_assistant="l'assistant",
)
