"""What the offline night keeps of a client's conversations, session after session.

A client tells a business's agent who they are, what they need and how to reach them,
then changes some of it weeks later. The rules provider and the bundled embedder must
leave the current value in the prompt, the older one out, and the contradictions the
client left for a person to settle.
"""

from __future__ import annotations

import pytest

from somna import FactStatus, Memory
from tests.support import Clock, all_facts


@pytest.fixture
def client(memory: Memory) -> Memory:
    memory.create_profile("alice")
    return memory


def talk(memory: Memory, clock: Clock, key: str, *turns: str) -> None:
    """One session: the client's turns, each answered, consolidated the night after."""
    messages = []
    for turn in turns:
        messages += [("user", turn), ("assistant", "Noted, thank you.")]
    converse(memory, clock, key, messages)
    clock.advance(days=12)


def converse(memory: Memory, clock: Clock, key: str, messages: list[tuple[str, str]]) -> None:
    """One session of these messages, consolidated the night after."""
    memory.add_messages("alice", key, messages)
    clock.advance(days=1)
    memory.consolidate()


def texts(memory: Memory, status: FactStatus) -> list[str]:
    return [f.text for f in all_facts(memory, "alice") if f.status is status]


def block_facts(memory: Memory, question: str) -> str:
    return "\n".join(
        line for line in memory.context("alice", question).splitlines() if line[:3] == "- ["
    )


def assert_replaced(memory: Memory, old: str, question: str, new: str) -> None:
    """`old` is in the history of a fact superseded, and the block for `question` holds
    `new` and not `old`."""
    assert any(old in text for text in texts(memory, FactStatus.SUPERSEDED))
    block = block_facts(memory, question)
    assert new in block
    assert old not in block


@pytest.mark.parametrize(
    ("said", "then", "old", "question", "now"),
    [
        # a count given anew
        (
            "We are about 40 people in the Ghent office.",
            "Quick update: we are 55 people in the Ghent office now.",
            "40",
            "How many people work in the Ghent office?",
            "55",
        ),
        # a plan chosen anew, in another language
        (
            "We will go with the yearly plan for the studio.",
            "Finalement on passe au forfait mensuel, c'est plus souple.",
            "yearly",
            "Which plan is the client on?",
            "mensuel",
        ),
        # what the change says of the old value stays in its history, out of the block
        (
            "Please deliver the crates to our yard at 4 Mill Road.",
            "The Mill Road lease has ended; deliver the crates to 9 Quay Street from now on.",
            "Mill Road",
            "Where do the crates go?",
            "9 Quay Street",
        ),
        (
            "Best to reach me on WhatsApp, it's 06 12 34 56 78.",
            "Écrivez-moi plutôt par mail maintenant, ysaline@example.fr, WhatsApp je le "
            "regarde plus trop.",
            "WhatsApp",
            "Comment contacter la cliente ?",
            "ysaline@example.fr",
        ),
    ],
)
def test_a_value_given_anew_with_a_word_of_change_supersedes_the_older_one(
    client: Memory, clock: Clock, said: str, then: str, old: str, question: str, now: str
) -> None:
    talk(client, clock, "s1", said)
    talk(client, clock, "s2", then)
    [gone] = texts(client, FactStatus.SUPERSEDED)
    assert old in gone
    block = block_facts(client, question)
    assert now in block and old not in block


def test_the_group_counted_anew_in_other_words_supersedes_the_older_count(
    client: Memory, clock: Clock
) -> None:
    talk(client, clock, "s1", "The wedding is in Exeter and we'll be around 90 guests.")
    talk(client, clock, "s2", "Replies are in, we'll finally be 104.")
    [gone] = texts(client, FactStatus.SUPERSEDED)
    assert "90 guests" in gone
    # the question words the old count; the new one answers it, and says what it counts
    block = block_facts(client, "How many guests are coming to the wedding?")
    assert "104 guests" in block and "90" not in block


def test_a_question_in_the_words_of_a_value_replaced_twice_finds_the_last_one(
    client: Memory, clock: Clock
) -> None:
    talk(client, clock, "s1", "The wedding is in Exeter and we'll be around 90 guests.")
    talk(client, clock, "s2", "Replies are in, we'll finally be 104.")
    talk(client, clock, "s3", "Last update, we're 110 now, the cousins said yes.")
    block = block_facts(client, "How many guests are coming to the wedding?")
    assert "110" in block and "104" not in block and "90" not in block
    # an unrelated question that shares one word with the old value brings nothing of it
    assert "110" not in block_facts(client, "Which guests need a taxi?")


def test_a_question_that_names_the_client_finds_the_value_given_anew_by_one_word(
    client: Memory, clock: Clock
) -> None:
    answered_then_told(
        client,
        clock,
        "What budget do you have in mind for the rent?",
        "800 euros max, charges included.",
        "Good news, I got a raise, I can go up to 950 euros now.",
    )
    block = block_facts(client, "What is Noa's budget?")
    assert "950" in block and "800" not in block
    # found through the old value's words: "budget", the client's name aside
    [found] = [r for r in client.recall("alice", "What is Noa's budget?", k=5) if "950" in r.text]
    assert "succession_rank" in found.signals


def test_two_values_of_one_statement_given_anew_the_same_night_both_leave(
    client: Memory, clock: Clock
) -> None:
    talk(client, clock, "s1", "We want a weekly team lunch, on Fridays, for 14 people.")
    talk(
        client,
        clock,
        "s2",
        "From June we're switching the lunch to Wednesdays.",
        "Also we're 18 now, interns joined.",
    )
    active = "\n".join(texts(client, FactStatus.UNVERIFIED))
    assert "Wednesdays" in active and "18" in active
    assert "14" not in active and "on Fridays" not in active
    assert "weekly team lunch" in active  # what neither replaced stays


def test_a_count_given_again_without_a_word_of_change_is_left_alone(
    client: Memory, clock: Clock
) -> None:
    talk(client, clock, "s1", "We are about 40 people in the Ghent office.")
    talk(client, clock, "s2", "Our Ghent office has 3 meeting rooms with big screens.")
    assert texts(client, FactStatus.SUPERSEDED) == []


def test_a_plan_that_breaks_a_stated_diet_is_put_to_a_person(client: Memory, clock: Clock) -> None:
    talk(client, clock, "s1", "I have been vegetarian for ten years, so keep that in mind.")
    talk(client, clock, "s2", "For the team lunch please order the chicken wings platter for me.")
    disputed = texts(client, FactStatus.DISPUTED)
    assert any("vegetarian" in t for t in disputed) and any("chicken" in t for t in disputed)
    [pair] = client.conflicts("alice")
    assert {pair.fact_a.text, pair.fact_b.text} == set(disputed)


def test_a_food_ruled_out_in_so_many_words_is_no_contradiction(
    client: Memory, clock: Clock
) -> None:
    talk(client, clock, "s1", "I have been vegetarian for ten years, so keep that in mind.")
    talk(client, clock, "s2", "For the team lunch, no chicken and no fish on the platters please.")
    assert texts(client, FactStatus.DISPUTED) == []


def test_a_statement_with_a_question_tagged_on_is_kept(client: Memory, clock: Clock) -> None:
    talk(client, clock, "s1", "I swim four times a week before work now, is that too much?")
    assert any("swim" in t for t in texts(client, FactStatus.UNVERIFIED))


def test_a_corrected_number_keeps_only_the_new_value(client: Memory, clock: Clock) -> None:
    talk(client, clock, "s1", "We hired two designers so we will need 9 licences not 7.")
    [fact] = [t for t in texts(client, FactStatus.UNVERIFIED) if "licences" in t]
    assert "9 licences" in fact and "7" not in fact


def test_the_last_digits_of_a_number_put_right_give_the_whole_number(
    client: Memory, clock: Clock
) -> None:
    talk(client, clock, "s1", "Text me on 07700 900 417.", "Oops, typo, the end is 471 not 417.")
    assert any("07700 900 417" in text for text in texts(client, FactStatus.SUPERSEDED))
    block = block_facts(client, "Which number do I text the client on?")
    assert "07700 900 471" in block
    assert "07700 900 417" not in block


def test_an_attachment_caption_is_no_part_of_the_fact(client: Memory, clock: Clock) -> None:
    talk(client, clock, "s1", "We adopted a grey kitten last weekend [image: a kitten on a rug]")
    [fact] = [t for t in texts(client, FactStatus.UNVERIFIED) if "kitten" in t]
    assert "[" not in fact and "rug" not in fact


def test_french_first_person_objects_and_owners_are_retold(client: Memory, clock: Clock) -> None:
    talk(client, clock, "s1", "Je préfère qu'on m'appelle le matin, mon bureau ferme à 16h.")
    [fact] = texts(client, FactStatus.UNVERIFIED)
    assert "qu'on l'appelle le matin" in fact and "son bureau" in fact
    assert "m'appelle" not in fact and "mon " not in fact


def test_a_way_to_be_reached_chosen_anew_supersedes_the_older_one(
    client: Memory, clock: Clock
) -> None:
    talk(client, clock, "s1", "Please contact me by email only, never by phone.")
    talk(client, clock, "s2", "I'd rather you call me in the afternoon than email me from now on.")
    [old] = texts(client, FactStatus.SUPERSEDED)
    assert "email" in old and "never by phone" in old
    assert "afternoon" in block_facts(client, "How should I contact the client?")


def test_someone_else_to_write_to_from_now_on_supersedes_the_address_given_before(
    client: Memory, clock: Clock
) -> None:
    """Both are ways to be reached (client_info): no judge is asked, the rule decides, and
    what the new one does not replace (the mobile for the day) stays."""
    talk(
        client,
        clock,
        "s1",
        "Hi, I'm Ines Varga, I run purchasing at Corvell Freight in Derby. Please email me at "
        "ines.varga@corvell.example, and on the day my mobile is 07700 900417.",
    )
    talk(
        client,
        clock,
        "s2",
        "Quick heads-up: I'm going on leave from next Monday, so my assistant Tamsin Orley will "
        "be your contact from now on. Her email is tamsin.orley@corvell.example.",
    )
    [old] = texts(client, FactStatus.SUPERSEDED)
    assert "ines.varga@" in old
    active = " ".join(texts(client, FactStatus.UNVERIFIED))
    assert "tamsin.orley@" in active and "07700 900417" in active
    assert "ines.varga@" not in active


def test_another_choice_without_a_word_of_change_is_put_to_a_person(
    client: Memory, clock: Clock
) -> None:
    talk(client, clock, "s1", "We will go with the yearly plan for the studio.")
    talk(client, clock, "s2", "We are on the monthly plan, billed to the company card.")
    [pair] = client.conflicts("alice")
    assert {"yearly" in pair.fact_a.text, "yearly" in pair.fact_b.text} == {True, False}
    assert texts(client, FactStatus.SUPERSEDED) == []


def test_a_report_named_monthly_is_no_choice_of_plan(client: Memory, clock: Clock) -> None:
    talk(client, clock, "s1", "We will go with the yearly plan for the studio.")
    talk(client, clock, "s2", "Now I read your monthly newsletter every time it comes out.")
    assert client.conflicts("alice") == []
    assert texts(client, FactStatus.SUPERSEDED) == []


def test_who_the_client_is_and_how_to_reach_them_open_every_block(
    client: Memory, clock: Clock
) -> None:
    talk(
        client,
        clock,
        "s1",
        "Hi, I'm Ines Varga from Corvell Freight, I handle purchasing.",
        "Please always contact me by email.",
    )
    block = client.context("alice", "What's a good substitute for buttermilk?")
    about = block.splitlines()[0]
    assert about.startswith("About this user:")
    assert "Ines Varga from Corvell Freight" in about and "contacted by email" in about


def session(memory: Memory, clock: Clock, key: str, *messages: tuple[str, str]) -> None:
    """One session as it was said, consolidated the night after."""
    memory.add_messages("alice", key, list(messages))
    clock.advance(days=1)
    memory.consolidate()
    clock.advance(days=13)


def answered_then_told(memory: Memory, clock: Clock, asked: str, answer: str, then: str) -> None:
    """A question of the agent answered in one session; weeks later, another message."""
    session(memory, clock, "s1", ("assistant", asked), ("user", answer), ("assistant", "Noted."))
    session(memory, clock, "s2", ("user", then), ("assistant", "Noted."))


@pytest.mark.parametrize(
    ("asked", "answer", "then", "old", "new", "kept"),
    [
        # an amount revised: a bound of one scale, with a word of change
        (
            "Welcome! May I have your name and a budget for the refit?",
            "Ines Varga here; budget about €18,000 in total.",
            "Good news, the loan came through: we can go to 21,500 max now.",
            "18,000",
            "21,500",
            "Ines Varga",
        ),
        # another name in the slot the question asked ("from which station?")
        (
            "Lovely! When would you travel, and from which station?",
            "Ten days from 3 June; Derby suits us best.",
            "Could we leave from York instead? It's closer to my sister's.",
            "Derby",
            "York",
            "3 June",
        ),
        # a way to pay chosen anew, the term beside it kept
        (
            "What lease term are you thinking?",
            "Three years, paid quarterly.",
            "We'd prefer to pay monthly rather than quarterly if possible.",
            "quarterly",
            "monthly",
            "three years",
        ),
        # what a question offered, chosen anew among more than two
        (
            "Small, medium or large crate?",
            "Medium for now. Delivered on Thursdays.",
            "My brother moves in, so we'll need the large crate going forward.",
            "medium for now",
            "large crate",
            "Thursdays",
        ),
        # what was taken, dropped in its words
        (
            "Which loaf would you like?",
            "The rye loaf, sliced, every Friday.",
            "Scratch the rye, customers want spelt bread.",
            "rye loaf",
            "spelt",
            "Friday",
        ),
        # what was taken, named as the one left ("rather than …"), which the fact leaves out
        (
            "How many people, and which course?",
            "Ten supervisors. We'd like the one-day refresher course.",
            "Head office wants the full three-day certificate rather than the one-day course.",
            "one-day refresher",
            "three-day certificate",
            "ten supervisors",
        ),
        # dates given anew, the figure beside them kept
        (
            "Super ! Quelles dates ?",
            "Du 10 au 24 juillet, budget 4 500 euros tout compris.",
            "Petit changement : on part finalement du 17 au 31 juillet.",
            "24 juillet",
            "31 juillet",
            "4 500 euros",
        ),
    ],
)
def test_a_value_given_anew_replaces_the_old_one_and_the_rest_of_its_answer_stays(
    client: Memory, clock: Clock, asked: str, answer: str, then: str, old: str, new: str, kept: str
) -> None:
    answered_then_told(client, clock, asked, answer, then)
    [gone] = texts(client, FactStatus.SUPERSEDED)
    assert old in gone
    active = "\n".join(texts(client, FactStatus.UNVERIFIED))
    assert new in active and old not in active
    assert kept in active  # said with the old value, and kept without it


def test_a_revised_budget_leaves_the_prompt_with_the_new_one(client: Memory, clock: Clock) -> None:
    answered_then_told(
        client,
        clock,
        "Welcome! May I have your name and a budget for the refit?",
        "Ines Varga here; budget about €18,000 in total.",
        "Good news, the loan came through: we can go to 21,500 max now.",
    )
    block = block_facts(client, "What's the client's maximum budget?")
    assert "21,500" in block and "18,000" not in block


def test_one_message_that_gives_two_figures_anew_replaces_both(
    client: Memory, clock: Clock
) -> None:
    session(
        client,
        clock,
        "s1",
        ("user", "We need 2 data engineers for the platform team."),
        ("assistant", "Noted."),
        ("user", "The pay range is 60-70k base."),
        ("assistant", "Noted."),
    )
    session(
        client,
        clock,
        "s2",
        ("user", "The new contract is signed: we hire 3 data engineers now, up to 80k."),
        ("assistant", "Noted."),
    )
    gone = texts(client, FactStatus.SUPERSEDED)
    assert len(gone) == 2
    assert any("2 data engineers" in text for text in gone)
    assert any("60-70k" in text for text in gone)


def test_an_offer_at_a_price_replaces_no_budget(client: Memory, clock: Clock) -> None:
    talk(client, clock, "s1", "Our budget for the flat is 410,000 max.")
    talk(client, clock, "s2", "In the end we made an offer at 395,000 for the loft.")
    assert texts(client, FactStatus.SUPERSEDED) == []


def test_an_age_the_calendar_rules_out_is_put_to_a_person(client: Memory, clock: Clock) -> None:
    answered_then_told(
        client,
        clock,
        "What is your son's name, and how old is he?",
        "His name is Theo, he is 12 and loves chess.",
        "Put Theo with the juniors, he is 10.",
    )
    [pair] = client.conflicts("alice")
    sides = (pair.fact_a.text, pair.fact_b.text)
    assert any("he is 12" in side for side in sides)
    assert any("he is 10" in side for side in sides)
    assert texts(client, FactStatus.DISPUTED) != []


def test_the_name_given_when_asked_opens_every_block(client: Memory, clock: Clock) -> None:
    session(
        client,
        clock,
        "s1",
        ("assistant", "Welcome! May I have your name and a budget for the refit?"),
        ("user", "Ines Varga; budget about €18,000 in total."),
        ("assistant", "Thank you."),
    )
    assert "The user is Ines Varga." in client.context("alice", "Which tiles were chosen?")


@pytest.mark.parametrize(
    ("restriction", "plan", "said", "breaking"),
    [
        # a child on the plan of an event for adults only
        (
            "No kids at the anniversary dinner please, it's adults only.",
            "Our neighbours' girl Mila joins our table; she's 6 and loves cake.",
            "adults only",
            "Mila",
        ),
        # what a person is allergic to, named, on a later plan
        (
            "Careful, our dog Nino is allergic to lavender shampoo.",
            "Yes go ahead, the lavender shampoo is fine for Nino this time.",
            "allergic to lavender shampoo",
            "is fine for Nino",
        ),
        # what a person says they do not have, and one of its kind on a later plan
        (
            "We don't have any pets, and the garden is fully fenced.",
            "Mind our dog when you come on Monday, he guards the shed.",
            "have any pets",
            "dog",
        ),
        # a time ruled out, and a call planned at such a time
        (
            "Mon numéro c'est le 06 12 34 56 78, mais pas d'appel avant 9h, je dors.",
            "Vous pouvez m'appeler demain à 7h30 pour le devis ?",
            "avant 9h",
            "7h30",
        ),
        # one of two things ruled out alike, on a later plan
        (
            "Important: no candles or open flames in the barn, our insurer is strict.",
            "For the dinner we'd love real candles on every table.",
            "no candles",
            "real candles",
        ),
        (
            "Surtout pas de micro ni d'ampli pour Perpetua, elle porte un appareil auditif.",
            "La salle est grande. Prévoyez une petite sono avec un micro svp.",
            "pas de micro",
            "sono avec un micro",
        ),
        # a job asked of the business that breaks it
        (
            "She has her own canvas cover for winter. No plastic wrap on the boat, it sweats.",
            "Can the lads shrink-wrap the boat for winter, like the one next to her?",
            "No plastic",
            "shrink-wrap",
        ),
        # a thing of the kind refused, while the condition holds
        (
            "Zéro insecticide tant que les ruches sont dans le verger, c'est promis.",
            "Basile passe le traitement contre les pucerons sur les pommiers samedi.",
            "insecticide",
            "pucerons",
        ),
        # what a place is without, and a plan that takes it
        (
            "On est au 4e étage sans ascenseur, prévoyez du monde.",
            "Pour les cartons, montez directement par l'ascenseur.",
            "sans ascenseur",
            "par l'ascenseur",
        ),
        # no one at all before a time, and someone coming earlier
        (
            "No one on the premises before 9am please, our tenant sleeps days.",
            "Good progress so far. Your crew can arrive from 7:30 onwards, no problem.",
            "before 9am",
            "arrive from 7:30",
        ),
        # a kind of drink, where none was to be served
        (
            "Au cocktail de clôture, sans alcool s'il vous plaît, la direction y tient.",
            "Ajoutez deux bouteilles de crémant pour le discours du président.",
            "sans alcool",
            "crémant",
        ),
    ],
)
def test_a_plan_that_breaks_a_stated_restriction_is_put_to_a_person(
    client: Memory, clock: Clock, restriction: str, plan: str, said: str, breaking: str
) -> None:
    talk(client, clock, "s1", restriction)
    talk(client, clock, "s2", plan)
    [pair] = client.conflicts("alice")
    sides = f"{pair.fact_a.text} {pair.fact_b.text}"
    assert said in sides and breaking in sides


@pytest.mark.parametrize(
    ("said", "then"),
    [
        # the same thing ruled out again
        ("We don't have any pets at home.", "Still no pets at home, so no worries there."),
        # a call at an hour the client allowed
        ("No calls before 9am please, I work nights.", "Can you call me tomorrow at 11am?"),
        # encouragement is no refusal
        ("Don't give up on the loft idea, keep going!", "The loft needs a new window by spring."),
    ],
)
def test_what_was_ruled_out_and_a_plan_that_respects_it_are_no_contradiction(
    client: Memory, clock: Clock, said: str, then: str
) -> None:
    talk(client, clock, "s1", said)
    talk(client, clock, "s2", then)
    assert client.conflicts("alice") == []


def test_a_named_allergen_ruled_out_is_no_contradiction(client: Memory, clock: Clock) -> None:
    talk(client, clock, "s1", "Careful, our dog Nino is allergic to lavender shampoo.")
    talk(client, clock, "s2", "Remember: never any lavender shampoo for Nino, only the plain one.")
    assert client.conflicts("alice") == []


def test_what_a_disputed_answer_says_besides_stays_active(client: Memory, clock: Clock) -> None:
    answered_then_told(
        client,
        clock,
        "Any dietary needs at the table?",
        "Two of us are coeliac, it's a real allergy, and 4 are vegan.",
        "For the starter we'll keep the garlic bread for everyone, it was lovely.",
    )
    [pair] = client.conflicts("alice")
    assert "coeliac" in f"{pair.fact_a.text} {pair.fact_b.text}"
    active = "\n".join(texts(client, FactStatus.UNVERIFIED))
    assert "4 are vegan" in active and "coeliac" not in active and "real allergy" not in active
    assert "starter" not in active  # "for the starter, it was lovely" gives no value: no rest


def test_what_a_disputed_statement_says_besides_stays_active(client: Memory, clock: Clock) -> None:
    answered_then_told(
        client,
        clock,
        "What is your son's name, and how old is he?",
        "His name is Theo, he is 12 and loves chess.",
        "We'll take the Easter camp in Derby, Theo is 9 so it fits.",
    )
    assert len(client.conflicts("alice")) == 1
    active = "\n".join(texts(client, FactStatus.UNVERIFIED))
    assert "Easter camp in Derby" in active and "Theo is 9" not in active


def test_what_a_disputed_answer_rules_out_besides_stays_active(
    client: Memory, clock: Clock
) -> None:
    answered_then_told(
        client,
        clock,
        "Anything we should know before the works start?",
        "No pesticides, the twins play outside; we don't have pets.",
        "For Monday's visit, watch out for the dog, he sleeps by the gate.",
    )
    [pair] = client.conflicts("alice")
    assert "pets" in f"{pair.fact_a.text} {pair.fact_b.text}"
    active = "\n".join(texts(client, FactStatus.UNVERIFIED))
    assert "no pesticides" in active.casefold() and "pets" not in active
    # what leans on the dog, and what only said what it was about, go with it
    assert "sleeps by the gate" not in active and "Monday's visit" not in active


def test_who_the_client_is_keeps_what_they_said_they_are_and_each_quote(
    client: Memory, clock: Clock
) -> None:
    session(
        client,
        clock,
        "s1",
        ("assistant", "Bonjour ! Quel est votre nom, et que souhaitez-vous rénover ?"),
        ("user", "Inès Varga. La cuisine et la salle de bain."),
        ("assistant", "Quand puis-je vous joindre ?"),
        ("user", "le soir, je suis sage-femme et je travaille de jour"),
        ("assistant", "C'est noté."),
    )
    [who] = [f for f in all_facts(client, "alice") if f.text.startswith("L'utilisateur est Inès")]
    assert who.text == "L'utilisateur est Inès Varga, sage-femme."
    quotes = [e.quote for e in client.history("alice", who.id).evidence]
    assert sorted(quotes) == [
        "Inès Varga",
        "le soir, je suis sage-femme et je travaille de jour",
    ]
    assert who.text in client.context("alice", "Quel train pour la visite ?")


def test_a_number_to_call_given_anew_replaces_the_older_one(client: Memory, clock: Clock) -> None:
    talk(client, clock, "s1", "Ring me on 07700 900100 but after 6 please, I'm at work all day.")
    talk(client, clock, "s2", "For the delivery just call my husband Sam on 07700 900200.")
    assert any("900100" in text for text in texts(client, FactStatus.SUPERSEDED))
    block = block_facts(client, "Who do we phone about the delivery?")
    assert "900200" in block
    assert "900100" not in block


def test_a_number_to_call_in_a_case_leaves_the_usual_one(client: Memory, clock: Clock) -> None:
    talk(client, clock, "s1", "Ring me on 07700 900100 but after 6 please, I'm at work all day.")
    talk(client, clock, "s2", "If the alarm goes off, call my neighbour Jo on 07700 900300.")
    assert not texts(client, FactStatus.SUPERSEDED)


def test_a_date_agreed_then_pushed_back_a_week_leaves_the_prompt(
    client: Memory, clock: Clock
) -> None:
    converse(
        client,
        clock,
        "s1",
        [
            ("user", "Hi, I'd like the new kitchen fitted, the flat is at 8 Dock Street."),
            ("assistant", "We can start the kitchen fit on Monday 11 May, shall I book it?"),
            ("user", "go on then"),
        ],
    )
    assert any("11 May" in text for text in texts(client, FactStatus.UNVERIFIED))
    clock.advance(days=6)
    talk(client, clock, "s2", "Could we push the kitchen fit back a week? My parents visit then.")
    assert any("11 May" in text for text in texts(client, FactStatus.SUPERSEDED))
    block = block_facts(client, "When does the kitchen fit start?")
    assert "11 May" not in block
    assert "Monday 18 May 2026" in block


def test_a_count_added_to_replaces_the_older_one_and_the_prompt_holds_the_total(
    client: Memory, clock: Clock
) -> None:
    talk(
        client,
        clock,
        "s1",
        "We need the stools recovered, it's 12 stacking stools with pine seats.",
    )
    talk(
        client,
        clock,
        "s2",
        "Good news, two more stools turned up in the shed, so add those please.",
    )
    assert any("12 stacking stools" in text for text in texts(client, FactStatus.SUPERSEDED))
    block = block_facts(client, "How many stools are we recovering?")
    assert "14 stools in all" in block
    assert "12 stacking" not in block


def test_a_number_given_anew_leaves_the_rest_of_an_answer_that_chose_a_channel(
    client: Memory, clock: Clock
) -> None:
    converse(
        client,
        clock,
        "s1",
        [
            ("assistant", "Vous pouvez me laisser votre adresse et un numéro ?"),
            (
                "user",
                "Noémie Vautrin, 4 allée des Saules à Ribemont. 06 11 22 33 44, et mon mail "
                "noemie@exemple.fr mais je le lis peu, je préfère whatsapp",
            ),
            ("assistant", "Merci ! Et pour les tapis, combien en avez-vous ?"),
            ("user", "Trois tapis en laine, dont un très grand dans le salon."),
            ("assistant", "Très bien, c'est noté."),
            ("user", "Le salon est au premier étage, sans ascenseur."),
        ],
    )
    clock.advance(days=6)
    talk(client, clock, "s2", "Bonjour ! mon numéro : 06 55 66 77 88, whatsapp aussi")
    active = "\n".join(texts(client, FactStatus.UNVERIFIED))
    assert "06 11 22 33 44" not in active
    assert "06 55 66 77 88" in active
    assert "4 allée des Saules" in active
    assert "noemie@exemple.fr" in active
    assert "whatsapp" in active.split("06 55")[0] + active.split("06 55 66 77 88")[1]


def test_a_count_added_to_leaves_the_rest_of_the_statement_that_gave_it(
    client: Memory, clock: Clock
) -> None:
    talk(
        client,
        clock,
        "s1",
        "Careful, he's allergic to chicken, he only eats his own kibble, I'll bring 2 bags.",
    )
    talk(client, clock, "s2", "I'll bring one more bag than I said, he's staying longer.")
    active = "\n".join(texts(client, FactStatus.UNVERIFIED))
    assert "3 bags in all" in active
    assert "allergic to chicken" in active
    assert "2 bags" not in active


def test_a_yes_to_another_day_proposed_moves_the_day_chosen(client: Memory, clock: Clock) -> None:
    converse(
        client,
        clock,
        "s1",
        [
            ("user", "Hi, I need the gutters on the barn cleared before the summer."),
            ("assistant", "Happy to help. When would suit for the clearing?"),
            ("user", "The 12th of May is fine, mornings are better for us."),
        ],
    )
    clock.advance(days=6)
    converse(
        client,
        clock,
        "s2",
        [
            ("user", "Any chance we can move it? The roofer is on site that day."),
            ("assistant", "Of course. How about Thursday 14 May, first thing?"),
            ("user", "yes go on"),
        ],
    )
    assert_replaced(client, "12th of May", "When is the clearing planned?", "Thursday 14 May")


@pytest.mark.parametrize(
    ("turns", "old", "question", "new"),
    [
        # a date put right
        (
            [
                ("user", "Hi! I've booked the boat survey for 11 September at the marina."),
                ("assistant", "Lovely, we'll plan the haul-out for early September."),
                ("user", "Sorry, I meant the 21st, the 11th was another slot I looked at."),
                ("assistant", "No problem, 21 September it is."),
            ],
            "11 September",
            "When is the boat survey?",
            "21 September",
        ),
        # a time made over
        (
            [
                ("user", "Can we book the tasting day for the 14th? We'd start at 9am."),
                ("assistant", "Lovely, the 14th at 9am."),
                ("user", "make it half nine actually, the cellar key holder can't be there sooner"),
            ],
            "9am",
            "What time does the tasting day start?",
            "9:30",
        ),
        # a new price said yes to
        (
            [
                ("user", "Got the quote at 3,900 € for the move, all good, we sign."),
                ("assistant", "Great. With 4 more desks the quote goes to 4,280 €, is that ok?"),
                ("user", "ok"),
            ],
            "3,900",
            "What did they sign the move quote for?",
            "4,280",
        ),
    ],
)
def test_a_value_made_over_later_in_the_same_session_replaces_the_first(
    client: Memory,
    clock: Clock,
    turns: list[tuple[str, str]],
    old: str,
    question: str,
    new: str,
) -> None:
    converse(client, clock, "s1", turns)
    assert_replaced(client, old, question, new)


def test_a_time_said_in_words_is_given_anew_against_its_digits(
    client: Memory, clock: Clock
) -> None:
    talk(client, clock, "s1", "Deliveries between 9:15 and 3pm only please, the yard is shut else.")
    clock.advance(days=15)
    talk(
        client,
        clock,
        "s2",
        "One thing on deliveries: make it quarter to ten at the earliest, not quarter past "
        "nine, the yard opens later now.",
    )
    assert_replaced(client, "9:15", "What's the earliest a delivery can come?", "9:45")


def test_a_no_with_another_count_leaves_the_counted_question_out(
    client: Memory, clock: Clock
) -> None:
    talk(client, clock, "s1", "We'll be 12 riders for the fitting day.")
    clock.advance(days=10)
    converse(
        client,
        clock,
        "s2",
        [
            ("assistant", "Is it still 12 riders for the fitting day?"),
            ("user", "ha no, four more than I said, the juniors signed up after sunday's run"),
        ],
    )
    assert_replaced(client, "12 riders", "How many riders are we fitting?", "16 riders")


def test_a_time_moved_by_an_hour_says_the_new_time(client: Memory, clock: Clock) -> None:
    converse(
        client,
        clock,
        "s1",
        [
            ("user", "Hello, I'd like piano lessons for my daughter."),
            ("assistant", "Happy to help. When is she usually free?"),
            ("user", "Thursdays, 3pm would be ideal."),
        ],
    )
    clock.advance(days=20)
    converse(
        client,
        clock,
        "s2",
        [("user", "Could we keep the same day but an hour later? School runs late now.")],
    )
    active = texts(client, FactStatus.UNVERIFIED)
    assert any("an hour later (4pm)" in text for text in active)


def test_a_count_doubled_says_the_new_count(client: Memory, clock: Clock) -> None:
    converse(
        client,
        clock,
        "s1",
        [
            ("user", "Hi, we'd like fruit boxes for the office."),
            ("assistant", "Great. How many boxes a week?"),
            ("user", "Let's start with 3 boxes a week."),
        ],
    )
    clock.advance(days=20)
    said = "Everyone loves them, can you double the boxes from next month?"
    converse(client, clock, "s2", [("user", said)])
    block = block_facts(client, "How many fruit boxes does the office get?")
    assert "6 boxes" in block


def test_a_date_put_right_keeps_what_else_its_statement_said(client: Memory, clock: Clock) -> None:
    converse(
        client,
        clock,
        "s1",
        [
            ("assistant", "How many singers need a fitting, and do you have a date in mind?"),
            ("user", "Twelve singers so far. We were thinking Saturday 6 June."),
            ("assistant", "Lovely, noted."),
            ("user", "Sorry, I meant the 13th, the 6th is our summer concert."),
        ],
    )
    active = " ".join(texts(client, FactStatus.UNVERIFIED))
    assert "twelve singers so far" in active.casefold()
    assert "6 June" not in active and "the 6th" not in active
    assert "Saturday 13 June" in active


def test_an_hour_later_than_which_of_two_slots_is_not_said_moves_neither(
    client: Memory, clock: Clock
) -> None:
    converse(
        client,
        clock,
        "s1",
        [
            ("assistant", "When is your son usually free for swimming?"),
            ("user", "Tuesdays, 5pm would be ideal."),
            (
                "assistant",
                "And your daughter? Her first class could be Friday 12 June at 10am, ok?",
            ),
            ("user", "yes perfect"),
        ],
    )
    clock.advance(days=20)
    converse(client, clock, "s2", [("user", "Could we make it an hour later? Work runs late.")])
    assert texts(client, FactStatus.SUPERSEDED) == []
    assert not any("later (" in text for text in texts(client, FactStatus.UNVERIFIED))


def test_someone_said_to_have_left_in_the_message_retold_lowered_leaves_what_they_did(
    client: Memory, clock: Clock
) -> None:
    # the retelling writes "that wilf's gone": the message itself names who left
    talk(client, clock, "s1", "Our caretaker Wilf Garrow keeps the spare keys at the lodge.")
    talk(client, clock, "s2", "Wilf's gone into a care home, bless him.")
    assert any("Wilf Garrow" in text for text in texts(client, FactStatus.SUPERSEDED))


def test_a_part_handed_on_leaves_the_departed_person_out_of_the_prompt(
    client: Memory, clock: Clock
) -> None:
    """The fact that hands the part on keeps who holds it now; who held it, and that
    they left, is the history of the older fact."""
    talk(client, clock, "s1", "Odran Kell, our caretaker, has the key to the yard gate.")
    talk(client, clock, "s2", "Odran retired last month, so Ilse Marrow has the gate key now.")
    assert_replaced(client, "Odran", "Who has the key to the gate?", "Ilse Marrow")
    assert "odran" not in block_facts(client, "Who has the key to the gate?").casefold()
    assert not any("odran" in text.casefold() for text in texts(client, FactStatus.UNVERIFIED))


def test_a_figure_given_anew_replaces_the_statement_that_counts_the_same_thing(
    client: Memory, clock: Clock
) -> None:
    order = "Our standing order every week: 3 kg of lettuce and 6 bunches of chives."
    talk(client, clock, "s1", order)
    talk(client, clock, "s2", "Just this week, add 2 kg of leeks, we have a party on Saturday.")
    talk(client, clock, "s3", "The terrace is busy so we go to 5 kg of lettuce a week now.")
    [gone] = texts(client, FactStatus.SUPERSEDED)
    assert "3 kg of lettuce" in gone
    # a one-off of another thing stays, whatever week it shares
    assert any("2 kg of leeks" in text for text in texts(client, FactStatus.UNVERIFIED))
    block = block_facts(client, "How much lettuce do they take each week?")
    assert "5 kg of lettuce" in block and "3 kg of lettuce" not in block


def test_a_date_put_right_replaces_the_date_and_not_who_the_client_is(
    client: Memory, clock: Clock
) -> None:
    session(
        client,
        clock,
        "s1",
        (
            "user",
            "Hi, I'm Perpetua Quillon, secretary of the Elvet Oars, a small rowing club in "
            "Durham, about 30 members. Could we book a club fitting day?",
        ),
        ("assistant", "Hello Perpetua! How many rowers would need a fit, and a date in mind?"),
        ("user", "Nine rowers so far. We were thinking Saturday 13 June."),
        ("assistant", "Saturday 13 June, nine rowers. Where should the van park?"),
        (
            "user",
            "Sorry, I meant the 20th, the 13th is our regatta. So Saturday 20 June, at our "
            "boathouse, 3 Quayside Steps in Durham.",
        ),
        ("assistant", "Got it."),
    )
    [gone] = texts(client, FactStatus.SUPERSEDED)
    assert "Saturday 13 June" in gone
    assert any("Perpetua Quillon" in text for text in texts(client, FactStatus.UNVERIFIED))


def test_a_value_given_anew_that_breaks_what_was_ruled_out_does_both(
    client: Memory, clock: Clock
) -> None:
    talk(client, clock, "s1", "We'll be 40 guests at the barn.", "No candles or flames please.")
    talk(client, clock, "s2", "We'll be 45 guests now, and we'd love real candles on the tables.")
    assert any("40 guests" in t for t in texts(client, FactStatus.SUPERSEDED))
    [pair] = client.conflicts("alice")
    sides = f"{pair.fact_a.text} {pair.fact_b.text}"
    assert "no candles" in sides and "real candles" in sides


@pytest.mark.parametrize(
    ("plan", "restriction", "old", "new"),
    [
        (
            "Please add the battery to the quote, my wife insists.",
            "We looked at the quote again, finally no battery, it's too dear.",
            "add the battery",
            "no battery",
        ),
        (
            "Ajoutez la batterie au devis, ma femme insiste.",
            "On a regardé le devis, on reste sans batterie finalement, c'est trop cher.",
            "Ajoutez la batterie",
            "sans batterie",
        ),
    ],
)
def test_a_restriction_said_anew_takes_back_the_plan_it_rules_out(
    client: Memory, clock: Clock, plan: str, restriction: str, old: str, new: str
) -> None:
    talk(client, clock, "s1", plan)
    talk(client, clock, "s2", restriction)
    assert client.conflicts("alice") == []
    assert any(old.casefold() in t.casefold() for t in texts(client, FactStatus.SUPERSEDED))
    assert any(new in t for t in texts(client, FactStatus.UNVERIFIED))


def test_someone_who_does_what_another_did_takes_it_over(client: Memory, clock: Clock) -> None:
    talk(client, clock, "s1", "Our caretaker Ambrose Quilling has the keys, he's in from 7.")
    talk(client, clock, "s2", "Seraphine Dallow has the keys, ring her when you arrive.")
    assert_replaced(client, "Ambrose Quilling", "Who has the keys to the hall?", "Seraphine")


@pytest.mark.parametrize(
    ("first", "then", "gone", "question", "now", "old"),
    [
        # a part given to someone else, with a number to ring them on
        (
            [
                ("assistant", "Who will let our fitter in on the day?"),
                ("user", "ambrose quilling, our caretaker. he's in from 7"),
                ("assistant", "Noted. And the best way to reach you?"),
                ("user", "whatsapp me on 07700 900 418, I never read emails"),
            ],
            "Seraphine Dallow holds the keys on fridays now, your fitter should phone her from "
            "the car park: 07700 900 731",
            "ambrose quilling",
            "Who should the fitter ask for on friday?",
            "Seraphine Dallow",
            "ambrose",
        ),
        # a head count given anew before a date the same message seems to move
        (
            [
                ("assistant", "Roughly how many people are in the office?"),
                ("user", "about 30 of us, a few less on fridays"),
                ("assistant", "And when would you like the machines installed?"),
                ("user", "thursday next week if you can. Gwen Talbot on reception will let you in"),
            ],
            "our design team moved in from the Leeds branch, so we've got 42 staff in here. "
            "the tuesday top-up never lasts either, can we move it to thursdays?",
            "about 30 of us",
            "How many people work in the office?",
            "42 staff",
            "about 30",
        ),
    ],
)
def test_what_a_later_session_hands_on_or_counts_anew_leaves_the_prompt(
    client: Memory,
    clock: Clock,
    first: list[tuple[str, str]],
    then: str,
    gone: str,
    question: str,
    now: str,
    old: str,
) -> None:
    session(client, clock, "s1", *first, ("assistant", "Noted."))
    session(client, clock, "s2", ("user", then), ("assistant", "Noted."))
    assert any(gone in text for text in texts(client, FactStatus.SUPERSEDED))
    block = block_facts(client, question)
    assert now in block
    assert old not in block


def test_a_date_long_past_is_not_moved_by_a_later_one(client: Memory, clock: Clock) -> None:
    session(
        client,
        clock,
        "s1",
        ("assistant", "We could do Saturday 9 May from 8am."),
        ("user", "sat 9th works. Wilf Garrow from facilities will let you in, he has the fobs"),
    )
    clock.advance(days=100)
    session(
        client,
        clock,
        "s2",
        ("assistant", "Would you like us to move the plants over for you?"),
        (
            "user",
            "yes please if you can, all 24 planters. and for the visit on thurs 3 sept can your "
            "tech head to Unit 4, Ashby Yard instead, that's where we'll be. Wilf will meet "
            "them at the goods lift",
        ),
    )
    assert any("Wilf Garrow" in text for text in texts(client, FactStatus.UNVERIFIED))
    assert not any("Wilf Garrow" in text for text in texts(client, FactStatus.SUPERSEDED))
