"""Forum Mafia night and day orders on the game page (FM-5, FM-6): the player's order form, its POST actions, and
the read-only parts of the panel built from the log — the master's resolution trace (§6 layers) and each player's
private results. What he may order now is :func:`..selectors.orders.order_options_for` (shared with the
order-options API, :mod:`..api.orders`); an order in words is :mod:`..texts.orders`.

The panel's readers (``order_panel``, ``resolution_trace``, ``private_results``) read through
``gm.core.visibility``; views parse input, call one service
(``order_submit`` / ``order_withdraw``) or selector, and render. The form is htmx-enhanced: picking a card re-renders
the form (its inputs appear); without JavaScript every input is still there (in ``<details>``) and a plain POST
redirects back to the game page (PRG), or shows the refused order with its reasons on a page of its own.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.template import engines
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from cards.containers import Containers
from cards.services import card_namer, collection_for_game
from gm.core import page_memo, services, visibility
from gm.core.forms import posted_version
from gm.core.models import Game, GroupMembership, LogEntry, Order, Phase, Seat
from gm.core.services import ServiceError
from gm.core.web import flash_errors, game_or_404

from ..engine.roles import MAFIA_ROLES
from ..forms.orders import DISCARD, MAX_TEXT, MODE_LABELS, PLAY, OrderForm, initial_from_payload
from ..selectors.orders import order_options_for, ordering_phase
from ..services.orders import CARD_PARTS, OTHER_PARTS, latest_payload, order_parts_submit
from ..texts import secret_role_name
from ..texts.orders import CONTAINER_NAMES, describe_order, uses_text

MODULE = "forum_mafia"
TIMING_NAMES = {"night": gettext_lazy("night only"), "day": gettext_lazy("day only"),
                "any": gettext_lazy("any phase")}
#: The form's card groups (FM-5.2: one Hand play and one Sleeve play; FM-4.4: free cards outside the slots).
GROUPS = (
    ("hand", gettext_lazy("From your Hand: one card"), gettext_lazy("It is replaced from your deck after the phase "
                                                                   "(FM-5.4).")),
    ("sleeve", gettext_lazy("From your Sleeve: one card"), gettext_lazy("Sleeve cards are not replaced.")),
    ("free", gettext_lazy("Free cards"), gettext_lazy("Playing them uses neither slot (FM-4.4).")),
)

#: The no-JavaScript page for a refused order: the site layout around the same partial htmx swaps in.
_PAGE = engines["django"].from_string(
    '{% extends "base.html" %}{% block content %}{% include "forum_mafia/_orders.html" %}{% endblock %}')


# == selectors ======================================================================================================
















def _own_cards(seat) -> dict[int, str]:
    """uid → kind of the player's Hand, Sleeve and discard pile (never his deck: its order is secret, FM-4.6)."""
    box = Containers.from_dict((seat.data or {}).get("cards"))
    return {c.uid: c.kind for c in [*box.hand, *box.sleeve, *box.discard]}


def order_panel(*, game: Game, viewer: visibility.Viewer, form: OrderForm | None = None, notice: str = "",
                error: str = "", full_page: bool = False) -> dict:
    """Everything ``_orders.html`` shows to ``viewer``: the order form built from his ``order_options`` (the
    bound ``form`` after a POST, else one showing his current order), his current order and its versions, in
    readable sentences, and what the forms name: ``phase_id`` and ``base_version`` (the order version they edit: the
    latest, 0 for none, or the one a re-rendered bound ``form`` was posted with). ``notice``/``error``: the outcome
    of the last action. ``{"closed": message}`` when he can't order now (see :func:`_ordering_phase`)."""
    try:
        phase = ordering_phase(game, viewer)
    except ServiceError as exc:
        return {"closed": str(exc), "notice": notice, "error": error, "game": game, "full_page": full_page}
    seat = viewer.seat
    options = form.options if form is not None else order_options_for(game=game, viewer=viewer, phase=phase)
    versions = visibility.own_orders(viewer, phase)
    current = versions[-1] if versions and versions[-1].payload is not None else None
    by_uid = {c["uid"]: c for c in options.get("cards", [])}
    if form is None:
        form = OrderForm(options=options, initial=initial_from_payload(current.payload if current else None, by_uid,
                                                                       options.get("abilities", [])))
    collection = collection_for_game(game)
    name = card_namer(collection)
    language = translation.get_language() or "ru"
    seat_names = page_memo.seat_names(game)
    own_cards = _own_cards(seat)

    def describe(order: Order) -> list[str]:
        return describe_order(order.payload, cards=own_cards, name=name, seat_names=seat_names)

    picked = form.picked()
    rows = [_card_row(card, form, picked, options, collection, name, language) for card in options.get("cards", [])]
    mode = form.current_mode()
    discard_values = set(picked["discard"])
    latest = versions[-1].version if versions else 0
    return {
        "game": game,
        "phase": phase,
        "phase_id": phase.pk,
        "base_version": posted_version(form.data) if form.is_bound else latest,
        "full_page": full_page,
        "notice": notice,
        "error": error,
        "can_order": bool(options.get("can_order")),
        "why_not": options.get("why_not", ""),
        "form_errors": form.non_field_errors() if form.is_bound else [],
        "mode": mode,
        "modes": [(PLAY, MODE_LABELS[PLAY]), (DISCARD, MODE_LABELS[DISCARD])],
        "can_discard_two": bool(options.get("can_discard_two")),
        "discard": {
            "choices": [{"uid": c["uid"], "name": name(c["kind"]), "checked": c["uid"] in discard_values}
                        for c in options.get("hand", [])],
            "errors": form.errors.get("discard", []) if form.is_bound else [],
        },
        "groups": [
            {"name": group, "legend": legend, "help": help_text, "input": "checkbox" if group == "free" else "radio",
             "rows": [r for r in rows if r["group"] == group], "none": not picked[group],
             "errors": form.errors.get(group, []) if form.is_bound else [],
             # FM-5.3: discarding two cards replaces both slot plays (free cards may go along).
             "disabled": mode == DISCARD and group != "free"}
            for group, legend, help_text in GROUPS],
        "abilities": _ability_rows(form, options, name),
        "current": {"version": current.version, "created_at": current.created_at, "lines": describe(current)}
        if current else None,
        "history": [{"version": o.version, "created_at": o.created_at, "lines": describe(o),
                     "withdrawn": o.payload is None} for o in reversed(versions)],
    }






def _ability_rows(form: OrderForm, options: Mapping[str, Any], name: Callable[[str], str]) -> list[dict]:
    """The form's "Abilities" part (FM-3, FM-8): one row per phase ability the player has, greyed with the reason
    when it can't be used now, with the inputs it needs (targets as for cards, the hero's Mafia role, the Mafia
    message, the maniac's Sleeve card to discard, the scientist's two Hand cards)."""

    errors = form.errors if form.is_bound else {}
    picked = set(form.picked_abilities())
    people = {p["id"]: p["name"] for p in [*options.get("targets", []), *options.get("dead_targets", [])]}
    hand = {c["uid"]: c["kind"] for c in options.get("hand", [])}
    sleeve = {c["uid"]: c["kind"] for c in options.get("sleeve", [])}
    rows = []
    for key, opt in form.ability_opts.items():
        row = {"key": key, "label": opt["label"], "available": bool(opt.get("available")), "reason": opt["reason"],
               "uses": uses_text(opt), "picked": key in picked, "errors": form.ability_errors.get(key, []),
               "inputs": []}
        rows.append(row)
        if not (row["available"] or row["picked"]):
            continue

        def value(field: str) -> str:
            v = form.value(field)
            return "" if v is None else str(v)

        def select(field: str, label, choices) -> dict:
            current = value(field)
            return {"type": "select", "name": field, "label": label, "errors": errors.get(field, []),
                    "choices": [("", "—", current == "")] + [(str(v), text, str(v) == current) for v, text in choices]}

        if opt.get("needs_target"):
            row["inputs"].append(select(f"ab_target_{key}", _("Target"),
                                        [(t, people.get(t, f"#{t}")) for t in opt.get("targets", [])]))
        if opt.get("needs_guess"):
            row["inputs"].append(select(f"ab_guess_{key}", _("Their Mafia role"),
                                        [(r, secret_role_name(r)) for r in opt.get("guesses") or MAFIA_ROLES]))
        if opt.get("needs_text"):
            row["inputs"].append({"type": "text", "name": f"ab_text_{key}", "label": _("Message (no links, FM-9.4)"),
                                  "value": value(f"ab_text_{key}"), "maxlength": MAX_TEXT,
                                  "errors": errors.get(f"ab_text_{key}", [])})
        if opt.get("needs_pay"):
            row["inputs"].append(select(f"ab_pay_{key}", _("Sleeve card to discard"),
                                        [(u, name(sleeve[u])) for u in opt.get("pay_choices", []) if u in sleeve]))
        if opt.get("needs_discard"):
            chosen = {str(v) for v in form.value(f"ab_discard_{key}") or []}
            row["inputs"].append({"type": "checkboxes", "name": f"ab_discard_{key}",
                                  "label": _("Two Hand cards to discard"),
                                  "errors": errors.get(f"ab_discard_{key}", []),
                                  "choices": [(str(u), name(k), str(u) in chosen, False) for u, k in hand.items()]})
    return rows


def _card_row(card: Mapping[str, Any], form: OrderForm, picked: Mapping[str, list[int]], options: Mapping[str, Any],
              collection, name: Callable[[str], str], language: str) -> dict:
    """One card of the form: its name, effect, price, timing, whether it can be played now (else why not) and the
    inputs it needs once picked (target, second target, message, named card, cards to stash, price cards).
    ``picked`` is :meth:`OrderForm.picked`; ``collection`` the game's :class:`cards.domain.Collection`."""
    uid = card["uid"]
    kind = collection[card["kind"]] if card["kind"] in collection else None
    group = "free" if card.get("free") else card["from"]
    errors = form.errors if form.is_bound else {}
    row = {
        "uid": uid, "kind": card["kind"], "name": name(card["kind"]), "group": group, "from": card["from"],
        "where": CONTAINER_NAMES.get(card["from"], ""),
        "text": kind.text(language) if kind else "", "free": bool(card.get("free")), "price": card.get("price", 0),
        "timing": TIMING_NAMES.get(card.get("timing"), ""), "playable": bool(card.get("playable")),
        "reason": card.get("reason", ""), "picked": uid in picked["hand"] + picked["sleeve"] + picked["free"],
        "errors": form.card_errors.get(uid, []), "inputs": [],
    }
    if not (row["playable"] or row["picked"]):
        return row
    inputs = row["inputs"]
    target = card.get("target", "none")

    def selected(field: str) -> str:
        value = form.value(field)
        return "" if value is None else str(value)

    def people(field: str, label, choices) -> dict:
        current = selected(field)
        return {"type": "select", "name": field, "label": label, "errors": errors.get(field, []),
                "choices": [("", "—", current == "")] + [(str(p["id"]), p["name"], str(p["id"]) == current)
                                                          for p in choices]}

    if target in ("one", "one_card", "one_text"):
        inputs.append(people(f"target_{uid}", _("Target"), options.get("targets", [])))
    elif target == "dead":
        inputs.append(people(f"target_{uid}", _("Dead character"), options.get("dead_targets", [])))
    elif target == "two":
        inputs.append(people(f"target_{uid}", _("Whose targeted cards"), options.get("targets", [])))
        inputs.append(people(f"target2_{uid}", _("Now target"), options.get("targets", [])))
    if target == "one_card":
        current = selected(f"named_{uid}")
        inputs.append({"type": "select", "name": f"named_{uid}", "label": _("Card you name"),
                       "errors": errors.get(f"named_{uid}", []),
                       "choices": [("", "—", current == "")] + sorted(
                           ((s, name(s), s == current) for s in options.get("named_cards", [])), key=lambda c: c[1])})
    if target == "one_text":
        inputs.append({"type": "text", "name": f"text_{uid}", "label": _("Message (no links, FM-9.4)"),
                       "value": selected(f"text_{uid}"), "maxlength": MAX_TEXT,
                       "errors": errors.get(f"text_{uid}", [])})
    if card.get("needs_cards"):
        chosen = {str(v) for v in form.value(f"cards_{uid}") or []}
        inputs.append({"type": "checkboxes", "name": f"cards_{uid}", "label": _("Hand cards to move to the Sleeve "
                                                                                "(up to two)"),
                       "errors": errors.get(f"cards_{uid}", []),
                       "choices": [(str(c["uid"]), name(c["kind"]), str(c["uid"]) in chosen, False)
                                   for c in options.get("hand", []) if c["uid"] != uid]})
    if card.get("price"):
        value = form.value(f"pay_{uid}")
        from_hand = form.value(f"pay_hand_{uid}") or []
        # Unbound and no price cards in the current order: tick the ones the engine would take (FM-5.7).
        chosen = {str(v) for v in (value if value or form.is_bound or from_hand else card.get("payers", [])) or []}
        inputs.append({"type": "checkboxes", "name": f"pay_{uid}",
                       "label": _("Price %(price)s: Sleeve cards that pay it") % {"price": card["price"]},
                       "help": _("If you tick none, the first eligible cards of your Sleeve pay (FM-5.7)."),
                       "errors": errors.get(f"pay_{uid}", []),
                       "choices": [(str(c["uid"]), name(c["kind"]) if c.get("can_pay") else
                                    _("%(card)s (can't pay a price)") % {"card": name(c["kind"])},
                                    str(c["uid"]) in chosen, not c.get("can_pay"))
                                   for c in options.get("sleeve", []) if c["uid"] != uid]})
        row["payers"] = [name(c["kind"]) for c in options.get("sleeve", []) if str(c["uid"]) in chosen]
        if f"pay_hand_{uid}" in form.fields:  # FM-8 cultist: up to two price cards per phase from the Hand
            in_hand = {str(v) for v in from_hand}
            inputs.append({"type": "checkboxes", "name": f"pay_hand_{uid}",
                           "label": _("Or pay from your Hand (cultist: up to two cards per phase)"),
                           "errors": errors.get(f"pay_hand_{uid}", []),
                           "choices": [(str(c["uid"]), name(c["kind"]), str(c["uid"]) in in_hand, False)
                                       for c in options.get("hand", []) if c["uid"] != uid]})
            row["payers"] += [name(c["kind"]) for c in options.get("hand", []) if str(c["uid"]) in in_hand]
    return row


def _phase_label(phase: Phase | None, game: Game) -> str:
    if phase is None:
        return _("Start of the game")
    phase.game = game  # the label needs the module; don't load the game again for every phase
    return phase.label


def resolution_trace(viewer: visibility.Viewer) -> list[dict]:
    """The master's resolution trace (§6): per resolved phase, newest first, its ``fm.t_*`` master entries in
    resolution order as ``{"layer", "step", "text"}`` rows. Empty for whoever may not read master entries (players
    and spectators while the game runs: ``visibility.log_entries`` decides)."""
    if not viewer.sees_everything:
        return []  # the visibility layer never shows them master entries: no need to ask the database
    every = visibility.full_log(viewer)  # the game page: cut from its one load of the log
    if every is not None:
        # The query's order: newest phase first (PostgreSQL puts a missing phase first), then as written.
        entries = sorted((e for e in every
                          if e.visibility == LogEntry.Visibility.MASTER and e.kind.startswith("fm.t_")),
                         key=lambda e: (e.phase is not None, -(e.phase.ordinal if e.phase else 0), e.created_at, e.pk))
    else:
        entries = (visibility.log_entries(viewer)
                   .filter(visibility=LogEntry.Visibility.MASTER, kind__startswith="fm.t_")
                   .order_by("-phase__ordinal", "created_at", "id"))
    phases: list[dict] = []
    for entry in entries:
        if not phases or phases[-1]["phase_id"] != entry.phase_id:
            phases.append({"phase_id": entry.phase_id, "label": _phase_label(entry.phase, viewer.game), "rows": []})
        data = entry.data or {}
        phases[-1]["rows"].append({"layer": data.get("layer", ""), "step": data.get("step", ""),
                                   "text": entry.text()})
    return phases


#: How many of the newest phases the game page's private results cover (issue 25: the page's cost does not grow with
#: the game's length); the master's console reports as many.
RESULT_PHASES = 12


def _result_window(viewer: visibility.Viewer) -> set[int] | None:
    """On the game page (``page_memo.reading``) of a game with more than :data:`RESULT_PHASES` phases: the ids of its
    newest ones; else ``None`` (every phase)."""
    if not page_memo.active():
        return None
    phases = page_memo.phases(viewer.game)
    return {p.pk for p in phases[-RESULT_PHASES:]} if len(phases) > RESULT_PHASES else None


def private_results(viewer: visibility.Viewer) -> list[dict]:
    """What the viewer's own seat was told, per phase, newest first: his seat's entries and his groups' (e.g. the
    Mafia's), each as ``{"text", "group", "kind"}``, and ``order``: the order of his that counted in that phase
    (FM-5.6: its last version) in words, or ``None`` — for resolved phases only (the open phase's order is on the
    order form). Empty without a seat; never another seat's entries or orders, even after the game (when the
    visibility layer would show them). On the game page, the newest :data:`RESULT_PHASES` phases only."""
    seat = viewer.seat
    if seat is None:
        return []
    groups = GroupMembership.objects.filter(seat=seat).values("group")
    entries = (visibility.log_entries(viewer)
               .filter(Q(visibility=LogEntry.Visibility.SEAT, seat=seat)
                       | Q(visibility=LogEntry.Visibility.GROUP, group__in=groups))
               .order_by("-phase__ordinal", "created_at", "id"))
    window = _result_window(viewer)
    if window is not None:
        entries = entries.filter(phase_id__in=window)
    phases: list[dict] = []
    group_names: dict[str, str] = {}  # group slug → its name in the viewer's language (FM-9.3 rooms, the Mafia)
    for entry in entries:
        key = entry.phase_id or 0
        if not phases or phases[-1]["key"] != key:
            phases.append({"key": key, "label": _phase_label(entry.phase, viewer.game), "entries": [],
                           "ordinal": entry.phase.ordinal if entry.phase else -1, "order": None})
        if entry.group and entry.group not in group_names:
            group_names[entry.group] = viewer.game.game_module.group_label(entry.group, state=viewer.game.state)
        phases[-1]["entries"].append({"text": entry.text(), "group": group_names.get(entry.group, ""),
                                      "kind": entry.kind})
    by_key = {p["key"]: p for p in phases}
    last: dict[int, Order] = {}
    for order in visibility.seat_orders(viewer):  # the game page's one load of the seat's orders
        if order.phase.status == Phase.Status.RESOLVED and (window is None or order.phase_id in window):
            last[order.phase_id] = order
    names = page_memo.seat_names(viewer.game)
    module = viewer.game.game_module
    # His seat as each phase was resolved (its stored input): one query for them all, not one per phase, and only
    # his element of each snapshot.
    wanted = [phase_id for phase_id, order in last.items() if order.payload is not None]
    snapshots = page_memo.seat_snapshots(viewer.game.pk, wanted, seat_id=seat.pk) if wanted else {}
    for phase_id, order in last.items():
        if order.payload is None:
            continue
        group = by_key.get(phase_id)
        if group is None:
            group = by_key[phase_id] = {"key": phase_id, "label": _phase_label(order.phase, viewer.game),
                                        "entries": [], "ordinal": order.phase.ordinal, "order": None}
            phases.append(group)
        snapshot = {s.get("id"): s.get("data") or {} for s in snapshots.get(phase_id) or []}
        group["order"] = {"version": order.version, "lines": module.order_lines(
            payload=order.payload, seat_data=snapshot.get(seat.pk) or seat.data, seat_names=names)}
    # Where entries without a phase (the deal, before Night 1) sort depends on the database: put them last.
    return sorted(phases, key=lambda p: (not p["key"], -p["ordinal"]))


# == pages ==========================================================================================================



def _back(game: Game) -> HttpResponseRedirect:
    return HttpResponseRedirect(game.get_absolute_url() + "#fm-orders")


def _render(request, panel: dict, status: int = 200):
    if request.htmx:
        return render(request, "forum_mafia/_orders.html", {"o": panel, "game": panel["game"]}, status=status)
    return HttpResponse(_PAGE.render({"o": {**panel, "full_page": True}, "game": panel["game"]}, request),
                        status=status)


@require_http_methods(["GET", "POST"])
@login_required
def orders(request, pk: int):
    """The order form (FM-5). GET: the form (the htmx partial, or a page of its own without htmx). POST with
    ``action=submit``: store a new version through ``services.order_submit`` (then back to the game page, or the
    re-rendered partial under htmx); refused, the form comes back with every reason next to its input (status 400
    without htmx). POST without ``action`` (htmx, a card was picked): re-render the form with the inputs it needs.

    Every POST names the phase the form was made for (hidden ``phase``) and the order version it edits (hidden
    ``version``): a form left open over a resolution is refused with the core's ``stale`` message naming both
    phases (nothing is saved) and the panel of the phase open now comes back."""
    game = game_or_404(request.user, pk, module=MODULE)
    viewer = visibility.viewer_for(request.user, game)
    if request.method == "GET":
        return _render(request, order_panel(game=game, viewer=viewer))
    try:
        named = services.phase_named(game=game, phase_id=request.POST.get("phase"))
        phase = ordering_phase(game, viewer)
        if named.pk != phase.pk:
            raise ServiceError(_("No night or day is open for orders now."), code="state")
    except ServiceError as exc:
        if request.htmx:
            return _render(request, order_panel(game=game, viewer=viewer, error=str(exc)))
        flash_errors(request, exc)
        return _back(game)
    form = OrderForm(request.POST, options=order_options_for(game=game, viewer=viewer, phase=phase))
    if request.POST.get("action") != "submit":
        form.is_valid()  # show the form as posted: picks, inputs and any unparsable value
        return _render(request, order_panel(game=game, viewer=viewer, form=form))
    if form.is_valid():
        payload = form.payload()
        try:
            # Only the card parts are the form's: the Veche vote (FM-7) and room proposals (FM-9.3) stay.
            order_parts_submit(phase=named, user=request.user, base_version=posted_version(request.POST),
                               parts={part: payload.get(part) for part in CARD_PARTS})
        except ServiceError as exc:
            if exc.code in ("stale", "conflict"):  # the form is out of date: the current one, with the reason
                if request.htmx:
                    return _render(request, order_panel(game=game, viewer=viewer, error=str(exc)))
                flash_errors(request, exc)
                return _back(game)
            form.add_service_errors(exc.errors)
        else:
            notice = _("Your order is saved. You can change it until the deadline.")
            if request.htmx:
                return _render(request, order_panel(game=game, viewer=viewer, notice=notice))
            messages.success(request, notice)
            return _back(game)
    response = _render(request, order_panel(game=game, viewer=viewer, form=form))
    if not request.htmx:
        response.status_code = 400
    return response


@require_POST
@login_required
def withdraw(request, pk: int):
    """Withdraw the current card order (FM-5.6: a new version; the earlier ones stay in the history). The parts
    other panels own — the Veche vote (FM-7), room proposals (FM-9.3) — stay: the new version keeps them without the
    cards. With nothing else in the order it is a withdrawal (a version with no payload). The form names its phase
    and the order version it withdraws (hidden ``phase``, ``version``): for a phase that has ended nothing changes
    (the core's ``stale`` refusal)."""
    game = game_or_404(request.user, pk, module=MODULE)
    try:
        phase = services.phase_named(game=game, phase_id=request.POST.get("phase"))
        _withdraw_cards(phase, request.user, base_version=posted_version(request.POST))
    except ServiceError as exc:
        notice, ok = str(exc), False
    else:
        notice, ok = _("Your order was withdrawn."), True
    if request.htmx:
        viewer = visibility.viewer_for(request.user, game)
        panel = order_panel(game=game, viewer=viewer, notice=notice) if ok else \
            order_panel(game=game, viewer=viewer, error=notice)
        return render(request, "forum_mafia/_orders.html", {"o": panel, "game": game})
    (messages.success if ok else messages.error)(request, notice)
    return _back(game)


def _withdraw_cards(phase: Phase, user, *, base_version: int | None = None) -> None:
    """The card parts out of ``user``'s order for ``phase`` (see :func:`withdraw`)."""
    seat = Seat.objects.filter(game_id=phase.game_id, user=user).first() if user.is_authenticated else None
    current = latest_payload(phase, seat)
    if any(current.get(part) is not None for part in OTHER_PARTS):
        if not any(current.get(part) for part in CARD_PARTS):
            raise ServiceError(_("You have no cards in your order to withdraw."), code="not_found")
        order_parts_submit(phase=phase, user=user, parts=dict.fromkeys(CARD_PARTS), base_version=base_version)
    else:
        services.order_withdraw(phase=phase, user=user, base_version=base_version)


# == API ============================================================================================================















