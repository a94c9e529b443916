"""What each forum Mafia role does, in one or two sentences, and how it wins, for the player's role card (FM-3,
FM-8, FM-10).

Pure data: msgids marked with a no-op ``_`` so ``makemessages`` finds them; the shell translates them with gettext
when it shows them on the role card. The texts summarise the rules reference
(``shared/rules/forum-mafia.md`` §3, §8 and §10); the engine never reads them.
"""
from __future__ import annotations


def _(s: str) -> str:
    return s


#: FM-3.1: what every mafioso reads (how he wins: :data:`MAFIA_WIN`).
MAFIA_TEXT = _("Mafia. You know the other two mafiosi and, from Night 1, their decks and Hands. Once you may send a "
               "message to another mafioso; a deck rebuild recharges it.")
#: FM-3.2: what every Law player reads (how he wins: :data:`LAW_WIN`).
LAW_TEXT = _("Law. You know only your own role; the mafiosi know each other.")
#: FM-3.2: the two Law roles with three colours.
LAW_THREE_COLOURS_TEXT = _("Law. You know only your own role; the mafiosi know each other. Besides your three "
                           "colours you may take only Neutral cards.")

#: FM-3: secret role slug → what the role does and how it wins.
SECRET_ROLE_TEXTS: dict[str, str] = {
    "mafia_boss": MAFIA_TEXT,
    "mafia_advisor": MAFIA_TEXT,
    "mafia_killer": MAFIA_TEXT,
    "sheriff": LAW_TEXT,
    "commissioner": LAW_TEXT,
    "doctor": LAW_TEXT,
    "agent": LAW_TEXT,
    "judge": LAW_TEXT,
    "vigilante": LAW_TEXT,
    "policeman": LAW_THREE_COLOURS_TEXT,
    "detective": LAW_THREE_COLOURS_TEXT,
    "maniac": _("Neutral, alone. You may swap a Hand card with a Sleeve card at any moment. At night you may discard "
                "a Sleeve card for 2 damage to a target or 3 armour to yourself; when someone you damaged at night "
                "dies of it, you draw 2 cards into the Sleeve."),
    "joker": _("Neutral. You chose your two colours and start with an ace in the Sleeve. Every night you may use the "
               "HR department's effect, and each phase give an ace to anyone's Sleeve. You know the secret roles of "
               "the dead. At any moment you may name every player's secret role."),
    "traitor": _("Neutral on the Mafia's side; the Mafia does not know you. At most 3 cards of one colour in your "
                 "deck."),
    "hero": _("Neutral on the Law's side. You never deal damage. At night, if you play no Sleeve card, give 3 armour "
              "to another character or mark a character by naming his Mafia role. Goals: your armour saves a Law "
              "member; a marked mafioso dies by day. You are told when each is met."),
}

#: FM-8: public role slug → its ability.
PUBLIC_ROLE_TEXTS: dict[str, str] = {
    "strongman": _("Draws 1 extra card into the Hand at the start of Night 1."),
    "geek": _("Starts with 5 Hand cards; once per game, at any moment, takes any card of the collection into the "
              "Sleeve."),
    "cultist": _("May pay up to two price cards per phase from the Hand instead of the Sleeve."),
    "engineer": _("Picks two cards of his deck that are guaranteed among his first six."),
    "prosecutor": _("Once per game, when voting, has +2 vote strength for that day."),
    "authority": _("Vote strength 2."),
    "manager": _("May create chat rooms of two or four characters."),
    "conspirator": _("Once per game may create a chat room of any size that lasts until the end of the game."),
    "gossip": _("Starts with an unlimited plan in the Sleeve."),
    "patrolman": _("Starts with a witness in the Sleeve."),
    "rich_man": _("Starts with a dummy in the Sleeve; it may pay a price."),
    "looter": _("Once per game, at once, copies every Sleeve card of a dead character into his own Sleeve."),
    "highlander": _("Takes at most 6 damage from other characters' cards in one night."),
    "paranoid": _("Starts with a bunker in the Sleeve."),
    "secretary": _("Starts with a coffee in the Sleeve."),
    "guard": _("Starts with a surveillance camera in the Sleeve."),
    "jock": _("Starts with a last stand in the Sleeve."),
    "cardsharp": _("Draws 1 card from the deck into the Sleeve at the start of the game."),
    "spendthrift": _("His cards with a price of 2 or more are free."),
    "lucky": _("On Night 1 may twice throw back his six cards, reshuffle the deck and draw six again."),
    "warrior": _("The first two cards he discards from the Hand because of damage go to his Sleeve instead."),
    "croupier": _("Off-colour limit 4 instead of 2 when building the deck."),
    "fortune_teller": _("Starts with an oracle in the Sleeve."),
    "postman": _("Once per day may send a private message to any player, naming the recipient publicly."),
    "magician": _("After his first deck rebuild the bottom two cards of the new deck become free."),
    "alien": _("Starts with a superhero in the Sleeve."),
    "idler": _("Gets 3 armour on a night he plays no cards."),
    "scientist": _("Once per game, at night, may discard two Hand cards and draw replacements even while playing "
                   "cards."),
    "operator": _("Starts with a letter in the Sleeve."),
    "banker": _("Each time he rebuilds his deck, draws one card of it into the Sleeve in the same phase."),
    "genius": _("Builds a deck of 12 non-free cards and up to 5 free ones."),
    "psychic": _("Always sees the top 3 cards of his deck."),
    "monk": _("Ending a phase with 1 or 2 Hand cards, draws 1 card into the Hand."),
    "assassin": _("Once per game may kill a player who has exactly 1 Hand card (at the end of the phase)."),
    "undertaker": _("Starts with an autopsy in the Sleeve."),
    "jedi": _("Starts with a breach in the Sleeve."),
    "fighter": _("Starts with a martial art in the Sleeve."),
    "addict": _("Starts with a stimulant shot in the Sleeve."),
    "politician": _("Vote strength 1.5; the first time he leads the vote he is jailed instead of executed."),
    "sociopath": _("Cannot be a target of cards or votes during the first day and night."),
    "avenger": _("When dead, still talks in the thread and chat rooms; if every other character dies, his team "
                 "wins."),
}

#: A custom public role (FM-2.3) has no ability.
CUSTOM_ROLE_TEXT = _("A role of your own invention: no ability.")

#: FM-10.1 (FM-6.2: the dead still win with their side).
LAW_WIN = _("The Law wins when every mafioso, the traitor and the maniac are dead and at least one Law member is "
            "alive — you win with it even if you are dead by then.")
#: FM-10.2.
MAFIA_WIN = _("The Mafia and the traitor win when every Law member and the maniac are dead and at least one "
              "mafioso or the traitor is alive — you win with them even if you are dead by then.")

#: FM-10: secret role slug → how it wins (FM-10.1–FM-10.4, FM-3.3).
SECRET_ROLE_WINS: dict[str, str] = {
    **{role: MAFIA_WIN for role in ("mafia_boss", "mafia_advisor", "mafia_killer")},
    **{role: LAW_WIN for role in ("sheriff", "commissioner", "doctor", "agent", "judge", "vigilante", "policeman",
                                  "detective")},
    "maniac": _("You win alone, when every other character is dead."),
    "traitor": _("You win with the Mafia: when every Law member and the maniac are dead and at least one mafioso or "
                 "you are alive."),
    "joker": _("Name every player's secret role correctly and you win at once and leave the game; one wrong and you "
               "leave the game having lost. If you are the last one alive, you lose."),
    "hero": _("You win with the Law if you are alive when it wins or have met at least one goal; meet both goals "
              "and you win at once and leave the game. Goals do not count in a phase where the living Mafia and "
              "traitor are at least as many as everyone else alive."),
}
#: FM-10.5: said on every role card.
NOBODY_WINS = _("If everyone dies, nobody wins.")
#: FM-8 ``avenger``: his public role adds a way to win.
AVENGER_WIN = _("As the avenger: if every other character dies, your side wins.")
