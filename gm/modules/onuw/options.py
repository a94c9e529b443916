"""ONUW's order options (``OnuwModule.order_options``, ``GET /api/games/<id>/order-options/``): every legal order of
the caller's seat in the open phase as a whole payload — the doppelganger's copy (ON-4.1, ON-14), the night choice
of the role he acts as (ON-4.2 lone wolf, ON-4.5 seer, ON-4.6 robber, ON-4.7 troublemaker, ON-4.8 drunk), the day
vote (ON-6) — in the core's shape (``phase``, ``kind``, ``can_order``, ``why_not``, ``targets``, ``choices``).

Only what the seat may know goes out: the choices follow from his own card (and his own copy), which he was told.
"""
from __future__ import annotations

from itertools import combinations

from django.utils.translation import gettext as _

from gm.core.models import Game, Phase
from gm.core.services import ServiceError

from . import engine


def _center(ref: str) -> str:
    return ref.removeprefix("center")


def order_options(*, game: Game, viewer) -> dict:
    """The caller's legal orders now. Raises :class:`ServiceError` ``forbidden`` (no seat), ``not_allowed`` (a
    dead seat) or ``state`` (no phase open for orders)."""
    if viewer.seat is None:
        raise ServiceError(_("You have no seat in this game."), code="forbidden")
    if not viewer.seat.alive:
        raise ServiceError(_("Dead players give no orders."), code="not_allowed")
    phase = game.phases.filter(status=Phase.Status.OPEN).first() if not game.is_over else None
    if phase is None:
        raise ServiceError(_("No phase is open for orders now."), code="state")
    seats = list(game.seats.order_by("position"))
    order = [str(s.pk) for s in seats]
    sid = str(viewer.seat.pk)
    names = {str(s.pk): s.display_name for s in seats}
    others = [s for s in seats if str(s.pk) != sid]
    state = game.state
    choices: list[dict] = []

    def add(key: str, label: str, payload: dict) -> None:
        choices.append({"key": key, "label": label, "payload": payload})

    if phase.kind == "doppelganger" and state["dealt"].get(sid) == "doppelganger":
        for s in others:
            add(f"copy:{s.pk}", _("Copy %(name)s") % {"name": s.display_name}, {"copy": s.pk})
    elif phase.kind == "night":
        choice = engine.night_choice(state, sid, order)
        if choice == "lone_wolf":
            for c in engine.CENTER:
                add(f"look:{c}", _("Look at center card %(n)s") % {"n": _center(c)}, {"look": [c]})
        elif choice == "seer":
            for s in others:
                add(f"look:{s.pk}", _("Look at the card of %(name)s") % {"name": s.display_name}, {"look": [s.pk]})
            for a, b in combinations(engine.CENTER, 2):
                add(f"look:{a}+{b}", _("Look at center cards %(a)s and %(b)s") % {"a": _center(a), "b": _center(b)},
                    {"look": [a, b]})
        elif choice == "robber":
            for s in others:
                add(f"swap_with:{s.pk}", _("Swap your card with %(name)s") % {"name": s.display_name},
                    {"swap_with": s.pk})
        elif choice == "troublemaker":
            for a, b in combinations(others, 2):
                add(f"swap:{a.pk}+{b.pk}", _("Swap %(a)s and %(b)s") % {"a": a.display_name, "b": b.display_name},
                    {"swap": [a.pk, b.pk]})
        elif choice == "drunk":
            for c in engine.CENTER:
                add(f"take:{c}", _("Take center card %(n)s") % {"n": _center(c)}, {"take": c})
    elif phase.kind == "day":
        for s in others:
            add(f"vote:{s.pk}", _("Vote for %(name)s") % {"name": s.display_name}, {"vote": s.pk})
    return {
        "phase": phase.pk,
        "kind": phase.kind,
        "can_order": bool(choices),
        "why_not": "" if choices else _("Nothing to choose in this phase."),
        "targets": [{"id": s.pk, "name": names[str(s.pk)]} for s in others],
        "choices": choices,
    }
