"""English tables for the rules provider: what counts as a fact, and what never does.

A clause is a fact when a rule of `RULES` matches it (first match wins, so the order
is meaningful) and `english_grammar` can retell it; the rules are narrow on purpose,
the generic ones (any past-tense verb, "I've been …", "I'm …-ing") come last and
exclude the verbs of talk and thought. What surrounds a fact in chat (interjections,
breaks, hedges, spoken forms) is in `english_speech`, retelling in `english_grammar`,
standing instructions in `english_instruction`.
"""

from __future__ import annotations

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
from somna.llm.rules.language import SUBJECT, Language, Rule, Slot
from somna.llm.rules.text import maybe_one_of
from somna.llm.rules.text import regex as _re
from somna.llm.rules.text import words as _words
from somna.model import FactType

__all__ = ["ENGLISH"]


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
_INTENSE = r"(?:(?:really|so|super|very|extremely|incredibly|also|truly|especially)\s+)*"
_AM = r"i(?:'m|\s+am)\s+"
_HAVE = r"i(?:'ve|\s+have|\s+haven't|\s+have\s+not)\s+"
_DID = r"i(?:'ve|\s+have)?\s+"
"""The speaker, in the past or the perfect: "I went", "I've been to"."""
_WE = r"(?:we|my\s+[\w'-]+(?:\s+[\w'-]+)?\s+and\s+i)"
"""The speaker and others: "we", "my sister and I"."""
_WE_ARE = rf"{_WE}(?:'re|\s+are)\s+"
# A subject that is (or was, or has long been) something: "…'s", "… is", "… has always been".
_IS = r"(?:'s|\s+is|\s+are|\s+has\s+been)"
_IS_OR_WAS = r"(?:'s|\s+is|\s+are|\s+was|\s+(?:has|have)\s+(?:always\s+)?been)"
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
_ACTIVITY = rf"(?!{_NOT_ACTIVITY}\b)\w{{2,}}ing\b"
"""Doing something that lasts: "building", "learning" (not "doing well", "feeling")."""
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
_LIKING = r"(?:love|like|enjoy|prefer|hate|adore|dislike|detest|loved|enjoyed|adored)"

RULES = (
    # preference ------------------------------------------------------------------------
    Rule(
        "preference",
        FactType.FACT,
        _re(rf"^i\s+{_ADV}(?:do\s+)?{_LIKING}\b(?!\s+to\s+think)"),
        examples={
            "I really love birdwatching at dawn.": "The user really loves birdwatching at dawn.",
            "I do enjoy a slow Sunday crossword.": "The user does enjoy a slow Sunday crossword.",
        },
        counter_examples=("I love to think about the future.",),
    ),
    Rule(
        "preference",
        FactType.FACT,
        _re(r"^i\s+(?:can't|cannot)\s+stand\b"),
        examples={"I can't stand loud leaf blowers.": "The user cannot stand loud leaf blowers."},
    ),
    Rule(
        "preference",
        FactType.FACT,
        _re(
            rf"^i\s+(?:don't|do\s+not)\s+{maybe_one_of('really particularly much')}"
            r"(?:like|enjoy|love|eat|drink)\b"
        ),
        examples={"I don't really like oysters.": "The user does not really like oysters."},
        counter_examples=("I don't know much about oysters.",),
    ),
    Rule(
        "preference",
        FactType.FACT,
        _re(
            rf"^{_AM}{_ADV}(?:not\s+)?(?:(?:a\s+)?(?:big\s+|huge\s+|great\s+|massive\s+)?fan\s+of|"
            r"into|crazy\s+about|passionate\s+about|obsessed\s+with|keen\s+on|all\s+about|"
            r"interested\s+in|(?:a\s+)?(?:big\s+|huge\s+|firm\s+)?believer\s+in)\b"
        ),
        examples={
            "I'm a huge fan of silent films.": "The user is a huge fan of silent films.",
            "I'm really into beekeeping.": "The user is really into beekeeping.",
        },
        counter_examples=("I'm a fan.",),
    ),
    Rule(
        "preference",
        FactType.FACT,
        _re(
            rf"^i\s+{_ADV}(?:value|cherish|appreciate|treasure|admire|believe\s+in|care\s+about)\b"
        ),
        examples={"I truly value honest feedback.": "The user truly values honest feedback."},
        counter_examples=("I valued your advice.",),
    ),
    Rule(
        "preference",
        FactType.FACT,
        _re(r"^my\s+(?:all-time\s+)?(?:favou?rite|preferred)\s+[\w\s-]+?\s+(?:is|are)\b"),
        examples={"My favourite season is autumn.": "The user's favourite season is autumn."},
    ),
    # the speaker as object: "Gardening is important to me", "Blue calms me"
    Rule(
        "preference",
        FactType.FACT,
        _re(rf"^{_NP}{_IS_OR_WAS}\s+{_INTENSE}{_DEAR}\s+to\s+me$"),
        bare=True,
        examples={
            "Birdwatching is really important to me.": (
                "Birdwatching is really important to the user."
            )
        },
        counter_examples=("Birdwatching is important to my family.",),
    ),
    Rule(
        "preference",
        FactType.FACT,
        _re(
            rf"^{_NP}\s+(?:really\s+)?(?:means?|meant|matters?|mattered)\s+"
            r"(?:(?:a\s+lot|so\s+much|the\s+world|everything|a\s+great\s+deal)\s+)?to\s+me$"
        ),
        bare=True,
        examples={
            "The old lighthouse means a lot to me.": "The old lighthouse means a lot to the user."
        },
        counter_examples=("That means a lot to me.", "He means a lot to me."),
    ),
    Rule(
        "preference",
        FactType.FACT,
        _re(
            rf"^{_NP}{_IS_OR_WAS}\s+"
            rf"{maybe_one_of('definitely totally also really mostly always still just')}"
            r"(?:one\s+of\s+)?my\s+[\w-]+(?:\s+(?!(?:and|but|so|because|when|as|if|for|to|"
            r"with|since)\b)[\w-]+){0,2}$"
        ),
        bare=True,
        examples={
            "Chess is my passion.": "Chess is the user's passion.",
            "Travelling has always been one of my great joys.": (
                "Travelling has always been one of the user's great joys."
            ),
        },
        counter_examples=("This is my chance.",),
    ),
    Rule(
        "preference",
        FactType.FACT,
        _re(
            rf"^{_NP}{_IS}\s+(?:a\s+)?(?:huge|big|important|major|"
            r"special|key)\s+part\s+of\s+my\s+life\b"
        ),
        bare=True,
        examples={
            "Woodworking is a big part of my life.": (
                "Woodworking is a big part of the user's life."
            )
        },
    ),
    Rule(
        "preference",
        FactType.FACT,
        _re(
            rf"^{_NP}{_IS}\s+{maybe_one_of('such really definitely always')}"
            r"(?:a|an|my)\s+(?:[\w-]+\s+){0,2}?(?:way|outlet|escape)\s+(?:to|of|for)\s+"
            r"(?=.*\bmy\b)"
        ),
        examples={
            "Knitting is a way to calm my mind.": "Knitting is a way to calm the user's mind."
        },
        counter_examples=("Gardening is a way to relax.",),
    ),
    Rule(
        "preference",
        FactType.FACT,
        _re(
            rf"^{_NP}\s+(?:really\s+|always\s+)?(?:calms?|calmed|relaxes|relaxed|inspires?|"
            r"inspired|motivates?|motivated|grounds|completes)\s+me$"
        ),
        bare=True,
        examples={"Birdsong calms me.": "Birdsong calms the user."},
    ),
    Rule(
        "preference",
        FactType.FACT,
        _re(
            rf"^{_NP}\s+{maybe_one_of('really always also truly definitely')}"
            r"(?:helps?(?:\s+(?:keep|make))?|helped|"
            r"brings?|brought|gives?|gave|makes?|made|keeps?|kept|calms?|calmed|relaxes|relaxed|"
            r"inspires?|inspired|motivates?|motivated|reminds?|reminded|teaches|taught|"
            r"(?:has|have|'s)\s+(?:really\s+|always\s+)?(?:helped|made|given|brought|taught|"
            r"inspired|allowed|shown))\s+me\b"
        ),
        examples={
            "Journaling helps me stay focused.": "Journaling helps the user stay focused.",
            "Being outdoors gives me energy.": "Being outdoors gives the user energy.",
        },
        counter_examples=("It helps me stay focused.", "Please help me."),
    ),
    Rule(
        "preference",
        FactType.FACT,
        _re(r"^for\s+me\s*,?\s+(?=\w)"),
        examples={"For me, family comes first.": "For the user, family comes first."},
    ),
    Rule(
        "preference",
        FactType.FACT,
        _re(
            rf"^(?=[^,]*\bmy\b){_NP}(?:'s|\s+is|\s+are)\s+{_INTENSE}(?:key|crucial|essential|"
            r"vital|everything)$"
        ),
        bare=True,
        examples={
            "My morning walk is essential.": "The user's morning walk is essential.",
            "Patience with my students is key.": "Patience with the user's students is key.",
        },
    ),
    # relationships ---------------------------------------------------------------------
    Rule(
        "relationship",
        FactType.FACT,
        _re(
            rf"^my\s+{_KIN_ADJ}?{_RELATIVES}s?(?:'s\s+name)?"
            rf"(?:\s*,?\s*(?-i:[A-Z])[\w-]+\s*,?)?\s+{_VERB3}\b"
        ),
        examples={
            "My sister Ines lives in Porto.": "The user's sister Ines lives in Porto.",
            "My older brother works as a pilot.": "The user's older brother works as a pilot.",
            "My brother's name is Farid.": "The user's brother's name is Farid.",
        },
        counter_examples=("My son's teacher is lovely.",),
    ),
    Rule(
        "relationship",
        FactType.FACT,
        _re(
            rf"^{_AM}(?:happily\s+)?(?:married|engaged|divorced|widowed|single|"
            r"dating|in\s+a\s+relationship)\b"
        ),
        examples={
            "I'm engaged to a violinist.": "The user is engaged to a violinist.",
            "I'm dating a jazz drummer.": "The user is dating a jazz drummer.",
        },
    ),
    Rule(
        "relationship",
        FactType.FACT,
        _re(rf"^i\s+have\s+{_COUNT}\s+(?:(?:older|younger|little|big|twin)\s+)?{_RELATIVES}"),
        bare=True,
        examples={"I have two younger sisters.": "The user has two younger sisters."},
    ),
    Rule(
        "relationship",
        FactType.FACT,
        _re(rf"^{_AM}{_INTENSE}(?:lucky|blessed|fortunate)\s+to\s+have\b"),
        examples={
            "I'm so lucky to have such kind neighbours.": (
                "The user is so lucky to have such kind neighbours."
            )
        },
    ),
    Rule(
        "relationship",
        FactType.FACT,
        _re(rf"^{_AM}{_INTENSE}(?:thankful|grateful)\s+for\b(?!\s+(?:the\s+chance|this|that)\b)"),
        examples={
            "I'm really grateful for my mentor.": "The user is really grateful for their mentor."
        },
        counter_examples=("I'm grateful for the chance to help.",),
    ),
    # identity --------------------------------------------------------------------------
    Rule(
        "identity",
        FactType.PERSONA,
        _re(r"^my\s+(?:name|first name|last name)\s+is\b"),
        examples={"My name is Tomasz.": "The user's name is Tomasz."},
    ),
    Rule(
        "identity",
        FactType.PERSONA,
        _re(rf"^{_AM}(?:a|an)\b(?=\s+(?!(?:bit|little|lot|big|huge|fan|great|mix)\b)\w)"),
        examples={"I'm a marine biologist.": "The user is a marine biologist."},
        counter_examples=("I'm a bit tired.",),
    ),
    Rule(
        "identity",
        FactType.PERSONA,
        _re(rf"^{_AM}(?:originally\s+)?from\b"),
        examples={"I'm originally from Tasmania.": "The user is originally from Tasmania."},
    ),
    Rule(
        "identity",
        FactType.PERSONA,
        _re(rf"^{_AM}\d+(?:\s+years\s+old)?$"),
        bare=True,
        examples={"I'm 42.": "The user is 42."},
    ),
    Rule(
        "identity",
        FactType.PERSONA,
        _re(
            rf"^{_AM}(?:a\s+)?(?:vegetarian|vegan|pescatarian|allergic\s+to|"
            r"lactose\s+intolerant|gluten\s+intolerant|diabetic|retired|left-handed|"
            r"self-employed|colou?r-?blind)\b"
        ),
        bare=True,
        examples={
            "I'm vegetarian.": "The user is vegetarian.",
            "I'm allergic to peanuts.": "The user is allergic to peanuts.",
        },
    ),
    Rule(
        "identity",
        FactType.PERSONA,
        _re(
            rf"^i\s+{maybe_one_of('currently still now')}(?:work|live|study|teach)\s+"
            r"(?:as|at|for|in|near|on|with|from|remotely)\b"
        ),
        examples={
            "I work as a locksmith.": "The user works as a locksmith.",
            "I live near the harbour.": "The user lives near the harbour.",
        },
    ),
    Rule(
        "identity",
        FactType.PERSONA,
        _re(r"^i\s+(?:was\s+born|grew\s+up)\b"),
        bare=True,
        examples={"I was born in Valparaiso.": "The user was born in Valparaiso."},
    ),
    Rule(
        "identity",
        FactType.PERSONA,
        _re(r"^i\s+(?:speak|own)\b"),
        examples={
            "I speak three languages.": "The user speaks three languages.",
            "I own a small bakery.": "The user owns a small bakery.",
        },
    ),
    Rule(
        "identity",
        FactType.PERSONA,
        _re(
            rf"^{_HAVE}been\s+(?:a|an)\s+[\w\s-]+?\s+for\s+(?:about\s+)?{NUMBER}\s+(?:years?|months?)"
        ),
        bare=True,
        examples={
            "I've been a nurse for twelve years.": "The user has been a nurse for twelve years."
        },
    ),
    # decisions and plans ---------------------------------------------------------------
    Rule(
        "decision",
        FactType.FACT,
        _re(
            rf"^{_DID}{maybe_one_of('finally just already')}"
            r"(?:decided|chose|chosen|opted|picked|settled\s+on)\b"
        ),
        examples={"I decided to learn the cello.": "The user decided to learn the cello."},
        counter_examples=("I'm deciding between two offers.",),
    ),
    Rule(
        "decision",
        FactType.FACT,
        _re(
            rf"^{_AM}(?:not\s+)?going\s+to\b"
            r"(?=\s+(?!(?:the|a|an|my|bed|church|school|work|sleep)\b|(?-i:[A-Z]))\w)"
        ),
        examples={
            "I'm going to learn Portuguese.": "The user is going to learn Portuguese.",
            "I'm not going to renew my lease.": "The user is not going to renew their lease.",
        },
        counter_examples=("I'm going to bed.", "I'm going to the gym tomorrow."),
    ),
    Rule(
        "decision",
        FactType.FACT,
        _re(rf"^{_AM}going\s+with\b"),
        examples={"I'm going with the green tiles.": "The user is going with the green tiles."},
    ),
    Rule(
        "plan",
        FactType.FACT,
        _re(rf"^{_AM}going\s+to\b"),
        examples={"I'm going to the gym tomorrow.": "The user is going to the gym tomorrow."},
    ),
    Rule(
        "plan",
        FactType.FACT,
        _re(r"^i\s+(?:plan|intend|aim)\s+to\b"),
        examples={
            "I plan to fix the old fence.": "The user plans to fix the old fence.",
            "I intend to retire early.": "The user intends to retire early.",
        },
    ),
    Rule(
        "plan",
        FactType.FACT,
        _re(rf"^{_AM}{_ADV}(?:planning|about)\s+to\b|^{_AM}{_ADV}planning\s+(?:a|an|on|for)\b"),
        examples={
            "I'm planning to visit Oslo.": "The user is planning to visit Oslo.",
            "I'm about to start a new job.": "The user is about to start a new job.",
            "I'm planning a trip to Crete.": "The user is planning a trip to Crete.",
        },
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
        examples={
            "I'm thinking about learning Japanese.": (
                "The user is thinking about learning Japanese."
            ),
            "I'm off to the vet.": "The user is off to the vet.",
            "I'm looking forward to the chess tournament.": (
                "The user is looking forward to the chess tournament."
            ),
            "I'm so excited to join the orchestra.": (
                "The user is so excited to join the orchestra."
            ),
            "I'm looking for a used bike.": "The user is looking for a used bike.",
            "I'm working on a short novel.": "The user is working on a short novel.",
        },
        counter_examples=("I'm off to bed.",),
    ),
    Rule(
        "plan",
        FactType.FACT,
        _re(
            rf"^i\s+{_ADV}(?:want|hope|need)\s+to\b(?!\s+(?:see|hear|know|say|ask|thank|tell|"
            r"show|check|talk|chat|share|let|get\s+back|make\s+sure|go(?:\s+now)?$|"
            r"apologi[sz]e)\b)"
        ),
        examples={
            "I want to learn the accordion.": "The user wants to learn the accordion.",
            "I hope to finish my degree next year.": (
                "The user hopes to finish their degree next year."
            ),
        },
        counter_examples=(
            "I want to thank you.",
            "I hope to see you soon.",
            "I need to check the oven.",
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
        examples={"I'll visit my aunt in Bergen.": "The user will visit their aunt in Bergen."},
        counter_examples=("I'll be honest.", "I'll keep trying.", "I'll take a look."),
    ),
    Rule(
        "plan",
        FactType.FACT,
        _re(
            rf"^{_AM}\w+ing\b(?=.*\b(?:tomorrow|tonight|soon|next\s+\w+|later\s+today|"
            rf"this\s+(?:weekend|evening|afternoon|month|{SEASONS})|on\s+{DAYS})\b)"
        ),
        examples={"I'm flying to Tokyo tomorrow.": "The user is flying to Tokyo tomorrow."},
        counter_examples=("I'm learning to juggle.",),
    ),
    Rule(
        "plan",
        FactType.FACT,
        _re(
            rf"^{_WE_ARE}"
            rf"{_ADV}(?:going\s+to\s+\w+|planning\s+(?:to|on|a)|thinking\s+(?:about|of)\s+\w+ing)\b"
        ),
        examples={
            "My wife and I are planning a trip to Iceland.": (
                "The user and their wife are planning a trip to Iceland."
            ),
            "We're going to rent a cabin with the kids.": (
                "The user and their family are going to rent a cabin with the kids."
            ),
        },
    ),
    # events ----------------------------------------------------------------------------
    Rule(
        "event",
        FactType.FACT,
        _re(
            rf"^{_DID}{maybe_one_of('just recently finally already also officially')}"
            r"(?:went|been\s+to|visited|started|began|begun|finished|completed|moved|bought|met|"
            r"joined|left|quit|graduated|adopted|traveled|travelled|returned|launched|won|sold|"
            r"married|attended|booked|signed\s+up|passed|published|opened|retired|ran|run|"
            r"climbed|hiked|painted|wrote|written|built|learned|learnt|gave\s+birth|had\s+a\s+baby|"
            r"got\s+(?:married|engaged|divorced|promoted|hired|accepted|a\s+new|my|into|back|"
            r"a|an))(?![\w'])"
        ),
        examples={
            "I just finished my first quilt.": "The user just finished their first quilt.",
            "I've joined a choir.": "The user has joined a choir.",
            "I got promoted last week.": "The user got promoted last week.",
        },
    ),
    Rule(
        "event",
        FactType.FACT,
        _re(r"^it\s+was\s+my\s+first\s+time\b"),
        examples={"It was my first time snorkelling.": "It was the user's first time snorkelling."},
    ),
    Rule(
        "event",
        FactType.FACT,
        _re(rf"^i\s+{_ADV}{_PAST}"),
        examples={"I repaired the old radio.": "The user repaired the old radio."},
        counter_examples=("I decided to learn the cello.", "I thought about it all day."),
    ),
    Rule(
        "event",
        FactType.FACT,
        _re(rf"^{_HAVE}{_ADV}{_PERFECT}"),
        examples={"I've restored an old canoe.": "The user has restored an old canoe."},
        counter_examples=("I've been busy.", "I've heard great things about it."),
    ),
    Rule(
        "event",
        FactType.FACT,
        _re(rf"^i(?:'m|\s+am)\s+{_ADV}{_ACTIVITY}"),
        examples={"I'm learning to juggle.": "The user is learning to juggle."},
        counter_examples=("I'm doing well.", "I'm feeling much better."),
    ),
    Rule(
        "event",
        FactType.FACT,
        _re(rf"^{_WE}\s+{_ADV}{_PAST}"),
        examples={
            "My cousin and I baked bread.": "The user and their cousin baked bread.",
            "We visited the glass museum with the kids.": (
                "The user and their family visited the glass museum with the kids."
            ),
        },
    ),
    Rule(
        "event",
        FactType.FACT,
        _re(rf"^{_WE_ARE}{_ADV}{_ACTIVITY}"),
        examples={
            "We're building a treehouse for our kids.": (
                "The user and their family are building a treehouse for their kids."
            )
        },
        counter_examples=("We're doing fine.",),
    ),
    Rule(
        "event",
        FactType.FACT,
        _re(rf"^{_WE}(?:'ve|\s+have)\s+{_ADV}{_PERFECT}"),
        examples={
            "We've planted an orchard with our kids.": (
                "The user and their family have planted an orchard with their kids."
            )
        },
        counter_examples=("We've been busy.",),
    ),
    Rule(
        "activity",
        FactType.FACT,
        _re(
            rf"^{_WE}\s+{_ADV}(?:love|like|enjoy|"
            r"go|play|visit|spend|take|cook|paint|hike|swim|travel|watch|roast|camp|bond|"
            r"celebrate|look\s+forward\s+to|bake|read|sing|dance)\b"
        ),
        examples={
            "My dad and I go fishing every summer.": (
                "The user and their dad go fishing every summer."
            ),
            "We love playing board games with the kids.": (
                "The user and their family love playing board games with the kids."
            ),
        },
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
        examples={
            "I play the cello.": "The user plays the cello.",
            "I volunteer at the animal shelter.": "The user volunteers at the animal shelter.",
            "I keep practicing my scales.": "The user keeps practicing their scales.",
        },
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
        examples={
            "I have lots of houseplants.": "The user has lots of houseplants.",
            "I still have three typewriters.": "The user still has three typewriters.",
        },
        counter_examples=("I have a question.", "I have no idea."),
    ),
    # the speaker's own things: "My goal is to …", "My store is open", "My son got a job"
    Rule(
        "identity",
        FactType.FACT,
        _re(
            rf"^my\s+{_OWN}(?:'s\s+been|'s\s+(?={_STATE})|\s+(?:is|are|was|were|has\s+been|"
            rf"have\s+been|has|have|had|will|(?:just\s+|also\s+|really\s+)?{_PAST}))(?=\s+\S)"
        ),
        examples={
            "My bakery is open on Sundays.": "The user's bakery is open on Sundays.",
            "My goal is to learn sign language.": "The user's goal is to learn sign language.",
        },
        counter_examples=("My bad.", "My heart is full."),
    ),
)

# --- judging: slots, negation ---------------------------------------------------------------

SLOTS = (
    Slot(
        "lives_in",
        _re(
            rf"{SUBJECT}\s+(?:now\s+|still\s+|currently\s+)?(?:lives|resides|is\s+living)\s+in\s+(?P<value>.+)$"
        ),
    ),
    Slot(
        "lives_in",
        _re(rf"{SUBJECT}\s+(?:has\s+)?(?:just\s+)?(?:moved|relocated)\s+to\s+(?P<value>.+)$"),
    ),
    Slot(
        "works_as",
        _re(rf"{SUBJECT}\s+(?:now\s+|currently\s+)?works\s+as\s+(?:an?\s+)?(?P<value>.+)$"),
    ),
    Slot(
        "works_at", _re(rf"{SUBJECT}\s+(?:now\s+|currently\s+)?works\s+(?:at|for)\s+(?P<value>.+)$")
    ),
    Slot(
        "favourite",
        _re(
            rf"{SUBJECT}'s\s+(?:all-time\s+)?favou?rite\s+(?P<thing>.+?)\s+(?:is|are)\s+(?P<value>.+)$"
        ),
    ),
    Slot("married_to", _re(rf"{SUBJECT}\s+is\s+(?:now\s+)?married\s+to\s+(?P<value>.+)$")),
    Slot("prefers", _re(rf"{SUBJECT}\s+(?:now\s+)?prefers\s+(?P<value>.+)$")),
    Slot("age", _re(rf"{SUBJECT}\s+is\s+(?:now\s+)?(?P<value>\d+)(?:\s+years\s+old)?$")),
    Slot("name", _re(rf"{SUBJECT}'s\s+name\s+is\s+(?P<value>.+)$")),
)
NEGATORS = frozenset({"not", "t", "never", "no", "cannot"})
NEGATIONS = NEGATORS | _words("nor don doesn didn isn wasn aren weren won can")
CESSATION = _re(r"\bno\s+longer\b|\b(?:anymore|any\s+more)\b")
CHANGE = _re(
    r"\b(?:now|nowadays|these\s+days|from\s+now\s+on|from\s+then(?:\s+on)?|going\s+forward|"
    r"instead|anymore|no\s+longer|actually|finally|in\s+the\s+end|after\s+all|"
    r"moved|moving|relocated|switch(?:ed|ing)?|chang(?:e|ed|ing)|updat(?:e|ed|ing)|"
    r"new|bump(?:ed)?|upgrad(?:e|ed|ing)|downgrad(?:e|ed|ing)|increas(?:e|ed|ing)|"
    r"decreas(?:e|ed|ing)|raised?|lowered?|went\s+(?:up|down)|back\s+to|not\s+\w+\s+any\s+more)\b"
)
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
    negations=NEGATIONS,
    cessation=CESSATION,
    change=CHANGE,
    ignorable=IGNORABLE,
    lemmas=LEMMAS,
    request=REQUEST,
    hypothetical=HYPOTHETICAL,
    plain_user="the user",
    plain_assistant="the assistant",
)
