"""In-process bot games for the community tests: ONUW tables played through the site's services (signup, start,
orders from the module's own order options, the master's replacements, kills and aborts, resolution at the
deadline), with an explicit clock that only moves forward, so tenures and resolutions are ordered as in life."""
from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from gm.core import interventions, services, visibility
from gm.core.models import Game, Phase
from gm.core.registry import get

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def play_onuw(*, master, pool, rng: random.Random, start: datetime, replace_p: float = 0.15, kill_p: float = 0.12,
              abort_p: float = 0.03, order_p: float = 0.8) -> tuple[Game, datetime]:
    """Play one ONUW game of 3–7 players drawn from ``pool`` (users) to its end (or an abort) and return it with
    the clock after it. Each living seat orders with probability ``order_p`` (a random legal choice); before each
    resolution the master may replace a seat by a user of ``pool`` not in the game, kill one, or abort."""
    module = get("onuw")
    n = rng.randint(3, 7)
    players = rng.sample(pool, n)
    game = services.game_create(master=master, module="onuw", title="Bot table", rng_seed=rng.getrandbits(40))
    services.game_open_signup(game=game, actor=master)
    for i, user in enumerate(players):
        services.seat_join(game=game, user=user, display_name=f"Bot{i}")
    now = start
    services.game_start(game=game, actor=master, clock=lambda now=now: now)
    while True:
        game = Game.objects.get(pk=game.pk)
        if game.is_over:
            return game, now
        phase = Phase.objects.get(game=game, status=Phase.Status.OPEN)
        now = phase.opens_at + timedelta(minutes=5)
        at = now
        for seat in game.seats.filter(alive=True).select_related("user"):
            if rng.random() >= order_p:
                continue
            viewer = visibility.viewer_for(seat.user, game)
            try:
                choices = (module.order_options(game=game, viewer=viewer) or {}).get("choices") or []
            except services.ServiceError:
                choices = []
            if choices:
                services.order_submit(phase=phase, user=seat.user, payload=rng.choice(choices)["payload"],
                                      clock=lambda at=at: at)
        roll = rng.random()
        now += timedelta(minutes=5)
        at = now
        if roll < abort_p:
            services.game_abort(game=game, actor=master, reason="bots", clock=lambda at=at: at)
            return Game.objects.get(pk=game.pk), now
        if roll < abort_p + replace_p:
            seated = set(game.seats.values_list("user_id", flat=True))
            free = [u for u in pool if u.pk not in seated]
            living = list(game.seats.filter(alive=True))
            if free and living:
                interventions.seat_replace_player(game=game, actor=master, seat_id=rng.choice(living).pk,
                                                  user=rng.choice(free), reason="bots", clock=lambda at=at: at)
        elif roll < abort_p + replace_p + kill_p:
            living = list(game.seats.filter(alive=True))
            if len(living) > 2:
                interventions.seat_set_alive(game=game, actor=master, seat_id=rng.choice(living).pk, alive=False,
                                             reason="bots", clock=lambda at=at: at)
        phase = Phase.objects.get(pk=phase.pk)
        if phase.status != Phase.Status.OPEN:
            continue
        due = phase.deadline + timedelta(seconds=1)
        services.phase_resolve_due(phase_id=phase.pk, clock=lambda due=due: due)
        now = due


def play_many(*, master, pool, games: int, seed: int) -> dict[str, int]:
    """Play ``games`` bot games one after another; returns how many ended ``finished`` and ``aborted``."""
    rng = random.Random(seed)
    now = T0
    ends = {"finished": 0, "aborted": 0}
    for _i in range(games):
        game, now = play_onuw(master=master, pool=pool, rng=rng, start=now + timedelta(minutes=1))
        ends[game.status] = ends.get(game.status, 0) + 1
    return ends
