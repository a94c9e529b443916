"""Forum Mafia rules of the game thread (pure; no Django): who may post (FM-9.7, ``avenger``) and who may send a
private message to whom (FM-9.2, ``postman``). The core's thread services call these through the module hooks
``may_post`` and ``check_private``; messages are msgids marked with a no-op ``_`` (the shell translates them)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gm.core.engine import PhaseInfo, PrivateSent, RuleError, RuleViolation, SeatInfo

from .state import DAY

AVENGER = "avenger"
POSTMAN = "postman"


def _(s: str) -> str:
    return s


def public_role(data: Mapping[str, Any]) -> Any:
    """The seat's claimed public role slug (FM-2), or a custom ``{"custom": name}``, or ``None``."""
    return data.get("public_role")


def may_post(seat_data: Mapping[str, Any], alive: bool) -> bool:
    """FM-9.7: the dead may not post in the game thread — except the ``avenger`` (FM-8), who still talks publicly."""
    return alive or public_role(seat_data) == AVENGER


def neighbours(sender: SeatInfo, seats: Sequence[SeatInfo]) -> list[SeatInfo]:
    """FM-9.2 [house]: the players sit in a ring in seat ``position`` order; the sender's neighbours are the nearest
    *living* seat on each side of him (dead seats are skipped). One seat when only one other is alive (both sides
    meet), none when nobody else lives. Ring order, the following side first."""
    ring = sorted((s for s in seats if s.alive and s.id != sender.id), key=lambda s: s.position)
    if not ring:
        return []
    after = next((s for s in ring if s.position > sender.position), ring[0])
    before = next((s for s in reversed(ring) if s.position < sender.position), ring[-1])
    return [after] if after.id == before.id else [after, before]


def check_private(
    *, phase: PhaseInfo | None, sender: SeatInfo, recipient: SeatInfo, seats: Sequence[SeatInfo],
    sent: Sequence[PrivateSent],
) -> bool:
    """May ``sender`` put ``[private="recipient"]…[/private]`` into a post now? Returns whether the recipient's name
    is shown publicly (only a ``postman``'s message to a non-neighbour); raises :class:`RuleViolation` (field
    ``body``) with the rule ID:

    * FM-9.2 only by day (``phase`` is the day accepting input);
    * FM-9.7 the dead neither send (an avenger talks publicly only) nor receive messages; not to oneself;
    * FM-9.2 only to a neighbour (:func:`neighbours`); FM-8 ``postman``: once per day to anyone, named publicly —
      ``sent`` (his private messages of this day) tells whether he has used it.
    """
    def refuse(message: str, rule: str, **params: Any) -> RuleViolation:
        return RuleViolation([RuleError(message, field="body", rule=rule, params=params)])

    if phase is None or phase.kind != DAY:
        raise refuse(_("Private messages are sent by day only."), "FM-9.2")
    if not sender.alive:
        raise refuse(_("The dead send no private messages."), "FM-9.7")
    if recipient.id == sender.id:
        raise refuse(_("You can't send a private message to yourself."), "FM-9.2")
    if not recipient.alive:
        raise refuse(_("%(name)s is dead: the dead get no messages."), "FM-9.7", name=recipient.name)
    near = neighbours(sender, seats)
    if any(s.id == recipient.id for s in near):
        return False
    names = ", ".join(s.name for s in near) or "—"
    if public_role(sender.data) == POSTMAN:
        if any(m.public_recipient for m in sent):
            raise refuse(_("%(name)s is not your neighbour, and you have already used the postman's message of "
                           "today; your neighbours are %(neighbours)s."), "FM-8", name=recipient.name,
                         neighbours=names)
        return True
    raise refuse(_("%(name)s is not your neighbour: you may send private messages only to your neighbours "
                   "(%(neighbours)s)."), "FM-9.2", name=recipient.name, neighbours=names)
