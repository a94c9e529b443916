"""Signal receivers: the inbox joins in when the core says a phase's results are ready."""
from __future__ import annotations


def phase_results_ready(sender, *, phase_id: int, **kwargs) -> int:
    """``gm.core.signals.phase_results_ready``: notify every recipient, e-mail those who opted in; returns how many
    e-mails were sent."""
    from .services import notify_phase_results

    return notify_phase_results(phase_id=phase_id)


def post_created(sender, *, post, **kwargs) -> None:
    """``gm.core.signals.post_created`` (after the post committed): the recipient of a private message in it
    (FM-9.2) gets it in his inbox — he alone; the master reads every private message on the game page."""
    from gm.core.models import PostPrivate

    from .services import notify_private

    private = PostPrivate.objects.filter(post=post).select_related("post__game", "recipient").first()
    if private is not None:
        notify_private(private)


def seat_replaced(sender, *, seat, old_user, new_user, **kwargs) -> None:
    """``gm.core.signals.seat_replaced`` (a master gave the seat to another player): the old player's notifications
    of that game move to the new one — his results, private messages and invitations are the seat's — and the old
    player keeps none of them. Rows the new user already has (same key) are kept once."""
    from .models import Notification

    if old_user is None:
        return
    rows = Notification.objects.filter(game_id=seat.game_id, user=old_user)
    taken = Notification.objects.filter(user=new_user).exclude(key="").values("key")
    rows.filter(key__in=taken).delete()
    rows.update(user=new_user)


def seat_told(sender, *, entry_ids, **kwargs) -> None:
    """``gm.core.signals.seat_told`` (after a master's intervention committed): each seat entry reaches the inbox of
    its seat's player alone (see :func:`.services.notify_seat_entries`)."""
    from .services import notify_seat_entries

    notify_seat_entries(entry_ids=entry_ids)


def seat_prodded(sender, *, seat_id, prods, hours, **kwargs) -> None:
    """``gm.core.signals.seat_prodded`` (issue 23: a quiet player was prodded): his inbox, and an e-mail when he
    opted in (see :func:`.services.notify_prod`)."""
    from .services import notify_prod

    notify_prod(seat_id=seat_id, prods=prods, hours=hours)


def master_notice(sender, *, game_id, user_ids, what, data, key, **kwargs) -> None:
    """``gm.core.signals.master_notice`` (issue 24: a setup review decided, a takeover offered or done): one
    ``notice`` row per user and key (see :func:`.services.notify_notice`)."""
    from .services import notify_notice

    notify_notice(game_id=game_id, user_ids=user_ids, what=what, data=data, key=key)
def game_started(sender, *, game, **kwargs) -> None:
    """``gm.core.signals.game_started`` (inside ``game_start``'s transaction, before the first phase exists): once
    the start has committed, the actors of the first step of a game of steps (``GameModule.step_notices``,
    Bloodwood's first turn) get "your move" (see :func:`.services.notify_step_opened`); nothing for other games."""
    from django.db import transaction

    if not getattr(kwargs.get("module"), "step_notices", False):
        return
    game_id = game.pk

    def announce() -> None:
        from gm.core.models import Phase

        from .services import notify_step_opened

        for phase_id in Phase.objects.filter(game_id=game_id, status=Phase.Status.OPEN).values_list("pk", flat=True):
            notify_step_opened(phase_id=phase_id)

    transaction.on_commit(announce)
