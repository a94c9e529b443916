"""Signals the core sends so that apps can join in without the core knowing them."""
from django.dispatch import Signal

#: Sent inside ``game_start``'s transaction after the module's ``setup`` and before the game row is saved.
#: Arguments: ``game`` (its ``state`` may be extended in place) and ``module`` (the GameModule).
game_started = Signal()

#: Sent by ``gm.core.tasks.phase_notify_task`` once a phase's resolution (or the end of the game inside it) has
#: committed, so that apps can tell the players and the master (the inbox: notifications, and the result e-mail
#: to those who opted in). Arguments: ``phase_id`` (int). A receiver returns how many e-mails it sent (int) or
#: ``None``. Receivers must be idempotent: Celery may run the task twice (late acknowledgement).
phase_results_ready = Signal()

#: Sent after the transaction that created a thread post commits. Arguments: ``post`` (a ``Post``). Whoever sends
#: notifications about it must read it through ``gm.core.visibility`` (``private_readers``): its private part is for
#: the recipient and the master only.
post_created = Signal()
