"""Reads of the Veche (FM-7): the public count and vote history of a day, and the parsing of what names a day
or a moment of it. Shared by the page (:mod:`..views.veche`) and the API (:mod:`..api.veche`).

* :func:`public_votes` is the **only** reader of other players' orders here, and it reads nothing of an order but its
  ``vote`` part (the database extracts ``payload -> vote``; plays, discards, abilities and room proposals never leave
  it). From it come the live public count (``veche.tally``, the engine's own count, FM-7.1–7.4), the public list of
  every vote change of the day and the count at any moment of the day (``at``), replayable. Secret things stay out:
  ``negotiation`` (§11, a secret card) counts in the result only, and the maniac's card to keep if jailed (FM-7.5) is
  never shown. After the day the engine's public result (the ``fm.veche`` log entry, negotiation included) is added.
"""
from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from gm.core import page_memo
from gm.core import services as core_services
from gm.core.engine import SeatInfo
from gm.core.models import Game, LogEntry, Order, Phase, Seat
from gm.core.services import ServiceError

from ..engine import veche
from ..engine.state import DAY
from ..texts import public_role_name, punishment_name


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


def secret_ballot(count: dict, *, game: Game, phase: Phase, viewer) -> dict:
    """The count as ``viewer`` (a ``gm.core.visibility.Viewer``) may read it: in a game with the core's secret ballot
    (issue 23) and a day still open, the tally without voters — strengths, peace and the standing stay; who voted
    for whom, the history and its times go (they are shown once the day is resolved). Otherwise ``count``
    unchanged."""
    from gm.core.services.anonymity import ballot_hidden

    if not ballot_hidden(game, phase, viewer):
        return count
    tally = {**count["tally"], "votes": [],
             "candidates": [{**c, "voters": []} for c in count["tally"]["candidates"]]}
    return {**count, "tally": tally, "history": [], "times": [], "secret": True}


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


def int_or_none(raw: Any) -> int | None:
    raw = str(raw or "")
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 19 else None


def vote_history_url(*, game_id: int, kind: str, number: int) -> str:
    """The Veche's own vote history of day ``number`` (FM-7.1: votes and their changes are public), for the core's
    phase index; ``""`` for a phase that is not a day."""
    if kind != "day":
        return ""
    return reverse("forum_mafia:veche", args=[game_id]) + f"?day={number}"
