"""The visibility canary audit of every game module: unique strings are planted into one seat's secrets — its
private seat data, a private log line of its own, its current order — into the game state only the master may read
and into the master's audit log; then every URL of the module and every core or shared game URL (the game page,
its API, the console, the cards pages; ``conftest.game_routes``) is fetched by each of the six viewer kinds at each
stage. A canary must reach nobody but those allowed (``allowed``), and — so the audit can't pass by planting in
the wrong place — the master must find every canary somewhere.

Once a game is over everything of it is revealed (``Viewer.revealed``): only the audit log stays the master's.
"""
from __future__ import annotations

import secrets

import pytest
from django.utils import timezone

from tests.contract.conftest import STAGES, VIEWER_KINDS, game_routes, route_urls
from tests.helpers import client_for

pytestmark = pytest.mark.django_db

SEAT_SECRETS = ("seat_data", "private_log", "order")


def plant(table, gm_module) -> dict[str, str]:
    """Plant the canaries of ``table``'s stage; returns kind → canary (a kind the game has no place for is left
    out: no order phase open, no seat)."""
    from gm.core.models import AuditEntry, Game, LogEntry, Order, Phase, Seat

    game = table.game
    canaries = {kind: f"cnr{kind.replace('_', '')}{secrets.token_hex(8)}"
                for kind in ("audit", "state", *SEAT_SECRETS)}
    planted = {}
    AuditEntry.objects.create(game=game, actor=game.master, action="pause", reason=canaries["audit"],
                              created_at=timezone.now())
    planted["audit"] = canaries["audit"]
    if game.is_over:
        return planted
    Game.objects.filter(pk=game.pk).update(state={**(game.state or {}), "contract_canary": canaries["state"]})
    planted["state"] = canaries["state"]
    own = table.seats.get("own_seat")
    if own is None:
        return planted
    own.refresh_from_db()
    Seat.objects.filter(pk=own.pk).update(data={**own.data, "contract_canary": canaries["seat_data"]})
    planted["seat_data"] = canaries["seat_data"]
    template = (LogEntry.objects.filter(game=game, visibility=LogEntry.Visibility.SEAT, seat=own).last()
                or LogEntry.objects.filter(game=game, visibility=LogEntry.Visibility.SEAT).last())
    if template is not None:
        LogEntry.objects.create(game=game, phase=template.phase, visibility=LogEntry.Visibility.SEAT, seat=own,
                                kind=template.kind, data={**template.data, "contract_canary": canaries["private_log"]},
                                created_at=timezone.now())
        planted["private_log"] = canaries["private_log"]
    phase = Phase.objects.filter(game=game, status=Phase.Status.OPEN).first()
    if phase is not None and (phase.actors is None or own.pk in phase.actors):
        last = Order.objects.filter(phase=phase, seat=own).order_by("version").last()
        payload = dict(last.payload or {}) if last is not None and isinstance(last.payload, dict) else {}
        Order.objects.create(phase=phase, seat=own, version=(last.version + 1) if last else 1,
                             payload={**payload, "contract_canary": canaries["order"]},
                             submitted_by=own.user, created_at=timezone.now())
        planted["order"] = canaries["order"]
    game.refresh_from_db()
    return planted


def allowed(kind: str, table, gm_module) -> set[str]:
    """The viewer kinds that may read canary ``kind`` at the table's stage."""
    if kind in ("audit", "state"):
        return {"master"}
    if kind == "order":
        phase = table.game.phases.filter(status="open").first()
        if phase is not None and phase.kind in gm_module.module.public_order_kinds:
            return set(VIEWER_KINDS)
    return {"master", "own_seat"}


def audit(table, gm_module, canaries: dict[str, str], *, names: set[str] | None = None
          ) -> tuple[list[str], dict[str, set[str]], list[str]]:
    """Fetch every route of the game (or those named in ``names``) for every viewer, the master first; a URL that
    answers him 405 (an action: POST only) is not asked again. Returns (leaks, kind → viewer kinds that saw it,
    server errors)."""
    leaks, seen, errors = [], {kind: set() for kind in canaries}, []
    urls = [u for r in game_routes(gm_module) if names is None or r.name in names for u in route_urls(r, table.game)]
    viewers = sorted(table.users().items(), key=lambda item: item[0] != "master")
    for viewer, user in viewers:
        client = client_for(user)
        client.raise_request_exception = False
        for url in list(urls):
            response = client.get(url)
            if response.status_code == 405 and viewer == "master":
                urls.remove(url)
                continue
            if response.status_code >= 500:
                errors.append(f"{viewer} {url}: {response.status_code}")
                continue
            if response.streaming:
                continue
            text = response.content.decode(errors="replace")
            for kind, canary in canaries.items():
                if canary in text:
                    seen[kind].add(viewer)
                    if viewer not in allowed(kind, table, gm_module):
                        leaks.append(f"{kind} → {viewer} at {url}")
    return leaks, seen, errors


@pytest.mark.parametrize("stage", STAGES)
def test_contract_no_secret_reaches_another_viewer(gm_module, stage, table_at):
    table = table_at(gm_module, stage)
    canaries = plant(table, gm_module)
    leaks, seen, errors = audit(table, gm_module, canaries)
    assert not errors, f"{gm_module} {stage}: server errors: {errors[:20]}"
    assert not leaks, f"{gm_module} {stage}: secrets leaked: {leaks[:40]}"
    unseen = [kind for kind in canaries if kind != "state" and "master" not in seen[kind]]
    assert not unseen, f"{gm_module} {stage}: the master found these canaries nowhere: {unseen}"


def test_contract_the_audit_finds_a_planted_leak(gm_module, table_at):
    """Self-test: a seat secret planted where everyone reads it (the seat's public name) is reported as a leak."""
    from gm.core.models import Seat

    table = table_at(gm_module, "running")
    canaries = plant(table, gm_module)
    own = table.seats["own_seat"]
    Seat.objects.filter(pk=own.pk).update(display_name=f"Own {canaries['seat_data']}")
    leaks, _seen, _errors = audit(table, gm_module, canaries, names={"gm:game", "game-seats"})
    leaked_to = {leak.split(" at ")[0] for leak in leaks}
    assert {"seat_data → anonymous", "seat_data → other_seat", "seat_data → outsider"} <= leaked_to, leaks[:10]
