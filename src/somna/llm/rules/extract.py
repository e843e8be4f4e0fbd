"""Facts from first-person sentences, by pattern: the offline stand-in for an extraction model.

Only the user's own messages are read, one sentence at a time. A sentence is dropped if
it is a question, a hypothetical, a hedge or a pleasantry; otherwise it is either a
standing instruction to the assistant, or split into first-person clauses that each may
match a rule and be retold in the third person. The quote of a fact is always the whole
sentence, sliced verbatim from the message.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from somna.llm.rules.english import ENGLISH
from somna.llm.rules.french import FRENCH
from somna.llm.rules.language import Language, Speaker, detect_language
from somna.llm.rules.text import finish_sentence, fold, split_sentences, trim_clause
from somna.llm.tasks import CandidateFact, SessionTranscript
from somna.model import FactType, Role, check_fact_text, normalize_text

__all__ = ["CONFIDENCE", "LANGUAGES", "Found", "extract_facts", "facts_of_sentence"]

LANGUAGES: tuple[Language, ...] = (ENGLISH, FRENCH)
CONFIDENCE = 0.6
"""What a pattern knows: less than a model that read the whole conversation."""


@dataclass(frozen=True)
class Found:
    type: FactType
    category: str
    text: str


def facts_of_sentence(sentence: str, who: Speaker, language: Language) -> list[Found]:
    """The facts one sentence of ``who`` states; ``sentence`` is folded (see `text.fold`)."""
    if "?" in sentence or any(pattern.search(sentence) for pattern in language.skip):
        return []
    lead = language.lead.match(sentence)
    when = (lead["when"] or "") if lead else ""
    core = trim_clause(sentence[lead.end() :] if lead else sentence)
    request = language.instruction(core, who)  # "Also, always answer in French."
    if request:
        text = finish_sentence(request) if not request.endswith("»") else request
        return [Found(FactType.INSTRUCTION, "instruction", text)] if _valid(text) else []
    found = []
    for clause in language.clause_break.split(core):
        clause = trim_clause(clause)
        if not clause:
            continue
        probe = f"{clause} {when}" if when else clause
        rule = next((r for r in language.rules if r.pattern.search(probe)), None)
        if rule is None or language.vague.search(clause):
            continue
        retold = language.third_person(clause, who)
        if not retold:
            continue
        if when:
            retold = f"{retold} {when[:1].lower()}{when[1:]}"
        text = finish_sentence(retold)
        if _valid(text):
            found.append(Found(rule.type, rule.category, text))
    return found


def _valid(text: str) -> bool:
    try:
        check_fact_text(text)
    except ValueError:
        return False
    return True


def extract_facts(
    transcript: SessionTranscript, languages: Sequence[Language] = LANGUAGES
) -> tuple[list[CandidateFact], set[tuple[int, int]]]:
    """The session's facts in order of appearance, once each, and the sentences they came from.

    The second value holds ``(message position, sentence start)`` of each sentence that
    gave a fact, so the summary can favour them.
    """
    default = detect_language(
        " ".join(m.content for m in transcript.messages if m.role is Role.USER),
        languages,
        languages[0],
    )
    facts: list[CandidateFact] = []
    sources: set[tuple[int, int]] = set()
    seen: set[str] = set()
    for position, message in enumerate(transcript.messages):
        if message.role is not Role.USER:
            continue  # what the assistant says is never a fact about the user
        who = Speaker(message.speaker or transcript.user)
        language = detect_language(message.content, languages, default)
        folded = fold(message.content)
        for start, end in split_sentences(folded):
            sentence = folded[start:end]
            # Per sentence, for messages that switch language; a tie keeps the message's.
            spoken = detect_language(sentence, languages, language)
            for item in facts_of_sentence(sentence, who, spoken):
                key = normalize_text(item.text)
                sources.add((position, start))
                if key in seen:
                    continue
                seen.add(key)
                facts.append(
                    CandidateFact(
                        type=item.type,
                        category=item.category,
                        subject=who.name,
                        text=item.text,
                        quote=message.content[start:end],
                        message_index=message.index,
                        valid_from=transcript.date,
                        confidence=CONFIDENCE,
                    )
                )
    return facts, sources
