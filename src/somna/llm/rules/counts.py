"""Numbers given anew: "around 110 guests", then "the guest list is at 130 now".

A revised count rarely keeps its sentence frame ("Budget about 18,000." then "we can go to
21,500 max now"): what ties the two is what the numbers count, a word near each that both
share ("guests"), or, for sums, amounts of one scale (a budget is not revised tenfold).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from somna.llm.rules.frames import agrees
from somna.llm.rules.language import Language, detect_language
from somna.llm.rules.languages import ANSWERED, LANGUAGES
from somna.llm.rules.numbers import (
    CHILD,
    DATE,
    NOT_TOPICS,
    NUMBER_ALONE,
    PEOPLE,
    RECURRING,
    TIME_UNIT_STEMS,
    Number,
    numbers_in,
    written,
)
from somna.llm.rules.slips import shape
from somna.llm.rules.tallies import counts_only_against_another
from somna.llm.rules.text import fold

__all__ = [
    "code_given_anew",
    "corrects_the_question",
    "counted_words",
    "head_count_updated",
    "may_give_a_code",
    "may_update_a_number",
    "number_put_right",
    "number_updated",
    "numbers_given",
    "with_the_unit_asked",
    "with_the_unit_left_out",
    "with_what_it_counts",
    "without_the_count_asked",
]

_CODE = re.compile(r"(?<![\w-])(?=[\w-]*[^\W\d_]{2})(?=[\w-]*\d{3})[^\W_][\w-]{3,}(?<=\w)(?![\w-])")
"""A reference: one word holding two letters and three digits in a row at least (an order,
a purchase order), whose shape a slip keeps; not a day ("14th") nor a time ("10am")."""
_ACCESS = (
    r"\b(?:key\s*safe\s+|door\s+|gate\s+|alarm\s+)?(?:code|pin|digicode|password|passcode"
    r"|combination|mot\s+de\s+passe|combinaison)\b"
)
_ACCESS_CODE = re.compile(rf"{_ACCESS}\D{{0,25}}?(?<![\d:.,])(?P<code>\d{{3,6}}[a-z]?)\b", re.I)
"""A number that opens a door: "key safe by the back door, code 4471", "digicode 2815B"."""
_ACCESS_WORD = re.compile(_ACCESS, re.I)
_BARE_NUMBER = re.compile(
    r"(?<![\w:.,£€$/-])(?P<code>\d{3,6}[a-z]?)(?![\w:/%€£$-]|[.,]\d)"
    r"(?!\s*(?:am|pm|h\b|€|euros?|pounds?|km|kg|m\b|mm\b|cm\b))",
    re.I,
)
"""A number of a few digits on its own, no time, price nor measure."""
_SAME_SCALE = 2.0
"""Two amounts at most this far apart (the larger over the smaller) may be one amount
revised: "18,000" then "21,500", "60-70k" then "80k"; not a seat's price and a budget."""


def may_update_a_number(new: str, languages: Sequence[Language] = LANGUAGES) -> bool:
    """Whether `number_updated` can hold for `new` against any text: it gives a number and
    says something changed, or counts people (a head count is firmed up without saying
    so), or gives a sum of money (restated, it is the sum now). Tested before any search.

    >>> may_update_a_number("We are 130 now."), may_update_a_number("We booked 130 chairs.")
    (True, False)
    >>> may_update_a_number("52 guests are coming.")
    True
    """
    language = detect_language(new, languages, languages[0])
    numbers = numbers_in(_told(new))
    if language.change.search(fold(new)) is not None or agrees(new) or _puts_right(new, language):
        return bool(numbers)
    return any(n.counts_people or n.amount for n in numbers)


def counted_words(new: str) -> list[str]:
    """The words an older count of what `new` counts anew may be written in, beside its
    own, to search facts for: those that count people ("we're 18 now" may update "lunch
    for 14 people"), or children ("22 children", "15 kids"), when it counts them."""
    numbers = numbers_in(_told(new))
    words = []
    if any(PEOPLE in n.near for n in numbers):
        words += [w for language in LANGUAGES for w in language.people]
    if any(n.unit == CHILD for n in numbers):
        words += [w for language in LANGUAGES for w in language.children]
    return sorted(words)


def numbers_given(new: str) -> int:
    """How many numbers an observation gives (not those of the question it answers): how
    many older figures it may update at once ("3 engineers now, up to 80k")."""
    return len({n.value for n in numbers_in(_told(new))})


def number_updated(old: str, new: str, languages: Sequence[Language] = LANGUAGES) -> bool:
    """Whether `new` gives a new number for what `old` counted, and says it changed: a word
    of change in `new` ("now", "finally", "désormais"), none of `new`'s numbers in `old`,
    and each counting the same thing: a word of four letters or more near a number in each
    (not the speaker's), or two amounts of one scale, the newer given as a bound or an
    estimate ("up to 80k", "plutôt 290 000"; an offer at a price revises no budget).

    >>> number_updated("Around 110 guests.", "Update: the guest list is at 130 now.")
    True
    >>> number_updated("Budget about £18,000 in total.", "We can go to 21,500 max now.")
    True
    >>> number_updated("Around 110 guests.", "We booked a band for 3 hours.")
    False
    >>> number_updated("Anything under £150, just do it.", "That £150 is too low, make it £250.")
    True

    A count first estimated (of people, of children, or of a thing in the same unit) is
    firmed up without a word of change, a sum of money is restated, and a figure the
    client says yes to is taken up:

    >>> number_updated("About 40 guests, give or take.", "The replies are in: 52 guests.")
    True
    >>> number_updated("Wants 5 hampers for the team.",
    ...                "The user agrees (in answer to: So that's 4 hampers then?).")
    True
    """
    language = detect_language(f"{new} {old}", languages, languages[0])
    old_numbers: Sequence[Number] = numbers_in(old)
    # a sum added on ("ça rajoute 240 €", "£40 extra") is no new value of the older one
    told = language.increment.sub(" ", _told(new))
    new_numbers = [n for n in numbers_in(told) if not n.corrected]
    if language.change.search(fold(new)) is None and not agrees(new):  # a figure taken up
        if _amount_restated(old_numbers, new_numbers):
            return True
        # an estimate firmed up: of people, or of a thing counted in the same unit
        # ("roughly 60 aprons", then "72 aprons")
        old_numbers = [n for n in old_numbers if n.bounded and (n.counts_people or n.unit)]
        units = {n.unit for n in old_numbers if n.unit}
        new_numbers = [
            n for n in new_numbers if n.counts_people or (n.unit in units and not n.bounded)
        ]
    elif _sum_named_again(old_numbers, new_numbers):
        return True
    return any(  # a time of day against times of day, any other number against the others
        _updated(
            [n for n in old_numbers if n.clock is clock],
            [n for n in new_numbers if n.clock is clock],
        )
        for clock in (False, True)
    )


def head_count_updated(old: str, new: str) -> bool:
    """Whether `new` gives anew a count of people `old` gave ("about 30 of us", then "there
    are 42 people in the office"): of all the numbers a message may give anew, the one a
    business reads most.

    >>> head_count_updated("Around 40 guests, give or take.", "We'll be 55 guests now.")
    True
    >>> head_count_updated("Before 10am, please.", "Fine, 9am then, now.")
    False
    """
    return any(n.counts_people for n in numbers_in(old)) and number_updated(old, new)


def number_put_right(old: str, new: str, languages: Sequence[Language] = LANGUAGES) -> bool:
    """Whether `new` puts right a number `old` gave ("oops, I said 240 chairs, it's 260"):
    a word that owns a mistake, and another number for what `old` counted; the mistaken
    one may be named again.

    >>> number_put_right("30 tables and 240 chairs.", "Oops I said 240 chairs, it's 260.")
    True
    >>> number_put_right("30 tables and 240 chairs.", "We also need 260 plates.")
    False
    >>> number_put_right("About 140 m².", "I said 140 m² but with the porch it's 160.")
    True
    >>> number_put_right("Our PO is KX-5512.", "Sorry, I meant KX-5521 for the PO.")
    True
    """
    language = detect_language(new, languages, languages[0])
    if not _puts_right(new, language):
        return False
    shapes = {shape(code) for code in _codes(old)}
    if any(shape(code) in shapes for code in _codes(new) - _codes(old)):
        return True  # "the PO is QS-4417", then "sorry, I meant QS-4471"
    old_numbers = numbers_in(old)
    said_before = {n.value for n in old_numbers}
    told = numbers_in(_told(new))
    new_numbers = [n for n in told if n.value not in said_before]
    if new_numbers and language.puts_right.search(fold(new)) and len(told) > len(new_numbers):
        return True  # "I said 140 m² but with the porch it's more like 160": named again
    return any(
        _updated(
            [n for n in old_numbers if n.clock is clock],
            [n for n in new_numbers if n.clock is clock],
        )
        for clock in (False, True)
    )


def code_given_anew(old: str, new: str) -> bool:
    """Whether `new` gives a reference of the kind `old` gave, another one: the same letters
    in the same shape ("it's QL-4417", then "the PO is QL-5203 now"), which `old` did not
    give too. A reference replaces the one before it, said so or not.

    >>> code_given_anew("Our PO is KX-5512.", "Finance raised a new one: KX-6017.")
    True
    >>> code_given_anew("Our PO is KX-5512.", "The booking ref is BK-6017.")
    False

    A code that opens a door, given anew in a message that names it:

    >>> code_given_anew("Key safe by the back door, code 4471.",
    ...                 "I had to change the key safe code, a guest posted it; it's 9036.")
    True
    >>> code_given_anew("Key safe by the back door, code 4471.", "The code works; 12 guests.")
    False
    """
    before = {(_letters(code), shape(code)) for code in _codes(old)}
    if any((_letters(code), shape(code)) in before for code in _codes(new) - _codes(old)):
        return True
    opened = {_digits(m["code"]) for m in _ACCESS_CODE.finditer(DATE.sub(" ", old))}
    return bool(opened) and any(
        _digits(code) in opened
        for code in _access_codes(new) - {m["code"] for m in _BARE_NUMBER.finditer(old)}
    )


def _digits(code: str) -> str:
    """A code's form, each digit alike: "4471" and "9036" are one form, "120" another."""
    return re.sub(r"\d", "9", code.casefold())


def _access_codes(text: str) -> set[str]:
    """The numbers `text` may give as a code that opens a door: it names one, and gives a
    number of a few digits on its own ("I had to change the key safe code; it's 9036")."""
    if not _ACCESS_WORD.search(text):
        return set()
    return {m["code"] for m in _BARE_NUMBER.finditer(DATE.sub(" ", text))}


def may_give_a_code(text: str) -> bool:
    """Whether `code_given_anew` may hold for `text` against any older statement."""
    return bool(_codes(text) or _access_codes(text))


def _letters(code: str) -> str:
    return "".join(c for c in code if c.isalpha())


def _codes(text: str) -> set[str]:
    """The references `text` gives, letters and digits in one word ("KX-5512", "BC7741")."""
    return {m[0].casefold() for m in _CODE.finditer(text)}


def _puts_right(text: str, language: Language) -> bool:
    """Whether `text` owns a mistake: "I meant", "my bad", "oops", "pardon"."""
    folded = fold(text)
    return bool(
        language.puts_right.search(folded)
        or re.search(rf"\b(?:{language.slip})\b", folded, re.IGNORECASE)
    )


def _updated(old: Sequence[Number], new: Sequence[Number]) -> bool:
    """Whether a number of `new` gives anew what one of `old` counted: amounts of one
    scale none of which is said again, or a number counting what an older one counted,
    with another value that no older number of the same thing had ("so five", then "four
    people now": the four bridesmaids of the first count another thing)."""
    given = {n.value for n in new}
    if not old or not given:
        return False
    if _same_scale(old, new) and not given & {n.value for n in old}:
        return True
    return any(
        a.value != b.value
        and _same_thing(a, b)
        and not any(c.value == b.value and _same_thing(c, b) for c in old)
        for a in old
        for b in new
    )


def _same_thing(a: Number, b: Number) -> bool:
    """Whether two numbers count the same thing: a word near each that both share, not a sum
    of money and a number too small to be one, not two units of their own ("two offices" is
    no count of "3,500 leaflets") unless both count people, and not a while and a count."""
    if a.unit and b.unit and a.unit != b.unit and PEOPLE not in a.near & b.near:
        return False  # "15 kids" and "22 children" both count people
    if (a.unit in TIME_UNIT_STEMS) != (b.unit in TIME_UNIT_STEMS):
        return False  # "waited 40 min" is no mark out of 20, "for 3 weeks" no count of vans
    if a.money != b.money and not (a.amount and b.amount):
        return False  # "80 € for two dogs" counts no dogs, "59 € a month" no months
    if any(one.names is not None and one.names == other.unit for one, other in ((a, b), (b, a))):
        return False  # "bike 9" is one of the "14 bikes", not a count of them
    shared = a.near & b.near - NOT_TOPICS - {a.names, b.names}  # "reception 2" counts no desk
    if a.unit is not None and a.unit == b.unit and a.unit in TIME_UNIT_STEMS:
        # "every 8 weeks" for the house is not "every two weeks" for the shop: the stretch
        # and how often say nothing of what is done that often
        shared = frozenset(w for w in shared if w != a.unit and not RECURRING.fullmatch(w))
    return bool(shared)


def corrects_the_question(
    answer: str, asked: str, language: Language, said: str | None = None
) -> bool:
    """Whether an answer gives anew a number its question held ("Still 30?", "Finally
    36.", or said in the words `said`: "ha no, 34"): the question then holds the old value,
    and memory keeps the answer alone. A
    time of day a question proposes is a slot, not the client's, unless the answer owns a
    mistake ("Still leaving at 7:30?" "Sorry, I got it wrong, 7:15").

    >>> from somna.llm.rules.languages import ENGLISH
    >>> corrects_the_question("36 in the end, my cousins come too.", "Still 30?", ENGLISH)
    True
    >>> corrects_the_question("From now on, yes.", "Is 18 Mill Lane the address now?", ENGLISH)
    False
    >>> corrects_the_question("Rather 9:30, after dessert.", "The waltz at 9pm?", ENGLISH)
    False
    >>> corrects_the_question("No, 34.", "Still 30 of you?", ENGLISH, said="ha no, 34")
    True
    >>> corrects_the_question("So 3 to do.", "Still the two vans?", ENGLISH, said="so 3 to do")
    True
    """
    if counts_only_against_another(answer):
        return False  # "five more than I said" counts from the question's number
    clocks = _puts_right(answer, language)
    given = {n.value for n in numbers_in(answer) if not n.corrected and (clocks or not n.clock)}
    return (
        bool(given)
        and bool({n.value for n in numbers_in(asked) if clocks or not n.clock} - given)
        and (
            language.change.search(fold(answer)) is not None
            or (said is not None and language.denies.match(fold(said).strip()) is not None)
            or (said is not None and _kept_asked(asked, said, language))
        )
    )


def _kept_asked(asked: str, said: str, language: Language) -> bool:
    """Whether a question offers to keep a count as it is ("And still the two vans?") and
    the answer, another count, does not open with a yes ("got another one, so three to
    do"; not "yes, and 4 kids")."""
    opening = re.split(r"[,.;!?]", fold(said).strip(), maxsplit=1)[0]
    return language.keeps.search(fold(asked)) is not None and not language.assent.match(opening)


def with_what_it_counts(old: str, new: str) -> str | None:
    """`new` with the word `old` counts people in written after its one bare head count
    ("on sera 150" replacing "120 personnes environ": "on sera 150 personnes"), so that
    the prompt says 150 of what; None where `new` names what it counts, or `old` does not.

    >>> with_what_it_counts("Around 40 guests at the barn.", "We'll be 45 now.")
    "We'll be 45 guests now."
    >>> with_what_it_counts("Around 40 guests at the barn.", "We'll be 45 guests now.")
    """
    bare = [n for n in numbers_in(_told(new)) if n.counts_people and not (n.unit or n.clock)]
    counted = [n for n in numbers_in(old) if n.counts_people and n.unit]
    return _with_the_unit(new, _told(new), bare, old, counted)


def without_the_count_asked(made: str, old: str) -> str:
    """`made`, a value made of `old`'s count ("four more (16 riders in all) than I said"),
    without the question it answers when that question named the count it replaces ("Is
    it still 12 riders?"), that the total now says.

    >>> without_the_count_asked(
    ...     "The user says that 2 more (14 riders in all) (in answer to: Still 12 riders?).",
    ...     "The user says that we'll be 12 riders.")
    'The user says that 2 more (14 riders in all).'
    """
    asked = ANSWERED.search(made)
    if asked is None:
        return made
    named = {n.value for n in numbers_in(made[asked.start() :])}
    said = {n.value for n in numbers_in(made[: asked.start()])}
    if not said or not named & {n.value for n in numbers_in(old)} or named & said:
        return made  # a yes to "4 more desks, 4,280 €?" says its count in the question
    return made[: asked.start()].rstrip() + made[-1]


def with_the_unit_asked(answer: str, asked: str) -> str:
    """`answer` with the unit its question counted in written after its one bare number,
    where it puts the question's right and the question is left out ("non, 46" to
    "Toujours 40 couverts ?": "non, 46 couverts"); as it was where it names its unit.

    >>> with_the_unit_asked("The user says that no, 34, the juniors came.", "Still 30 riders?")
    'The user says that no, 34 riders, the juniors came.'
    """
    bare = [n for n in numbers_in(answer) if not (n.unit or n.clock or n.money)]
    counted = [n for n in numbers_in(asked) if not n.clock]
    if any(n.money or not n.unit for n in counted):
        return answer  # "from 25 hives, 50 € a hive": which one the answer takes is unsaid
    return _with_the_unit(answer, answer, bare, asked, counted) or answer


def with_the_unit_left_out(rest: str, left_out: str) -> str:
    """`rest` with the unit of the one count `left_out` named written after its one bare
    number, when the clause that named it goes ("30 candles is not enough; make it 45 a
    month": "make it 45 candles a month"); as it was otherwise.

    >>> with_the_unit_left_out("The user says make it 45 a month.", "30 candles is not enough")
    'The user says make it 45 candles a month.'
    """
    bare = [n for n in numbers_in(rest) if not (n.unit or n.clock or n.money)]
    counted = [n for n in numbers_in(left_out) if n.unit and not (n.clock or n.money)]
    return _with_the_unit(rest, rest, bare, left_out, counted) or rest


def _with_the_unit(
    new: str, told: str, bare: Sequence[Number], old: str, counted: Sequence[Number]
) -> str | None:
    """`new` with the word after `old`'s one counted number written after the one bare
    number of `told`, its head; None where either is not one."""
    if len(bare) != 1 or len({n.unit for n in counted}) != 1:
        return None
    word = re.search(rf"{written(counted[0].value)}\s+([^\W\d_]+)", old, re.IGNORECASE)
    number = re.search(written(bare[0].value), told, re.IGNORECASE)
    if word is None or number is None:
        return None
    return f"{new[: number.end()]} {word[1]}{new[number.end() :]}"


def _told(observation: str) -> str:
    """What an observation says, without the question it answers when it gives numbers of
    its own ("Still 30?", "36 in the end"); with it when it only confirms the question's
    ("From now on, yes", to "Is 18 Mill Lane the address from now on?")."""
    asked = ANSWERED.search(observation)
    if asked and NUMBER_ALONE.search(observation, 0, asked.start()):
        return observation[: asked.start()]
    return observation


def _sum_named_again(old: Sequence[Number], new: Sequence[Number]) -> bool:
    """Whether `new` names a sum of money of `old` again and gives another ("that £150
    limit is too low … make it £250"): the sum it names is the one it changes."""
    said = {n.value for n in old if n.money}
    return any(n.money and n.value in said for n in new) and any(
        n.money and n.value not in said for n in new
    )


def _amount_restated(old: Sequence[Number], new: Sequence[Number]) -> bool:
    """Whether an amount of money is given again, of one scale and another value, for what
    an older amount was near the same words for ("our budget for the season is about £1,500",
    then "our fuel budget is £2,200"): a sum restated is the sum now, no word of change."""
    return any(
        a.value != b.value and _one_scale(a, b) and _same_thing(a, b)
        for a in old
        if a.amount
        for b in new
        if b.amount
    )


def _same_scale(old: Sequence[Number], new: Sequence[Number]) -> bool:
    return any(_one_scale(a, b) for a in old if a.amount for b in new if b.amount and b.bounded)


def _one_scale(a: Number, b: Number) -> bool:
    """Whether two amounts are at most `_SAME_SCALE` apart: one amount revised, maybe."""
    return max(a.value, b.value) <= _SAME_SCALE * min(a.value, b.value)
