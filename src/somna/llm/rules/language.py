"""What the rules engine must know of a language, and which language a message is in.

Each language's tables (``english.toml``, ``french.toml``, read by `tables`) fill one
`Language`: the words that tell it apart, how chat is cut and cleaned, the sentences never
worth a fact, the patterns that make one, its date phrases and the words judging reads;
its module (`english`, `french`) adds the few functions tables cannot hold, among them the
shapes `grammar` retells a first-person clause by (`english_grammar`, `french_grammar`).
The engine (`extract`, `observe`, `judge`, `dates`, `summary`) knows no language by name.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache

from somna.model import DEFAULT_SUBJECT, FactType

__all__ = [
    "SUBJECT",
    "DateWords",
    "Language",
    "Replacement",
    "Retold",
    "Rule",
    "Seed",
    "Slot",
    "Speaker",
    "Told",
    "detect_language",
    "retell_speaker",
]

Replacement = str | Callable[[re.Match[str]], str]
"""What `re.sub` puts in place of a match: a template, or a function of the match."""
Retold = Callable[[re.Match[str], str, str], str]
"""What a person's words become when told by name: of the match, the speaker and the listener."""
Told = Callable[[re.Match[str], str], str]
"""A sentence of the seed told about its speaker: of the match and the speaker's name."""


@dataclass(frozen=True)
class Speaker:
    """Who a fact is about: a name from the transcript, or the plain user.

    ``group`` is who "we" means in what they say, when the message tells: ``"family"``
    or ``"friends"`` (see `Language.company`); a "we" clause is retold only then.
    """

    name: str
    group: str | None = None

    @property
    def is_user(self) -> bool:
        return self.name.strip().casefold() == DEFAULT_SUBJECT


@dataclass(frozen=True)
class Rule:
    """A first-person clause matching ``pattern`` is a fact of this type and category.

    The match ends where what the clause says begins ("I love| hiking"): unless ``bare``
    (the match says it all: "Gardening is important to me"), a clause with only filler
    words after it ("I love to.") is no fact.

    ``examples`` are sentences the rule must find a fact in, each with the fact it makes
    of them when said by a speaker the transcript gives no name ("The user loves
    hiking."); ``counter_examples`` are near misses it must leave alone. The tests run
    both through the whole extractor, so they also tell when an earlier rule takes over.
    """

    category: str
    type: FactType
    pattern: re.Pattern[str]
    bare: bool = False
    examples: Mapping[str, str] = field(default_factory=dict, hash=False)
    counter_examples: tuple[str, ...] = ()


@dataclass(frozen=True)
class Slot:
    """An attribute a subject has one value of at a time ("lives in", "works at").

    ``pattern`` has the named groups ``subject`` and ``value``, and ``thing`` when the
    slot is a family ("favourite <thing> is").
    """

    name: str
    pattern: re.Pattern[str]


@dataclass(frozen=True)
class Seed:
    """A sentence of the seed's business categories ("we decided…", "contact me by…")."""

    category: str
    pattern: re.Pattern[str]
    tell: Told


@dataclass(frozen=True)
class DateWords:
    """How a language says a date relative to the day it is said in (see `dates`)."""

    phrases: Mapping[str, str]
    """Pattern texts by what they say (``yesterday``, ``last_weekday``, ``ago``…), with the
    groups ``day`` (a weekday), ``n`` (a count, or a day of the month), ``unit`` (what is
    counted) and ``later`` (how many weeks on)."""
    weekdays: Mapping[str, int]
    """A weekday's names, in full and cut short, by its number (Monday 0)."""
    numbers: Mapping[str, int]
    """Counts written out ("two", "a couple of")."""
    units: Mapping[str, str]
    """Words of ``unit``, as ``day``, ``week``, ``month`` or ``year``."""
    weeks_on: Mapping[str, int]
    """Words of ``later``, as a number of weeks ("en huit": 1)."""
    named_times: Mapping[str, int]
    """Times of day said by name, in minutes after midnight ("noon": 720, "minuit": 1440,
    the end of the day it closes)."""
    day_parts: Mapping[str, str]
    """Parts of the day by name, as ``morning``, ``afternoon`` or ``evening`` ("l'aprem":
    afternoon): a slot, like a time of day."""
    clock_phrases: Mapping[int, str]
    """Pattern texts of a time of day said in words, by the minutes each adds to the hour
    of its group ``hour`` ("quarter to ten": -15, "9h et quart": 15)."""
    clock_written: str
    """How the language writes a time of day in digits, from ``hour`` and ``minute``."""


SUBJECT = r"^(?P<subject>.+?)"
"""How a slot's pattern opens: its subject, as short as the rest of the pattern allows."""


@dataclass(frozen=True, eq=False)
class Language:
    """One language's table (see `tables.py`). Each is loaded once and known by identity:
    its hash is cheap, so a text's reading can be cached per language."""

    code: str
    stopwords: frozenset[str]
    """Frequent words of this language and rare in the others: they identify it."""
    skip: tuple[re.Pattern[str], ...]
    """A part of a sentence matching any of these is never a fact (conditionals, pleasantries)."""
    pleasantry: re.Pattern[str]
    """Greetings and thanks, alone or nearly: part of ``skip``, and kept out of summaries too."""
    greeting: re.Pattern[str]
    """A greeting opening a sentence that goes on: what follows it is judged alone."""
    lead: re.Pattern[str]
    """Discourse markers and a time phrase (group ``when``) before the clause; matched at start."""
    segment_break: re.Pattern[str]
    """Strong breaks (";", " - ") between parts of a sentence that stand alone: each part is
    skipped or kept on its own ("I'm keen on woodworking - I'd love a lathe": the first part)."""
    clause_break: re.Pattern[str]
    """Where one part holds several first-person clauses."""
    together: re.Pattern[str]
    """The speaker and others as one subject ("my kids and I"): never cut at its "and"."""
    spoken: tuple[tuple[re.Pattern[str], Replacement], ...]
    """Rewrites of a clause into plain written form before it is matched and retold:
    "gonna" as "going to", a dropped subject restored ("Just got a dog": "I just got…")."""
    elisions: tuple[tuple[re.Pattern[str], str], ...]
    """Where a retold sentence joins two words the language writes as one ("dit que il":
    "dit qu'il"), and how."""
    unmarked_question: re.Pattern[str]
    """A question written without its question mark ("do you ship to Norway"): no fact."""
    interrogative: re.Pattern[str]
    """How a question opens ("Did you…", "Est-ce que…"): in a sentence with a "?", a part
    that opens so is a question too, not only the part that holds the "?"."""
    hedges: tuple[re.Pattern[str], ...]
    """A clause matching any of these is never a fact: a modal ("I might"), a hedge ("I think"),
    a passing mood ("I'm so tired"). Per clause, so that "I love jazz, but I'd never play it"
    keeps its first clause."""
    personal: re.Pattern[str]
    """A clause without one of these words ("I", "me", "my", "we"…) is not about the speaker:
    no rule is tried on it."""
    rules: tuple[Rule, ...]
    """First match wins, so the order is meaningful."""
    vague: re.Pattern[str]
    """A clause that leans on a pronoun for its meaning ("I love it") is not self-contained."""
    filler: frozenset[str]
    """Words that say nothing on their own: a clause whose words after its verb are all
    filler ("I love to.", "I did too") is not a fact."""
    company: tuple[tuple[str, re.Pattern[str]], ...]
    """Who "we" is, by the words of a sentence or message: ``("family", kids|husband…)``."""
    third_person: Callable[[str, Speaker], str | None]
    """A first-person clause retold about the speaker, or None when the grammar is unsure."""
    instruction: Callable[[str, Speaker], str | None]
    """The text of a standing request to the assistant in this sentence, if it is one."""
    slots: tuple[Slot, ...]
    negators: frozenset[str]
    """Tokens (after `normalize_text`) that negate a statement."""
    negations: frozenset[str]
    """Tokens that, in one of two nearly identical wordings, make them say opposite things:
    the negators, and what `normalize_text` leaves of a negative contraction ("don" of
    "don't"). See `somna.consolidate.wording`."""
    cessation: re.Pattern[str]
    """A negation that means "no longer": an update rather than a contradiction."""
    no_longer: re.Pattern[str]
    """What says a value does not hold, or not well enough ("quarterly wasn't enough",
    "the lease ended", "l'annuel est trop cher"): a clause of the value a statement
    replaces, history."""
    change: re.Pattern[str]
    """Words that say a value changed ("moved", "now", "from now on"): a newer value that
    says so supersedes the older one; one that does not is put to a person."""
    ignorable: frozenset[str]
    """Articles and auxiliaries left out when two statements are compared."""
    lemmas: Mapping[str, str]
    """Inflected forms compared as one ("has" as "have")."""
    request: re.Pattern[str]
    """A sentence asking the assistant for something ("Please book a table"): asked for,
    not yet true, so no observation."""
    undecided: re.Pattern[str]
    """An answer that decides nothing yet ("not sure, I'll think about it")."""
    leaning: re.Pattern[str]
    """What opens a clause that leans on the one before it, with no subject of its own
    ("it's a real allergy", "since childhood", "c'est grave"): it goes with that clause."""
    parts_at: re.Pattern[str]
    """Where a statement parts besides its commas, when part of it is replaced or disputed:
    before another subject ("… and we never…"), before a count that ends it ("with 6
    riders")."""
    time_units: frozenset[str]
    """Units of time ("years", "ans"): a number before one counts nothing."""
    measures: frozenset[str]
    """Units of measure ("kg", "mètres"): a number before one measures, and counts no
    thing named near it ("a dog of 42 kg" is no count of dogs)."""
    framing: re.Pattern[str]
    """What opens a clause that only says what the next ones are about ("for the visit on
    Monday", "pour le chantier"): left alone, it tells nothing."""
    hypothetical: re.Pattern[str]
    """A what-if: a condition with a conditional verb ("If I moved, I would…"). A plain
    condition ("call me if it rains") still tells something."""
    plain_user: str
    """How a speaker the transcript gives no name is named in a retold sentence."""
    plain_assistant: str
    """How the assistant is named in a retold sentence ("the assistant", "l'assistant")."""
    letters: re.Pattern[str] | None
    """Letters only this language writes: each (up to 4) counts half a stopword of it."""
    persons: tuple[tuple[re.Pattern[str], Retold], ...]
    """First and second persons in what one person tells another, retold by name."""
    asks_for: re.Pattern[str]
    """How a question asking the listener to do something opens ("Can we…", "Pouvez-vous…"),
    with a group ``listener`` when the listener is to do it ("Can you…"): one that names a
    value ("Can we move it to 6pm?") is the speaker's decision, told."""
    says: str
    """How an observation that does not name its speaker opens: ``"{} says that"``."""
    asking: str
    """How what a speaker asks for is told: ``"{} asks to"``."""
    asking_listener: str
    """How what a speaker asks the listener to do is told: ``"{} asks {} to"``."""
    asking_listener_not: str
    """How what a speaker asks the listener not to do is told: ``"{} asks {} not to"``
    (a request's group ``negated``, "please don't …")."""
    asking_that: str
    """How a request that something of the speaker's be done otherwise is told:
    ``"{} asks that"`` ("… the stock count be moved to thursdays")."""
    asking_for: str
    """How a request for a thing or a time, no deed, is told: ``"{} asks for"`` (a
    request's group ``what``: "possible le samedi à 10h ?")."""
    answering: str
    """How an answer carries the question it answers: ``"in answer to: {}"``."""
    agreeing: str
    """How a bare yes is told, before the question it answers: ``"{} agrees"``."""
    in_all: str
    """How a count made from an older one is told: ``"{} in all"`` ("3 flues in all")."""
    assent: re.Pattern[str]
    """An answer that only says yes ("yep", "go on then", "parfait merci")."""
    manner: re.Pattern[str]
    """How or where a request wants a thing done ("with a …", "well", "près de la …"):
    with enough words besides, the request says how things go."""
    takes_quoted: re.Pattern[str]
    """A reply that takes what was quoted, in so many words ("go for that", "on part
    là-dessus"): more than a yes, which may only say it was heard."""
    offers_to_take: re.Pattern[str]
    """A sentence offering a thing to take ("We can offer you the oak one", "On peut vous
    proposer le chêne"): a yes to the question that follows it takes that thing too."""
    increment: re.Pattern[str]
    """A sum added on to another ("£40 extra", "ça rajoute 240 €"): no new value of it."""
    offers_more: re.Pattern[str]
    """A question that offers something more ("Would you like to add…?", "Un contrat
    d'entretien, ça vous intéresse ?"): a no to it tells nothing of it."""
    puts_off: re.Pattern[str]
    """A reply that turns an offer down or puts it off ("no thanks", "not yet", "on verra
    plus tard")."""
    declines: re.Pattern[str]
    """A reply that turns down what was asked ("Sorry, we're full", "Malheureusement…")."""
    denies: re.Pattern[str]
    """A reply that opens by saying no ("ha no, 17 now", "non, on sera 14"): with a number
    of its own, it puts right the one its question held."""
    proposal_tag: re.Pattern[str]
    """The tag after a value proposed as a question ("…, would that work?", "ça irait ?")."""
    offers_to_do: re.Pattern[str]
    """A question offering to do what the sentence before it proposes ("Shall I switch
    it?", "Je vous le change ?"): a yes to it takes that sentence too."""
    refers_back: re.Pattern[str]
    """A question that only asks about what the sentence before it proposes: to confirm it
    ("Does that work?", "Ça vous convient ?") or to choose among it ("Which suits you?")."""
    named: str
    """How who a speaker is is told: ``"{} is {}"``."""
    age_told: str
    """How an age reads after a name: ``"{}"`` ("Theo, 38"), ``"{} ans"``."""
    describes_self: re.Pattern[str]
    """How a speaker says their trade or their age ("I'm a joiner", "j'ai 52 ans"): group
    ``role`` or ``age``."""
    names_relative: re.Pattern[str]
    """A relative named ("my son is Noa", "mon fils s'appelle Noé"): groups ``relation``
    and ``name``."""
    several_relatives: frozenset[str]
    """Relatives one often has several of ("friend", "cousin"): never named this way."""
    relative_said: str
    relative_retold: str
    """A relative as said ("my son") and as retold ("the user's son"): patterns with the
    relation to fill in (``{relation}``)."""
    reschedule: re.Pattern[str]
    """Words that move a date ("move it to Friday", "décaler", "reporter")."""
    shift: re.Pattern[str]
    """A stretch of time a date is moved by ("push it back a week", "décalez d'une
    semaine"): groups ``n`` and ``unit``."""
    time_shift: re.Pattern[str]
    """A stretch of the clock a time is moved by ("an hour later", "une demi-heure plus
    tôt"): groups ``n`` or ``half``, ``unit`` (hours or minutes) and ``earlier``."""
    count_added: tuple[re.Pattern[str], ...]
    """A count given against an older one ("one more flue than I said", "deux sacs de
    plus", "and one red fewer"): groups ``n``, ``what`` (the thing counted) and ``fewer``
    when it takes away."""
    more_than_said: tuple[re.Pattern[str], ...]
    """A count or an amount given against what was said, the thing not always named ("a
    hundred more than I told you", "deux de moins que prévu", "on en fait deux de moins"):
    groups ``n``, ``hundred`` (times a hundred), ``currency`` or ``money`` (an amount),
    ``what`` (the thing, where named), ``more`` (where the total is told) and ``fewer``."""
    scaled: tuple[re.Pattern[str], ...]
    """A count made a multiple of the older one ("double the block", "twice as many",
    "le double"): group ``twice``, ``thrice`` or ``half``, and ``what`` where named."""
    puts_right: re.Pattern[str]
    """A mistake put right ("sorry, I gave you the wrong date", "je voulais dire")."""
    remakes: re.Pattern[str]
    """What makes a value just given another in the same breath ("make it half nine",
    "disons plutôt 10h")."""
    as_usual: re.Pattern[str]
    """What is said to stay as it was ("Wednesday at 3 as usual", "mercredi comme d'hab"):
    a day named so is not moved."""
    monthly_day: re.Pattern[str]
    """A day of each month ("the 5th of each month", "le 10 du mois"): group ``n``."""
    departed: tuple[re.Pattern[str], ...]
    """Someone said to have left ("Ines has left us", "Lucien est parti", "c'est plus
    Anatole sur place"): group ``name``."""
    moved_from: re.Pattern[str]
    """A change from one value to another in so many words ("switch the bags from red to
    navy", "passer du rouge au bleu"): groups ``then`` and ``now``."""
    keeps: re.Pattern[str]
    """A question offering to keep something as it is ("Shall we keep the cedar?", "On
    garde le rouge ?")."""
    brought_forward: re.Pattern[str]
    """What moves a date earlier ("bring it forward", "avancer")."""
    asks_who_or_where: re.Pattern[str]
    """A question asking who or where ("Who will sign?", "Où livrer ?"): its answer is a
    name, which a later answer may give anew."""
    asks_when: re.Pattern[str]
    """A question asking when ("When can you drop it off?", "Quelles dates ?")."""
    drops: re.Pattern[str]
    """What drops a thing taken before ("scratch the house blend", "annulez le lavage"):
    group ``left``, what is dropped."""
    takes: re.Pattern[str]
    """What asks to have a thing, opening a request ("have the lemon tart", "avoir la
    formule du midi"): what follows names what the speaker takes."""
    chooses: re.Pattern[str]
    """What takes one of the options a question offered ("go for the rail then", "va pour
    le rail alors"): a change of choice though it says no change."""
    recurring: re.Pattern[str]
    """What says a thing is done each time ("to every box", "chaque semaine"): a request
    with it changes how things go, even without a value ("Could you add a card to every
    order?")."""
    provisional: re.Pattern[str]
    """A value said for now ("for now", "pour l'instant"): a later value of the same thing,
    said to change, replaces it."""
    introduces: re.Pattern[str]
    """A name given unasked, opening a message ("Hi, I'm Ines Varga", "Ines Varga here",
    "je m'appelle Noé"): group ``name``."""
    asks_name: re.Pattern[str]
    """A question that asks the listener's name ("May I have your name?")."""
    before_name: re.Pattern[str]
    """What may open an answer before the name it gives ("Sure, it's", "Oui, c'est")."""
    retell_questions: bool
    """Whether that question is retold by name (`persons`), or quoted as it was asked."""
    capitalises_months: bool
    """Whether the language writes a month with a capital ("July"; "juillet" has none): a
    month's name without one is another word ("march", "may")."""
    seeds: tuple[Seed, ...]
    """The seed's business categories, tried before the rules."""
    dates: DateWords
    first_person: str
    """First-person words, as alternatives of a pattern: a sentence with one is about its
    speaker (with those of every language, in `observe`)."""
    reaction: str
    """How a reaction to the other person opens ("that's so…", "bravo"), as alternatives."""
    instead: str
    """What a correction puts before the number it replaces ("not", "pas"), as alternatives."""
    slip: str
    """What puts a slip right in the same breath ("3 sorry typo, 2", "4817… pardon,
    4871"), as alternatives."""
    slip_before_value: str
    """What puts a slip right only before a number, a name or a day ("3… no 4", "le 12
    octobre… non 12 novembre"; not "no chicken treats"), as alternatives."""
    which: str
    """What asks which one, after a preposition ("from which"), as alternatives."""
    replaced: str
    """What puts the value a choice replaces after it ("instead of", "plutôt que")."""
    age: re.Pattern[str]
    """A person's age, its number in a group whose name starts with ``age``."""
    bounds: str
    """What bounds or estimates a figure ("max", "up to", "environ"), as alternatives."""
    articles: str
    """Articles before a value ("the", "le"), as alternatives."""
    months: str
    """Months as a written-out date shortens them ("mar", "fév"), as alternatives."""
    ordinals: str
    """What follows a number that ranks rather than counts ("4th", "1er"), as alternatives."""
    floating: frozenset[str]
    """Words of a retold statement and time adverbs: no part of a sentence's frame."""
    month_names: frozenset[str]
    """The months, in full and cut short ("mar", "march"): no names, though capitalised."""
    not_topics: frozenset[str]
    """Words two statements share without being about the same thing."""
    greetings: frozenset[str]
    """Words that greet ("Hello again", "Coucou"): no one's name, capitalised or not."""
    openers: frozenset[str]
    """Words that open a sentence with a capital and name no one: a request's verb, a yes, a
    cry ("Say 10am", "Brilliant, thanks", "Dites-lui")."""
    place_words: frozenset[str]
    """Small words a place's name follows ("the branch in Exeter", "l'agence de Rodez")."""
    children: frozenset[str]
    """Words for children ("kids", "enfants"): one thing counted, however it is written."""
    comparatives: frozenset[str]
    """Words that compare a count with another ("two more", "deux de moins"): no thing
    counted."""
    people: frozenset[str]
    """Words that count people ("guests", "staff", "personnes"): a number beside one, and
    one the speaker's group is (`group_count`), count the same thing."""
    anyone: frozenset[str]
    """The words of `people` that name anyone, no guest nor member in particular ("people",
    "personnes"): people added so count against any count of people."""
    group_count: re.Pattern[str]
    """What, right before a number, says the speaker's group is that many ("we're 18")."""
    value_words: frozenset[str]
    """Lower-case words that name a value: channels, frequencies, times of day, days, tiers."""
    offered_deed: re.Pattern[str]
    """The deed a business offers in its question ("what can we print for you?", "que
    puis-je vous préparer ?"): group ``deed``, which asks nothing in particular."""
    offers: frozenset[str]
    """Words of an offer of help ("How can I help?"): a question made of these and stopwords
    asks for nothing in particular, and an answer does not carry it."""
    alternative: frozenset[str]
    """The words that offer another option ("or", "ou")."""
    titles: frozenset[str]
    """How a person is named by title instead of a first name ("Mrs", "Mme")."""
    proposing: frozenset[str]
    """Words of a slot proposed ("How about Tuesday, first thing?", "Je peux vous proposer
    jeudi ?"): they name nothing the slot is for."""

    def rule_name(self, number: int) -> str:
        """How a fact records the rule at ``number`` in `rules`: ``en.preference.3``."""
        return f"{self.code}.{self.rules[number].category}.{number}"

    def elided(self, text: str) -> str:
        """`text` as the language writes it once retold: "dit que il" as "dit qu'il"."""
        for elision, written in self.elisions:
            text = elision.sub(written, text)
        return text


_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")


@cache
def _own_stopwords(language: Language, languages: tuple[Language, ...]) -> frozenset[str]:
    """The stopwords of `language` that no other language writes as a day's name: "mon" is
    a French "my" and an English Monday ("mon wed fri 7am"), and tells neither apart."""
    others = {day for other in languages if other is not language for day in other.dates.weekdays}
    return language.stopwords - others


def retell_speaker(text: str, speaker: str, listener: str, language: Language) -> str:
    """``text`` as said by ``speaker`` to ``listener``, told about them by name.

    >>> from somna.llm.rules.english import ENGLISH
    >>> retell_speaker("I'm moving and my cat hates you", "Odile", "Bram", ENGLISH)
    "Odile is moving and Odile's cat hates Bram"
    >>> retell_speaker("Do you have a car?", "Odile", "Bram", ENGLISH)
    'Does Bram have a car?'
    """
    for pattern, retold in language.persons:
        text = pattern.sub(lambda m, retold=retold: retold(m, speaker, listener), text)  # type: ignore[misc]
    return text


def detect_language(
    text: str, languages: Sequence[Language], default: Language, evidence: float = 0.5
) -> Language:
    """The language whose stopwords the text uses most; its own letters count too.

    Ties, and a best score under ``evidence``, give ``default``: a short sentence with one
    "de" in it ("Dancing helps me de-stress") is not French for that.
    """
    words = _WORD.findall(text.casefold())
    best, best_score, tie = default, -1.0, False
    for language in languages:
        own = _own_stopwords(language, tuple(languages))
        score = float(sum(word in own for word in words))
        if language.letters is not None:
            score += 0.5 * min(len(language.letters.findall(text.casefold())), 4)
        if score > best_score:
            best, best_score, tie = language, score, False
        elif score == best_score:
            tie = True
    return default if tie or best_score < evidence else best
