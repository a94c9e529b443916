"""The console tests' table (forum Mafia, Night 1 by the master's setup override) and helpers, shared by
``test_console.py``, ``test_console_review.py`` and ``test_console_web.py``: Alice (sheriff) holds a pistol; Boris
(mafia boss) holds one ``tail``, so Alice's pistol kills him; Clara (doctor), Dmitri (mafia killer), Eva (detective)."""
from __future__ import annotations

from gm.core import services
from gm.core.models import AuditEntry, Game, LogEntry, Phase, Seat
from gm.modules.forum_mafia.services.overrides import game_setup_override

NAMES = ["Alice", "Boris", "Clara", "Dmitri", "Eva"]


def build_table(master, make_user):
    """``(game, users by name)``: the table in Night 1."""
    users = {n: make_user(n.lower()) for n in NAMES}
    game = services.game_create(master=master, module="forum_mafia", title="Console", options={}, rng_seed=7)
    spec = {"Alice": ("sheriff", ["pistol", "tail", "tail"]), "Boris": ("mafia_boss", ["tail"]),
            "Clara": ("doctor", ["tail", "coffee"]), "Dmitri": ("mafia_killer", ["tail", "tail"]),
            "Eva": ("detective", ["tail", "tail"])}
    players = [{"user": users[n], "name": n, "public_role": {"custom": f"R{n}"}, "secret_role": spec[n][0],
                "hand": spec[n][1], "sleeve": [], "deck": ["coffee"] * 4} for n in NAMES]
    game_setup_override(game=game, actor=master, players=players, start_kind="night", start_number=1)
    game.refresh_from_db()
    return game, users


def seat(game, name) -> Seat:
    return game.seats.get(display_name=name)


def shoot_boris(game, users):
    """Alice's order: her pistol on Boris. Returns the open night."""
    night = Phase.objects.get(game=game, status=Phase.Status.OPEN)
    services.order_submit(phase=night, user=users["Alice"], payload={
        "plays": [{"card": "pistol", "from": "hand", "target": seat(game, "Boris").pk}]})
    return night


def snapshot(game):
    """Everything an intervention could change, to prove a refusal changed nothing."""
    return (list(Seat.objects.filter(game=game).order_by("pk").values_list("user_id", "alive", "data", "version")),
            Game.objects.get(pk=game.pk).state, LogEntry.objects.filter(game=game).count(),
            AuditEntry.objects.filter(game=game).count(),
            list(Phase.objects.filter(game=game).order_by("pk").values_list("status", "deadline", "held_at")))
