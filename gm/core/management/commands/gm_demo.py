"""``manage.py gm_demo`` — load the developer demo (idempotent).

Creates, if missing:

* the user ``master`` (staff, so ``/admin/`` works, and granted ``core.host_game`` so it may host games) and the
  players ``player1`` … ``player6``, all with the password ``demo-password-1``, e-mail ``<name>@example.com``
  and a profile display name;
* games created only through the services (:mod:`gm.core.services` and the forum Mafia services) — two of the
  ``tally`` module, one of ``cardtest``, and two of forum Mafia (one in signup, one in Night 1 with random decks):

  - “Demo: signup open (tally)” — in signup, ``player1`` and ``player2`` seated;
  - “Demo: running (tally)” — six seats, started, rounds of 120 seconds (30 rounds), so the Celery worker and
    beat visibly resolve a round every two minutes. Four players have already ordered in round 1.

* one One Night Ultimate Werewolf game in its night (a week-long deadline), dealt so that each of its five players
  has a choice to make: ``player1`` seer, ``player2`` the lone werewolf, ``player3`` robber, ``player4``
  troublemaker, ``player5`` drunk (a werewolf, a villager and the insomniac lie in the center).

``tally`` and ``cardtest`` are the fake game modules of the tests (``tests/fake_games/``); the demo needs
``GM_EXTRA_MODULES=tests.fake_games.tally,tests.fake_games.cardtest`` (``bin/demo`` sets it; without ``cardtest``
the deck-building demo game is skipped).

Each demo game is created only if no demo game of its title exists, so running it again changes nothing (and an
older demo database gets only the games added since). ``--reset`` deletes the demo games (and everything in them)
and creates them again; the users are kept.
"""
from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import translation
from django.utils.translation import ngettext

from gm.core import registry, services
from gm.core.management.base import command_language, require_migrated
from gm.core.models import Game

PASSWORD = "demo-password-1"
MODULE = "tally"
SIGNUP_TITLE = "Demo: signup open (tally)"
RUNNING_TITLE = "Demo: running (tally)"
CARDS_TITLE = "Demo: deck building (cardtest)"
FM_TITLE = "Демо: форумная Мафия (запись открыта)"
FM_SIGNUPS = [("paranoid", ""), ("geek", ""), ("authority", ""), ("", "Лесник")]
FM_NIGHT_TITLE = "Демо: форумная Мафия (ночь 1)"
ONUW_TITLE = "Demo: One Night Ultimate Werewolf (night)"
#: Seats in ring order (player1…player5), then the three center cards (ON-3): every player wakes with a choice.
ONUW_DEAL = ["seer", "werewolf", "robber", "troublemaker", "drunk", "werewolf", "villager", "insomniac"]
ONUW_NIGHT_SECONDS = 7 * 24 * 3600
FM_NIGHT_SIGNUPS = [("paranoid", ""), ("secretary", ""), ("guard", ""), ("jock", ""), ("rich_man", ""),
                    ("fighter", "")]
CARD_ROLES = [["sheriff", "paranoid"], ["mafia_boss", None], ["traitor", "croupier"], ["hero", "genius"],
              ["joker", None, ["damage", "recon"]], ["doctor", "spendthrift"]]
ROUND_SECONDS = 120
ROUNDS = 30
MASTER = ("master", "Demo Master")
PLAYERS = [
    ("player1", "Alice"),
    ("player2", "Boris"),
    ("player3", "Clara"),
    ("player4", "Dmitri"),
    ("player5", "Eva"),
    ("player6", "Fyodor"),
]


class Command(BaseCommand):
    help = ("Load the developer demo: users master and player1..player6, and demo games of tally, cardtest, forum "
            "Mafia and One Night Ultimate Werewolf.")

    def add_arguments(self, parser):
        parser.add_argument(
            "--reset", action="store_true", help="Delete the demo games and create them again (users are kept)."
        )

    def handle(self, *args, reset: bool = False, **options):
        require_migrated()
        try:
            registry.get(MODULE)
        except registry.UnknownModule:
            raise CommandError(
                f"The game module “{MODULE}” is not loaded. The demo uses the developer test module: "
                "set GM_EXTRA_MODULES=tests.fake_games.tally (bin/demo does this)."
            ) from None

        with transaction.atomic():
            master = self._user(*MASTER, host=True)
            players = [self._user(name, display) for name, display in PLAYERS]
            makers = {SIGNUP_TITLE: self._signup_game, RUNNING_TITLE: self._running_game,
                      CARDS_TITLE: self._cards_game, FM_TITLE: self._forum_mafia_game,
                      FM_NIGHT_TITLE: self._forum_mafia_night, ONUW_TITLE: self._onuw_night}
            demo_games = Game.objects.filter(master=master, title__in=list(makers))
            if reset:
                deleted = demo_games.count()
                demo_games.delete()
                with translation.override(command_language()):
                    self.stdout.write(ngettext("Deleted %(count)s demo game.", "Deleted %(count)s demo games.",
                                               deleted) % {"count": deleted})
            existing = set(demo_games.values_list("title", flat=True))
            missing = [title for title in makers if title not in existing]
            if not missing:
                self.stdout.write("Demo data already loaded; nothing changed (use --reset to recreate the games).")
            else:
                for title in missing:
                    makers[title](master, players)
                with translation.override(command_language()):
                    self.stdout.write(self.style.SUCCESS(
                        ngettext("Demo data loaded (%(count)s game created).",
                                 "Demo data loaded (%(count)s games created).", len(missing))
                        % {"count": len(missing)}))
        self._print_logins()

    def _user(self, username: str, display_name: str, *, host: bool = False):
        User = get_user_model()
        user, created = User.objects.get_or_create(
            username=username, defaults={"email": f"{username}@example.com", "is_staff": host}
        )
        if created:
            user.set_password(PASSWORD)
            user.save(update_fields=["password"])
            self._verified_email(user)
        if host:
            user.user_permissions.add(Permission.objects.get(content_type__app_label="core", codename="host_game"))
            # Masters edit the card collection in the admin (FM-4.2).
            user.user_permissions.add(*Permission.objects.filter(content_type__app_label="cards"))
            user = User.objects.get(pk=user.pk)  # drop the cached permissions
        from accounts.models import Profile

        profile, _created = Profile.objects.get_or_create(user=user)  # normally made by accounts.signals
        if not profile.display_name:
            profile.display_name = display_name
            profile.save(update_fields=["display_name"])
        return user

    @staticmethod
    def _verified_email(user) -> None:
        """Mark the e-mail as verified for allauth so that logging in with it works without a confirmation."""
        from allauth.account.models import EmailAddress

        EmailAddress.objects.get_or_create(
            user=user, email=user.email, defaults={"verified": True, "primary": True}
        )

    def _signup_game(self, master, players) -> Game:
        game = services.game_create(
            master=master,
            module=MODULE,
            title=SIGNUP_TITLE,
            description="A demo game waiting for players: log in as player3…player6 and sign up.",
            options={"rounds": 3},
            durations={"round": ROUND_SECONDS},
        )
        game = services.game_open_signup(game=game, actor=master)
        for user, (_name, display) in zip(players[:2], PLAYERS[:2], strict=True):
            services.seat_join(game=game, user=user, display_name=display)
        return game

    def _running_game(self, master, players) -> Game:
        game = services.game_create(
            master=master,
            module=MODULE,
            title=RUNNING_TITLE,
            description=(
                f"A running demo game: a round ends every {ROUND_SECONDS} seconds and is resolved by the Celery "
                "worker. Log in as a player and order a number from 0 to 9 (0 kills your seat)."
            ),
            options={"rounds": ROUNDS},
            durations={"round": ROUND_SECONDS},
        )
        game = services.game_open_signup(game=game, actor=master)
        for user, (_name, display) in zip(players, PLAYERS, strict=True):
            services.seat_join(game=game, user=user, display_name=display)
        phase = services.game_start(game=game, actor=master)
        for number, user in enumerate(players[:4], start=3):
            services.order_submit(phase=phase, user=user, payload={"number": number})
        services.post_create(game=game, user=master, body="Welcome to the demo game. Rounds last two minutes.")
        return game

    def _cards_game(self, master, players) -> Game | None:
        """A card game in its deck-building stage (needs the ``cardtest`` developer module)."""
        try:
            registry.get("cardtest")
        except registry.UnknownModule:
            return None
        game = services.game_create(
            master=master, module="cardtest", title=CARDS_TITLE,
            description="Deck building (FM-4.3, FM-4.5): open “Deck builder”, build and submit a deck. "
                        "At the deadline every player gets his deck shuffled and draws 6 cards.",
            options={"roles": CARD_ROLES}, durations={"deckbuilding": 3600, "night": 3600, "day": 3600},
        )
        game = services.game_open_signup(game=game, actor=master)
        for user, (_name, display) in zip(players, PLAYERS, strict=True):
            services.seat_join(game=game, user=user, display_name=display)
        services.game_start(game=game, actor=master)
        return game

    def _forum_mafia_game(self, master, players) -> Game:
        """A real forum Mafia game with open signups (FM-2): four players have claimed public roles; two more can
        sign up, and the master can start it (deck building, then Night 1)."""
        from gm.modules.forum_mafia.services.signup import signup_create

        game = services.game_create(
            master=master, module="forum_mafia", title=FM_TITLE,
            description="Форумная карточная Мафия. Запишитесь, выбрав явную роль; тайные роли раздаются при старте.",
            options={"hero": False}, durations={"deckbuilding": 3600, "night": 3600, "day": 3600},
        )
        game = services.game_open_signup(game=game, actor=master)
        for user, (_name, display), (role, custom) in zip(players, PLAYERS, FM_SIGNUPS, strict=False):
            signup_create(game=game, user=user, public_role=role or "custom", custom_role=custom,
                          character_name=display, messengers=f"Telegram @{_name}", pledges=True)
        return game

    def _forum_mafia_night(self, master, players) -> Game:
        """A forum Mafia game in Night 1 (FM-5, FM-6): six players signed up, the game started, and the master ended
        deck building at once, so every player got a random valid deck (FM-4.5) and can order cards now; the night
        resolves at its deadline (1 hour) or when the master presses *Resolve now*."""
        from gm.modules.forum_mafia.services.signup import signup_create

        game = services.game_create(
            master=master, module="forum_mafia", title=FM_NIGHT_TITLE,
            description="Форумная карточная Мафия в первой ночи: отдайте приказ картами до дедлайна.",
            options={"hero": False}, durations={"deckbuilding": 3600, "night": 3600, "day": 3600}, rng_seed=2026,
        )
        game = services.game_open_signup(game=game, actor=master)
        for user, (_name, display), (role, custom) in zip(players, PLAYERS, FM_NIGHT_SIGNUPS, strict=True):
            signup_create(game=game, user=user, public_role=role or "custom", custom_role=custom,
                          character_name=display, messengers=f"Telegram @{_name}", pledges=True)
        services.game_start(game=game, actor=master)
        services.phase_resolve_now(game=game, actor=master, reason="Demo: random decks for everyone")
        return game

    def _onuw_night(self, master, players) -> Game:
        """A One Night Ultimate Werewolf game in its night (ON-13) with a week-long deadline: five players, a fixed
        deal (:data:`ONUW_DEAL`) so that each has a night choice — seer, lone werewolf (ON-4.2), robber,
        troublemaker, drunk. The master's *Resolve now* opens the day and its public vote (ON-15)."""
        game = services.game_create(
            master=master, module="onuw", title=ONUW_TITLE,
            description="One Night Ultimate Werewolf: log in as player1…player5, open the game and make your night "
                        "choice; then vote by day.",
            options={"deal": ONUW_DEAL}, rng_seed=2026,
            durations={"night": ONUW_NIGHT_SECONDS, "day": ONUW_NIGHT_SECONDS},
        )
        game = services.game_open_signup(game=game, actor=master)
        for user, (_name, display) in zip(players[:5], PLAYERS[:5], strict=True):
            services.seat_join(game=game, user=user, display_name=display)
        services.game_start(game=game, actor=master)
        return game

    def _print_logins(self) -> None:
        self.stdout.write("")
        self.stdout.write(f"Demo logins (password for all: {PASSWORD}):")
        self.stdout.write(f"  {MASTER[0]:<8}  {MASTER[1]:<12} hosts the demo games; staff, so /admin/ works")
        for name, display in PLAYERS:
            self.stdout.write(f"  {name:<8}  {display:<12} player")
        self.stdout.write(f"Games: “{RUNNING_TITLE}” (a round every {ROUND_SECONDS} s), “{SIGNUP_TITLE}”, "
                          f"“{CARDS_TITLE}”, “{FM_TITLE}”, “{FM_NIGHT_TITLE}” (Night 1: order cards), “{ONUW_TITLE}” "
                          "(player1…player5: make your night choice).")
        self.stdout.write(
            "Forum Mafia runs the whole game: signups, deck building, card play, role abilities, the Veche, the game "
            "thread with private messages and chat rooms, victory. “tally” and “cardtest” are developer test modules "
            "(tests/fake_games/)."
        )
