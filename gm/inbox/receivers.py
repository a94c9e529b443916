"""Signal receivers: the inbox joins in when the core says a phase's results are ready."""
from __future__ import annotations


def phase_results_ready(sender, *, phase_id: int, **kwargs) -> int:
    """``gm.core.signals.phase_results_ready``: notify every recipient, e-mail those who opted in; returns how many
    e-mails were sent."""
    from .services import notify_phase_results

    return notify_phase_results(phase_id=phase_id)
