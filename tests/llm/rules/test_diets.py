"""Restrictions a person states, and a later plan that breaks them: a diet, an allergy, an
event for adults only, something a person says they do not have, do or want."""

from __future__ import annotations

import pytest

from somna.llm.rules.diets import breaks_diet

_ADULTS_ONLY = "The user says that no kids at the anniversary dinner, adults only please."


@pytest.mark.parametrize(
    ("restriction", "plan", "broken"),
    [
        ("Is vegan.", "Has three eggs and a whey shake for breakfast.", True),
        ("Is vegetarian.", "No pork please, several guests never eat it.", False),
        ("L'utilisateur est allergique aux arachides.", "Un gâteau aux arachides.", True),
        ("Sa femme est végétarienne.", "Pour les mariés, on part sur le magret de canard.", True),
        # what comes from animals, for a vegan's furniture; its imitation is none
        (
            "The owner is strictly vegan, nothing from animals please.",
            "The user asks for a feather wrap on the bench pads.",
            True,
        ),
        (
            "The owner is strictly vegan, nothing from animals please.",
            "The user asks for the stools in bottle green faux leather.",
            False,
        ),
        # an allergy to anything named, and a later plan that holds it
        (
            "L'utilisateur dit qu'il est allergique au shampoing à la camomille.",
            "L'utilisateur dit que le shampoing à la camomille c'est très bien pour lui.",
            True,
        ),
        ("Noa is allergic to latex gloves.", "The user says latex gloves are fine for Noa.", True),
        ("Noa is allergic to latex gloves.", "The user says that no latex gloves, ever.", False),
        ("Noa is allergic to latex gloves.", "The user says Noa's latex allergy is severe.", False),
        ("Noa is allergic to latex gloves.", "The user bought new gloves.", False),
        # told of one person, a plan for another breaks nothing
        ("Noa is allergic to latex gloves.", "Theo wears latex gloves at work.", False),
        # an adults-only event, and a child on its plan, by word or by age
        (_ADULTS_ONLY, "We need a high chair for the baby at table 2.", True),
        (_ADULTS_ONLY, "Our neighbours' girl Mila joins our table, she's 6 and loves cake.", True),
        (
            "L'utilisateur dit que ce sera sans enfants, entre adultes.",
            "L'utilisateur dit que Noé a 7 ans, il sera à côté de sa tante.",
            True,
        ),
        (_ADULTS_ONLY, "Save a seat for Tom, he is 41 and drives.", False),
    ],
)
def test_a_plan_that_breaks_a_stated_restriction(restriction: str, plan: str, broken: bool) -> None:
    assert breaks_diet(restriction, plan) is broken


_NO_PETS = "The user says that we don't have pets, the kids are allergic."
_NO_EARLY_CALLS = "L'utilisateur dit que pas d'appel avant 10h svp, il travaille de nuit."


@pytest.mark.parametrize(
    ("refusal", "plan", "broken"),
    [
        # one of the kind refused, in either language
        (_NO_PETS, "The user says that the dog will stay in the garden during the visit.", True),
        (_NO_PETS, "L'utilisateur dit que le chat dort dans la véranda.", True),
        (_NO_PETS, "The user says that the pet shop on the corner closed.", True),
        (_NO_PETS, "The user says that still no pets, same as before.", False),
        # what needs what is refused: a car for someone who does not drive
        ("The user does not drive, cycles everywhere.", "The user asks for a parking space.", True),
        (
            "The user does not drive, cycles everywhere.",
            "The user's bike needs a new chain.",
            False,
        ),
        # all the words refused on one plan, each as itself or a word that says the same
        (
            "The user asks the assistant not to post photos of the kids online.",
            "The user asks to share the kids' photos on Instagram.",
            True,
        ),
        (
            "The user asks the assistant not to post photos of the kids online.",
            "The user says the kids' photos came out great.",
            False,
        ),
        # a time of day refused, and a plan at such a time or another
        (_NO_EARLY_CALLS, "L'utilisateur demande à l'assistant de l'appeler à 8h.", True),
        (_NO_EARLY_CALLS, "L'utilisateur demande à l'assistant de l'appeler à 11h.", False),
        (_NO_EARLY_CALLS, "L'utilisateur dépose la voiture à 8h.", False),
        # "son" alone is the French "his": no child on the plan
        (
            "L'utilisateur dit que c'est un hôtel réservé aux adultes, pas d'enfants.",
            "L'utilisateur dit que l'assistant peut envoyer les factures sur son mail.",
            False,
        ),
        (
            "The user says that no kids at the tasting, adults only.",
            "The user says that our son Theo will pour the wine.",
            True,
        ),
        # no one at all before a time: anyone coming earlier breaks it
        (
            "The user says that no one on the premises before 9am, our tenant sleeps days.",
            "The user says that your crew can arrive from 7:30 onwards.",
            True,
        ),
        (
            "L'utilisateur dit que personne avant 8h, les voisins dorment.",
            "L'utilisateur dit que vous pouvez arriver vers 7h30.",
            True,
        ),
        (
            "The user says that no one on the premises before 9am, our tenant sleeps days.",
            "The user says that your crew can arrive from 9:30 onwards.",
            False,
        ),
        # what a thing is put in or made on says nothing of it ("copper-based")
        (
            "The user asks the assistant never to use anything copper based on the lily tank.",
            "The user says that if the algae return, treat the lily tank with copper at once.",
            True,
        ),
        # a kind of drink named for one refused
        (
            "L'utilisateur dit qu'au cocktail, sans alcool s'il vous plaît, la direction y tient.",
            "L'utilisateur dit qu'ajoutez deux bouteilles de crémant pour le discours.",
            True,
        ),
        # an imperative refuses nothing; a short word is no part of a longer one
        ("Bruno says that never paint the fence.", "Bruno painted the fence on Sunday.", False),
        ("Noa will not quit the choir.", "Noa says the choir tour was quite a ride.", False),
        # nobody wants it: a thing named, not a person
        (
            "We're a small office, nobody here wants Windows.",
            "The user asks to order three Windows laptops for the new team.",
            True,
        ),
        # a treatment one of whose kind is on the plan
        ("Noa doesn't need any medication at all.", "Noa has an insulin shot at 7pm.", True),
        # small talk, and a name alone
        ("The user says that no worries at all.", "The user worries about the budget.", False),
        ("We don't invite Theo's cousins.", "Please invite Theo's cousins to the dinner.", True),
        ("We don't invite Theo.", "Theo starts the new job on Monday.", False),
        # a capital opening the question a plan answers names no one ("Any health issues?")
        (
            "Pip doesn't need any medication at all, just his food.",
            "The user says that pip is diabetic, he has an insulin shot at 7 (in answer to: "
            "Any health issues we should know about?).",
            True,
        ),
        # a possessive is no part of what is refused ("ses mails")
        (
            "L'utilisateur ne lit jamais ses mails, par SMS svp.",
            "L'utilisateur dit d'envoyer la facture par mail à compta@exemple.fr.",
            True,
        ),
        # what one cannot do, and the floors stairs lead to; "can't wait" refuses nothing
        (
            "L'utilisateur dit qu'elle ne peut pas monter d'escaliers, rez-de-chaussée uniquement.",
            "L'utilisateur dit que la salle du 2e étage est parfaite pour elle.",
            True,
        ),
        ("The user cannot drive at night.", "The user asks for a parking space at 9pm.", True),
        ("The user can't wait for the opening.", "The user says the wait was long.", False),
        # a fish of any kind
        (
            "L'utilisateur dit qu'il ne mange pas de poisson.",
            "L'utilisateur dit que pour Noël il voudrait le saumon fumé.",
            True,
        ),
        # a screen of any kind
        (
            "Pas d'écrans pour les enfants, c'est important pour nous.",
            "L'utilisateur dit que la nounou peut leur mettre un dessin animé à la télé.",
            True,
        ),
        # a dish commonly made with eggs, for an egg allergy
        (
            "Noa has a severe egg allergy, so the dessert must be egg-free.",
            "The user asks for the lemon meringue pie for dessert.",
            True,
        ),
        (
            "Noa has a severe egg allergy, so the dessert must be egg-free.",
            "The user asks for the egg-free lemon tart.",
            False,
        ),
        # a refusal under a condition refuses nothing; the words that retell a question are
        # no plan ("in answer to")
        (
            "The user says leave the parcel in the shed if nobody answers.",
            "The user says that Tuesday works (in answer to: Which day suits the user?).",
            False,
        ),
        (
            "Si personne n'ouvre, laissez le colis au voisin.",
            "L'utilisateur ouvre un compte.",
            False,
        ),
        # a feeling denied is no thing a plan holds
        (
            "The user says that it's hard to run a shop when you don't have faith in yourself.",
            "The user says that your faith in the user is priceless.",
            False,
        ),
        # what one does not eat, on a plan
        (
            "The user says that we don't eat mushrooms.",
            "The user asks to add the mushroom soup to every order.",
            True,
        ),
        # each of two things refused alike, and what qualifies them ("under the marquee")
        (
            "The user says no candles or open flames under the marquee, the insurer insists.",
            "The user asks for real candles on every table.",
            True,
        ),
        (
            "L'utilisateur dit pas de sucre ni de miel dans le thé de Perpetua.",
            "L'utilisateur demande du miel pour Perpetua.",
            True,
        ),
        # a refusal written in one form, a plan in another ("bougies" and "bougie")
        (
            "The user says the ring stays plain inside, nothing engraved.",
            "The user asks to engrave their initials inside the ring.",
            True,
        ),
        (
            "L'utilisateur dit pas de bougies dans la salle.",
            "L'utilisateur veut une bougie sur le gâteau.",
            True,
        ),
        # a word shouted is no name, a possessive is the name's own, and a French verb
        # asked of someone opens a clause: none names another than the one refused for
        (
            "The user says NO oats ever for Ottoline, vet's orders.",
            "The user says Ottoline's tired, could the stable give her some oats at night.",
            True,
        ),
        (
            "L'utilisateur dit pas de ballons pour Ysaline, elle en a peur.",
            "L'utilisateur dit pour la fête: Prévoyez des ballons à l'entrée.",
            True,
        ),
        (
            "L'utilisateur dit pas de ballons pour Ysaline, elle en a peur.",
            "L'utilisateur dit que Gaspardine voudrait des ballons.",
            False,
        ),
        # an allergy told again holds nothing; a short word's ending is part of it; what
        # says no room, or that one never picks up the phone, rules out no thing
        (
            "The user says nothing with sesame please, Ottoline reacts badly.",
            "The user says that's fine, she's only allergic to sesame.",
            False,
        ),
        ("The user says the flue was never lined.", "The user asks for a new liner.", False),
        # what only the question an answer retells names is on its plan if it says yes
        (
            "L'utilisateur dit pas de photo de l'utilisateur sur le site svp.",
            "L'utilisateur dit que son associée gère la com (en réponse à « Qui nous envoie "
            "les textes et les photos ? »).",
            False,
        ),
        (
            "L'utilisateur dit pas de photo de l'utilisateur sur le site svp.",
            "L'utilisateur est d'accord (en réponse à « On met une photo de vous en page "
            "d'accueil ? »).",
            True,
        ),
        ("The user says we've no room for a sofa.", "The user books the function room.", False),
        # how often one can be there is no thing refused
        (
            "The user lives in York so the user can't be there every day.",
            "The user agrees (in answer to: So 9am every day from Monday, shall I book it?).",
            False,
        ),
        (
            "The user never picks up in the day, email only.",
            "The user asks to pick up the keys on Friday.",
            False,
        ),
        # a chemical, a poison, a pig roasted whole
        (
            "The user says the garden is fully organic, nothing chemical on the beds.",
            "The user asks to keep weedkiller and slug pellets in the shed.",
            True,
        ),
        (
            "L'utilisateur dit que le jardin partagé a signé la charte zéro phyto.",
            "L'utilisateur demande de passer du désherbant sur les allées.",
            True,
        ),
        (
            "The user says no poison anywhere in the kitchen, traps only.",
            "The user asks for rodenticide blocks behind the ovens.",
            True,
        ),
        ("The user says no pork at all for the party.", "The user asks to add a hog roast.", True),
        # one of a kind refused: an organ is an instrument, bubble wrap a plastic, lavender a
        # scent, pecans nuts; and a word written with a capital in another statement
        # ("Breton songs") names no one the refusal is for
        (
            "The user says mostly Breton folk songs; it's all a cappella, strictly no instruments.",
            "The user says that for the last song Hollis Pike will play the organ with us.",
            True,
        ),
        (
            "The user says please no plastic wrapping on the delivery, we can't recycle it.",
            "The user asks the assistant to bubble wrap the mirror well.",
            True,
        ),
        # a motor and a battery are electric, larch a softwood
        (
            "The user says that the hire bikes are plain pedal bikes, nothing electric.",
            "The user asks to check the motor and the battery on bike 4.",
            True,
        ),
        (
            "The user says absolutely no softwood in the stove, it tars the flue.",
            "The user asks for a net of larch logs with every delivery.",
            True,
        ),
        # a thing left out by its "-free"
        (
            "The user says that we only use fragrance-free products, a member has allergies.",
            "The user asks for eucalyptus reed diffusers in the toilets.",
            True,
        ),
        ("The user says the party is alcohol-free.", "The user asks for a prosecco bar.", True),
        (
            "The user says that no plastic wrap on the boat, it sweats underneath.",
            "The user asks that the lads shrink-wrap the boat for winter.",
            True,
        ),
        (
            "L'utilisateur dit zéro plastique, tout part en cagettes.",
            "L'utilisateur demande de mettre la menthe dans des sachets zip.",
            True,
        ),
        # what is refused while a thing holds: the condition is no part of the thing
        (
            "The user says no insecticide while the hives are on the farm, ever.",
            "The user says that Basile puts a greenfly spray on the plums on Friday.",
            True,
        ),
        (
            "L'utilisateur dit zéro insecticide tant que les ruches sont là.",
            "L'utilisateur dit que Basile passe le traitement contre les pucerons lundi.",
            True,
        ),
        (
            "L'utilisateur dit pas de parfum dans la lessive, sa fille réagit.",
            "L'utilisateur demande de les laver avec une lessive à la lavande.",
            True,
        ),
        (
            "L'utilisateur dit que son fils Anatole est allergique aux noix, zéro noix svp.",
            "L'utilisateur dit que pour le gâteau érable et pacanes, c'est parfait.",
            True,
        ),
        # a wall no one may drill, then frames screwed to it; a sign not lit, then one backlit
        (
            "L'utilisateur dit que point important : aucun perçage, le bail l'interdit.",
            "L'utilisateur dit que les 3 miroirs de l'entrée, l'assistant peut les visser "
            "directement dans le mur.",
            True,
        ),
        (
            "The user says no drilling at all, the landlord is strict.",
            "The user asks the assistant to screw the shelf brackets straight into the wall.",
            True,
        ),
        (
            "L'utilisateur dit que c'est un secteur protégé : enseigne non lumineuse, rien "
            "d'éclairé.",
            "L'utilisateur demande que le panneau de la vitrine soit rétroéclairé.",
            True,
        ),
        (
            "The user says no drilling at all, the landlord is strict.",
            "The user asks for the frames to hang from the picture rail on cords.",
            False,
        ),
        # propane is gas
        (
            "L'utilisateur dit que surtout pas de gaz; l'assureur interdit les bouteilles.",
            "L'utilisateur dit que mettez 4 parasols chauffants au propane, un par coin.",
            True,
        ),
        # what bleaches with chlorine is bleach
        (
            "The user says NO bleach on the whites, two of the cooks come up in a rash.",
            "The user asks the assistant to do the chlorine whitening on the jackets from now on.",
            True,
        ),
        # a refusal for a stretch of the day: only a plan in it breaks it
        (
            "The user says pls tell the drivers no drop offs during lunch service, 12 till 3.",
            "The user asks that friday's drop come round to the back door on Quarry Mews.",
            False,
        ),
        (
            "The user says pls tell the drivers no drop offs during lunch service, 12 till 3.",
            "The user asks for the drop off at 1pm on friday.",
            True,
        ),
        # one who never looks at their emails rules out no looks
        (
            "The user says that text is best, the user never looks at the user's emails.",
            "The user says that the new glass went in, looks brilliant.",
            False,
        ),
    ],
)
def test_a_plan_that_holds_what_a_person_ruled_out(refusal: str, plan: str, broken: bool) -> None:
    assert breaks_diet(refusal, plan) is broken


@pytest.mark.parametrize(
    ("answer", "broken"),
    [
        ("The user says that go on then (in answer to: A vegetarian menu on Fridays?).", True),
        ("L'utilisateur est d'accord (en réponse à « Un menu végétarien le vendredi ? »).", True),
        # a diet a question offered is no one's until a yes takes it
        (
            "L'utilisateur dit que faut qu'il en parle à l'équipe (en réponse à « Un menu "
            "végétarien le vendredi ? »).",
            False,
        ),
        ("The user says that we'll see (in answer to: A vegetarian menu on Fridays?).", False),
    ],
)
def test_a_diet_offered_by_a_question_is_stated_by_a_yes_alone(answer: str, broken: bool) -> None:
    assert breaks_diet(answer, "The children loved the ham last week, more of it please.") is broken


@pytest.mark.parametrize(
    ("restriction", "plan", "broken"),
    [
        ("Chez nous c'est zéro porc pour tous les enfants.", "Remettez du jambon blanc.", True),
        ("The user never eats pork.", "More of the ham sandwiches please.", True),
        # what is made without pork breaks nothing
        ("No pork for the children, please.", "Turkey ham sandwiches on Friday.", False),
    ],
)
def test_pork_ruled_out_is_broken_by_what_is_made_of_it(
    restriction: str, plan: str, broken: bool
) -> None:
    assert breaks_diet(restriction, plan) is broken
