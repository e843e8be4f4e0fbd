"""English tables for the rules provider: what counts as a fact, and how to retell it.

The grammar is deliberately small: a clause is retold only when its verb is known
(see `PRESENT`, `PAST`, `AUXILIARIES`); anything else is skipped, since a missed fact
costs less than a wrong one.
"""

from __future__ import annotations

import re

from somna.llm.rules.language import Language, Rule, Slot, Speaker
from somna.llm.rules.text import trim_clause
from somna.llm.rules.text import words as _words
from somna.model import FactType

__all__ = ["ENGLISH"]

_I = re.IGNORECASE


def _re(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, _I)


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
    # hypotheticals and conditionals
    _re(
        r"\b(?:if|unless|whether|maybe|perhaps|probably|possibly|might|would|could|should|"
        r"wish|suppose|supposing|imagine|hypothetically|in case|someday|one day)\b|"
        r"\b(?:i|you|we|they|he|she)'d\b"
    ),
    # hedges and musings
    _re(
        r"\b(?:i think|i guess|i believe|i feel like|i suppose|i wonder|i'm not sure|"
        r"not sure|kind of|sort of|thinking about|thinking of|considering|wondering|"
        r"i don't know|i'm trying to)\b"
    ),
    PLEASANTRY,
    # passing moods and states
    _re(
        r"^(?:\w+\s*,\s*)*i(?:'m| am)\s+(?:so |very |really |just |a bit |quite )?"
        r"(?:fine|good|great|ok|okay|glad|sorry|happy|excited|tired|busy|well|doing|back|here|"
        r"sure|afraid|curious|bored|hungry|stressed|done|ready|sick)\b"
    ),
    _re(r"\bgoing to (?:bed|sleep)\b|\bhave a (?:good|nice|great)\b"),
)

_MARKERS = (
    r"(?:well|oh|ah|so|yes|yeah|yep|ok|okay|actually|honestly|also|and|but|anyway|by the way|"
    r"btw|fun fact|guess what|hi|hello|hey|thanks|now|besides|plus|sure|right)"
)
_DAYS = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
_SEASONS = r"(?:summer|winter|spring|fall|autumn)"
_WHEN = (
    rf"(?:yesterday|today|tonight|tomorrow|recently|lately|"
    rf"this (?:morning|afternoon|evening|week|weekend|month|year|{_SEASONS})|"
    rf"last (?:night|week|weekend|month|year|{_SEASONS}|{_DAYS})|"
    rf"next (?:week|weekend|month|year|{_SEASONS}|{_DAYS})|"
    rf"in \d{{4}}|on {_DAYS}|(?:a few|two|three|four|five|\d+) (?:days|weeks|months|years) ago)"
)
LEAD = _re(rf"^(?:{_MARKERS}\b[\s,!]*)*(?:(?P<when>{_WHEN})\b[\s,]*)?(?:{_MARKERS}\b[\s,]*)*")
CLAUSE_BREAK = _re(
    r"\s*;\s*|\s+[-\u2013\u2014]+\s+|,?\s+(?:and|but|so|because)\s+(?=i\b|i'|my\b)|"
    r",\s+(?=(?:(?:and|but|so|because)\s+)?(?:it|they|he|she|that|this|which)\b)"
)
VAGUE = _re(
    r"\b(?:it|it's|its|this|these|those|them|there|him|her|he|she|one|stuff|things?)\b|"
    r"(?<!\bdecided )(?<!\bdecided\s)\bthat\b"
)

# --- what makes a fact ----------------------------------------------------------------------

_RELATIVES = (
    r"(?:sister|brother|wife|husband|partner|spouse|girlfriend|boyfriend|fianc[ée]e?|friend|"
    r"mom|mum|mother|dad|father|parent|son|daughter|kid|child|children|baby|grandma|"
    r"grandmother|grandpa|grandfather|grandson|granddaughter|aunt|uncle|cousin|niece|nephew|"
    r"boss|manager|colleague|coworker|co-worker|roommate|flatmate|neighbou?r|dog|cat|puppy|"
    r"kitten|sibling|twin)"
)
_KIN_ADJ = r"(?:(?:older|younger|little|big|baby|best|twin|ex|new|late|step|eldest|oldest)[- ]?)"
_VERB3 = (
    r"(?:is|are|was|were|has|have|had|lives|lived|works|worked|loves|loved|likes|hates|moved|"
    r"got|gets|studies|studied|plays|owns|teaches|wants|needs|visited|visits|started|came|comes|"
    r"goes|went|turned|turns|will|can|does|doesn't|did|didn't|just|recently|speaks|runs|"
    r"graduated|passed|left|joined|bought|adopted|married|prefers|"
    r"live|work|love|like|hate|go|come|play|study|want|need|enjoy|visit|own|speak)"
)
_COUNT = r"(?:a|an|one|two|three|four|five|six|\d+)"

RULES = (
    Rule(
        "preference",
        FactType.FACT,
        _re(
            r"^i\s+(?:(?:really|also|absolutely|just|still|totally|truly|do|genuinely)\s+)*"
            r"(?:love|like|enjoy|prefer|hate|adore|dislike|detest)\b(?!\s+to\s+think)"
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
            r"^i(?:'m|\s+am)\s+(?:not\s+)?(?:(?:a\s+)?(?:big\s+|huge\s+|great\s+)?fan\s+of|into|"
            r"crazy\s+about|passionate\s+about|obsessed\s+with)\b"
        ),
    ),
    Rule(
        "preference",
        FactType.FACT,
        _re(r"^my\s+(?:all-time\s+)?(?:favou?rite|preferred)\s+[\w\s-]+?\s+(?:is|are)\s+\S"),
    ),
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
            r"^i(?:'m|\s+am)\s+(?:happily\s+)?(?:married|engaged|divorced|widowed|single|"
            r"dating|in\s+a\s+relationship)\b"
        ),
    ),
    Rule(
        "relationship",
        FactType.FACT,
        _re(rf"^i\s+have\s+{_COUNT}\s+(?:(?:older|younger|little|big|twin)\s+)?{_RELATIVES}"),
    ),
    Rule("identity", FactType.PERSONA, _re(r"^my\s+(?:name|first name|last name)\s+is\s+\S")),
    Rule(
        "identity",
        FactType.PERSONA,
        _re(r"^i(?:'m|\s+am)\s+(?:a|an)\s+(?!(?:bit|little|lot|big|huge|fan|great)\b)\w+"),
    ),
    Rule("identity", FactType.PERSONA, _re(r"^i(?:'m|\s+am)\s+(?:originally\s+)?from\s+\S")),
    Rule("identity", FactType.PERSONA, _re(r"^i(?:'m|\s+am)\s+\d+(?:\s+years\s+old)?$")),
    Rule(
        "identity",
        FactType.PERSONA,
        _re(
            r"^i(?:'m|\s+am)\s+(?:a\s+)?(?:vegetarian|vegan|pescatarian|allergic\s+to|"
            r"lactose\s+intolerant|gluten\s+intolerant|diabetic|retired|left-handed|"
            r"self-employed|colou?r-?blind)\b"
        ),
    ),
    Rule(
        "identity",
        FactType.PERSONA,
        _re(
            r"^i\s+(?:(?:currently|still|now)\s+)?(?:work|live|study|teach)\s+"
            r"(?:as|at|for|in|near|on|with|from|remotely)\b"
        ),
    ),
    Rule("identity", FactType.PERSONA, _re(r"^i\s+(?:was\s+born|grew\s+up)\b")),
    Rule("identity", FactType.PERSONA, _re(r"^i\s+(?:speak|own)\s+\w+")),
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
            r"^i(?:'m|\s+am)\s+going\s+to\s+"
            r"(?!(?:the|a|an|my|bed|church|school|work|sleep)\b|(?-i:[A-Z]))\w+"
        ),
    ),
    Rule("decision", FactType.FACT, _re(r"^i(?:'m|\s+am)\s+going\s+with\s+\S")),
    Rule("plan", FactType.FACT, _re(r"^i(?:'m|\s+am)\s+going\s+to\s+\S")),
    Rule("plan", FactType.FACT, _re(r"^i\s+(?:plan|intend|aim)\s+to\s+\S")),
    Rule("plan", FactType.FACT, _re(r"^i(?:'m|\s+am)\s+(?:planning|about)\s+to\s+\S")),
    Rule(
        "plan",
        FactType.FACT,
        _re(
            r"^i(?:'ll|\s+will)\s+(?!(?:be\s+honest|think|see|try|check|let|get\s+back|"
            r"have\s+a\s+look|never|keep|take\s+a\s+look)\b)\w+"
        ),
    ),
    Rule(
        "plan",
        FactType.FACT,
        _re(
            rf"^i(?:'m|\s+am)\s+\w+ing\b.*\b(?:tomorrow|tonight|soon|next\s+\w+|later\s+today|"
            rf"this\s+(?:weekend|evening|afternoon|{_SEASONS})|on\s+{_DAYS})\b"
        ),
    ),
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
            r"a|an))\b"
        ),
    ),
)

# --- the grammar of retelling ---------------------------------------------------------------

_PRESENT_VERBS = _words(
    """love like enjoy prefer hate adore dislike detest work live study teach speak own
    plan intend aim need want eat drink play use volunteer practice practise miss cook
    read write watch drive ride swim travel run collect paint sing dance visit go do
    have"""
)


def _third_singular(verb: str) -> str:
    irregular = {"have": "has", "do": "does", "go": "goes"}
    if verb in irregular:
        return irregular[verb]
    if verb.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if len(verb) > 2 and verb.endswith("y") and verb[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


PRESENT = {verb: _third_singular(verb) for verb in sorted(_PRESENT_VERBS)}
PAST = _words(
    """went visited started began finished completed moved bought met joined left quit
    graduated adopted traveled travelled returned launched won sold married attended
    booked signed passed published opened retired ran climbed hiked painted wrote built
    learned learnt gave had got decided chose opted picked settled was grew used lost
    broke made took saw found became came flew drove"""
)
AUXILIARIES = {
    "am": "is",
    "was": "was",
    "have": "has",
    "had": "had",
    "will": "will",
    "do": "does",
    "did": "did",
    "don't": "does not",
    "didn't": "did not",
    "can": "can",
    "can't": "cannot",
    "cannot": "cannot",
    "won't": "will not",
    "haven't": "has not",
    "wasn't": "was not",
    "must": "must",
}
_CONTRACTIONS = {"'m": "is", "'ve": "has", "'ll": "will"}
ADVERBS = _words(
    """really also absolutely just still totally truly usually always never often sometimes
    recently finally already actually currently now even definitely mostly generally
    especially genuinely officially"""
)
_HEAD = _re(r"^i(?P<contraction>'m|'ve|'ll|'d)?\s+(?P<rest>.+)$")
_POSSESSIVE_HEAD = _re(r"^my\s+(?P<rest>.+)$")
_PRONOUNS = _re(
    r"\b(?:i\s+am|i'm|i\s+was|i've|i'll|i'd|i|me|my|mine|myself|we|us|our|ours|ourselves|"
    r"you|your|yours|yourself|yourselves)\b"
)


class _Unsure(Exception):
    """The clause uses a form this grammar does not retell with confidence."""


def nominative(who: Speaker, initial: bool) -> str:
    if who.is_user:
        return "The user" if initial else "the user"
    return who.name


def possessive(who: Speaker, initial: bool) -> str:
    return f"{nominative(who, initial)}'s"


def _retell_pronouns(text: str, who: Speaker, instruction: bool) -> str:
    """First-person words after the head: "my" becomes "their", "I am" becomes "they are"…

    In an instruction, "me" and "my" name the speaker instead ("call the user Cara"), and
    "your" is the assistant's ("its"). "we", "our" and "you" are never guessed at.
    """

    def swap(match: re.Match[str]) -> str:
        word = " ".join(match.group().casefold().split())
        if instruction:
            if word in {"me", "myself"}:
                return nominative(who, initial=False)
            if word in {"my", "mine"}:
                return possessive(who, initial=False)
            if word in {"your", "yours"}:
                return "its"
            if word == "yourself":
                return "itself"
        mapping = {
            "i am": "they are",
            "i'm": "they are",
            "i was": "they were",
            "i've": "they have",
            "i'll": "they will",
            "i": "they",
            "me": "them",
            "my": "their",
            "mine": "theirs",
            "myself": "themselves",
        }
        if word in mapping:
            return mapping[word]
        raise _Unsure(word)

    return _PRONOUNS.sub(swap, text)


def _retell(clause: str, who: Speaker, initial: bool, instruction: bool = False) -> str | None:
    try:
        possessed = _POSSESSIVE_HEAD.match(clause)
        if possessed:
            rest = _retell_pronouns(possessed["rest"], who, instruction)
            return f"{possessive(who, initial)} {rest}"
        head = _HEAD.match(clause)
        if head is None:
            return None
        contraction = (head["contraction"] or "").casefold()
        words = head["rest"].split()
        if contraction == "'d":
            return None
        if contraction:
            verb_phrase = [_CONTRACTIONS[contraction]]
        else:
            verb_phrase = []
            while words and words[0].casefold() in ADVERBS:
                verb_phrase.append(words.pop(0))
            if not words:
                return None
            verb = words.pop(0).casefold()
            if verb in AUXILIARIES:
                verb_phrase.append(AUXILIARIES[verb])
            elif verb in PRESENT:
                verb_phrase.append(PRESENT[verb])
            elif verb in PAST or re.fullmatch(r"[a-z]{3,}ed", verb):
                verb_phrase.append(verb)
            else:
                return None
        rest = _retell_pronouns(" ".join(words), who, instruction)
        return " ".join([nominative(who, initial), *verb_phrase, rest]).strip()
    except _Unsure:
        return None


def third_person(clause: str, who: Speaker) -> str | None:
    """ "I love hiking" said by Caroline: "Caroline loves hiking"; None when unsure."""
    return _retell(clause, who, initial=True)


# --- instructions to the assistant ----------------------------------------------------------

IMPERATIVES = _words(
    """answer reply respond write speak talk use call address avoid give keep be format
    include add mention say remind tell send show ask suggest recommend start stop put
    cite double-check check sign end begin explain summarize summarise translate list
    make refer assume correct spell provide offer greet confirm wait let copy cc book
    schedule round convert quote number bold use"""
)
_PLEASE = r"(?:please\s*,?\s+)?"
_STANDING = r"(?:from now on|going forward|in (?:the )?future|from here on)"
_CALL_ME = _re(
    rf"^{_PLEASE}(?:always\s+)?call\s+me\s+(?P<name>(?-i:[A-Z])[\w'-]+(?:\s+(?-i:[A-Z])[\w'-]+)?)$"
)
_ALWAYS = _re(rf"^{_PLEASE}(?P<adverb>always|never)\s+{_PLEASE}(?P<rest>(?P<verb>[\w-]+)\b.*)$")
_DONT_EVER = _re(
    rf"^{_PLEASE}(?:don't|do\s+not)\s+(?:ever\s+(?P<rest>(?P<verb>[\w-]+)\b.*)|"
    r"(?P<rest2>(?P<verb2>[\w-]+)\b.*?)\s*,?\s+(?:anymore|any\s+more|again|from\s+now\s+on))$"
)
_FROM_NOW_ON = _re(
    rf"^{_PLEASE}{_STANDING}\s*,?\s*{_PLEASE}(?P<rest>(?P<verb>[\w-]+)\b.*)$|"
    rf"^{_PLEASE}(?P<rest2>(?P<verb2>[\w-]+)\b.*?)\s*,?\s+{_STANDING}$"
)
_REMEMBER = _re(
    rf"^{_PLEASE}(?:remember|note|keep\s+in\s+mind|don't\s+forget|do\s+not\s+forget|"
    r"never\s+forget)\s*[,:]?\s*(?:that\s+)?(?P<rest>.+)$"
)
_TRAILING_PLEASE = _re(r"[\s,]+please$")
_NOT_A_FACT_TO_KEEP = _re(r"^(?:to|when|me|us|this|that|it|how|what|where|who|why)\b")


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def instruction(sentence: str, who: Speaker) -> str | None:
    """ "Always answer in French." by the user: "The user wants the assistant to always answer…"."""
    clause = _TRAILING_PLEASE.sub("", trim_clause(sentence))
    subject = nominative(who, initial=True)
    try:
        called = _CALL_ME.match(clause)
        if called:
            return f"{subject} wants to be called {called['name']}"
        always = _ALWAYS.match(clause)
        if always and always["verb"].casefold() in IMPERATIVES:
            rest = _retell_pronouns(_lower_first(always["rest"]), who, instruction=True)
            return f"{subject} wants the assistant to {always['adverb'].lower()} {rest}"
        dont = _DONT_EVER.match(clause)
        if dont:
            verb, rest = dont["verb"] or dont["verb2"], dont["rest"] or dont["rest2"]
            if verb.casefold() in IMPERATIVES:
                rest = _retell_pronouns(_lower_first(rest), who, instruction=True)
                return f"{subject} wants the assistant to never {rest}"
        standing = _FROM_NOW_ON.match(clause)
        if standing:
            verb, rest = (
                standing["verb"] or standing["verb2"],
                standing["rest"] or standing["rest2"],
            )
            if verb.casefold() in IMPERATIVES:
                rest = _retell_pronouns(_lower_first(rest), who, instruction=True)
                return f"{subject} wants the assistant to {rest} from now on"
        remember = _REMEMBER.match(clause)
        if remember and not _NOT_A_FACT_TO_KEEP.match(remember["rest"]):
            body = _retell(remember["rest"], who, initial=False, instruction=False)
            if body is None and not _PRONOUNS.search(remember["rest"]):
                body = remember["rest"]
            if body:
                return f"{subject} wants the assistant to remember that {body}"
    except _Unsure:
        return None
    return None


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
