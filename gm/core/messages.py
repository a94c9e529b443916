"""Log texts: core event kinds (``core.*``) and the dispatch of module kinds to the module's renderer.

Texts are rendered when read, in the reader's language, from the entry's structured ``data``.
"""
from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from . import registry

CORE_MESSAGES: Mapping[str, Any] = {
    "core.game_started": _("The game has started."),
    "core.phase_opened": _("%(label)s has begun. Deadline: %(deadline)s."),
    "core.phase_resolved": _("%(label)s is over."),
    "core.deadline_extended": _("The master extended the deadline by %(minutes)s min. New deadline: %(deadline)s."),
    "core.game_paused": _("The master paused the game."),
    "core.game_resumed": _("The master resumed the game. New deadline: %(deadline)s."),
    "core.resolved_now": _("The master ended the phase before its deadline."),
    "core.closed_early": _("Everyone this phase waited for has answered: it closes before its deadline."),
    "core.order_voided": _("Your order was voided: %(reason)s"),
    "core.game_finished": _("The game is over. Winners: %(winners)s."),
    "core.game_drawn": _("The game is over: a draw, nobody wins or loses."),
    # A plural text: its form is chosen by data["orders"] when formatted ("1 order", "2 orders").
    "core.trace": ngettext_lazy("Resolved in %(duration_ms)s ms with %(orders)s order.",
                                "Resolved in %(duration_ms)s ms with %(orders)s orders.", "orders"),
    "core.seat_killed": _("The master removed %(player)s from the game."),
    "core.seat_revived": _("The master brought %(player)s back into the game."),
    "core.seat_replaced": _("%(player)s is now played by someone else."),
    "core.result_held": _("The result is held for the master's review."),
    "core.seat_public_changed": _("The master corrected %(player)s's seat. Now: %(facts)s."),
    # Forum life (issue 23 items 1–4).
    "core.prodded": _("%(player)s has been quiet for a while and was prodded."),
    "core.flagged_idle": _("%(player)s stayed quiet after the prod: the seat needs a replacement."),
    "core.idle_killed": _("%(player)s was removed from the game for staying quiet (idle kill)."),
    "core.replaces": _("%(new)s replaces %(old)s as %(player)s."),
    "core.deadline_replacement": _("%(player)s has a new player: the deadline moves to %(deadline)s so that he "
                                   "has time to catch up."),
    "core.auto_extended": _("A player who has something to do has not ordered yet and used an automatic extension: "
                            "the deadline moves by %(hours)s h to %(deadline)s."),
    "core.auto_extended_you": _("You had not ordered: one of your automatic extensions was used (%(hours)s h). "
                                "Extensions left: %(left)s."),
    "core.auto_extended_master": _("%(player)s used an automatic extension; %(left)s left."),
    "core.emergency_paused": _("A player took an emergency pause: the game is paused until %(until)s."),
    "core.emergency_resumed": _("The emergency pause is over: the game goes on. New deadline: %(deadline)s."),
    "core.hammer": _("%(voter)s's vote gave %(player)s more than half of the living votes: the day ends now "
                     "(hammer). Later votes are refused."),
    "core.all_ready": _("Everyone who acts in this phase pressed “done”: it ends now."),
    "core.outage": _("The site was down from %(down_from)s to %(down_to)s (%(minutes)s min)."),
    "core.outage_shifted": _("The site was down from %(down_from)s to %(down_to)s (%(minutes)s min): the deadline "
                             "moved by %(shift)s min. New deadline: %(deadline)s."),
    "core.master_takeover": _("The master %(old)s has been inactive: %(new)s takes the game over as its master."),
}


def render(kind: str, data: Mapping[str, Any], module_slug: str) -> str:
    """The text of an event ``kind`` with ``data`` in the active language."""
    if kind.startswith("core."):
        # A draw is logged as the end of the game (one kind for every ending) but read as a draw.
        template = CORE_MESSAGES.get("core.game_drawn" if kind == "core.game_finished" and data.get("draw") else kind)
        if template is None:
            return kind
        params = {k: _stringify(v) for k, v in data.items()}
        if "phase_kind" in data:
            try:
                params["label"] = registry.get(module_slug).phase_label(data["phase_kind"], data.get("phase_number", 1))
            except registry.UnknownModule:
                params["label"] = data["phase_kind"]
        for key in ("deadline", "down_from", "down_to", "until"):
            if isinstance(data.get(key), str):
                params[key] = _local_time(data[key])
        if kind == "core.game_finished" and isinstance(data.get("winners"), list):
            params["winners"] = winners_text(data["winners"], module_slug)
        if kind == "core.seat_public_changed":
            params["facts"] = _public_facts(data.get("public") or {}, module_slug)
        try:
            return str(template % params)  # a plural text picks its form from params here
        except (KeyError, TypeError, ValueError):
            return str(template) or kind
    try:
        return registry.get(module_slug).render_event(kind, data)
    except registry.UnknownModule:
        return kind


def winners_text(winners: list[str], module_slug: str) -> str:
    """The winners (faction or team slugs of the game's outcome) named in the active language by their module,
    comma-separated; "nobody" for none."""
    if not winners:
        return str(_("nobody"))
    try:
        module = registry.get(module_slug)
    except registry.UnknownModule:
        return ", ".join(winners)
    return ", ".join(module.winner_label(w) for w in winners)


def _public_facts(public: Mapping[str, Any], module_slug: str) -> str:
    """A seat's changed public data (part of the module's ``public_seat_data``) as its module words it publicly
    (``seat_facts(secret=False)``); a fact that is gone reads "—"."""
    try:
        module = registry.get(module_slug)
    except registry.UnknownModule:
        return ", ".join(f"{k}: {v}" for k, v in public.items())
    present = {k: v for k, v in public.items() if v is not None}
    facts = [f"{label}: {text}" for label, text in module.seat_facts(present, secret=False)] if present else []
    return "; ".join(facts) or "—"


def _stringify(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value)
    return value


def _local_time(iso: str) -> str:
    """An ISO-8601 UTC time shown in the active (viewer's) time zone."""
    try:
        moment = datetime.fromisoformat(iso)
    except ValueError:
        return iso
    return date_format(timezone.localtime(moment), "DATETIME_FORMAT") + " " + timezone.get_current_timezone_name()


def render_entry(entry) -> str:
    """The text of a :class:`~gm.core.models.LogEntry` in the active language."""
    return render(entry.kind, entry.data, entry.game.module)
