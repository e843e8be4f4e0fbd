"""A name given anew in its slot: "from which station?", then "Derby", weeks later "can we
leave from York instead?"; or "with Bruno in copy", then "put Lina in copy from now on";
or an address given anew for the same thing ("email the invoices to ines@…", then "send
invoices to accounts@… from now on"); or a value said for now given anew ("hot desk for
now", then "move me to a fixed desk"); or another of the choices a question offered
("Bronze or Silver?" "Bronze should do", then "we upgrade to the Silver"); or a question
asking who or where answered again ("Qui sera votre accompagnateur ?"), or a place named
otherwise after the same words ("the branch in town", then "the branch in Exeter").

The slot is where the name stood: after the preposition of the question it answered
("from which", "with what", "chez quel"), or among the same words ("… in copy", "cc …",
"our contact is …"). A newer statement that puts another name in that slot, and says it
changed, replaces it. So does one that drops, in its words, what the older took
("scratch the house blend", "we sold the piano", "… rather than the one-day course").
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from itertools import pairwise

from somna.llm.rules.choices import turned_down
from somna.llm.rules.contacts import ways, without_ways
from somna.llm.rules.language import Language, detect_language
from somna.llm.rules.languages import ANSWERED, LANGUAGES, is_name, without_question
from somna.llm.rules.refusals import conditional
from somna.llm.rules.text import clauses, fold
from somna.model import normalize_text, shared_words

__all__ = ["dropped", "may_drop", "may_rename_a_slot", "names_in", "slot_renamed"]

_ASKED_SLOT = re.compile(
    r"(?<!\w)(?P<preposition>[^\W\d_]+)\s+(?:"
    + "|".join(language.which for language in LANGUAGES)
    + r")(?!\w)",
    re.IGNORECASE,
)
"""A question's slot: a preposition before "which" / "what" / "quel" ("from which station")."""
_NAME = re.compile(r"(?<![.!?]\s)\b[A-ZÀ-Ý][\w'-]+")
_ALTERNATIVE = re.compile(r"\s*(?:,|\b(?:or|ou)\b)\s*", re.IGNORECASE)
_ASKED_LAST = re.compile(r"(?:^|[.!?:;]\s)(?P<asked>[^.!?:;]+)\?")
"""Each question a retold question asks ("…? Small, medium or large box?")."""
_LEAD = 3
"""Words of the first choice a question offers, counted back from where the next begins:
"Would you like the economy package or …" offers "the economy package"."""
_SPEAKERS = frozenset(
    word.casefold()
    for language in LANGUAGES
    for word in (*language.plain_user.split(), *language.plain_assistant.split())
)
"""How a retelling names the two speakers ("the user", "l'assistant"): no word of a question."""
_NOT_CHOICES = frozenset().union(
    *(language.stopwords | language.not_topics for language in LANGUAGES)
)
"""Words that name no choice: stopwords, and those every retold statement holds ("user")."""
_OPENING = re.compile(
    r"(?:^|[;:]\s*|\b(?:"
    + "|".join(re.escape(language.says.split("{}")[1].strip()) for language in LANGUAGES)
    + r")\s+)$"
)
"""Where a statement opens, alone or retold ("… says that"): a capital there may be any
word ("Weekends like that…", "Honestly, …")."""
_WORD = re.compile(r"[^\W_]+")
_DEED = re.compile(
    r"(?P<name>[A-ZÀ-Ý][\w-]+)(?:\s+[A-ZÀ-Ý][\w-]+)*(?:'s)?(?:,\s[^,;.()]{1,40},)?"
    r"(?:\s+(?:qui|il|elle|he|she))?"
    r"(?:\s+(?:will|is|are|can|would|going|to|be|va|sera|pourra|peut))*"
    r"\s+(?!(?:in|on|at|for|with|to|from|of|and|or|à|au|aux|de|du|des|en|dans|pour|avec"
    r"|chez|sur|et|ou)\b)"  # a deed, not where the person stands ("Bruno in copy")
    r"(?P<deed>[^\W\d_][\w'\u2019-]*(?:\s+[^\W\d_][\w'\u2019-]*){1,2})"
)
"""A person's name (and surname, or who they are between commas), then the two or three
words of what they do ("Ambrose Quilling has the keys", "Lina will sign for the kit")."""


def may_rename_a_slot(new: str, languages: Sequence[Language] = LANGUAGES) -> bool:
    """Whether `slot_renamed` can hold for `new` against any text: it says something
    changed (what it gives anew may be a name, an address, or any word a question offered
    as a choice), takes an option ("va pour le rail"), or drops something."""
    language = detect_language(new, languages, languages[0])
    folded = fold(new)
    return (
        language.change.search(folded) is not None
        or language.chooses.search(folded) is not None
        or may_drop(new, [language])
        or bool(_deeds(new, language))
    )


def may_drop(new: str, languages: Sequence[Language] = LANGUAGES) -> bool:
    """Whether `dropped` can hold for `new` against any text: it drops something, or
    answers an offer to keep something."""
    language = detect_language(new, languages, languages[0])
    asked = ANSWERED.search(new)
    return language.drops.search(fold(new)) is not None or (
        asked is not None and language.keeps.search(fold(new[asked.end() :])) is not None
    )


def dropped(old: str, new: str, languages: Sequence[Language] = LANGUAGES) -> bool:
    """Whether `new` drops what `old` says it takes, in its words ("the house blend, whole
    beans", then "scratch the house blend"; "annulez le nettoyage des vitres"), and does
    not say it won't ("we won't cancel the house blend")."""
    language = detect_language(f"{new} {old}", languages, languages[0])
    said = _word_set(old)  # with the question it answered: "card" to "How do you pay?"
    told = fold(without_question(new))
    return _kept_turned_down(old, new, language) or any(
        (left := _word_set(dropped["left"]))
        and _all_said(left, said)
        and not language.negations & set(normalize_text(told[: dropped.start()]).split()[-2:])
        for dropped in language.drops.finditer(told)
    )


def _kept_turned_down(old: str, new: str, language: Language) -> bool:
    """Whether `new` answers an offer to keep what `old` says ("Shall we keep the cedar on
    the drawings?") with something else ("charred larch"), not a yes."""
    asked = ANSWERED.search(new)
    if asked is None:
        return False
    question = fold(new[asked.end() :])
    opener = re.escape(language.says.format(language.plain_user))
    answer = re.sub(rf"^\s*{opener}\s*", "", fold(without_question(new)), flags=re.IGNORECASE)
    if not language.keeps.search(question) or (
        language.assent.match(answer.strip(" .")) or language.keeps.search(answer)
    ):
        return False  # "yes", "keep it"
    offered = _word_set(question)
    return bool(offered & _word_set(without_question(old))) and bool(_word_set(answer) - offered)


def slot_renamed(
    old: str, new: str, said: str | None = None, languages: Sequence[Language] = LANGUAGES
) -> bool:
    """Whether `new` puts another name in the slot of a name of `old` (the question it
    answered, or the words beside it), and says it changed (itself, or `said`, the words
    it was said in: "en fait" may be left out of the fact).

    >>> slot_renamed(
    ...     "The user says that Derby suits us (in answer to: From which office will you work?).",
    ...     "The user will work from York instead.",
    ... )
    True
    >>> slot_renamed(
    ...     "The user says that Derby suits us (in answer to: From which office will you work?).",
    ...     "The user will work from home on Fridays now.",
    ... )
    False
    >>> slot_renamed(
    ...     "The user says that small for now (in answer to: Small, medium or large crate?).",
    ...     "The user will need the large crate going forward.",
    ... )
    True
    >>> slot_renamed(
    ...     "The user wants the invoices by email, with Bruno in copy.",
    ...     "The user says that Bruno is leaving, put Lina in copy from now on.",
    ... )
    True
    >>> slot_renamed(
    ...     "The user says the oat loaf and two croissants, every Friday.",
    ...     "The user says cancel the oat loaf, nobody eats it.",
    ... )
    True
    """
    language = detect_language(f"{new} {old}", languages, languages[0])
    if dropped(old, new, [language]):
        return True
    if _other_offered(old, new) and any(
        language.chooses.search(fold(text)) for text in (new, said or "")
    ):
        return True  # "Tringle ou rail ?" "une tringle", then "va pour le rail alors"
    if _taken_over(old, new, language) or _chosen_instead(old, new, language):
        return True
    if not any(language.change.search(fold(text)) for text in (new, said or "")):
        return False
    if (
        _address_given_anew(old, new, language)
        or _held_for_now(old, new, language)
        or _other_offered(old, new)
    ):
        return True
    asked = ANSWERED.search(old)
    said = old if asked is None else old[: asked.start()]
    if (
        _framed_anew(said, new, names_in(said, within=True), language)
        or _placed_anew(said, new, language)
        or _answered_anew(old, new, language)
    ):
        return True
    named = names_in(said) - names_in(new)
    if asked is None or not named:
        return False
    for slot in _ASKED_SLOT.finditer(old, asked.start()):
        preposition = re.escape(slot["preposition"])
        given = re.compile(rf"(?<!\w){preposition}\s+(?P<name>[A-ZÀ-Ý][\w'-]+)", re.IGNORECASE)
        if any(is_name(n["name"]) and n["name"] not in named for n in given.finditer(new)):
            return True
    return False


def _taken_over(old: str, new: str, language: Language) -> bool:
    """Whether someone `new` names does what someone else did in `old`, in the same words
    after the name ("our caretaker Ambrose has the keys", then "Seraphine Dallow has the
    keys"; "Anatole, notre gardien, va vous ouvrir", then "c'est Bérénice qui vous
    ouvrira"), and `new` does not name them both: the newer one took it over, said so or
    not.

    >>> from somna.llm.rules.languages import LANGUAGES
    >>> english = LANGUAGES[0]
    >>> _taken_over("Says our caretaker Ambrose has the keys.",
    ...             "Says Seraphine Dallow has the keys.", english)
    True
    >>> _taken_over("Says Ambrose has the keys.",
    ...             "Says Ambrose and Seraphine have the keys.", english)
    False
    """
    done = _deeds(without_question(old), language)
    told = without_question(new)
    doing = _deeds(told, language) if done else {}
    named = names_in(told)
    return any(
        name not in doers and not doers & named and _same_deed(deed, other, language)
        for deed, doers in done.items()
        for other, names in doing.items()
        for name in names
    )


def _same_deed(a: tuple[str, ...], b: tuple[str, ...], language: Language) -> bool:
    """Whether two deeds open with the same two or three words (each by its first five
    letters: "ouvrira", "ouvrir"), one of four letters or more saying something."""
    k = min(len(a), len(b))
    return all(x[:5] == y[:5] for x, y in zip(a[:k], b[:k], strict=True)) and any(
        len(w) > 3 and _content(w, language) for w in a[:k]
    )


def _deeds(text: str, language: Language) -> dict[tuple[str, ...], set[str]]:
    """What the people `text` names do, as the two or three words after their name (and
    what stands beside it: a surname, ", notre boulanger,", "qui", "will"), and who does
    it. A capital opening a statement names someone only with a surname or a "will" after
    it ("Lina will sign for the kit"; not "Weekends like that make…")."""
    named, within = names_in(text), names_in(text, within=True)
    found: dict[tuple[str, ...], set[str]] = {}
    for name in _NAME.finditer(text):
        match = _DEED.match(text, name.start())
        if match is None or match["name"] not in named:
            continue
        if match["name"] not in within and match.end("name") == match.start("deed") - 1:
            continue
        found.setdefault(tuple(match["deed"].casefold().split()), set()).add(match["name"])
    return found


def _address_given_anew(old: str, new: str, language: Language) -> bool:
    """Whether `new` gives another address of the kind `old` gives (an email, a phone
    number, a street), about a thing `old` or the question it answered names too
    ("invoices"), unless it keeps it for a case."""
    olds, news = ways(old), ways(new)
    kinds = olds.keys() & news.keys()
    if not kinds or all(news[kind] <= olds[kind] for kind in kinds):
        return False
    if conditional(without_question(new)):
        return False  # "ring my brother if anything happens: …"
    shared = _content_words(without_ways(old), language) & _content_words(
        without_ways(new), language
    )
    return bool(shared)


def _other_offered(old: str, new: str) -> bool:
    """Whether `old` answered a question offering choices ("Bronze or Silver?", "Small,
    medium or large box?") with one of them, and `new` names another and not that one,
    unless as the one left ("large instead of medium")."""
    asked = ANSWERED.search(old)
    offered = _offered(old[asked.end() :]) if asked else []
    said = without_question(old)
    took = [words & _word_set(said) for words in offered if words & _word_set(said)]
    if len(took) != 1:
        return False
    named = _word_set(without_question(new))
    told = fold(without_question(new)).casefold()  # not the offer it took, which names both
    return any(words & named for words in offered if not words & took[0]) and not any(
        not turned_down(told, m.start())
        for word in took[0]
        for m in re.finditer(rf"(?<!\w){re.escape(word)}(?!\w)", told)
    )


def _offered(question: str) -> list[frozenset[str]]:
    """The choices the last question of `question` that offers some offers ("Small, medium
    or large box? And which day?"), each by the words that name it and no other choice
    ("large" for "large box", beside "small" and "medium"); none when no question offers
    any, or a choice has no word of its own. What comes before the first comma is a
    choice only as one word ("Small, medium or large box?"), else what asks ("Which
    package, Half Day or Full Day?")."""
    for asked in reversed(list(_ASKED_LAST.finditer(question))):
        if offered := _choices(asked["asked"]):
            return offered
    return []


def _choices(asked: str) -> list[frozenset[str]]:
    if not re.search(r"\b(?:or|ou)\b", asked, re.IGNORECASE):
        return []
    parts = [p.strip() for p in _ALTERNATIVE.split(asked) if p.strip()]
    lead = _ALTERNATIVE.search(asked)
    if lead is not None and lead[0].strip() == "," and len(parts[0].split()) > 1:
        parts = parts[1:]
    else:
        parts[0] = " ".join(parts[0].split()[-_LEAD:])
    words = [_word_set(part) for part in parts]
    own = [w - frozenset().union(*(o for o in words if o is not w)) for w in words]
    return own if len(own) > 1 and all(own) else []


def _word_set(text: str) -> frozenset[str]:
    """The words of `text` that may name a choice, a plural as its singular ("mornings")."""
    return frozenset(
        w.removesuffix("s") if len(w) > 3 else w
        for w in _words(text)
        if len(w) > 2 and w not in _NOT_CHOICES
    )


def _all_said(words: frozenset[str], said: frozenset[str]) -> bool:
    """Whether each of `words` is one of `said`, or starts one or with one ("paying" with
    "pay")."""
    return all(any(w.startswith(o) or o.startswith(w) for o in said) for w in words)


def _held_for_now(old: str, new: str, language: Language) -> bool:
    """Whether `old` says a value for now ("hot desk for now", "poste nomade pour
    l'instant") and `new` names the same thing with another word beside it ("a fixed
    desk", "un poste fixe"): two content words side by side, one the same, in its place."""
    said = fold(without_question(old))
    provisional = language.provisional.search(said)
    if provisional is None:
        return False
    clause = next((c for c in clauses(said) if language.provisional.search(c)), said)
    before = _pairs(language.provisional.sub(" ", clause), language)  # "hot desk", not "now"
    after = _pairs(new, language)
    return any((a == c) != (b == d) for a, b in after for c, d in before if a == c or b == d)


def _chosen_instead(old: str, new: str, language: Language) -> bool:
    """Whether `new` names what `old` said and chooses, in so many words, the same thing with
    another word beside it: "une nuit, en chambres individuelles", then "les chambres
    individuelles dépassent le budget, on part sur des chambres doubles"."""
    folded = fold(new)
    chosen = language.chooses.search(folded)
    if chosen is None:
        return False
    clause = next(iter(clauses(folded[chosen.end() :])), "")
    named = _pairs(folded, language) & _pairs(fold(without_question(old)), language)
    return any((a == c) != (b == d) for a, b in _pairs(clause, language) for c, d in named)


def _pairs(text: str, language: Language) -> set[tuple[str, str]]:
    words = _words(text)
    return {(a, b) for a, b in pairwise(words) if _content(a, language) and _content(b, language)}


def _content_words(text: str, language: Language) -> set[str]:
    return {w for w in _words(text) if _content(w, language)}


def _framed_anew(old: str, new: str, named: set[str], language: Language) -> bool:
    """Whether another name of `new` stands among the words that stand beside one of
    `named` in `old` (the same two words after it, "… en copie", or before it, "our contact
    is …", one of them a content word), with none of `named` beside it ("Bruno and Lina")."""
    frames = {frame for name in named for frame in _frames(old, name, language)}
    if not frames:
        return False
    words = _words(new)
    olds = {name.casefold() for name in named}
    for name in names_in(new, within=True) - named:
        for at in _places(words, name):
            if olds.isdisjoint(words[max(at - 2, 0) : at + 3]) and frames & _frames_at(
                words, at, language
            ):
                return True
    return False


_NEAR_NAME = 3
"""How many words from a new name, beyond its clause, a word of the question it answers
anew may stand ("mon père, Gérald, qui m'accompagnera"; not "the box to Dunmore Way
instead, reception at school is shut" for "the user or the school?")."""
_CLAUSE_BREAK = re.compile(r"[,;.!?]")
"""What ends a clause; a colon opens the value it names ("sur les factures : 9 allée…")."""
_GOES_ON = re.compile(r"\s*(?:he|she|they|who|il|elle|ils|elles|qui)\b", re.IGNORECASE)
"""What opens a clause that goes on about the one named before ("…, she'll help unload")."""


def _near(told: str, names: Collection[str]) -> list[str]:
    """The words of `told` said of `names`: in a name's clause and the next one when it goes
    on about them ("…, she'll help unload"), and up to `_NEAR_NAME` words either side."""
    words = _words(told)
    firsts = [_words(name)[0] for name in names]  # "grands" of "Grands-Orgelets"
    clauses_told = _CLAUSE_BREAK.split(told)
    said: list[str] = []
    for at, clause in enumerate(clauses_told):
        if any(_places(_words(clause), first) for first in firsts):
            went_on = [c for c in clauses_told[at + 1 : at + 2] if _GOES_ON.match(c)]
            said += [word for part in (clause, *went_on) for word in _words(part)]
    for first in firsts:
        for at in _places(words, first):
            said += words[max(0, at - _NEAR_NAME) : at + _NEAR_NAME + 1]
    return said


def _answered_anew(old: str, new: str, language: Language) -> bool:
    """Whether `new` answers again, with a name `old` does not hold, the question asking
    who or where that `old` answered, or answered with a name: a content word of five
    letters or more of the question, as written or inflected, near the new name ("Qui
    sera votre accompagnateur ?" "Ma mère", then "c'est mon père, Gérald, qui
    m'accompagnera finalement"; "Et la facture ?" "À Anselme", then "la facture à Lina,
    elle a repris")."""
    asked = ANSWERED.search(old)
    if asked is None:
        return False
    told = without_question(new)
    question = old[asked.end() :]
    if not (
        language.asks_who_or_where.search(fold(question))
        or (  # "Et pour la facture ?" "À Anselme"; not the speaker's own name, asked for
            names_in(old[: asked.start()]) - names_in(question)
            and not language.asks_name.search(question)
        )
    ):
        return False
    asked_by_name = {n.casefold() for n in names_in(question)}  # "Who supports Noa?" asks no "noa"
    question_words = [
        w
        for w in _words(question)
        if len(w) > 4 and _content(w, language) and w not in _SPEAKERS | asked_by_name
    ]
    named = {n.removesuffix("'s") for n in names_in(told, within=True)} - {
        n.removesuffix("'s") for n in names_in(old)
    }
    return shared_words(question_words, _near(told, named)) > 0


def _placed_anew(old: str, new: str, language: Language) -> bool:
    """Whether a name of `new` follows a word and a small word of place that `old` has
    before another word, one `new` does not hold ("votre agence du centre-ville", then
    "l'agence de Chenôve"): the same place named otherwise."""
    before, after = _words(old), _words(new)
    for name in names_in(new, within=True):
        for at in _places(after, name):
            if (
                at < 2
                or not _content(after[at - 2], language)
                or after[at - 1] not in language.place_words
            ):
                continue
            for i, word in enumerate(before[:-2]):
                if (
                    word == after[at - 2]
                    and before[i + 1] in language.place_words
                    and _content(value := before[i + 2], language)
                    and value not in after
                ):
                    return True
    return False


def _frames(text: str, name: str, language: Language) -> set[tuple[str, ...]]:
    words = _words(text)
    return {frame for at in _places(words, name) for frame in _frames_at(words, at, language)}


def _words(text: str) -> list[str]:
    return _WORD.findall(fold(text).casefold())


def _places(words: list[str], name: str) -> list[int]:
    folded = name.casefold()
    return [at for at, word in enumerate(words) if word == folded]


def _frames_at(words: list[str], at: int, language: Language) -> set[tuple[str, ...]]:
    """The two words after and the two words before `words[at]`, where one is a content word:
    not a stopword, nor a word every retold statement holds ("user", "utilisateur")."""
    frames = (("after", *words[at + 1 : at + 3]), ("before", *words[max(at - 2, 0) : at]))
    return {
        frame
        for frame in frames
        if len(frame) == 3 and any(_content(w, language) for w in frame[1:])
    }


def _content(word: str, language: Language) -> bool:
    return len(word) > 2 and word not in language.stopwords and word not in language.not_topics


def names_in(text: str, *, within: bool = False) -> set[str]:
    """The names of a text: capitalised within a sentence (or opening one of the statements
    an observation joins, unless `within`), months, days and common words left out."""
    return {
        n[0]
        for n in _NAME.finditer(text)
        if is_name(n[0]) and not (within and _OPENING.search(text, 0, n.start()))
    }
