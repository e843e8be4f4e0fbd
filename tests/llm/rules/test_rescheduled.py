"""A date given anew for the same thing: a stay, an appointment, a delivery moved."""

from __future__ import annotations

from datetime import date

import pytest

from somna.llm.rules.replaced import gives_anew
from somna.llm.rules.rescheduled import (
    date_moved,
    date_shifted,
    dates_named,
    dates_replaced,
    may_move_a_date,
    shifted_to,
    slot_refused,
    time_shifted_to,
    without_the_mistake,
)


@pytest.mark.parametrize(
    ("old", "new", "moved"),
    [
        # the older answered a question asking when
        (
            "L'utilisateur dit que du 10 au 24 juillet (en réponse à « Quelles dates ? »).",
            "L'utilisateur dit que petit changement : on part finalement du 17 au 31 juillet.",
            True,
        ),
        (
            "The user says that Thursday (Thursday 5 March 2026) at 8 (in answer to: When "
            "can the user drop it off?).",
            "The user asks to move it to Friday (Friday 6 March 2026) at 2pm instead.",
            True,
        ),
        # a word in common dates the same thing
        (
            "The user says the stock count is on 12 May.",
            "The user says the stock count was moved to 19 May.",
            True,
        ),
        # the older date turned down in so many words
        (
            "The user says that two cats; we're away 14 to 21 June.",
            "The user says that change of plan, back on the 23rd (Tuesday 23 June 2026) "
            "not the 21st (Sunday 21 June 2026).",
            True,
        ),
        # a day of the week moved, in either language
        (
            "The user says that twice a week, Tuesday mornings and Friday afternoons (in "
            "answer to: How often?).",
            "The user asks to move the Tuesday session to Wednesday mornings.",
            True,
        ),
        (
            "L'utilisateur dit que le lundi à 18h, un cours par semaine.",
            "L'utilisateur dit qu'on décale les cours au mercredi 18h désormais.",
            True,
        ),
        (
            "L'utilisateur dit que le lundi à 18h, un cours par semaine.",
            "L'utilisateur dit qu'on décale la livraison au mercredi.",
            False,
        ),
        # a day asked for instead, the thing dated told otherwise ("delivered", "deliveries")
        (
            "The user says that six, delivered every Monday before 8am (in answer to: How "
            "many bouquets?).",
            "The user asks that deliveries come on Tuesdays instead.",
            True,
        ),
        (
            "L'utilisateur dit que le mercredi à 14h, 30 minutes par semaine (en réponse à « "
            "Quel créneau ? »).",
            "L'utilisateur dit que le mercredi ne va plus; il demande le samedi à 10h.",
            True,
        ),
        # a month alone, moved ("à la place", "on passe aux")
        (
            "L'utilisateur dit qu'idéalement la pose début juin, quand on est absents.",
            "L'utilisateur dit que nos congés changent, la pose se fera fin juillet à la place.",
            True,
        ),
        (
            "L'utilisateur dit que les lundis et jeudis, de 9h à 12h (en réponse à « Quels "
            "horaires ? »).",
            "L'utilisateur dit qu'on passe aux mardis et vendredis, nouveau planning.",
            True,
        ),
        # the thing dated named only in the question the older date answered
        (
            "The user says that 1st May please (in answer to: Memberships run May to "
            "September, shall we start the user from 1 May?).",
            "The user asks to start the membership from the 15th of May instead.",
            True,
        ),
        # another date for a slot agreed to, naming what it is for, needs no word of change
        (
            "L'utilisateur est d'accord (en réponse à « Je peux vous proposer une visite le "
            "mardi 12 mai à 9h, ça vous irait ? »).",
            "L'utilisateur dit que pour la visite, mettez-nous le jeudi 14 à 15h.",
            True,
        ),
        (
            "The user agrees (in answer to: I can offer a first visit on Tuesday 12 May at "
            "9am, would that suit?).",
            "The user says for the visit, put them down for Thursday the 14th at 3pm.",
            True,
        ),
        # another date for a day chosen when asked, the same thing named, needs none either
        (
            "The user says that Monday 4th May would be ideal, the gate code is 1471 (in "
            "answer to: When can we pick up the bikes?).",
            "The user asks the assistant to pick up on Thursday 7 May, any time after noon.",
            True,
        ),
        (
            "The user says that Monday 4th May would be ideal (in answer to: When can we pick "
            "up the bikes?).",
            "The user asks the assistant to deliver the new saddles on Thursday 7 May.",
            False,
        ),
        # a yes to another day proposed, naming nothing else, moves the slot chosen or agreed
        (
            "The user says that the 12th of May is fine, mornings suit us (in answer to: "
            "When would suit for the survey?).",
            "The user agrees (in answer to: How about Thursday 14 May, first thing?).",
            True,
        ),
        (
            "L'utilisateur dit que plutôt la semaine du 4 mai (en réponse à « Vous avez une "
            "date idéale pour la pose ? »).",
            "L'utilisateur est d'accord (en réponse à « Je peux vous proposer le mardi 12 mai "
            "à 9h ? »).",
            True,
        ),
        (
            "The user says that the sweep is booked for the 23rd; any chance the assistant "
            "can move it, the builders are in that day.",
            "The user agrees (in answer to: How about Tuesday 28 April, first thing?).",
            True,
        ),
        # a yes to a day for another thing is another slot
        (
            "The user agrees (in answer to: Could we do the survey on Monday 4 May at 10am?).",
            "The user agrees (in answer to: And the install on Friday 15 May?).",
            False,
        ),
        # another thing on the same weekday is no move of the slot
        (
            "L'utilisateur est d'accord (en réponse à « Pas de souci, on passe au samedi 16 mai, "
            "toujours à 10h, ça vous convient ? »).",
            "L'utilisateur dit que son frère passera samedi 23 mai chercher le colis.",
            False,
        ),
        # a week set again ("caler")
        (
            "L'utilisateur dit que la semaine du 11 mai si c'est possible (en réponse à « "
            "Quand souhaitez-vous la pose ? »).",
            "L'utilisateur dit qu'on part en vacances, donc la pose faut la caler la semaine du "
            "25 mai.",
            True,
        ),
        # a bare yes to the date proposed, moved
        (
            "The user agrees (in answer to: First fitting is usually a month out, how's "
            "Saturday 9 May at 10am?).",
            "The user asks that the fitting be on the 16th (Saturday 16 May 2026) instead.",
            True,
        ),
        (
            "The user says that no more than 300 euros (in answer to: First fitting on "
            "Saturday 9 May, ok?).",
            "The user asks that the fitting be on the 16th (Saturday 16 May 2026) instead.",
            False,
        ),
        (
            "The user says the roof work is planned for early June.",
            "The user says the roof work was pushed back to late July.",
            True,
        ),
        # days of a habit given anew "from now on"
        (
            "L'utilisateur dit que les repas du midi, du lundi au vendredi (en réponse à « Quel "
            "rythme de livraison ? »).",
            "L'utilisateur dit qu'il voudrait les repas du lundi au samedi désormais.",
            True,
        ),
        # a day that no longer suits ("je ne suis plus en télétravail le jeudi")
        (
            "L'utilisateur dit que jeudi matin, l'utilisateur télétravaille (en réponse à « "
            "Quand pouvons-nous passer ? »).",
            "L'utilisateur dit : livraison samedi matin, il n'est plus chez lui le jeudi.",
            True,
        ),
        # a slot said to have changed ("mes cours ont changé")
        (
            "L'utilisateur dit que le mercredi après-midi (en réponse à « Quelles "
            "disponibilités pour les leçons ? »).",
            "L'utilisateur dit que ses cours ont changé, les leçons seront le samedi matin.",
            True,
        ),
        # a month's name written as another word is no month ("march", "may")
        (
            "The user says the band will march in the parade.",
            "The user says the band may march later instead.",
            False,
        ),
        # nothing moves it ("now" or "new" moves no date), another thing is dated, the
        # same date again
        (
            "The user says the stock count is on 12 May.",
            "The user says the new stock count is on 19 May now.",
            False,
        ),
        (
            "The user says the stock count is on 12 May.",
            "The user says the stock count is on 19 May.",
            False,
        ),
        (
            "The user says the stock count is on 12 May.",
            "The user says the new catalogue is due on 19 May now.",
            False,
        ),
        (
            "The user says the stock count is on 12 May.",
            "The user says the stock count is still on 12 May, finally confirmed.",
            False,
        ),
        # a week a date phrase was told in gives no day anew ("next week")
        (
            "The user says that Thursday 16 April, before noon (in answer to: When is the "
            "deadline?).",
            "The user says that the user changes team next week (week of 13 April 2026), so "
            "Ilse will look after the account from now on.",
            False,
        ),
        # a date put right, for what a question asked when
        (
            "The user says that Thursday 16 April, before noon (in answer to: When is the "
            "deadline?).",
            "The user says that sorry, the user gave the assistant the wrong date; the deadline "
            "is Tuesday 14 April.",
            True,
        ),
        # another day of each month for what a question asked the day of
        (
            "L'utilisateur dit que sur le compte de son mari, le 5 du mois (en réponse à « Le "
            "prélèvement : sur quel compte et quel jour ? »).",
            "L'utilisateur dit que le prélèvement le 10 du mois svp, c'est plus pratique.",
            True,
        ),
        # a date put right names the date it puts right, not a weekday of a habit
        (
            "The user says that the pickups move to Fridays; Tuesdays stay as they are.",
            "The user says that sorry, the user gave the assistant the wrong date; the deadline "
            "is Tuesday the 14th (Tuesday 14 April 2026), not the 16th (Thursday 16 April 2026).",
            False,
        ),
        # a yes to other times proposed for whom the older times were given
        (
            "The user says that Pixel is diabetic, insulin at 7h and 19h.",
            "The user agrees (in answer to: We could do Pixel's injections at 8h and 20h?).",
            True,
        ),
        (
            "The user says that the kitchen opens at 7h and closes at 19h.",
            "The user agrees (in answer to: We could do Pixel's injections at 8h and 20h?).",
            False,
        ),
        # the one day named, at another time
        (
            "L'utilisateur dit qu'une séance le jeudi à 17h, après l'école.",
            "L'utilisateur dit que pour le jeudi ce sera 18h15, il a piscine avant.",
            True,
        ),
        (
            "The user says that Thursdays at 5pm suit, after school.",
            "The user says that on Thursday 14 May we'll come at 6pm instead of 5pm.",
            True,
        ),
        (
            "The user says that Thursdays at 5pm suit, after school.",
            "The user says that Fridays at 6pm would be good for the second child.",
            False,
        ),
        # the older time is another day's
        (
            "L'utilisateur demande, en plus du jeudi, le samedi à 10h.",
            "L'utilisateur dit que pour le jeudi ce sera 18h15, il a piscine avant.",
            False,
        ),
        # a day proposed as a change of what the older answer took, taken
        (
            "L'utilisateur dit que le mardi c'est parfait (en réponse à « Notre camion passe "
            "le mardi, ça vous va ? »).",
            "L'utilisateur dit que ça le va, le vendredi c'est mieux (en réponse à « Notre "
            "camion passe désormais le vendredi, ça vous irait ? »).",
            True,
        ),
        (
            "The user says that Mondays are fine (in answer to: Our van comes on Mondays, ok?).",
            "The user agrees (in answer to: From now on our van would come on Wednesdays, is "
            "that ok?).",
            True,
        ),
        (
            "The user says that Mondays are fine (in answer to: Our van comes on Mondays, ok?).",
            "The user says that no, Mondays suit us better (in answer to: From now on our van "
            "would come on Wednesdays, is that ok?).",
            False,
        ),
        # another thing the question changes: the words they share are none
        (
            "The user says that Mondays are fine (in answer to: Our van comes on Mondays, ok?).",
            "The user agrees (in answer to: From now on the classes start on Wednesdays, ok?).",
            False,
        ),
        # a mistake put right moves the date it names, not a time chosen for something else
        (
            "The user says that 3pm would be ideal (in answer to: When are you usually free?).",
            "The user says that sorry, the user meant the 21st (Monday 21 September 2026), the "
            "11th (Friday 11 September 2026) was another slot; 21 September, 9:40am.",
            False,
        ),
        (
            "The user has booked the user's exam for 11 September at the town centre.",
            "The user says that sorry, the user meant the 21st (Monday 21 September 2026), the "
            "11th (Friday 11 September 2026) was another slot; 21 September, 9:40am.",
            True,
        ),
        # a day of its own for something else, which shares only a word of time
        (
            "L'utilisateur dit qu'il faudrait une livraison tous les jours, dimanche (Sunday "
            "15 March 2026) compris (en réponse à « Votre saison commence quand ? »).",
            "L'utilisateur dit que pour le 14 juillet (Tuesday 14 July 2026) on fait un petit "
            "déj; l'utilisateur demande de rajouter 10 brioches ce jour-là.",
            False,
        ),
        # a month moved, "mai" written short as French writes it
        (
            "L'utilisateur dit que plutôt en septembre (en réponse à « Et la visite, à quelle "
            "période ? »).",
            "L'utilisateur dit que finalement mettez la visite en mai, en septembre on est "
            "en montagne.",
            True,
        ),
        # a day named "as usual" beside a new one stays where it was
        (
            "L'utilisateur dit que le mercredi c'est son frère Lubin qui ouvre la porte.",
            "L'utilisateur dit que finalement on passe à deux séances : mercredi (Wednesday 14 "
            "October 2026) 17h comme d'hab et samedi (Saturday 10 October 2026) 9h.",
            False,
        ),
        (
            "The user says that on Wednesdays the user's brother Lubin opens the door.",
            "The user says that from now on two sessions a week: Wednesday (Wednesday 14 "
            "October 2026) at 5pm as usual and Saturday (Saturday 10 October 2026) at 9.",
            False,
        ),
        (
            "The user says that on Wednesdays the user's brother Lubin opens the door.",
            "The user says that finally Wednesday (Wednesday 14 October 2026) is out, "
            "Saturday (Saturday 10 October 2026) at 9 instead.",
            True,
        ),
        # another day the business has room on, agreed to
        (
            "L'utilisateur dit que pose le lundi 4 mai si possible (en réponse à « Vous le "
            "voudriez pour quand ? »).",
            "L'utilisateur est d'accord (en réponse à « On a de la place le mercredi 6 mai, "
            "pose à 8h, ça vous irait ? »).",
            True,
        ),
        # a date given when asked if there was one, then another agreed to move to
        (
            "The user says that Friday 12th June if free; 14 people (in answer to: Does the "
            "user have a date in mind?).",
            "The user agrees (in answer to: Friday 19 June is free too, shall the assistant "
            "move the booking across?).",
            True,
        ),
        # a date taken in other words than a yes, then another proposed instead and agreed
        (
            "The user says that 14th is fine (in answer to: Our fitters have Tuesday 14 July "
            "free, does that work?).",
            "The user agrees (in answer to: Let the assistant check... yes, we can do Tuesday "
            "21 July instead, shall the assistant move it?).",
            True,
        ),
        # a day asked for instead, though named by its day of the month alone
        (
            "The user needs to book the next emptying; the user asks the assistant to do "
            "wednesday 7 october.",
            "The user says that the 14th (Wednesday 14 October 2026) (in answer to: What date "
            "would suit instead?).",
            True,
        ),
        # what happened on a day, and a trip on another that falls on the same weekday
        (
            "The user says that a van reversed into it on saturday (Saturday 21 February "
            "2026); it's the left pane, about 2m by 1.5m (in answer to: What happened?).",
            "The user says that bit of a change of plan; we're flying out on the 9th (Saturday "
            "9 May 2026) for a fortnight; The first of June would be ideal.",
            False,
        ),
        # the words of a slot ("morning") name no thing a later date is for
        (
            "The user agrees (in answer to: The earliest we can do is Tuesday 3 March, "
            "morning, shall the assistant book it?).",
            "The user needs to move the october visit; the coal lorry comes that wednesday "
            "and blocks the lane all morning.",
            False,
        ),
        # "till" names nothing the two share
        (
            "The user says that friday 19th (Friday 19 June 2026) from 2pm; people park "
            "along the field edge till then (in answer to: When would the user like us to "
            "build?).",
            "The user says that we're adding a barn dance in the evening, going on till 10pm.",
            False,
        ),
        # a date agreed to, named again by the message that moves it
        (
            "L'utilisateur est d'accord (en réponse à « Mardi 10 février, j'ai 9h de libre, je "
            "vous le bloque ? »).",
            "L'utilisateur dit que finalement l'utilisateur est de garde mardi (Tuesday 10 "
            "February 2026); l'utilisateur demande à l'assistant de décaler à jeudi 12 "
            "(Thursday 12 February 2026); même heure.",
            True,
        ),
        # "last year" dates nothing a later date moves
        (
            "The user says that the barn is let as allergy friendly so could the sweep bring no "
            "dog; one of the lads had a spaniel in the van at the user's sister's last year "
            "(2025).",
            "The user says that the mason redoing the barn's hearth won't be done until the "
            "13th (Friday 13 November 2026); the user asks to push the stove a week later.",
            False,
        ),
    ],
)
def test_a_date_given_anew(old: str, new: str, moved: bool) -> None:
    assert date_moved(old, new) is moved


@pytest.mark.parametrize(
    ("old", "new", "replaced"),
    [
        ("Tuesday mornings and Thursday afternoons.", "Wednesday mornings now.", True),
        ("Mon, wed and fri at 7am.", "All sessions at 6.30pm now, same days.", True),
        ("Le mardi à 10h.", "Toujours le mardi, à 10h.", False),
        ("The stock count is on 12 May.", "The count is still on 12 May.", False),
        # a month of five letters or more, in either language, is one month ("août", "August")
        ("La pose le 23 août.", "La pose est toujours le 23 August.", False),
        # a day for a time is no time given anew, nor a time for a day
        ("Have the mechanic come at 10:30.", "Could you come on Mondays instead?", False),
        ("Deliveries on Tuesdays.", "Could you come at 8am?", False),
    ],
)
def test_a_date_a_day_of_the_week_or_a_time_given_that_was_not(
    old: str, new: str, replaced: bool
) -> None:
    assert dates_replaced(old, new) is replaced


def test_a_time_agreed_to_is_given_when_asked_for() -> None:
    agreed = "The user agrees (in answer to: Shall I move the pickup to 2:30pm?)."
    assert dates_replaced("3pm at our office.", agreed, agreed=True)
    assert not dates_replaced("3pm at our office.", agreed)


@pytest.mark.parametrize(
    ("old", "new", "shifted"),
    [
        # the date agreed to, in the question it answered; the thing named in either
        (
            "The user agrees (in answer to: We can start the kitchen fit on Monday 11 May, "
            "shall the assistant book it?).",
            "The user asks to push the kitchen fit back a week; the house is full that week.",
            True,
        ),
        (
            "L'utilisateur dit que jeudi 7 mai c'est parfait (en réponse à « Pour la livraison, "
            "un créneau le jeudi 7 mai, ça irait ? »).",
            "L'utilisateur dit que décalez de deux jours la livraison svp, il sera absent.",
            True,
        ),
        # the date moved from named again ("ce samedi")
        (
            "L'utilisateur dit que le séminaire aura lieu le samedi 16 mai.",
            "L'utilisateur dit que décalez d'une semaine le séminaire, ce samedi (Saturday 16 "
            "May 2026) la salle est prise.",
            True,
        ),
        # the date it moves from named, the thing moved left to a pronoun
        (
            "The user asks the assistant to do Wednesday 14th October, in the morning; Say "
            "10am (in answer to: Shall we book the hanging too?).",
            "The user says that the removal men are booked for the 14th (Wednesday 14 "
            "October 2026) so that's no good; the user asks to push it back a week.",
            True,
        ),
        (
            "L'utilisateur dit que pour l'ouverture il lui faudrait une banderole; c'est le "
            "samedi 19 septembre.",
            "L'utilisateur dit que les travaux ont pris du retard; l'ouverture glisse de deux "
            "semaines.",
            True,
        ),
        (
            "The user agrees (in answer to: Our fitters have Tuesday 14 July free for the "
            "sign, does that work?).",
            "The user asks if we can shove the sign back a week.",
            True,
        ),
        # the day of the week of the date it moves, named beside it
        (
            "L'utilisateur dit que le vendredi 5 juin, pour la fête (en réponse à « Une date ? »).",
            "L'utilisateur dit que la salle n'est pas libre, il faut repousser d'une semaine, "
            "au vendredi suivant.",
            True,
        ),
        (
            "The user says the garden party is on Saturday 6 June, at the house.",
            "The user asks to push the kitchen fit back a week, to the Monday after.",
            False,
        ),
        # another thing dated: the word shared is not in the clause that moves
        (
            "The user says the garden party is on 6 June, at the house.",
            "The user asks to push the kitchen fit back a week; the house is full that week.",
            False,
        ),
        # no date to move, or a date of its own given (`date_moved`), or nothing moves
        (
            "The user says the kitchen fit is planned soon.",
            "The user asks to push the kitchen fit back a week.",
            False,
        ),
        (
            "The user says the kitchen fit starts on 11 May.",
            "The user asks to push the kitchen fit back a week, to 18 May.",
            False,
        ),
        (
            "The user says the kitchen fit starts on 11 May.",
            "The user says the kitchen fit takes a week.",
            False,
        ),
    ],
)
def test_a_date_moved_by_a_stretch_of_time(old: str, new: str, shifted: bool) -> None:
    assert date_shifted(old, new) is shifted


@pytest.mark.parametrize(
    ("old", "new", "said_on", "told"),
    [
        (
            "The user agrees (in answer to: We can start the kitchen fit on Monday 11 May, "
            "shall the assistant book it?).",
            "The user asks to push the kitchen fit back a week.",
            date(2026, 4, 20),
            "The user asks to push the kitchen fit back a week (Monday 18 May 2026).",
        ),
        (
            "The user agrees (in answer to: We can start the kitchen fit on Monday 11 May, "
            "shall the assistant book it?).",
            "The user asks to push the kitchen fit back a couple of weeks.",
            date(2026, 4, 20),
            "The user asks to push the kitchen fit back a couple of weeks (Monday 25 May 2026).",
        ),
        # brought forward; a date said without its year, at the turn of the year
        (
            "The user says the stock count is on 8 January.",
            "The user asks to bring the stock count forward two days.",
            date(2025, 12, 15),
            "The user asks to bring the stock count forward two days (Tuesday 6 January 2026).",
        ),
        (
            "L'utilisateur dit que l'arrivée est le dimanche 1er février.",
            "L'utilisateur dit que décalez d'une semaine l'arrivée, le camion n'est pas libre.",
            date(2026, 1, 12),
            "L'utilisateur dit que décalez d'une semaine (Sunday 8 February 2026) l'arrivée, le "
            "camion n'est pas libre.",
        ),
    ],
)
def test_a_date_moved_by_a_stretch_of_time_says_where_to(
    old: str, new: str, said_on: date, told: str
) -> None:
    assert shifted_to(old, new, said_on) == told


def test_a_date_moved_by_a_stretch_of_time_that_moves_nothing_says_nothing() -> None:
    said = "The user asks to push the kitchen fit back a week."
    assert shifted_to("The user says the party is on 6 June.", said, date(2026, 4, 1)) is None


@pytest.mark.parametrize(
    ("new", "may"),
    [
        ("The user asks to move the stock count to 19 May.", True),
        # a day and a time may move a slot agreed to, with no word of change
        ("The user says for the visit, put them down for Thursday the 14th at 3pm.", True),
        # a date told, no slot moved: nothing to look for
        ("The user says the new catalogue is due on 19 May.", False),
        ("The user says the garden looks lovely.", False),
    ],
)
def test_what_may_move_a_date_is_known_before_any_search(new: str, may: bool) -> None:
    assert may_move_a_date(new) is may


@pytest.mark.parametrize(
    ("old", "new", "told"),
    [
        (
            "The user says that 3pm would be ideal (in answer to: When are you free?).",
            "The user asks to keep the same day but an hour later.",
            "The user asks to keep the same day but an hour later (4pm).",
        ),
        (
            "L'utilisateur garde le créneau du jeudi 17h30 (en réponse à « Jeudi à 17h30 ? »).",
            "L'utilisateur dit que même heure mais une demi-heure plus tôt svp.",
            "L'utilisateur dit que même heure mais une demi-heure plus tôt (17h) svp.",
        ),
        (
            "L'utilisateur dit que 10h ce serait l'idéal (en réponse à « Quelle heure ? »).",
            "L'utilisateur demande de passer une heure après l'horaire habituel.",
            "L'utilisateur demande de passer une heure après (11h) l'horaire habituel.",
        ),
        (
            "The user says that 7:30pm suits.",
            "The user says that two hours later is better, the kids are in bed by then.",
            "The user says that two hours later (9:30pm) is better, the kids are in bed by then.",
        ),
        # a time another statement names moves nothing
        (
            "The user says that before 10am please (in answer to: When should the van come?).",
            "The user asks that the van come an hour later; rooms aren't stripped before 9:30.",
            "The user asks that the van come an hour later (11am); rooms aren't stripped before "
            "9:30.",
        ),
    ],
)
def test_a_time_moved_by_a_stretch_of_the_clock_says_where_to(
    old: str, new: str, told: str
) -> None:
    assert time_shifted_to(old, new) == told


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # two times before, or a time of its own: no one time moved
        ("The user says that 3pm or 5pm.", "The user asks for an hour later."),
        ("The user says that 3pm suits.", "The user asks for an hour later, so 5pm."),
        ("The user says that Tuesdays suit.", "The user asks for an hour later."),
    ],
)
def test_a_stretch_of_the_clock_with_no_one_time_to_move_says_nothing(old: str, new: str) -> None:
    assert time_shifted_to(old, new) is None


@pytest.mark.parametrize(
    ("old", "new", "kept"),
    [
        (
            "The user has booked the user's exam for 11 September at the town centre.",
            "The user says that sorry, the user meant the 21st (Monday 21 September 2026), the "
            "11th (Friday 11 September 2026) was another slot; 21 September, 9:40am.",
            "The user says that sorry, the user meant the 21st (Monday 21 September 2026), 21 "
            "September, 9:40am.",
        ),
        (
            "The user says that Wednesday mornings please (in answer to: Which day suits?).",
            "The user says that sorry, the user meant Friday mornings, not Wednesday "
            "(Wednesday 8 April 2026); Wednesday (Wednesday 8 April 2026) is market day.",
            "The user says that sorry, the user meant Friday mornings.",
        ),
    ],
)
def test_a_date_put_right_keeps_no_clause_that_names_only_the_mistake(
    old: str, new: str, kept: str
) -> None:
    assert without_the_mistake(old, new) == kept


def test_a_date_moved_in_so_many_words_leaves_the_old_date_out() -> None:
    old = "The user has booked the user's exam for 11 September."
    moved = "The user moved the exam to 21 September, not 11 September."
    assert without_the_mistake(old, moved) == "The user moved the exam to 21 September."
    # with no word that moves or puts right, both dates are what the client said now
    said = "The user says the exam is on 21 September, the 11 September one is the mock."
    assert without_the_mistake(old, said) is None


def test_the_dates_a_message_writes_out_are_read_in_order_in_their_nearest_year() -> None:
    said = "Le 14 avril c'est noté, puis le 2 mai pour la visite."
    assert list(dates_named(said, date(2026, 3, 24))) == [date(2026, 4, 14), date(2026, 5, 2)]
    assert list(dates_named("Booked for 8 September.", date(2026, 6, 8))) == [date(2026, 9, 8)]
    assert list(dates_named("Sent on 2 June.", date(2026, 6, 8))) == [date(2026, 6, 2)]
    assert list(dates_named("No date here.", date(2026, 6, 8))) == []


def test_a_day_said_to_stay_is_kept_when_another_is_moved() -> None:
    old = "The user says that a pickup twice a week, Mondays and Thursdays."
    new = (
        "The user says that nothing is ready on a Thursday; the user asks to do Fridays "
        "instead; Mondays stay as they are."
    )
    assert without_the_mistake(old, new) == (
        "The user says that the user asks to do Fridays instead; Mondays stay as they are."
    )
    french_old = (
        "L'utilisateur dit que lundi (Monday 6 April 2026) et jeudi (Thursday 9 April 2026) le "
        "matin (en réponse à « Quel rythme de collecte ? »)."
    )
    french_new = (
        "L'utilisateur dit que le jeudi ça colle plus; l'utilisateur demande de passer le "
        "mercredi plutôt; le lundi on garde."
    )
    assert date_moved(french_old, french_new)
    assert without_the_mistake(french_old, french_new) == (
        "L'utilisateur dit que l'utilisateur demande de passer le mercredi plutôt; le lundi on "
        "garde."
    )


@pytest.mark.parametrize(
    ("old", "new", "refused"),
    [
        (
            "L'utilisateur dit qu'on sera installés d'ici là; l'utilisateur demande à "
            "l'assistant de commencer à 8h.",
            "L'utilisateur dit que le gardien n'ouvre qu'à 9h, du coup 8h c pas possible; "
            "l'utilisateur demande disons 9h30.",
            True,
        ),
        # a time in the part of the day ruled out
        (
            "L'utilisateur dit que passez avant 11h de préférence; c'est la grange à gauche.",
            "L'utilisateur dit que le matin ça va pas être possible; plutôt l'aprem, à partir "
            "de 14h.",
            True,
        ),
        (
            "L'utilisateur dit que son associé Basile est là tous les matins; passez avant 11h.",
            "L'utilisateur dit que le matin ça va pas être possible, Ottoline fait les "
            "chambres; plutôt l'aprem, à partir de 14h.",
            True,
        ),
        # another slot than the one it gave is ruled out
        (
            "The user asks the assistant to come at 8am to start.",
            "The user says evenings are no good for calls; say 2pm.",
            False,
        ),
        # the slot said again without a no, or a no with no other slot
        (
            "The user asks the assistant to come at 8am to start.",
            "The user says 8am is fine, and the porter opens at 7:30.",
            False,
        ),
        (
            "The user asks the assistant to come at 8am to start.",
            "The user says 8am is no good for the neighbours.",
            False,
        ),
        # two times in one part of the day are two slots
        (
            "The user says that mobile 07700 900417; the user teaches so the user cannot "
            "answer in the day, ring after 4pm.",
            "The user says that friday from 2pm; no takedown before 1pm on the sunday pls.",
            False,
        ),
    ],
)
def test_a_slot_said_not_to_work_beside_another_is_given_anew(
    old: str, new: str, refused: bool
) -> None:
    assert slot_refused(old, new) is refused
    assert gives_anew(old, new) is refused
