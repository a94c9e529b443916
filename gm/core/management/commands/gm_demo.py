"""``manage.py gm_demo`` — load the developer demo (idempotent).

Creates, if missing:

* the user ``master`` (staff, so ``/admin/`` works, and granted ``core.host_game`` so it may host games) and the
  players ``player1`` … ``player6``, all with the password ``demo-password-1``, e-mail ``<name>@example.com``
  and a profile display name;
* games created only through the services (:mod:`gm.core.services` and the modules' own) — two of the ``tally``
  module and one of ``cardtest``:

  - “Demo: signup open (tally)” — in signup, ``player1`` and ``player2`` seated;
  - “Demo: running (tally)” — six seats, started, rounds of 120 seconds (30 rounds), so the Celery worker and
    beat visibly resolve a round every two minutes. Four players have already ordered in round 1;

* and every registered game module's demo games (``GameModule.demo_games``: forum Mafia's in signup and in Night 1,
  One Night Ultimate Werewolf's in its night).

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
                      CARDS_TITLE: self._cards_game, **self._module_games(players)}
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
        self._print_logins(list(makers))

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

    @staticmethod
    def _module_games(players) -> dict:
        """``{title: maker(master, players)}`` of every registered game module's demo games
        (``GameModule.demo_games``), the players passed on with their display names."""
        named = list(zip(players, (display for _name, display in PLAYERS), strict=True))
        makers = {}
        for module in registry.all_modules():
            for title, build in module.demo_games().items():
                makers[title] = lambda master, _players, build=build: build(master=master, players=named)
        return makers

    def _print_logins(self, titles: list[str]) -> None:
        self.stdout.write("")
        self.stdout.write(f"Demo logins (password for all: {PASSWORD}):")
        self.stdout.write(f"  {MASTER[0]:<8}  {MASTER[1]:<12} hosts the demo games; staff, so /admin/ works")
        for name, display in PLAYERS:
            self.stdout.write(f"  {name:<8}  {display:<12} player")
        self.stdout.write("Games: " + ", ".join(f"“{title}”" for title in titles) + ".")
        self.stdout.write(
            f"“{RUNNING_TITLE}” resolves a round every {ROUND_SECONDS} s. “tally” and “cardtest” are developer test "
            "modules (tests/fake_games/)."
        )
