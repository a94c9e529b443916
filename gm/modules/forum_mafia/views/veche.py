"""The Veche (FM-7) in the shell: the public count and vote history, the vote panel, and their API.

* :func:`public_votes` is the **only** reader of other players' orders here, and it reads nothing of an order but its
  ``vote`` part (the database extracts ``payload -> vote``; plays, discards, abilities and room proposals never leave
  it). From it come the live public count (``veche.tally``, the engine's own count, FM-7.1–7.4), the public list of
  every vote change of the day and the count at any moment of the day (``at``), replayable. Secret things stay out:
  ``negotiation`` (§11, a secret card) counts in the result only, and the maniac's card to keep if jailed (FM-7.5) is
  never shown. After the day the engine's public result (the ``fm.veche`` log entry, negotiation included) is added.
* :func:`veche_panel` is what ``forum_mafia/_veche.html`` shows: the count to everyone (master, players, the dead,
  spectators, anonymous visitors), and to a living character in an open day his vote form (a living character or
  peace, FM-7.1; the punishment, FM-7.2; the prosecutor's one-time +2, FM-7.3; the maniac's card to keep, FM-7.5;
  the sociopath is not offered on Day 1, FM-7.6) with his current vote.
* Views: ``GET /games/<id>/fm/veche/`` (the panel; ``?part=count`` only the count, which htmx polls every 30 s;
  ``?at=<ISO time>`` the count at that moment; ``?day=N`` an earlier day), ``POST`` the same URL (vote, or
  ``action=withdraw``; no JavaScript: back to the game page, PRG). API: ``GET /api/games/<id>/veche/`` and ``POST
  /api/games/<id>/veche/vote/``. Votes are stored by ``services.vote_submit`` (a part of the day's order).
"""
from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.template import engines
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from cards.containers import Containers
from cards.services import card_namer, collection_for_game
from gm.core import page_memo, visibility
from gm.core import services as core_services
from gm.core.engine import SeatInfo
from gm.core.forms import posted_version
from gm.core.models import Game, LogEntry, Order, Phase, Seat
from gm.core.services import ServiceError
from gm.core.web import game_or_404

from ..engine import abilities, veche
from ..engine.state import DAY, ROLE_PROVENANCES
from ..services import signup as services
from ..texts import describe_vote, public_role_name, punishment_name

MODULE = "forum_mafia"
#: How often the live count refreshes itself (htmx polling), in seconds.
POLL_SECONDS = 30
_PAGE = engines["django"].from_string(
    '{% extends "base.html" %}{% block content %}{% include "forum_mafia/_veche.html" %}{% endblock %}')


# == selectors ======================================================================================================


def number(value: float) -> str:
    """A vote strength as people write it: ``2``, ``1.5``."""
    return f"{value:g}"


def veche_phase(game: Game, day: int | None = None) -> Phase | None:
    """The day whose Veche is shown: day ``day`` if given, else the day in progress, else the last day (at night
    the count and result of the day before); ``None`` before Day 1."""
    days = game.phases.filter(kind=DAY)
    if day is not None:
        return days.filter(number=day).first()
    return page_memo.last_phase(game, DAY)


def _public_vote(vote: Any) -> dict | None:
    """The public face of a stored vote (FM-7.1: who, for whom, which punishment, the declared +2); never ``keep``
    (the maniac's card, FM-7.5)."""
    if not isinstance(vote, Mapping) or vote.get("for") is None:
        return None
    out = {"for": vote["for"], "punishment": vote.get("punishment") if vote["for"] != veche.PEACE else None,
           "prosecutor_bonus": bool(vote.get("prosecutor_bonus"))}
    return out


def _seats(phase: Phase) -> list[SeatInfo]:
    """The characters as the day saw them (ids, names, ring order, alive, public role — nothing secret): the
    resolution's input snapshot once the day is resolved, else the seats now."""
    if phase.status != Phase.Status.RESOLVED:
        stored = None
    elif page_memo.active():  # the game page: loaded with the other panels' snapshots
        stored = page_memo.seat_snapshots(phase.game_id, [phase.pk])[phase.pk]
    else:
        stored = (phase.state or {}).get("seats")
    if stored:
        rows = [(s["id"], s["name"], s["position"], s["alive"], (s.get("data") or {}).get("public_role"))
                for s in stored]
    elif page_memo.active():  # the game page: its one load of the seats
        rows = [(s.pk, s.display_name, s.position, s.alive, (s.data or {}).get("public_role"))
                for s in page_memo.seats(phase.game)]
    else:
        rows = list(Seat.objects.filter(game_id=phase.game_id).order_by("position")
                    .values_list("pk", "display_name", "position", "alive", "data__public_role"))
    return [SeatInfo(id=pk, name=name, position=pos, alive=alive, data={"public_role": role})
            for pk, name, pos, alive, role in rows]


def public_votes(phase: Phase, at: datetime | None = None) -> dict:
    """The public Veche of the day ``phase`` (FM-7.1–7.4) at the moment ``at`` (default: now / the deadline), from
    the ``vote`` part of each seat's order versions **only**:

    ``{"phase": id, "day": n, "label", "open": bool, "at": datetime | None,
    "tally": {"votes": [{"voter", "for", "punishment", "prosecutor_bonus", "strength"}] (ring order),
    "candidates": [{"player", "strength", "voters"}] (most first, ties by hanging priority), "peace", "cast",
    "leader": name | None, "punishment", "outcome"},
    "history": [{"at", "voter", "for" (a name, "peace", or None: the vote was taken back), "punishment",
    "prosecutor_bonus", "strength"}] (every change up to ``at``, oldest first), "times": [every change time],
    "result": {"text", "outcome", "leader", "punishment", "peace", "cast", "candidates"} | None}``.

    The count is the engine's (``veche.tally``) over the last version of each living character at ``at``, without
    the secret ``negotiation`` bonus; ``result`` is the engine's public outcome once the day is resolved."""
    seats = _seats(phase)
    by_id = {s.id: s for s in seats}
    alive = {s.id for s in seats if s.alive}
    shared = page_memo.phase_orders(phase)  # the game page: one load of the phase's orders (only votes read here)
    rows = ([(o.seat_id, o.created_at, o.payload.get("vote") if isinstance(o.payload, Mapping) else None)
             for o in shared] if shared is not None else
            Order.objects.filter(phase_id=phase.pk).order_by("created_at", "id")
            .values_list("seat_id", "created_at", "payload__vote"))
    last: dict[int, dict | None] = {}
    counted: dict[int, dict] = {}  # the count at ``at``: the changes up to then, replayed
    history: list[dict] = []
    times: list[datetime] = []
    for seat_id, created, raw in rows:
        vote = _public_vote(raw)
        if seat_id not in by_id or vote == last.get(seat_id):
            continue  # not a vote change (the cards were saved, the maniac's keep changed…)
        last[seat_id] = vote
        times.append(created)
        if at is not None and created > at:
            continue
        target = None if vote is None else vote["for"]
        if vote is None or (target != veche.PEACE and target not in alive):
            counted.pop(seat_id, None)  # taken back, or for someone who has left the game since (L0 drops it)
        else:
            counted[seat_id] = vote
        voter = by_id[seat_id]
        history.append({
            "at": created, "voter": voter.name,
            "for": veche.PEACE if target == veche.PEACE else (by_id[target].name if target in by_id else None),
            "punishment": vote["punishment"] if vote else None,
            "prosecutor_bonus": bool(vote and vote["prosecutor_bonus"]),
            "strength": veche.strength(voter, vote) if vote else 0.0,
        })
    count = veche.tally(seats=seats, votes=counted)
    bonus = {s: v["prosecutor_bonus"] for s, v in counted.items()}
    tally = {
        "votes": [{"voter": r["voter"], "for": r["for"], "punishment": r["punishment"] if r["for"] != veche.PEACE
                   else None, "prosecutor_bonus": bonus.get(r["seat"], False), "strength": r["strength"]}
                  for r in count["votes"]],
        "candidates": [{"player": c["player"], "strength": c["strength"], "voters": c["voters"]}
                       for c in count["candidates"]],
        "peace": count["peace"], "cast": count["cast"],
        "leader": by_id[count["leader"]].name if count["leader"] is not None else None,
        "punishment": count["punishment"], "outcome": count["outcome"],
    }
    return {"phase": phase.pk, "day": phase.number, "label": phase.label,
            "open": phase.status != Phase.Status.RESOLVED, "at": at, "tally": tally, "history": history,
            "times": sorted(set(times)), "result": _result(phase), "standing": standing(count, seats)}


def _role_name(seat: SeatInfo) -> str:

    return public_role_name(seat.data.get("public_role"))


def standing(count: Mapping[str, Any], seats: list[SeatInfo]) -> list[str]:
    """Why the public count ``count`` (``veche.tally``) stands as it does, in the active language: the rule in force
    for a tie of the leaders (FM-7.4, hanging priority, each tied character's public role named), for a tie of the
    punishments (FM-7.2: jail), for peace and for two characters left (FM-7.4), for the politician (FM-7.6)."""
    by_id = {s.id: s for s in seats}

    def name(seat_id: int) -> str:
        return by_id[seat_id].name if seat_id in by_id else "?"

    lines = []
    for code, p in veche.explain(count, seats):
        if code == "peace":
            lines.append(_("Peace has a strict majority (%(peace)s of %(cast)s): nobody is punished (FM-7.4).")
                         % {"peace": number(p["peace"]), "cast": number(p["cast"])})
        elif code == "two_alive":
            lines.append(_("Only two characters are alive: the Veche punishes nobody (FM-7.4)."))
        elif code == "peace_half":
            lines.append(_("Peace has exactly half (%(peace)s of %(cast)s), not a strict majority: the leader is "
                           "punished (FM-7.4).") % {"peace": number(p["peace"]), "cast": number(p["cast"])})
        elif code == "tie":
            order = " → ".join(f"{name(s)} ({_role_name(by_id[s])})" if s in by_id else "?" for s in p["players"])
            lines.append(_("Tie at %(strength)s: the hanging priority decides (FM-7.4) — the order of the public "
                           "roles' list (FM-8), custom roles after it alphabetically: %(order)s. %(leader)s leads.")
                         % {"strength": number(p["strength"]), "order": order, "leader": name(p["players"][0])})
        elif code == "leads":
            lines.append(_("%(leader)s leads with %(strength)s (FM-7.4).")
                         % {"leader": name(p["player"]), "strength": number(p["strength"])})
        elif code == "punishment_tie":
            lines.append(_("Execution and jail are tied at %(strength)s: a tie means jail (FM-7.2).")
                         % {"strength": number(p["strength"])})
        elif code == "punishment":
            lines.append(_("Punishment: %(punishment)s (execution %(execution)s, jail %(jail)s; FM-7.2).")
                         % {"punishment": punishment_name(p["punishment"]), "execution": number(p["execution"]),
                            "jail": number(p["jail"])})
        elif code == "politician":
            lines.append(_("%(leader)s is the politician: the first time he leads he goes to jail instead of "
                           "execution (FM-7.6).") % {"leader": name(p["player"])})
    return lines


def _result(phase: Phase) -> dict | None:
    """The engine's public outcome of the day (FM-7.4–7.6; negotiation included), from its ``fm.veche`` log entry."""
    if phase.status != Phase.Status.RESOLVED:
        return None
    known, entry = page_memo.public_entry(phase, "fm.veche")  # the game page has the whole log at hand
    if not known:
        entry = LogEntry.objects.filter(phase=phase, kind="fm.veche", visibility=LogEntry.Visibility.PUBLIC) \
            .select_related("game").defer("game__state").first()
    if entry is None:
        return None
    data = entry.data or {}
    return {"text": entry.text(), "outcome": data.get("outcome"), "leader": data.get("leader"),
            "punishment": data.get("punishment"), "peace": data.get("peace", 0.0), "cast": data.get("cast", 0.0),
            "candidates": [{"player": c.get("player"), "strength": c.get("strength"), "voters": c.get("voters", [])}
                           for c in data.get("candidates") or []]}


#: The moments ``?at=`` accepts. Outside them a time can't be shown back in the viewer's time zone: before its
#: standard offsets (e.g. Moscow's local mean time +02:30:17, not an ISO 8601/RFC 3339 offset) or past year 9999.
AT_RANGE = (datetime(2000, 1, 1, tzinfo=UTC), datetime(3000, 1, 1, tzinfo=UTC))


def parse_at(raw: str | None) -> datetime | None:
    """``?at=`` as an aware datetime (ISO 8601; a naive time is taken in the site's time zone) within
    :data:`AT_RANGE`. Raises :class:`ServiceError` ``invalid`` for anything else."""
    if not raw:
        return None
    moment = None
    try:
        moment = parse_datetime(raw.strip().replace(" ", "+"))
        if moment is not None and timezone.is_naive(moment):
            moment = timezone.make_aware(moment)
    except (ValueError, OverflowError):
        moment = None
    if moment is None:
        raise ServiceError({"at": [_("Give the moment as an ISO 8601 time, e.g. 2026-01-01T12:30:00+00:00.")]})
    if not AT_RANGE[0] <= moment < AT_RANGE[1]:
        raise ServiceError({"at": [_("Give a moment between the years 2000 and 2999.")]})
    return moment


def voting_phase(game: Game, phase_id: Any) -> Phase:
    """The day a vote form or API body names (``phase_id``; ``services.phase_named``: ``invalid`` when missing or
    unknown, ``stale`` — "Day 1 has ended; Night 2 is open now — your vote was not saved" — when it has ended; the
    deadline is the core's check). :class:`ServiceError` ``state`` when it is not a day of a running game."""
    phase = core_services.phase_named(game=game, phase_id=phase_id, subject="vote")
    if game.is_over or phase.kind != DAY:
        raise ServiceError(_("No day is open: the Veche votes by day (FM-7.1)."), code="state")
    return phase


def _vote_form(game: Game, phase: Phase, seat: Seat, vote: Mapping[str, Any] | None) -> dict:
    """The vote form's choices for ``seat`` (a living character) with his current ``vote`` selected."""
    vote = vote or {}
    seats = page_memo.seats(game)
    chosen = vote.get("for")
    targets = [{"id": s.pk, "name": s.display_name + (" " + _("(you)") if s.pk == seat.pk else ""),
                "selected": chosen == s.pk}
               for s in seats if s.alive and not (phase.number == 1 and (s.data or {}).get("public_role")
                                                  == "sociopath")]  # FM-7.6
    hidden = [s.display_name for s in seats if s.alive and phase.number == 1
              and (s.data or {}).get("public_role") == "sociopath"]
    form: dict[str, Any] = {
        "targets": targets, "peace": chosen == veche.PEACE, "none": chosen is None, "sociopaths": hidden,
        "punishments": [{"value": p, "name": punishment_name(p),
                         "checked": (vote.get("punishment") or veche.EXECUTION) == p} for p in veche.PUNISHMENTS],
    }
    data = seat.data or {}
    if data.get("public_role") == "prosecutor":  # FM-7.3: once per game, declared with the vote
        spent = "prosecutor" in abilities.used(game.state.get("fm") or {}, seat.pk)
        form["prosecutor"] = {"available": not spent, "checked": bool(vote.get("prosecutor_bonus"))}
    if data.get("secret_role") == "maniac":  # FM-7.5: the maniac keeps one more Sleeve card of his choice in jail
        name = card_namer(collection_for_game(game))
        box = Containers.from_dict(data.get("cards"))
        keep = vote.get("keep")
        form["keep"] = [{"uid": c.uid, "name": name(c.kind), "selected": keep in (c.uid, c.kind)}
                        for c in box.sleeve if c.kind != "ace" and c.provenance not in ROLE_PROVENANCES]
    return form


def veche_panel(*, game: Game, viewer: visibility.Viewer, at: datetime | None = None, day: int | None = None,
                notice: str = "", errors: list[str] | None = None, full_page: bool = False) -> dict:
    """Everything ``forum_mafia/_veche.html`` shows ``viewer``: the public count and history of the day
    (:func:`public_votes`, the same for every viewer), and for a living character in the open day his vote form
    and current vote. ``{}`` before Day 1."""
    phase = veche_phase(game, day)
    if phase is None:
        return {}
    count = public_votes(phase, at)
    seat = viewer.seat
    names = page_memo.seat_names(game)
    panel: dict[str, Any] = {
        "game": game, "phase": phase, "count": count, "at": at, "notice": notice, "errors": errors or [],
        "full_page": full_page, "poll": count["open"] and at is None, "poll_seconds": POLL_SECONDS,
        "day": day, "times": [{"iso": t.isoformat(), "at": t, "selected": at is not None and t == at}
                              for t in count["times"]],
    }
    now = timezone.now()
    accepting = (count["open"] and phase.status == Phase.Status.OPEN and not game.is_over
                 and (phase.deadline > now or game.paused_at is not None))
    if seat is not None and seat.alive and count["open"] and not game.is_over and day is None:
        versions = visibility.own_orders(viewer, phase)  # FM-5.6: the latest version counts
        latest = versions[-1].payload if versions else None
        own = (latest if isinstance(latest, Mapping) else {}).get("vote")
        panel["current"] = describe_vote(own, names) if own else None
        if accepting and not abilities.has_left(game.state.get("fm") or {}, seat.pk):
            panel["form"] = _vote_form(game, phase, seat, own)
            panel["form"]["version"] = versions[-1].version if versions else 0
        else:
            panel["closed"] = _("The deadline has passed: the count is final.")
    elif seat is not None and not seat.alive and count["open"]:
        panel["closed"] = _("Dead characters do not vote in the Veche (FM-6.2).")
    return panel


# == pages ==========================================================================================================



def int_or_none(raw: Any) -> int | None:
    raw = str(raw or "")
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 19 else None


def _render(request, panel: dict, *, status: int = 200, oob_orders: bool = False) -> HttpResponse:
    game = panel.get("game")
    if request.htmx:
        html = render_to_string("forum_mafia/_veche.html", {"v": panel, "game": game}, request=request)
        if oob_orders:  # the order changed: its panel (versions, description) is swapped out of band
            from .orders import order_panel

            orders = order_panel(game=game, viewer=visibility.viewer_for(request.user, game))
            html += render_to_string("forum_mafia/_orders.html", {"o": orders, "game": game, "oob": True},
                                     request=request)
        return HttpResponse(html, status=status)
    return HttpResponse(_PAGE.render({"v": {**panel, "full_page": True}, "game": game}, request), status=status)


def _back(game: Game) -> HttpResponseRedirect:
    return HttpResponseRedirect(game.get_absolute_url() + "#fm-veche")


@require_http_methods(["GET", "POST"])
def panel(request, pk: int):
    """The Veche panel (FM-7). GET, for anyone who may see the game: the panel (the htmx partial, else a page of its
    own); ``?part=count`` only the public count (what htmx polls); ``?at=<ISO time>`` the count and history at that
    moment; ``?day=N`` another day. POST (a living character, logged in): ``for`` (a seat id or ``peace``),
    ``punishment``, ``prosecutor_bonus``, ``keep`` through ``services.vote_submit``, or ``action=withdraw``
    (``services.vote_withdraw``); without htmx back to the game page (PRG), a refused vote shows the panel with the
    reasons (status 400)."""
    game = game_or_404(request.user, pk, module=MODULE)
    viewer = visibility.viewer_for(request.user, game)
    if request.method == "GET":
        errors: list[str] = []
        try:
            at = parse_at(request.GET.get("at"))
        except ServiceError as exc:
            at, errors = None, [m for msgs in exc.errors.values() for m in msgs]
        v = veche_panel(game=game, viewer=viewer, at=at, day=int_or_none(request.GET.get("day")), errors=errors)
        if request.GET.get("part") == "count" and request.htmx:
            if not v:
                return HttpResponse("")
            return render(request, "forum_mafia/_veche_count.html", {"v": v, "game": game})
        return _render(request, {**v, "game": game})
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    post = request.POST
    try:
        phase = voting_phase(game, post.get("phase"))
        base_version = posted_version(post)
        if post.get("action") == "withdraw":
            services.vote_withdraw(phase=phase, user=request.user, base_version=base_version)
            notice = _("Your vote is taken back.")
        else:
            target = post.get("for", "")
            if target != veche.PEACE and int_or_none(target) is None:
                raise ServiceError({"vote.for": [_("Choose a living character or peace.")]})
            services.vote_submit(
                phase=phase, user=request.user, target=None if target == veche.PEACE else int_or_none(target),
                punishment=post.get("punishment") or veche.EXECUTION,
                prosecutor_bonus=bool(post.get("prosecutor_bonus")), keep=int_or_none(post.get("keep")),
                base_version=base_version)
            notice = _("Your vote is counted. You can change it until the deadline.")
    except ServiceError as exc:
        problems = [m for msgs in exc.errors.values() for m in msgs]
        # Before Day 1 there is no panel to show, but the refusal still says why (FM-7.1).
        v = veche_panel(game=game, viewer=viewer, errors=problems) or {"errors": problems}
        return _render(request, {**v, "game": game}, status=200 if request.htmx else 400)
    if request.htmx:
        return _render(request, {**veche_panel(game=game, viewer=viewer, notice=notice), "game": game},
                       oob_orders=True)
    messages.success(request, notice)
    return _back(game)
