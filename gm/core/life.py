"""What the pages show of the forum life features (issue 23 items 1–4): the player's own panel on the game page,
the master's part of the console, the away badges. Read-only selectors over the services' rows; every query count
here is fixed (it does not grow with the number of phases or seats)."""
from __future__ import annotations

from datetime import datetime
from typing import Any

from . import visibility
from .life_forms import (
    ActivityOptionsForm,
    ReplacementRequestForm,
    RequestAckForm,
    SeatFlagForm,
    VolunteerApproveForm,
)
from .models import Game
from .models_life import SeatStatus
from .services import activity, extensions, replacements, vacations

LIVE = (Game.Status.SETUP, Game.Status.RUNNING)


def mark_away(game: Game, rows: list[dict], now: datetime) -> list[dict]:
    """The seats table's rows (``spectator.seat_rows``) each with ``away_until`` (the last day its player declared
    himself away, when he is away today; ``None`` otherwise). One query."""
    away = vacations.away_seat_ids(game, now) if rows else {}
    for row in rows:
        row["away_until"] = away.get(row["id"])
    return rows


def player_panel(viewer: visibility.Viewer) -> dict[str, Any] | None:
    """The viewer's own forum-life panel on the game page (his seat only, while the game runs): whether he has
    confirmed his role, his replacement request, his automatic extensions left. ``None`` for anyone else."""
    game = viewer.game
    if viewer.seat is None or viewer.is_master or game.status not in LIVE:
        return None
    seat = viewer.seat
    # The page's seats come with their activity row and their live request's id (page_memo.seats): no query for
    # a player who has neither.
    if "status" in seat._state.fields_cache:
        row = seat._state.fields_cache["status"]
    else:
        row = SeatStatus.objects.filter(seat=seat).first()
    if hasattr(seat, "open_request_id"):
        request = replacements.own_request(game, seat) if seat.open_request_id else None
    else:
        request = replacements.own_request(game, seat)
    return {
        "role_read": row.role_read_at if row is not None else None,
        "request": request,
        "request_form": ReplacementRequestForm(auto_id="replace-me-%s"),
        "tokens_left": extensions.tokens_left(game, seat, status=row),
        "alive": viewer.seat.alive,
    }


def console_part(game: Game, seats: list) -> dict[str, Any]:
    """The master's part of the console: the activity options form, each seat's status (role read, prodded,
    flagged, extensions spent), the replacement requests, the volunteers and each tenure's record."""
    options = activity.game_activity_options(game)
    statuses = activity.activity_rows(game)
    return {
        "options": options,
        "options_form": ActivityOptionsForm(initial=options, auto_id="activity-%s"),
        "seats": [{"seat": s, "status": statuses.get(s.pk, {}),
                   "flag_form": SeatFlagForm(initial={"seat": s.pk,
                                                      "flagged": "0" if statuses.get(s.pk, {}).get("flagged")
                                                      else "1"}, auto_id=f"flag-{s.pk}-%s")}
                  for s in seats],
        "unread_roles": [s.display_name for s in seats if not statuses.get(s.pk, {}).get("role_read")],
        "requests": [{"request": r, "form": RequestAckForm(initial={"request": r.pk}, auto_id=f"ack-{r.pk}-%s")}
                     for r in replacements.requests_for(game)],
        "volunteers": [{"volunteer": v, "name": replacements.user_name(v.user),
                        "form": VolunteerApproveForm(initial={"volunteer": v.pk}, auto_id=f"approve-{v.pk}-%s")}
                       for v in replacements.volunteers_for(game)],
        "tenures": replacements.tenure_records(game) if game.status != Game.Status.SIGNUP else [],
        "live": game.status in LIVE,
    }
