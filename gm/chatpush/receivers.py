"""Signal receivers: each enqueues one task after commit, so no chat or push work runs in a request or in the
resolution's transaction (the core sends ``phase_results_ready`` from its own task, already after commit)."""
from __future__ import annotations

from django.db import transaction


def _enqueue(name: str, *args) -> None:
    from gm.core.services.base import task

    task(name).delay_on_commit(*args)


def phase_results_ready(sender, *, phase_id: int, **kwargs) -> None:
    """``gm.core.signals.phase_results_ready``: results and the next phase's opening."""
    _enqueue("gm.chatpush.tasks.phase_results_task", phase_id)


def game_started(sender, *, game, **kwargs) -> None:
    """``gm.core.signals.game_started`` (inside ``game_start``'s transaction, before the first phase exists): the
    first phase is announced once the start has committed."""
    game_id = game.pk
    transaction.on_commit(lambda: _enqueue("gm.chatpush.tasks.game_started_task", game_id))


def post_created(sender, *, post, **kwargs) -> None:
    """``gm.core.signals.post_created`` (after commit): a private message, mentions."""
    _enqueue("gm.chatpush.tasks.post_created_task", post.pk)


def seat_prodded(sender, *, seat_id, prods, hours, **kwargs) -> None:
    """``gm.core.signals.seat_prodded`` (after commit): the prodded player."""
    _enqueue("gm.chatpush.tasks.seat_prodded_task", seat_id, prods, hours)


def seat_told(sender, *, entry_ids, **kwargs) -> None:
    """``gm.core.signals.seat_told`` (after commit): each told seat's player."""
    _enqueue("gm.chatpush.tasks.seat_told_task", list(entry_ids))
