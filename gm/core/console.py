"""The master's console on the game page: what ``gm/_console.html`` shows the master (and nobody else).

Read-only selectors over ``gm.core.visibility`` (the master's viewer): every seat with its secret part (the module's
``master_seat_summary`` and ``master_seat_fields``: secret role, containers, flags), its current order with every
version of the open phase; per resolved phase the resolution trace (master lines) and what each player was told
(his seat's and his groups' lines); a result held for review; the audit log. Every intervention it offers is a
service in ``gm.core.services``, ``gm.core.interventions`` or ``gm.core.review``, called by ``gm.core.console_views``.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from . import life, messages, page_memo, visibility
from .engine import Event, PhaseInfo
from .forms import (
    AbortForm,
    ExtendForm,
    PublishAtForm,
    ReasonForm,
    ReviewModeForm,
    SeatAliveForm,
    SeatEditForm,
    SeatReplaceForm,
)
from .models import Game, GroupMembership, LogEntry, Phase
from .services import seat_info
from .services.outage import outages_of
from .spectator import order_lines

#: How many resolved phases the console lists (newest first).
PHASES_SHOWN = 12


def seat_form_specs(game: Game, seat, phase: Phase | None) -> list[dict]:
    """The module's ``master_seat_form`` for ``seat`` (a :class:`~gm.core.models.Seat`) with ``phase`` the
    unresolved phase or ``None``: the seat's editable fields in words and as form specs."""
    info = (PhaseInfo(kind=phase.kind, number=phase.number, ordinal=phase.ordinal, actors=phase.actors)
            if phase is not None else None)
    return game.game_module.master_seat_form(state=game.state, seat=seat_info(seat), phase=info)


def seat_edit_form(game: Game, seat, phase: Phase | None, data=None) -> SeatEditForm:
    """The seat edit form of ``seat`` drawn from its current data (``data``: the POST to bind, if any)."""
    form = SeatEditForm(data, specs=seat_form_specs(game, seat, phase), initial={"seat": seat.pk,
                                                                               "version": seat.version},
                        auto_id=f"edit-{seat.pk}-%s")
    return form


def event_rows(game: Game, events: Iterable[Event | Mapping[str, Any]], seat_names: Mapping[int, str]) -> dict:
    """Engine events (``Event`` objects, or the dicts stored in ``Phase.result``) rendered for the master:
    ``{"trace": [text], "public": [text], "told": [{"seat": name, "lines": [text]}], "groups": [{"group", "lines"}]}``
    — the trace (master lines), the public lines, and each seat's and group's private lines."""
    out: dict[str, Any] = {"trace": [], "public": [], "told": {}, "groups": {}}
    for e in events:
        kind, data, vis, seat, group = ((e.kind, e.data, e.visibility, e.seat, e.group) if isinstance(e, Event) else
                                        (e["kind"], e.get("data") or {}, e["visibility"], e.get("seat"),
                                         e.get("group") or ""))
        text = messages.render(kind, data, game.module)
        if vis == "master":
            out["trace"].append(text)
        elif vis == "public":
            out["public"].append(text)
        elif vis == "seat":
            out["told"].setdefault(seat_names.get(int(seat), str(seat)), []).append(text)
        else:
            out["groups"].setdefault(group, []).append(text)
    out["told"] = [{"seat": k, "lines": v} for k, v in out["told"].items()]
    out["groups"] = [{"group": game.game_module.group_label(k, state=game.state), "lines": v}
                     for k, v in out["groups"].items()]
    return out


def _phase_reports(viewer: visibility.Viewer, seat_names: Mapping[int, str]) -> list[dict]:
    """Per resolved (and published) phase, newest first: its label and :func:`event_rows` of its log lines."""
    game = viewer.game
    phases = page_memo.reported_phases(game, PHASES_SHOWN)
    by_phase: dict[int, list[LogEntry]] = {}
    every = visibility.full_log(viewer)
    wanted = {p.pk for p in phases}
    entries = ([e for e in every if e.phase_id in wanted and e.kind != "core.phase_opened"] if every is not None
               else visibility.log_entries(viewer).filter(phase__in=phases).exclude(kind="core.phase_opened"))
    for entry in entries:
        by_phase.setdefault(entry.phase_id, []).append(entry)
    reports = []
    for phase in phases:
        phase.game = game
        entries = [{"kind": e.kind, "data": e.data, "visibility": e.visibility, "seat": e.seat_id, "group": e.group}
                   for e in by_phase.get(phase.pk, [])]
        reports.append({"phase": phase, "rows": event_rows(game, entries, seat_names)})
    return reports


def _audit_rows(game: Game, entries) -> list:
    """The audit entries, a seat edit's changes worded by the module (``master_edit_lines``) as ``entry.lines``."""
    module = game.game_module
    rows = list(entries)
    for entry in rows:
        data = entry.data if isinstance(entry.data, Mapping) else {}
        entry.lines = (module.master_edit_lines(before=data.get("before") or {}, after=data["after"])
                       if entry.action == "seat_edit" and isinstance(data.get("after"), Mapping) else [])
    return rows


def _life_forms(game: Game) -> dict:
    from .life_views import console_forms  # the long-game options' forms (issue 23); they build on the console

    return console_forms(game)


def seat_form_fields() -> dict:
    """What the console's per-seat Kill/Revive and Replace forms (``gm/_seat_alive_fields.html``,
    ``gm/_seat_replace_fields.html``) take from :class:`SeatAliveForm` and :class:`SeatReplaceForm`: labels (in the
    active language), lengths and the label suffix. The fields are written out in those templates because Django's
    form rendering (a template per field, widget and attribute list) cost ~5 ms a form, 32 forms on a 16-seat
    console; a test compares both renderings."""
    alive, replace = SeatAliveForm.base_fields, SeatReplaceForm.base_fields
    return {"reason_label": alive["reason"].label, "reason_max": alive["reason"].max_length,
            "user_label": replace["user"].label, "user_max": replace["user"].max_length,
            "confirm_label": replace["confirm"].label, "suffix": SeatReplaceForm().label_suffix}


def console_context(*, game: Game, viewer: visibility.Viewer, phase: Phase | None, notice: str = "",
                    errors: list[str] | None = None) -> dict:
    """The console's context for ``viewer`` (empty unless he is the game's master): the intervention forms, every
    seat with its secrets and orders, the held result, the phase reports and the audit log (newest first, 50)."""
    if not viewer.is_master:
        return {}
    module = game.game_module
    seat_rows = []
    seats = page_memo.seats(game)
    names = {s.pk: s.display_name for s in seats}
    groups: dict[int, list[str]] = {}
    for seat_id, group in GroupMembership.objects.filter(game=game).values_list("seat_id", "group"):
        groups.setdefault(seat_id, []).append(group)
    orders: dict[int, list] = {}
    by_id = {s.pk: s for s in seats}
    shared = page_memo.phase_orders(phase) if phase else None  # the master sees every order
    versions = (sorted(shared, key=lambda o: (o.seat_id, o.version)) if shared is not None else
                visibility.orders(viewer, phase).order_by("seat_id", "version") if phase else [])
    for order in versions:
        # In words (the module's order_lines, cards named from the seat's current data), not JSON.
        order.lines = ([] if order.payload is None else
                       order_lines(module, order.payload, by_id[order.seat_id].data, names))
        orders.setdefault(order.seat_id, []).append(order)
    for seat in seats:
        fields = module.master_seat_fields(state=game.state, seat=seat_info(seat))
        specs = seat_form_specs(game, seat, phase) if fields else []
        versions = orders.get(seat.pk, [])
        summary = module.master_seat_summary(seat.data)
        seat_rows.append({
            "seat": seat, "summary": summary, "fields": fields,
            "facts": [(spec["label"], spec["text"]) for spec in specs
                      if spec["label"] not in {label for label, _text in summary}],
            "groups": sorted(module.group_label(g, state=game.state) for g in groups.get(seat.pk, [])),
            "orders": versions, "current": versions[-1] if versions else None,
            "editable": bool(specs),
        })
    held = page_memo.held_phase(game)
    if held is not None:
        held.game = game
    return {
        "extend_form": ExtendForm(auto_id="extend-%s"),
        "reason_form": ReasonForm(),
        "review_form": ReviewModeForm(initial={"enabled": game.review_results,
                                               "auto_minutes": game.review_auto_minutes}, auto_id="review-%s"),
        "publish_form": ReasonForm(auto_id="publish-%s"),
        "publish_at_form": PublishAtForm(auto_id="publish-at-%s"),
        "abort_form": AbortForm(auto_id="abort-%s"),
        "seat_rows": seat_rows,
        "seat_fields": seat_form_fields(),
        "held": held,
        "held_rows": event_rows(game, held.result.get("events", []), names) if held is not None else None,
        "reports": _phase_reports(viewer, names),
        "audit": _audit_rows(game, visibility.audit_entries(viewer)[:50]),
        "life_options": _life_forms(game),
        "module_actions": module.console_actions(game=game) if not game.is_over else [],
        "notice": notice,
        "errors": errors or [],
    }


def console_life_context(*, game: Game, viewer: visibility.Viewer) -> dict:
    """The console's activity part for ``viewer`` (empty unless he is the game's master): each seat's activity,
    the replacement requests, volunteers and tenures (``life.console_part``) and the outages the game lived through.
    A part of its own (``gm:console_life``, loaded into the console after the page) so the game page's queries do
    not grow with it."""
    if not viewer.is_master:
        return {}
    return {"life": life.console_part(game, page_memo.seats(game)), "outages": outages_of(game)}
