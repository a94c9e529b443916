"""Write services of the game-master core (imperative shell around the pure module engines), by entity:

* :mod:`~gm.core.services.base` — the public base every service builds on (``ServiceError``, ``Clock``,
  ``require_master``, ``audit_write``, ``log_entry``/``log_write``, ``add_groups``, ``phase_open``,
  ``latest_orders``, ``seat_info``…);
* :mod:`~gm.core.services.games` — games and seats (create, signups, start, abort);
* :mod:`~gm.core.services.orders` — orders (submit, withdraw, the phase that accepts them);
* :mod:`~gm.core.services.thread` — the game thread (posts, edits, private messages);
* :mod:`~gm.core.services.resolution` — applying an engine result (snapshot, digest, apply, finish);
* :mod:`~gm.core.services.review` — review before publishing (hold, publish);
* :mod:`~gm.core.services.phases` — deadlines and resolution (claim, resolve, sweep);
* :mod:`~gm.core.services.master` — the master's actions on the clock (extend, pause, resume, resolve now).

The long-game features (issue 23, per-game options on ``GameLife``), imported by module path
(``from gm.core.services import grids``): :mod:`~gm.core.services.outage` (outage protection of the sweep),
:mod:`~gm.core.services.grids` (deadline grids, the reminder lead table), :mod:`~gm.core.services.iso` (ISO, phase
index, vote history), :mod:`~gm.core.services.early_ends` (hammer, "done"), :mod:`~gm.core.services.anonymity`
(aliases, secret ballot), :mod:`~gm.core.services.graveyard`.

Everything public is re-exported here: ``from gm.core import services; services.order_submit(...)``. The modules
import downward only (base → resolution → review → phases → master; games, orders and thread on base); the
Celery tasks (:mod:`gm.core.tasks`) call the services and the services find the tasks by name
(:func:`~gm.core.services.base.task`).

Every service is keyword-only, atomic, and locks the rows it changes (the phase row first, then the game row,
always in that order so two services never deadlock). Deadline logic takes an injectable ``clock`` (a callable
returning an aware UTC ``datetime``) so it can be tested on frozen time.

Exactly once: a phase moves ``open → resolving`` only by a compare-and-set UPDATE (:func:`phase_claim`) that
records a claim token; :func:`phase_resolve` then locks the row and resolves only if the token is still its
own, writing everything in one transaction. A worker that dies leaves ``resolving`` with its token and
nothing else; :func:`phases_sweep` reclaims it after ``GM_RESOLVING_TIMEOUT`` seconds. The partial unique
constraint "one unresolved phase per game" backs this up at the database.
"""
import uuid  # noqa: F401 - claim tokens are uuid4s: services.uuid.uuid4() makes a token that is nobody's claim

from . import review
from .base import (
    Clock,
    LogRow,
    ServiceError,
    add_groups,
    audit_write,
    can_host,
    latest_orders,
    log_entry,
    log_write,
    phase_open,
    require_master,
    schedule_deadline,
    seat_info,
    task,
    violation_errors,
    violation_refusal,
)
from .games import (
    game_abort,
    game_close_signup,
    game_create,
    game_open_signup,
    game_start,
    seat_join,
    seat_leave,
)
from .master import (
    game_pause,
    game_resume,
    phase_extend,
    phase_resolve_now,
)
from .orders import (
    order_submit,
    order_withdraw,
    phase_accepting_for_update,
    phase_named,
    stale_refusal,
)
from .phases import (
    SweepReport,
    phase_claim,
    phase_reclaim,
    phase_resolve,
    phase_resolve_due,
    phases_sweep,
)
from .resolution import (
    canonical_digest,
    canonical_json,
    game_finish,
    outcome_dict,
    phase_snapshot,
    resolution_apply,
    resolution_data,
    run_engine,
)
from .thread import (
    post_create,
    post_edit,
)

__all__ = [
    "add_groups",
    "audit_write",
    "can_host",
    "canonical_digest",
    "canonical_json",
    "Clock",
    "game_abort",
    "game_close_signup",
    "game_create",
    "game_finish",
    "game_open_signup",
    "game_pause",
    "game_resume",
    "game_start",
    "latest_orders",
    "log_entry",
    "log_write",
    "LogRow",
    "order_submit",
    "order_withdraw",
    "outcome_dict",
    "phase_accepting_for_update",
    "phase_claim",
    "phase_extend",
    "phase_named",
    "phase_open",
    "phase_reclaim",
    "phase_resolve",
    "phase_resolve_due",
    "phase_resolve_now",
    "phase_snapshot",
    "phases_sweep",
    "post_create",
    "post_edit",
    "require_master",
    "resolution_apply",
    "resolution_data",
    "review",
    "run_engine",
    "schedule_deadline",
    "seat_info",
    "seat_join",
    "seat_leave",
    "ServiceError",
    "stale_refusal",
    "SweepReport",
    "task",
    "violation_errors",
    "violation_refusal",
]
