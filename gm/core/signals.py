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

#: Sent inside the transaction of ``gm.core.interventions.seat_replace_player`` after the seat's user changed.
#: Arguments: ``seat`` (a ``Seat``, ``seat.user`` is the new user), ``old_user`` (may be ``None``) and ``new_user``.
#: Receivers move what their app keeps per user for this seat's game to the new user, so nothing the seat knew is
#: lost and the old user keeps nothing secret; they may raise ``ServiceError`` to refuse (everything rolls back).
seat_replaced = Signal()

#: Sent after a master's intervention that logged lines addressed to single seats commits (a player killed from the
#: console is told of his death, FM-6.2). Arguments: ``entry_ids`` (ids of ``seat`` log entries). Receivers deliver
#: each entry to its seat's player alone.
seat_told = Signal()

#: Sent after the transaction of ``gm.core.services.activity.sweep_game`` that prodded a quiet player commits.
#: Arguments: ``seat_id`` (int), ``prods`` (how many prods this seat has had: with the seat, a de-duplication key)
#: and ``hours`` (the game's ``prod_after``). The inbox tells the seat's player (and e-mails him when he opted in).
seat_prodded = Signal()

#: Sent inside the transaction that finishes a game (``gm.core.services.game_finish``: a resolution, a published
#: result, an instant ability or a master's kill that wins the game), after ``game.status``, ``finished_at`` and
#: ``outcome`` are set on the (not yet saved) ``game`` and the seats hold their final data. Arguments: ``game``,
#: ``phase`` (the last phase, resolved) and ``now``. Receivers keep per-game aggregates (``gm.community``: the
#: reliability record and the statistics) in the same transaction, so they never disagree with the game.
game_finished = Signal()

#: Sent inside the transaction of a master's kill (``gm.core.interventions.seat_set_alive`` with ``alive=False``) and
#: of the activity sweep's idle kill. Arguments: ``game``, ``seat`` (its ``user`` is the player killed) and ``now``.
seat_modkilled = Signal()

#: Sent inside ``gm.core.services.seat_join``'s transaction, with the game row locked, before the seat is created.
#: Arguments: ``game`` and ``user``. A receiver refuses the signup by raising ``ServiceError`` with the reason the
#: player reads (``gm.community``: a game's minimum reliability record, an active sanction).
seat_joining = Signal()
#: Sent after a co-mastering event commits (issue 24 item 5): a setup review decided, a takeover offered or done, a
#: co-master added. Arguments: ``game_id`` (int), ``user_ids`` (the users to tell), ``what`` (``review_approved``,
#: ``review_rejected``, ``takeover_offer``, ``taken_over``, ``comaster_added``), ``data`` (JSON-compatible, e.g.
#: ``{"comment": …}``) and ``key`` (a de-duplication key: a receiver adds one row per user and key). The inbox
#: tells each user.
master_notice = Signal()

#: Sent after a logged-in user who has no seat and does not master the game read its page (the spectator's view).
#: Arguments: ``game_id`` (int) and ``user`` (the user). ``gm.fairplay`` remembers it: a spectator who shares a
#: login signal with a seat of the same game is flagged on the master's console.
spectator_seen = Signal()
