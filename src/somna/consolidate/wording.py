"""The cheap part of judging two facts, before any model is asked, and what the model is asked.

Shared by the pipeline (a candidate against its neighbor) and the nightly re-check
(a fact added through the API against its neighbor), so both decide alike.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from somna.llm.rules.ages import age_contradicts, ages
from somna.llm.rules.asked import may_drop, may_rename_a_slot
from somna.llm.rules.choices import choice_verdict, choices, chosen
from somna.llm.rules.contacts import may_reach_elsewhere, reached_elsewhere
from somna.llm.rules.counts import (
    counted_words,
    may_give_a_code,
    may_update_a_number,
    with_what_it_counts,
    without_the_count_asked,
)
from somna.llm.rules.departures import departed
from somna.llm.rules.diets import allergy_words, breaks_diet, clash_words, restricted_anew
from somna.llm.rules.extract import LANGUAGES
from somna.llm.rules.instead import may_name_instead, with_the_number_put_right
from somna.llm.rules.judge import may_change_a_value, value_changed
from somna.llm.rules.replaced import gives_anew, replaces_part
from somna.llm.rules.rescheduled import (
    may_move_a_date,
    may_shift_a_date,
    may_shift_a_time,
    shifted_to,
    time_shifted,
    time_shifted_to,
)
from somna.llm.rules.roles import part_words, parts_given
from somna.llm.rules.tallies import may_add_to_a_count, with_the_count_made
from somna.llm.tasks import JudgePair, JudgeRequest
from somna.model import (
    ACTIVE_STATUSES,
    Fact,
    FactStatus,
    Verdict,
    is_fact_text,
    normalize_text,
    word_overlap,
)
from somna.ranking import keywords
from somna.store import Eligibility, Reader
from somna.store.succession import replaced_by_words, successors

__all__ = [
    "ONE_OFF",
    "Related",
    "age_clashes",
    "changed_choices",
    "changed_values",
    "diet_clashes",
    "disputes_part",
    "given_anew",
    "judge_request",
    "may_give_anew",
    "may_take",
    "related",
    "same_wording",
    "with_the_value_made",
    "years_apart",
]

_FRAME_CANDIDATES = 20
"""Facts sharing words with a text, by full-text rank, looked at for the same frame."""

_SAME_WORDING = 0.9  # word overlap from which a pair is a duplicate without asking the model
ONE_OFF = frozenset({"event", "observation"})
"""Categories of dated happenings: two of them never supersede or contradict each other, so
only the cheap duplicate pass looks at their neighbors and the model is not asked."""

_NEGATIONS: frozenset[str] = frozenset().union(*(language.negations for language in LANGUAGES))
"""Words (as `normalize_text` leaves them: "don't" is "don t") that flip a statement."""


def same_wording(a: str, b: str) -> bool:
    """Nearly the same words, and not one of them negating the other: a duplicate for sure."""
    if word_overlap(a, b) < _SAME_WORDING:
        return False
    differing = set(normalize_text(a).split()) ^ set(normalize_text(b).split())
    return not differing & _NEGATIONS


@dataclass(frozen=True)
class Related:
    """The active facts of a fact's subject that the cheap rules relate to it, whatever
    their cosine, and what they decide of each without a model."""

    reframed: list[Fact]
    """Its sentence frame with another value (`changed_values`): for the judge."""
    renewed: list[Fact]
    """Dated statements it gives a new value of, and says so (`given_anew`): superseded."""
    clashing: list[Fact]
    """A diet or an age set against it (`diet_clashes`, `age_clashes`): contradicted."""
    rechosen: list[Fact]
    """Another choice of the kind it chooses (`changed_choices`)."""

    @property
    def facts(self) -> list[Fact]:
        """Each related fact once, in the order above."""
        every = self.reframed + self.renewed + self.clashing + self.rechosen
        return list({f.id: f for f in every}.values())

    def verdict(self, fact: Fact, other: Fact, said: str | None = None) -> Verdict | None:
        """What `fact` (said in the words `said`) does to `other` by the rules alone: None
        where the judge decides. A choice made again is decided here only for the dated
        happenings no judge is asked about."""
        if any(other.id == f.id for f in self.renewed):
            return Verdict.SUPERSEDES
        if any(other.id == f.id for f in self.clashing):
            return Verdict.CONTRADICTS
        if fact.category in ONE_OFF and any(other.id == f.id for f in self.rechosen):
            return choice_verdict(other.text, fact.text, said)
        return None


def related(
    tx: Reader,
    fact: Fact,
    eligible: Eligibility,
    nearest: Sequence[str] = (),
    said: str | None = None,
) -> Related:
    """The facts the cheap rules relate to `fact`, on every path that judges one: the
    pipeline's candidates, `add_fact` and the nightly re-check. `nearest`: ids of the
    facts nearest by meaning, whatever their cosine, where a value given anew is looked
    for too; `said`: the words `fact` was said in, which may name what it replaces ("…
    rather than the one-day course") where the fact leaves it out."""
    clashing = diet_clashes(tx, fact, eligible) + age_clashes(tx, fact, eligible)
    # a restriction said anew takes back the plan it rules out ("on reste sans batterie")
    taken_back = [other for other in clashing if restricted_anew(other.text, fact.text, said)]
    return Related(
        changed_values(tx, fact, eligible),
        given_anew(tx, fact, eligible, nearest, said) + taken_back,
        [other for other in clashing if other not in taken_back],
        changed_choices(tx, fact, eligible),
    )


def changed_values(tx: Reader, fact: Fact, eligible: Eligibility) -> list[Fact]:
    """Active facts of `fact`'s subject in its sentence frame with another value, found by
    the words they share whatever their cosine: "Lives in Berlin." for "Lives in Paris.".
    """
    if fact.category in ONE_OFF or not may_change_a_value(fact.text):
        return []
    worded = _by_words(tx, fact, eligible, lambda other: value_changed(other, fact.text))
    return [other for other in worded if other.category not in ONE_OFF]


def given_anew(
    tx: Reader,
    fact: Fact,
    eligible: Eligibility,
    nearest: Sequence[str] = (),
    said: str | None = None,
) -> list[Fact]:
    """Active dated statements of `fact`'s subject that `fact` gives a new value of, and
    says so: a number ("around 110 guests" / "the guest list is at 130 now"), a count
    added to ("so two flues" / "one more flue than I told you"), or a name
    in the slot of the question they answered ("from which station?" "Derby" / "leave
    from York instead"). For the pairs no judge compares: an older happening or
    observation, whatever `fact` is (a decision may give anew what an answer said), or any
    older fact when `fact` is an observation ("just call my husband on …" after a typed
    way to be reached), or a way to be reached given anew whatever the kinds of the two;
    found by the words they
    share or among the `nearest` by meaning, however far (a revised budget may share no
    word with the first), or as what replaced an older value those words find ("around
    90 guests", then "we'll be 104", then "we're 110 now")."""
    if not may_give_anew(fact.text, said):
        return []
    words = " ".join([*keywords(fact.text), *counted_words(fact.text), *part_words(fact.text)])
    older = [f for f, _ in replaced_by_words(tx, words, eligible, _FRAME_CANDIDATES)]
    now = list(successors(tx, older).values())  # a value given anew twice, in other words
    worded = _by_words(
        tx,
        fact,
        eligible,
        lambda other: gives_anew(other, fact.text, said, said_on=fact.valid_from.date()),
        words=words,
        also=[*nearest, *now],
    )
    renewed = [o for o in worded if o.valid_from < fact.valid_from and _renewable(o, fact)]
    moved = [o for o in renewed if time_shifted(o.text, fact.text)]
    if len(moved) > 1:  # "an hour later" of which slot is not said: none is moved
        renewed = [o for o in renewed if o not in moved]
    return renewed


def renews(older: Fact, fact: Fact, said: str | None = None) -> bool:
    """Whether `fact` (said in the words `said`) gives anew what `older` said earlier in
    the same session of the same subject ("booked for 8 September", then "sorry, I meant
    the 18th"): by the rules alone, those that tell two things said together apart
    (`gives_anew`)."""
    return (
        older.subject.casefold() == fact.subject.casefold()
        and _renewable(older, fact)
        and gives_anew(older.text, fact.text, said, same_session=True)
    )


def _renewable(older: Fact, fact: Fact) -> bool:
    """Whether a value given anew replaces `older` with no judge: a dated statement on
    either side, or a way to reach, whatever the two kinds."""
    return (
        older.category in ONE_OFF
        or fact.category in ONE_OFF
        or reached_elsewhere(older.text, fact.text)
    )


def may_give_anew(text: str, said: str | None = None) -> bool:
    """Whether `given_anew` may find anything for `text` (said in the words `said`), tested
    before any search."""
    return (
        may_update_a_number(text)
        or may_rename_a_slot(text)
        or may_move_a_date(text)
        or may_shift_a_date(text)
        or may_shift_a_time(text)
        or may_add_to_a_count(text)
        or may_reach_elsewhere(text)
        or bool(parts_given(text))
        or may_give_a_code(text)
        or bool(departed(text))
        or may_name_instead(text)
        or (
            said is not None
            and (
                may_drop(said)
                or may_rename_a_slot(said)
                or bool(departed(said))
                or may_name_instead(said)
            )
        )
    )


def changed_choices(tx: Reader, fact: Fact, eligible: Eligibility) -> list[Fact]:
    """Active facts of `fact`'s subject that chose another value of what `fact` chooses
    ("the annual plan", then "le forfait mensuel"), in any language and whatever their
    cosine, found by the names of the values."""
    kinds = chosen(fact.text, about=False)  # a move need not name what it moves
    if not kinds:
        return []
    names = sorted({w for choice in choices() if choice.name in kinds for w in choice.words})
    return _by_words(
        tx,
        fact,
        eligible,
        lambda other: choice_verdict(other, fact.text) is not None,
        words=" ".join(keywords(" ".join(names))),
    )


def diet_clashes(tx: Reader, fact: Fact, eligible: Eligibility) -> list[Fact]:
    """Active facts of `fact`'s subject that a diet or an allergy sets against it: the
    restriction `fact` breaks ("Is vegan." for "Eats eggs every morning.", "allergic to
    lavender shampoo" for "the lavender shampoo is fine"), or the plans that break the
    restriction `fact` states. Found by words, whatever their cosine: a diet's words with
    their French stems; for a happening or an observation (the plans a night retells from
    chat), the statements of an allergy too, in the main index (one search more per fact:
    typed facts written through the API go without it)."""

    def clashes(other: str) -> bool:
        return breaks_diet(other, fact.text) or breaks_diet(fact.text, other)

    found = []
    if words := " ".join(keywords(" ".join(sorted(clash_words(fact.text))))):
        found += _by_words(tx, fact, eligible, clashes, words=words, stems=True)
    if fact.category in ONE_OFF and (allergies := allergy_words(fact.text)):
        found += _by_words(tx, fact, eligible, clashes, words=" ".join(allergies))
    return list({f.id: f for f in found}.values())


def age_clashes(tx: Reader, fact: Fact, eligible: Eligibility) -> list[Fact]:
    """Active facts of `fact`'s subject that give a person `fact` names an age the calendar
    rules out beside `fact`'s ("Theo is 12", then "Theo is 10"), found by the name."""
    named = ages(fact.text)
    if not named:
        return []
    worded = _by_words(
        tx,
        fact,
        eligible,
        lambda other: bool(named.keys() & ages(other).keys()),
        words=" ".join(named),
    )
    return [
        other
        for other in worded
        if age_contradicts(other.text, fact.text, years := years_apart(fact, other))
        or age_contradicts(fact.text, other.text, years)
    ]


def years_apart(a: Fact, b: Fact) -> float:
    """The years between the times two facts were said."""
    return abs((a.valid_from - b.valid_from).days) / 365.25


def _by_words(
    tx: Reader,
    fact: Fact,
    eligible: Eligibility,
    said: Callable[[str], bool],
    *,
    words: str | None = None,
    stems: bool = False,
    also: Sequence[str] = (),
) -> list[Fact]:
    """The other active facts of `fact`'s subject that a full-text search for `words` (by
    default the content words of `fact`) finds and whose text is `said`: what a cosine
    would miss when one value changed. The texts are read and tested first, and only those
    kept are loaded whole. A frame is the same words, which the main index finds alone; a
    diet's words take their French stems too ("allergique", "allergies"). The ids `also`
    given are tested alike."""
    search = tx.text_search if stems else tx.word_search
    query = " ".join(keywords(fact.text)) if words is None else words
    found = [i for i, _ in search(query, eligible, _FRAME_CANDIDATES)]
    ids = [i for i in dict.fromkeys([*found, *also]) if i != fact.id]
    kept = [c.id for c in tx.candidates(ids) if said(c.text)]
    subject = fact.subject.casefold()
    return [
        other
        for other in tx.get_facts(kept)
        if other.is_active and other.subject.casefold() == subject
    ]


def disputes_part(part: str, other: str, years: float) -> bool:
    """Whether `other`, said `years` apart, sets itself against what `part` (one statement
    or clause of an observation) says: its value given otherwise (`replaces_part`), a diet
    one of them states and the other breaks, or an age the calendar rules out."""
    return (
        replaces_part(part, other)
        or breaks_diet(part, other)
        or breaks_diet(other, part)
        or age_contradicts(part, other, years)
        or age_contradicts(other, part, years)
    )


def with_the_value_made(fact: Fact, older: Fact, said: str | None = None) -> Fact:
    """`fact`, which supersedes `older`, with the value it makes of `older`'s when it gives
    it against that one: the date a stretch of time moves it to ("push the install back a
    week"), the time of day ("an hour later"), the count it adds to ("one more flue than I
    said", the question that named the old count left out), the phone number whose last
    digits it puts right (`said` "582 not 852"), what a bare head count counts ("we'll be
    45 now" after "40 guests"). The prompt then says when, how many or which number, not
    only that it changed."""
    counted = with_the_count_made(older.text, fact.text)
    text = (
        shifted_to(older.text, fact.text, older.valid_from.date())
        or time_shifted_to(older.text, fact.text)
        or (counted and without_the_count_asked(counted, older.text))
        or with_the_number_put_right(older.text, fact.text, said)
        or with_what_it_counts(older.text, fact.text)
    )
    if text is None or not is_fact_text(text):
        return fact
    return fact.model_copy(update={"text": text})


def may_take(verdict: Verdict, older: Fact) -> bool:
    """Whether `verdict` may still apply to `older` as it is now: an active fact, or for a
    contradiction one already disputed too."""
    allowed = ACTIVE_STATUSES | ({FactStatus.DISPUTED} if verdict is Verdict.CONTRADICTS else set())
    return older.status in allowed


def judge_request(
    pairs: Sequence[tuple[Fact, Fact]], said: Mapping[str, str] | None = None
) -> JudgeRequest:
    """The judge call for (new, existing) pairs, each named by its place in `pairs`; `said`
    gives, by new fact id, the words it was said in, where "now" or "finally" may stand."""
    return JudgeRequest(
        pairs=[
            JudgePair(
                pair_id=i,
                new=new.text,
                existing=existing.text,
                existing_since=existing.valid_from.date().isoformat(),
                new_said=(said or {}).get(new.id),
            )
            for i, (new, existing) in enumerate(pairs)
        ]
    )
