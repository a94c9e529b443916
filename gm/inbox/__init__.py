"""The in-site inbox: notifications of phase results, private messages, room invitations and deadline reminders,
the per-user e-mail opt-in and the master's per-game reminder setting.

Other apps call :func:`gm.inbox.services.notify_private` and :func:`gm.inbox.services.notify_room`; phase results
arrive through the core's ``phase_results_ready`` signal, reminders through the beat task
``gm.inbox.tasks.reminders_sweep_task``.
"""
