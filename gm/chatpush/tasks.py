"""Celery tasks of chat and push notifications: they take ids and call services; nothing else."""
from __future__ import annotations

from celery import shared_task

from .services import delivery, fanout


@shared_task(bind=True, name="gm.chatpush.tasks.deliver_task", ignore_result=True, max_retries=None)
def deliver_task(self, delivery_id: int) -> str:
    """Send one queued message (:func:`gm.chatpush.services.delivery.attempt`); on a failure that may pass, retry
    after the exponential backoff the service chose (the service counts attempts and gives up at
    ``GM_CHATPUSH_MAX_ATTEMPTS``). Returns the row's status."""
    outcome = delivery.attempt(delivery_id=delivery_id)
    if outcome.retry_in is not None:
        raise self.retry(countdown=outcome.retry_in)
    return outcome.status


@shared_task(name="gm.chatpush.tasks.phase_results_task", ignore_result=True)
def phase_results_task(phase_id: int) -> int:
    """Results of a resolved phase and the opening of the next (:func:`.fanout.phase_results`)."""
    return len(fanout.phase_results(phase_id=phase_id))


@shared_task(name="gm.chatpush.tasks.game_started_task", ignore_result=True)
def game_started_task(game_id: int) -> int:
    """The first phase of a game that started (:func:`.fanout.game_started`)."""
    return len(fanout.game_started(game_id=game_id))


@shared_task(name="gm.chatpush.tasks.post_created_task", ignore_result=True)
def post_created_task(post_id: int) -> int:
    """A private message and the mentions of a new post (:func:`.fanout.post_created`)."""
    return len(fanout.post_created(post_id=post_id))


@shared_task(name="gm.chatpush.tasks.seat_prodded_task", ignore_result=True)
def seat_prodded_task(seat_id: int, prods: int, hours) -> int:
    """A prod (:func:`.fanout.prod`)."""
    return len(fanout.prod(seat_id=seat_id, prods=prods, hours=hours))


@shared_task(name="gm.chatpush.tasks.seat_told_task", ignore_result=True)
def seat_told_task(entry_ids: list[int]) -> int:
    """A master's lines for single seats (:func:`.fanout.seat_told`)."""
    return len(fanout.seat_told(entry_ids=entry_ids))


@shared_task(name="gm.chatpush.tasks.deadline_sweep_task", ignore_result=True)
def deadline_sweep_task(after: list | None = None) -> int:
    """Beat's deadline warnings (every ``GM_REMINDER_INTERVAL`` seconds, after the inbox's reminders;
    :func:`.fanout.deadline_sweep_batch`): one batch of phases after the cursor ``after`` (``None`` from beat); a
    full batch sends the next one as a task of its own. Returns how many warnings it queued."""
    created, resume = fanout.deadline_sweep_batch(after=after)
    if resume is not None:
        deadline_sweep_task.delay_on_commit(after=resume)
    return len(created)
