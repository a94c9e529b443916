"""A forum Mafia order is one payload per seat and phase made of top-level **parts** (shell, write services).

The engine reads one order per character and phase (FM-5.6: the last version counts; every version is kept), but
the site edits it from several panels, each owning its parts:

* ``plays``, ``discard``, ``abilities`` — the card order form (FM-5.2, FM-5.3, FM-3/FM-8 phase abilities);
* ``vote`` — the Veche panel (FM-7.1–7.3; ``veche.check_vote`` describes it);
* ``rooms`` — chat-room proposals of the day (FM-9.3).

So that saving one panel never drops what another saved, a panel stores a new version equal to the player's latest
payload for the phase with only its own parts replaced: :func:`order_parts_submit` (several parts at once, the card
form) and :func:`order_part_submit` (one part). The read of the latest version and the write of the new one happen
under the phase row lock (the core services' lock order: the phase row first), so two panels saved at the same moment
can't lose each other's part. The new payload goes through ``gm.core.services.order_submit`` with the engine's full
validation of the **whole** order: a refused order stores nothing, and the deadline (FM-1.3), dead characters
(FM-6.2) and out-of-turn seats are refused there with the core's messages.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from gm.core import services as core
from gm.core.models import Order, Phase, Seat
from gm.core.services import Clock

#: The parts the card order form owns (FM-5.2, FM-5.3 and the phase abilities of FM-3/FM-8).
CARD_PARTS = ("plays", "discard", "abilities")
#: The parts other panels own: the Veche vote (FM-7) and chat-room proposals (FM-9.3).
OTHER_PARTS = ("vote", "rooms")


def latest_payload(phase: Phase, seat: Seat | None) -> dict:
    """``seat``'s latest order payload for ``phase`` (FM-5.6) as a new dict; ``{}`` without a seat, without an order,
    or when the latest version is a withdrawal."""
    if seat is None:
        return {}
    payload = (Order.objects.filter(phase_id=phase.pk, seat_id=seat.pk).order_by("-version")
               .values_list("payload", flat=True).first())
    return dict(payload) if isinstance(payload, Mapping) else {}


def merge_parts(base: Mapping[str, Any], parts: Mapping[str, Any]) -> dict:
    """``base`` with each of ``parts`` replaced (a value ``None`` removes that part); the other parts are kept."""
    payload = {k: v for k, v in base.items() if k not in parts}
    payload.update({k: v for k, v in parts.items() if v is not None})
    return payload


def order_parts_submit(*, phase: Phase, user, parts: Mapping[str, Any], base_version: int | None = None,
                       clock: Clock = timezone.now) -> Order:
    """Store a new version of ``user``'s order for ``phase`` (FM-5.6) equal to his latest payload with ``parts``
    replaced (``{"plays": [...], "discard": None}``: ``None`` removes a part; parts not named are kept, so saving the
    cards keeps the FM-7 vote and the FM-9.3 room proposals, and voting keeps the cards).

    ``phase`` is the phase the form or API body named: one that has ended is refused (``stale``, the core's
    check). ``base_version`` is the order version the panel was showing (0: none; ``None``: no check): a later
    version is fine when it changed only other panels' parts (a vote cast since the card form was loaded), and a
    ``conflict`` when it changed any of ``parts`` (the same panel saved elsewhere, e.g. in another tab).

    Raises :class:`~gm.core.services.ServiceError` as ``order_submit`` does (``stale`` for an ended phase, ``late``
    after the deadline, ``not_allowed`` for a dead or out-of-turn seat, ``forbidden`` without a seat, ``conflict``,
    ``invalid`` with the engine's reasons for the whole order); nothing is stored then."""
    if not isinstance(parts, Mapping) or not all(isinstance(k, str) for k in parts):
        raise core.ServiceError({"payload": [_("Order parts are named by strings.")]})
    if not user or not user.is_authenticated:
        return core.order_submit(phase=phase, user=user, payload={}, clock=clock)  # the core's "log in" refusal
    with transaction.atomic():
        phase = Phase.objects.select_for_update(of=("self",)).select_related("game").get(pk=phase.pk)
        seat = Seat.objects.filter(game_id=phase.game_id, user=user).first()
        base = latest_payload(phase, seat)
        payload = merge_parts(base, parts)
        return core.order_submit(phase=phase, user=user, payload=payload, clock=clock,
                                 base_version=_edited_version(phase, seat, base_version, base, parts))


def _edited_version(phase: Phase, seat: Seat | None, base_version: int | None, latest: Mapping[str, Any],
                    parts: Mapping[str, Any]) -> int | None:
    """The version to hand the core's ``base_version`` check: the latest one when only other parts changed since
    ``base_version`` (so the check passes), else ``base_version`` itself (the core refuses it as a ``conflict``)."""
    if base_version is None or seat is None:
        return base_version
    rows = dict(Order.objects.filter(phase_id=phase.pk, seat_id=seat.pk).values_list("version", "payload"))
    newest = max(rows, default=0)
    if base_version == newest or (base_version != 0 and base_version not in rows):
        return base_version
    edited = rows.get(base_version)
    edited = edited if isinstance(edited, Mapping) else {}
    if all(edited.get(part) == latest.get(part) for part in parts):
        return newest
    return base_version


def order_part_submit(*, phase: Phase, user, key: str, value: Any, base_version: int | None = None,
                      clock: Clock = timezone.now) -> Order:
    """Store a new version of ``user``'s order for ``phase`` equal to his latest payload with the one top-level part
    ``key`` (``"vote"``, ``"rooms"``, ``"plays"``…) replaced by ``value`` (``None`` removes it). See
    :func:`order_parts_submit` for ``base_version`` and the errors; nothing is stored on error."""
    return order_parts_submit(phase=phase, user=user, parts={key: value}, base_version=base_version, clock=clock)
