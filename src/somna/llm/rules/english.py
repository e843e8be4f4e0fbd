"""English tables for the rules provider: what counts as a fact, and what never does.

A clause is a fact when a rule of `RULES` matches it (first match wins, so the order
is meaningful) and `english_grammar` can retell it; the rules are narrow on purpose,
the generic ones (any past-tense verb, "I've been …", "I'm …-ing") come last and
exclude the verbs of talk and thought. What surrounds a fact in chat (interjections,
breaks, hedges, spoken forms) is in `english_speech`, retelling in `english_grammar`,
standing instructions in `english_instruction`.
"""

from __future__ import annotations

import re

from somna.llm.rules.english_grammar import PARTICIPLES, PAST, third_person
from somna.llm.rules.english_instruction import instruction
from somna.llm.rules.english_speech import (
    CLAUSE_BREAK,
    COMPANY,
    DAYS,
    FILLER,
    HEDGES,
    HYPOTHETICAL,
    INTERROGATIVE,
    LEAD,
    NUMBER,
    PERSONAL,
    PLEASANTRY,
    REQUEST,
    SEASONS,
    SEGMENT_BREAK,
    SKIP,
    SPOKEN,
    STOPWORDS,
    TOGETHER,
    VAGUE,
)
from somna.llm.rules.language import Language, Rule, Slot
from somna.llm.rules.text import words as _words
from somna.model import FactType

__all__ = ["ENGLISH"]

_I = re.IGNORECASE


def _re(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, _I)


def _either(words: frozenset[str] | set[str]) -> str:
    """An alternation of words, longest first."""
    return "(?:" + "|".join(sorted(words, key=lambda w: (-len(w), w))) + ")"


# --- what makes a fact ----------------------------------------------------------------------

_RELATIVES = (
    r"(?:sister|brother|wife|husband|partner|spouse|girlfriend|boyfriend|fianc[ée]e?|friend|"
    r"mom|mum|mother|dad|father|parent|son|daughter|kid|child|children|baby|grandma|"
    r"grandmother|grandpa|grandfather|grandson|granddaughter|aunt|uncle|cousin|niece|nephew|"
    r"boss|manager|colleague|coworker|co-worker|roommate|flatmate|neighbou?r|dog|cat|puppy|"
    r"kitten|sibling|twin|family|fam|hubby|youngest|oldest|eldest|mentor|mentee|pet)"
)
_KIN_ADJ = r"(?:(?:older|younger|little|big|baby|best|twin|ex|new|late|step|eldest|oldest)[- ]?)"
_VERB3 = (
    r"(?:is|are|was|were|has|have|had|lives|lived|works|worked|loves|loved|likes|hates|moved|"
    r"got|gets|studies|studied|plays|owns|teaches|wants|needs|visited|visits|started|came|comes|"
    r"goes|went|turned|turns|will|can|does|doesn't|did|didn't|just|recently|speaks|runs|"
    r"graduated|passed|left|joined|bought|adopted|married|prefers|took|made|gave|keeps?|"
    r"live|work|love|like|hate|go|come|play|study|want|need|enjoy|visit|own|speak|keep|"
    r"enjoyed|helped|help|helps|always|still|also|really)"
)
_COUNT = r"(?:a|an|one|two|three|four|five|six|\d+)"
_ADV = (
    r"(?:(?:really|also|absolutely|just|still|totally|truly|genuinely|definitely|always|"
    r"recently|finally|already|officially|actually|even|now|currently|mostly|usually|often|"
    r"sometimes|never|both|all)\s+)*"
)
_AM = r"i(?:'m|\s+am)\s+"
_HAVE = r"i(?:'ve|\s+have|\s+haven't|\s+have\s+not)\s+"
# Verbs of talk, thought and feeling: what follows them is rarely a fact of its own.
_UNSAID = _words(
    """felt thought wanted needed hoped wished meant said told asked guessed knew was were
    agreed believed figured supposed forgot remembered wondered expected tried heard
    noticed realized realised mentioned promised loved liked did hated enjoyed decided
    chose opted picked settled guess"""
)
_PAST = rf"(?!{_either(_UNSAID)}\b)(?:{_either(PAST)}|[a-z]{{3,}}ed)(?![\w'])"
_PERFECT = (
    r"(?!(?:heard|said|told|thought|wondered|got\s+to|been\s+(?:thinking|meaning|wanting|"
    r"wondering|so\b|busy|good|great|well|ok|okay|fine|there|here|up\s+to|"
    r"doing\s+(?:well|good|great|ok|okay|fine|alright|better|my\s+best))|"
    r"been\s+(?:really|super|pretty|quite)\s+(?:busy|good|great|well|hectic))\b)"
    rf"(?:{_either(PARTICIPLES)}|[a-z]{{3,}}ed)(?![\w'])"
)
_NOT_ACTIVITY = (
    r"(?:going|doing|getting|feeling|saying|telling|kidding|wondering|thinking|hoping|trying|"
    r"sending|talking|loving|waiting|sitting|dying|being|having\s+(?:a\s+)?(?:blast|great|good|"
    r"fun|hard|tough|rough|ball)|looking\s+(?!forward|into|for)|glad|sorry|missing\s+you|"
    r"staying\s+(?:positive|hopeful|strong|optimistic|motivated|determined|focused|upbeat|calm|"
    r"sane))"
)
# what the speaker has or is part of: "my (own) bakery", "my fam"
_OWN = (
    r"(?!(?:bad|pleasure|god|gosh|goodness|word|point|guess|question|heart|thoughts|"
    r"apologies|condolences)\b)[\w-]+(?:\s+(?!(?:is|are|was|were|has|have|had|will)\b)"
    r"[\w-]+){0,3}?"
)
_STATE = r"(?:a|an|the|so|really|very|ok|okay|fine|doing|getting|going|open|finally|now|still)\b"
# who a clause may be about when the speaker is only its object: a noun phrase, not a pronoun
_NP = (
    r"(?!(?:it|its|it's|this|that|these|those|they|them|he|she|you|your|we|our|there|which|what|"
    r"who|how|i|please|just|also|and|but|so|can|could|will|would|do|does|did|don't|let|to|"
    r"thanks|thank|nothing|something|everything|everyone|anything)\b)"
    r"(?!(?:today|tomorrow|yesterday|tonight|now|here|life|nothing)\b)"
    r"[\w\"'-]+(?:,?\s+(?!me\b)[\w\"'&-]+){0,7}?"
)
_DEAR = r"(?:important|special|precious|dear|meaningful|everything|sacred|vital)"
_INTENSE = r"(?:(?:really|so|super|very|extremely|incredibly|also|truly|especially)\s+)*"

RULES = (
    # preference ------------------------------------------------------------------------
    Rule(
        "preference",
        FactType.FACT,
        _re(
            rf"^i\s+{_ADV}(?:do\s+)?(?:love|like|enjoy|prefer|hate|adore|dislike|detest|loved|"
            r"enjoyed|adored)\b(?!\s+to\s+think)"
        ),
    ),
    Rule("preference", FactType.FACT, _re(r"^i\s+(?:can't|cannot)\s+stand\b")),
    Rule(
        "preference",
        FactType.FACT,
        _re(
            r"^i\s+(?:don't|do\s+not)\s+(?:(?:really|particularly|much)\s+)?"
            r"(?:like|enjoy|love|eat|drink)\b"
        ),
    ),
    Rule(
        "preference",
        FactType.FACT,
        _re(
            rf"^{_AM}{_ADV}(?:not\s+)?(?:(?:a\s+)?(?:big\s+|huge\s+|great\s+|massive\s+)?fan\s+of|"
            r"into|crazy\s+about|passionate\s+about|obsessed\s+with|keen\s+on|all\s+about|"
            r"interested\s+in|(?:a\s+)?(?:big\s+|huge\s+|firm\s+)?believer\s+in)\b"
        ),
    ),
    Rule(
        "preference",
        FactType.FACT,
        _re(
            rf"^i\s+{_ADV}(?:value|cherish|appreciate|treasure|admire|believe\s+in|care\s+about)\b"
        ),
    ),
    Rule(
        "preference",
        FactType.FACT,
        _re(r"^my\s+(?:all-time\s+)?(?:favou?rite|preferred)\s+[\w\s-]+?\s+(?:is|are)\b"),
    ),
    # the speaker as object: "Gardening is important to me", "Blue calms me"
    Rule(
        "preference",
        FactType.FACT,
        _re(
            rf"^{_NP}(?:'s|\s+is|\s+are|\s+was|\s+(?:has|have)\s+(?:always\s+)?been)\s+"
            rf"{_INTENSE}{_DEAR}\s+to\s+me$"
        ),
        bare=True,
    ),
    Rule(
        "preference",
        FactType.FACT,
        _re(
            rf"^{_NP}\s+(?:really\s+)?(?:means?|meant|matters?|mattered)\s+"
            r"(?:(?:a\s+lot|so\s+much|the\s+world|everything|a\s+great\s+deal)\s+)?to\s+me$"
        ),
        bare=True,
    ),
    Rule(
        "preference",
        FactType.FACT,
        _re(
            rf"^{_NP}(?:'s|\s+is|\s+are|\s+was|\s+(?:has|have)\s+(?:always\s+)?been)\s+"
            r"(?:(?:definitely|totally|also|really|mostly|always|still|just)\s+)?"
            r"(?:one\s+of\s+)?my\s+[\w-]+(?:\s+(?!(?:and|but|so|because|when|as|if|for|to|"
            r"with|since)\b)[\w-]+){0,2}$"
        ),
        bare=True,
    ),
    Rule(
        "preference",
        FactType.FACT,
        _re(
            rf"^{_NP}(?:'s|\s+is|\s+are|\s+has\s+been)\s+(?:a\s+)?(?:huge|big|important|major|"
            r"special|key)\s+part\s+of\s+my\s+life\b"
        ),
        bare=True,
    ),
    Rule(
        "preference",
        FactType.FACT,
        _re(
            rf"^{_NP}(?:'s|\s+is|\s+are|\s+has\s+been)\s+(?:(?:such|really|definitely|always)\s+)?"
            r"(?:a|an|my)\s+(?:[\w-]+\s+){0,2}?(?:way|outlet|escape)\s+(?:to|of|for)\s+"
            r"(?=.*\bmy\b)"
        ),
    ),
    Rule(
        "preference",
        FactType.FACT,
        _re(
            rf"^{_NP}\s+(?:really\s+|always\s+)?(?:calms?|calmed|relaxes|relaxed|inspires?|"
            r"inspired|motivates?|motivated|grounds|completes)\s+me$"
        ),
        bare=True,
    ),
    Rule(
        "preference",
        FactType.FACT,
        _re(
            rf"^{_NP}\s+(?:(?:really|always|also|truly|definitely)\s+)?"
            r"(?:helps?(?:\s+(?:keep|make))?|helped|"
            r"brings?|brought|gives?|gave|makes?|made|keeps?|kept|calms?|calmed|relaxes|relaxed|"
            r"inspires?|inspired|motivates?|motivated|reminds?|reminded|teaches|taught|"
            r"(?:has|have|'s)\s+(?:really\s+|always\s+)?(?:helped|made|given|brought|taught|"
            r"inspired|allowed|shown))\s+me\b"
        ),
    ),
    Rule("preference", FactType.FACT, _re(r"^for\s+me\s*,?\s+(?=\w)")),
    Rule(
        "preference",
        FactType.FACT,
        _re(
            rf"^(?=[^,]*\bmy\b){_NP}(?:'s|\s+is|\s+are)\s+{_INTENSE}(?:key|crucial|essential|"
            r"vital|everything)$"
        ),
        bare=True,
    ),
    # relationships ---------------------------------------------------------------------
    Rule(
        "relationship",
        FactType.FACT,
        _re(
            rf"^my\s+{_KIN_ADJ}?{_RELATIVES}s?(?:'s\s+name)?"
            rf"(?:\s*,?\s*(?-i:[A-Z])[\w-]+\s*,?)?\s+{_VERB3}\b"
        ),
    ),
    Rule(
        "relationship",
        FactType.FACT,
        _re(
            rf"^{_AM}(?:happily\s+)?(?:married|engaged|divorced|widowed|single|"
            r"dating|in\s+a\s+relationship)\b"
        ),
    ),
    Rule(
        "relationship",
        FactType.FACT,
        _re(rf"^i\s+have\s+{_COUNT}\s+(?:(?:older|younger|little|big|twin)\s+)?{_RELATIVES}"),
        bare=True,
    ),
    Rule(
        "relationship",
        FactType.FACT,
        _re(rf"^{_AM}{_INTENSE}(?:lucky|blessed|fortunate)\s+to\s+have\b"),
    ),
    Rule(
        "relationship",
        FactType.FACT,
        _re(rf"^{_AM}{_INTENSE}(?:thankful|grateful)\s+for\b(?!\s+(?:the\s+chance|this|that)\b)"),
    ),
    # identity --------------------------------------------------------------------------
    Rule("identity", FactType.PERSONA, _re(r"^my\s+(?:name|first name|last name)\s+is\b")),
    Rule(
        "identity",
        FactType.PERSONA,
        _re(rf"^{_AM}(?:a|an)\b(?=\s+(?!(?:bit|little|lot|big|huge|fan|great|mix)\b)\w)"),
    ),
    Rule("identity", FactType.PERSONA, _re(rf"^{_AM}(?:originally\s+)?from\b")),
    Rule("identity", FactType.PERSONA, _re(rf"^{_AM}\d+(?:\s+years\s+old)?$"), bare=True),
    Rule(
        "identity",
        FactType.PERSONA,
        _re(
            rf"^{_AM}(?:a\s+)?(?:vegetarian|vegan|pescatarian|allergic\s+to|"
            r"lactose\s+intolerant|gluten\s+intolerant|diabetic|retired|left-handed|"
            r"self-employed|colou?r-?blind)\b"
        ),
        bare=True,
    ),
    Rule(
        "identity",
        FactType.PERSONA,
        _re(
            r"^i\s+(?:(?:currently|still|now)\s+)?(?:work|live|study|teach)\s+"
            r"(?:as|at|for|in|near|on|with|from|remotely)\b"
        ),
    ),
    Rule("identity", FactType.PERSONA, _re(r"^i\s+(?:was\s+born|grew\s+up)\b"), bare=True),
    Rule("identity", FactType.PERSONA, _re(r"^i\s+(?:speak|own)\b")),
    Rule(
        "identity",
        FactType.PERSONA,
        _re(
            rf"^{_HAVE}been\s+(?:a|an)\s+[\w\s-]+?\s+for\s+(?:about\s+)?{NUMBER}\s+(?:years?|months?)"
        ),
        bare=True,
    ),
    # decisions and plans ---------------------------------------------------------------
    Rule(
        "decision",
        FactType.FACT,
        _re(
            r"^i(?:'ve|\s+have)?\s+(?:(?:finally|just|already)\s+)?"
            r"(?:decided|chose|chosen|opted|picked|settled\s+on)\b"
        ),
    ),
    Rule(
        "decision",
        FactType.FACT,
        _re(
            rf"^{_AM}(?:not\s+)?going\s+to\b"
            r"(?=\s+(?!(?:the|a|an|my|bed|church|school|work|sleep)\b|(?-i:[A-Z]))\w)"
        ),
    ),
    Rule("decision", FactType.FACT, _re(rf"^{_AM}going\s+with\b")),
    Rule("plan", FactType.FACT, _re(rf"^{_AM}going\s+to\b")),
    Rule("plan", FactType.FACT, _re(r"^i\s+(?:plan|intend|aim)\s+to\b")),
    Rule(
        "plan",
        FactType.FACT,
        _re(rf"^{_AM}{_ADV}(?:planning|about)\s+to\b|^{_AM}{_ADV}planning\s+(?:a|an|on|for)\b"),
    ),
    Rule(
        "plan",
        FactType.FACT,
        _re(
            rf"^{_AM}{_ADV}(?:thinking\s+(?:about|of)|considering)\s+\w+ing\b|"
            rf"^{_AM}{_ADV}off\s+to\b(?!\s+(?:bed|sleep|work)\b)|^{_AM}{_ADV}looking\s+forward\s+to\b|"
            rf"^{_AM}{_INTENSE}(?:excited|ready|eager|determined|keen)\s+to\b|"
            rf"^{_AM}{_ADV}(?:on\s+the\s+hunt|looking|searching|hunting)\s+for\b|"
            rf"^{_AM}{_INTENSE}(?:focused|working|committed|dedicated)\s+(?:on|to)\b"
        ),
    ),
    Rule(
        "plan",
        FactType.FACT,
        _re(
            rf"^i\s+{_ADV}(?:want|hope|need)\s+to\b(?!\s+(?:see|hear|know|say|ask|thank|tell|"
            r"show|check|talk|chat|share|let|get\s+back|make\s+sure|go(?:\s+now)?$|"
            r"apologi[sz]e)\b)"
        ),
    ),
    Rule(
        "plan",
        FactType.FACT,
        _re(
            r"^i(?:'ll|\s+will)\s+(?!(?:be\s+honest|think|see|try|check|let|get\s+back|"
            r"have\s+a\s+look|never|keep\s+(?:that|this|it)|take\s+a\s+look|do\s+(?:my\s+best|that|"
            r"it)|always\s+remember|send|show|tell|talk|catch|text|call|"
            r"keep\s+(?:on\s+)?(?:going|pushing|trying|it\s+up|at\s+it|fighting|moving)$)\b)"
        ),
    ),
    Rule(
        "plan",
        FactType.FACT,
        _re(
            rf"^{_AM}\w+ing\b(?=.*\b(?:tomorrow|tonight|soon|next\s+\w+|later\s+today|"
            rf"this\s+(?:weekend|evening|afternoon|month|{SEASONS})|on\s+{DAYS})\b)"
        ),
    ),
    Rule(
        "plan",
        FactType.FACT,
        _re(
            r"^(?:we|my\s+[\w'-]+(?:\s+[\w'-]+)?\s+and\s+i)(?:'re|\s+are)\s+"
            rf"{_ADV}(?:going\s+to\s+\w+|planning\s+(?:to|on|a)|thinking\s+(?:about|of)\s+\w+ing)\b"
        ),
    ),
    # events ----------------------------------------------------------------------------
    Rule(
        "event",
        FactType.FACT,
        _re(
            r"^i(?:'ve|\s+have)?\s+(?:(?:just|recently|finally|already|also|officially)\s+)?"
            r"(?:went|been\s+to|visited|started|began|begun|finished|completed|moved|bought|met|"
            r"joined|left|quit|graduated|adopted|traveled|travelled|returned|launched|won|sold|"
            r"married|attended|booked|signed\s+up|passed|published|opened|retired|ran|run|"
            r"climbed|hiked|painted|wrote|written|built|learned|learnt|gave\s+birth|had\s+a\s+baby|"
            r"got\s+(?:married|engaged|divorced|promoted|hired|accepted|a\s+new|my|into|back|"
            r"a|an))(?![\w'])"
        ),
    ),
    Rule("event", FactType.FACT, _re(r"^it\s+was\s+my\s+first\s+time\b")),
    Rule("event", FactType.FACT, _re(rf"^i\s+{_ADV}{_PAST}")),
    Rule("event", FactType.FACT, _re(rf"^{_HAVE}{_ADV}{_PERFECT}")),
    Rule(
        "event", FactType.FACT, _re(rf"^i(?:'m|\s+am)\s+{_ADV}(?!{_NOT_ACTIVITY}\b)\w{{2,}}ing\b")
    ),
    Rule(
        "event",
        FactType.FACT,
        _re(rf"^(?:we|my\s+[\w'-]+(?:\s+[\w'-]+)?\s+and\s+i)\s+{_ADV}{_PAST}"),
    ),
    Rule(
        "event",
        FactType.FACT,
        _re(
            rf"^(?:we|my\s+[\w'-]+(?:\s+[\w'-]+)?\s+and\s+i)(?:'re|\s+are)\s+{_ADV}"
            rf"(?!{_NOT_ACTIVITY}\b)\w{{2,}}ing\b"
        ),
    ),
    Rule(
        "event",
        FactType.FACT,
        _re(rf"^(?:we|my\s+[\w'-]+(?:\s+[\w'-]+)?\s+and\s+i)(?:'ve|\s+have)\s+{_ADV}{_PERFECT}"),
    ),
    Rule(
        "activity",
        FactType.FACT,
        _re(
            rf"^(?:we|my\s+[\w'-]+(?:\s+[\w'-]+)?\s+and\s+i)\s+{_ADV}(?:love|like|enjoy|"
            r"go|play|visit|spend|take|cook|paint|hike|swim|travel|watch|roast|camp|bond|"
            r"celebrate|look\s+forward\s+to|bake|read|sing|dance)\b"
        ),
    ),
    # activities and belongings -----------------------------------------------------------
    Rule(
        "activity",
        FactType.FACT,
        _re(
            rf"^i\s+{_ADV}(?:play|paint|draw|mentor|volunteer|teach|write|run|swim|bake|cook|"
            r"collect|practi[cs]e|attend|train|coach|knit|sing|dance|hike|climb|surf|ski|skate|"
            r"garden|use|go\s+to|make|create|stay|keep\s+(?=\w+ing\b))\b"
        ),
    ),
    Rule(
        "possession",
        FactType.FACT,
        _re(
            rf"^(?:{_HAVE}got|i\s+(?:still\s+|also\s+)?have)\s+(?!(?:to|no|a\s+(?:question|"
            r"feeling|look|minute|sec|second|moment|clue|point|good|great|nice|lovely|blast)|"
            r"an\s+idea|fun|faith|hope|some\s+(?:news|time)|been|got|"
            r"(?:a\s+few|some|a\s+couple\s+of)\s+(?:plans|ideas|questions|thoughts))\b)"
            rf"(?:{_COUNT}|some|lots\s+of|a\s+lot\s+of|plenty\s+of|several|many)\b"
        ),
    ),
    # the speaker's own things: "My goal is to …", "My store is open", "My son got a job"
    Rule(
        "identity",
        FactType.FACT,
        _re(
            rf"^my\s+{_OWN}(?:'s\s+been|'s\s+(?={_STATE})|\s+(?:is|are|was|were|has\s+been|"
            rf"have\s+been|has|have|had|will|(?:just\s+|also\s+|really\s+)?{_PAST}))(?=\s+\S)"
        ),
    ),
)

# --- judging: slots, negation ---------------------------------------------------------------

_S = r"^(?P<subject>.+?)"
SLOTS = (
    Slot(
        "lives_in",
        _re(
            rf"{_S}\s+(?:now\s+|still\s+|currently\s+)?(?:lives|resides|is\s+living)\s+in\s+(?P<value>.+)$"
        ),
    ),
    Slot(
        "lives_in", _re(rf"{_S}\s+(?:has\s+)?(?:just\s+)?(?:moved|relocated)\s+to\s+(?P<value>.+)$")
    ),
    Slot(
        "works_as", _re(rf"{_S}\s+(?:now\s+|currently\s+)?works\s+as\s+(?:an?\s+)?(?P<value>.+)$")
    ),
    Slot("works_at", _re(rf"{_S}\s+(?:now\s+|currently\s+)?works\s+(?:at|for)\s+(?P<value>.+)$")),
    Slot(
        "favourite",
        _re(rf"{_S}'s\s+(?:all-time\s+)?favou?rite\s+(?P<thing>.+?)\s+(?:is|are)\s+(?P<value>.+)$"),
    ),
    Slot("married_to", _re(rf"{_S}\s+is\s+(?:now\s+)?married\s+to\s+(?P<value>.+)$")),
    Slot("prefers", _re(rf"{_S}\s+(?:now\s+)?prefers\s+(?P<value>.+)$")),
    Slot("age", _re(rf"{_S}\s+is\s+(?:now\s+)?(?P<value>\d+)(?:\s+years\s+old)?$")),
    Slot("name", _re(rf"{_S}'s\s+name\s+is\s+(?P<value>.+)$")),
)
NEGATORS = frozenset({"not", "t", "never", "no", "cannot"})
CESSATION = _re(r"\bno\s+longer\b|\b(?:anymore|any\s+more)\b")
IGNORABLE = _words(
    """a an the does do did doesn don didn is am are be was were isn aren wasn weren longer
    anymore"""
)
LEMMAS = {"has": "have", "hasn": "have", "haven": "have", "cannot": "can", "won": "will"}

ENGLISH = Language(
    code="en",
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
    plain_user="the user",
)
