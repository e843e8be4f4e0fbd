"""English as it is chatted: what surrounds a fact in a sentence, and what is never one.

The tables the engine (`extract`) applies before any rule: sentences and clauses that
are never facts (`SKIP`, `HEDGES`), where a sentence is cut (`SEGMENT_BREAK`,
`CLAUSE_BREAK`), what leads a clause and is left out ("Wow,", "Hey Bram!", a time
phrase: `LEAD`), spoken forms made plain ("gonna", a dropped subject: `SPOKEN`), the
words a self-contained clause does without (`VAGUE`) and who "we" is (`COMPANY`).
"""

from __future__ import annotations

import re

from somna.llm.rules.language import Replacement
from somna.llm.rules.text import regex as _re
from somna.llm.rules.text import words as _words

STOPWORDS = _words(
    """the and is are was were i my to of in it you that this with for have has had but not
    at be we they what so do don t ve ll re from your just really will about there
    their been would can could very did didn isn doesn how when where which who because"""
)

# --- sentences that are never facts ---------------------------------------------------------

PLEASANTRY = _re(
    r"^(?!.*\b(?:i|i'm|i've|my)\b)"
    r"(?:hi|hello|hey|thanks|thank you|thx|good (?:morning|afternoon|evening|night)|bye|"
    r"goodbye|see you|cheers|you're welcome|no problem|ok|okay|great|cool|nice|sure|"
    r"awesome|lol|haha|sorry|wow|oh|perfect|sounds good)\b(?:[\s\W]*[\w']+){0,6}[\s\W]*$"
)

SKIP = (
    # conditionals: the whole part of the sentence is suspended
    _re(r"\b(?:if|unless|whether|suppose|supposing|imagine|hypothetically|in case)\b"),
    PLEASANTRY,
    _re(r"\bgoing to (?:bed|sleep)\b|\bhave a (?:good|nice|great)\b"),
)
REQUEST = _re(r"^(?:please|pls|kindly|remember|remind me|don't forget|note that)\b")
HYPOTHETICAL = _re(
    r"\b(?:if|unless|suppose|imagine)\b.*\b(?:would|could|might|\w+'d)\b|"
    r"\b(?:would|could|might|\w+'d)\b.*\b(?:if|unless)\b"
)
INTERROGATIVE = _re(
    r"^(?:do|does|did|are|is|was|were|have|has|had|can|could|will|would|should|what|how|why|"
    r"where|when|who|which|want|wanna|got|any|anything|ever|you)\b"
)
HEDGES = (
    # modals and wishes
    _re(
        r"\b(?:maybe|perhaps|probably|possibly|might|would|could|should|wish|someday|one day)\b|"
        r"\b(?:i|you|we|they|he|she)'d\b"
    ),
    # hedges and musings
    _re(
        r"\b(?:i think|i guess|i believe|i feel like|i suppose|i wonder|i'm not sure|"
        r"not sure|kind of|kinda|sort of|i'm thinking (?!about|of)|wondering|"
        r"i don't know|i'm trying to|i'm sure)\b"
    ),
    # determination with nothing said: "I'm gonna keep going and never quit"
    _re(
        r"\bkeep(?:\s+on)?\s+(?:going|pushing|trying|at\s+it|it\s+up|fighting|moving|"
        r"grinding|rocking)(?:\s*(?:,|and)\s*(?:never\s+(?:quit|give\s+up|stop)|"
        r"working\s+hard|whatever\s+comes\s+my\s+way|no\s+matter\s+what))?$"
    ),
    # passing moods
    _re(r"^i\s+had\s+(?:a|such\s+a)\s+(?:\w+\s+)?(?:time|blast|day)$"),
    _re(
        r"^i(?:'m| am)\s+(?:so |very |really |just |a bit |quite |super |totally )?"
        r"(?:(?:fine|good|great|ok|okay|glad|sorry|happy|tired|busy|well|doing|back|here|"
        r"sure|afraid|curious|bored|hungry|stressed|done|sick|swamped|exhausted|proud|stoked|"
        r"thrilled|feeling|getting\s+(?:there|by|better))\b|"
        r"(?:excited|ready|eager|determined)\b(?!\s+to\s+\w)|keen\b(?!\s+(?:to|on)\s+\w)|"
        r"(?:thankful|grateful)\b(?!\s+for\b))"
    ),
)

_MARKERS = (
    r"(?:well|oh|ah|aw+|so|yes|yeah|yep|yup|ok|okay|actually|honestly|also|and|but|anyway|"
    r"by the way|btw|fyi|fun fact|guess what|now|besides|plus|sure|right|absolutely|totally|"
    r"definitely|haha|lol|hmm|um|omg|gosh|man|anyways|unfortunately|fortunately|luckily|"
    r"sadly|thankfully|happily|seriously|basically|good news|"
    r"since (?:we|our) last (?:chat|chatted|spoke|talked|talk)|"
    r"a lot(?:'s| has) happened|long time no (?:see|chat|talk)|"
    r"(?:hi|hello|hey|thanks|thank you|wow|congrats|yay|woohoo)"
    r"(?:[\s,]+(?-i:[A-Z])[a-z]+\b(?!'))?)"
)
DAYS = (
    r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tues?|wed|thur?s?|fri|"
    r"sat|sun)"
)
SEASONS = r"(?:summer|winter|spring|fall|autumn)"
NUMBER = (
    r"(?:a few|a couple of|a couple|two|three|four|five|six|seven|eight|nine|ten|twelve|"
    r"fifteen|twenty|thirty|several|many|\d+)"
)
_WHEN = (
    rf"(?:yesterday|today|tonight|tomorrow|recently|lately|the other day|earlier today|"
    rf"this (?:past )?(?:morning|afternoon|evening|week|weekend|month|year|{SEASONS})|"
    rf"last (?:night|week|weekend|month|year|{SEASONS}|{DAYS})|"
    rf"next (?:week|weekend|month|year|{SEASONS}|{DAYS})|"
    rf"in \d{{4}}|on {DAYS}|(?:a|one|{NUMBER}) (?:days?|weeks?|weekends?|months?|years?) ago)"
)
LEAD = _re(rf"^(?:{_MARKERS}\b[\s,!]*)*(?:(?P<when>{_WHEN})\b[\s,]*)?(?:{_MARKERS}\b[\s,]*)*")
SEGMENT_BREAK = _re(r"\s*;\s*|\s+[-\u2013\u2014]+\s+|(?<=\w)[-\u2013\u2014]+\s+|\s*\u2014\s*")
CLAUSE_BREAK = _re(
    r",?\s+(?:and|but|so|because|plus)\s+(?=i\b|i'|my\b)|"
    r",\s+(?=(?:(?:and|but|so|because)\s+)?(?:it|they|he|she|that|this|which|we)\b)|"
    r"\s+(?:and|but|so)\s+(?=(?:it|that|this|they|which)(?:\b|'))|"
    r",\s+(?:plus|which)\s+|"
    r"\s+so\s+(?=(?:[a-z]+ing|it|they|we|that)\b)|"
    r"\s+and\s+(?=(?:hoping|wishing|thinking|wondering|feeling|trying)\b)|"
    r",\s+(?=(?:take\s+a\s+look|check\s+(?:it|this|them)\s+out|look|see)\b)|"
    r",\s+(?=(?:i|i'm|i've|i'll|my)\b)|,\s+(?=(?:just\s+)?been\s+\w+ing\b)"
)


def _subject(match: re.Match[str]) -> str:
    """ "Just got a dog" as "I just got a dog"."""
    said = match.group()
    return f"I {said[:1].lower()}{said[1:]}"


def _indefinite(match: re.Match[str]) -> str:
    """ "I made this bowl" (while showing it) as "I made a bowl"."""
    if match["det"].casefold() in {"these", "those"}:
        return f"{match['verb']} some "
    return f"{match['verb']} {'an' if match['next'][:1].casefold() in 'aeiou' else 'a'} "


SPOKEN: tuple[tuple[re.Pattern[str], Replacement], ...] = (
    (_re(r"\bgonna\b"), "going to"),
    (_re(r"\bwanna\b"), "want to"),
    (_re(r"'cause\b|\bcuz\b"), "because"),
    (
        _re(r",?\s*since (?:our last (?:chat|talk|conversation)|we last (?:spoke|talked|chatted))"),
        "",
    ),
    (_re(r",\s*(?:buddy|pal|dude|man|girl|my\s+friend|mate|bro|sis)$"), ""),
    (_re(r"(?:,\s*|\s+)(?:btw|lol|haha|though|(?:ya|you)\s+know|eh)$"), ""),
    (_re(r"\b(?P<stem>[a-z]{2,})in'(?!\w)"), lambda m: m["stem"] + "ing"),
    # a story's "this": "I came across this cool sidewalk", told as "a cool sidewalk"
    (
        _re(
            r"\bthis\s+(?=(?P<adjective>amazing|awesome|cool|great|new|nice|beautiful|lovely|huge|"
            r"big|little|small|old|special|gorgeous|incredible|wonderful|fantastic|super|"
            r"really)\b)"
        ),
        lambda m: "an " if m["adjective"][:1].casefold() in "aeiou" else "a ",
    ),
    # a thing the speaker made and shows: "I painted this sunset", told as "a sunset"
    (
        _re(
            r"\b(?P<verb>made|painted|drew|built|wrote|knitted|baked|created|crafted|designed|"
            r"sewed|carved|finished|took(?=\s+\w+\s+(?:photo|pic|picture|shot)))\s+"
            r"(?P<det>this|that|these|those)\s+(?=(?P<next>[a-z][\w-]*))"
            r"(?!(?:is|was|are|were|for|because|after|before|when|with|to|in|on|at|and|happen|"
            r"work|up|out|right|possible|clear|yesterday|today|last|recently|one|myself|look|"
            r"feel|[a-z]+ly)\b)"
        ),
        _indefinite,
    ),
    # a photo shared is a thing the speaker did: "Here's a pic of my family at the beach"
    (
        _re(r"^here(?:'s|\s+is)\s+(?=(?:a|an|one)\s+(?:[\w-]+\s+){0,3}?(?:of|from)\s+my\b)"),
        "I shared ",
    ),
    # a subject left out in speech: "Gonna try woodworking", "Been rowing a lot", "Just got a dog"
    (_re(r"^going\s+to\b(?=\s+(?!be\b)\w)"), lambda m: "I'm " + m.group().lower()),
    (
        _re(r"^(?:just\s+)?been\s+(?=\w+ing\b|(?:only\s+)?to\b)"),
        lambda m: "I've " + m.group().lower(),
    ),
    (_re(r"^(?:still|currently)\s+(?=\w+ing\b)"), lambda m: "I'm " + m.group().lower()),
    (
        _re(
            r"^(?:just\s+)?(?:got|finished|started|bought|signed\s+up|joined|adopted|made|"
            r"painted|took|booked|moved|launched|picked\s+up|contacted|applied|won)\b"
            r"(?=\s+(?:a|an|the|my|some|\w+ing)\b)"
        ),
        _subject,
    ),
)
_TIMELY = (
    r"morning|afternoon|evening|week|weekend|month|year|summer|winter|spring|fall|autumn|"
    r"time|past|coming|year's|week's|month's"
)
_SAYS_THAT = _words(
    """realize realized realise realised know knew learned learnt decided believe found
    discovered hope hoped feel felt showed shows show remind reminds reminded means meant
    say said proud glad sure so mean taught teaches"""
)
_NOT_PLURAL = (
    r"(?:was|is|has|this|his|always|its|yes|us|does|plus|less|across|unless|perhaps|thus|as|"
    r"lots|class|bus|boss|miss|process|success|business|focus|dress|stress)"
)
VAGUE = _re(
    r"\bit\b(?!\s+was\s+my\s+first\s+time\b)|\b(?:these|those)\b(?!\s+days\b)|"
    r"\b(?:it's|its|there|him|her|he|she|his|they|theirs|stuff|"
    r"things|something|anything|nothing|everything|'em)(?!\w)|"
    # "their" and "them" with no plural before them to stand for ("I love their music")
    rf"^(?:(?!\b(?!{_NOT_PLURAL}\b)[a-z]{{2,}}s\b).)*\b(?:their|them)\b|"
    rf"\bthis\b(?!\s+(?:{_TIMELY})\b)|\bone\b(?!\s+of\b|-)|"
    + "".join(rf"(?<!\b{word} )" for word in sorted(_SAYS_THAT))
    + r"\bthat\b(?!\s+(?:is|are|was|were|has|have|had|made|can|will|changed|gave|brought|"
    r"[a-z]+ed|[a-z]+s)\b)"
)
FILLER = _words(
    """to too it that this so much a an the lot lots very really also as well just all both
    back up out on in with for of at and or but ever anymore either stuff things thing
    there here one some more again yet now then them they it's that's still even many any
    same soon though anyway yes no not few couple bit little"""
)
COMPANY = (
    (
        "family",
        _re(
            r"\b(?:my|our)\s+(?:\w+\s+)?(?:kids?|children|child|family|fam|husband|wife|hubby|"
            r"sons?|daughters?|partner|parents|mom|mum|dad|little\s+ones)\b|"
            r"\b(?:family|fam|parent)\b|(?<!\bfor\s)\b(?:the|our)\s+kids\b"
        ),
    ),
    ("friends", _re(r"\b(?:friends?|gang|buddies|pals|crew|squad|mates)\b")),
)

PERSONAL = _re(r"\b(?:i|i'm|i've|i'll|me|my|we|we're|we've)\b")

TOGETHER = _re(r"^(?:my|our)\s+[\w'-]+(?:\s+[\w'-]+)?\s+and\s+i\b")
