"""Re-running a resolved phase and comparing the result with the stored one (``manage.py gm_replay``).

:func:`diff` is pure (plain JSON data in, a list of differences out) and reusable by anything that compares engine
output — scenario runners, tests. :func:`replay_phase` is the shell part: it reads the phase's stored input
(``Phase.state``: ``{"game": module state, "seats": [seat snapshots]}``), the last order versions and the phase's
RNG seed, runs the module engine through :func:`gm.core.services.run_engine` — the same call ``phase_resolve``
makes — and diffs the outcome with ``Phase.result`` and ``Phase.result_digest``.
"""
from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


class _Missing:
    """Stands for "no value here" in a difference (a key or list item that only one side has)."""

    _instance = None

    def __new__(cls):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "<missing>"


#: The value reported for a key or list item that one side lacks.
MISSING: Any = _Missing()

_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def _key_path(path: str, key: Any) -> str:
    key = str(key)
    return f"{path}.{key}" if _IDENTIFIER.match(key) else f"{path}[{json.dumps(key, ensure_ascii=False)}]"


def _same_scalar(a: Any, b: Any) -> bool:
    # JSON keeps true apart from 1 and 1 apart from 1.0 after a round trip; Python's == would not.
    return type(a) is type(b) and a == b


def diff(a: Any, b: Any, path: str = "") -> list[tuple[str, Any, Any]]:
    """Every difference between two JSON-compatible values, depth first, in a stable order.

    ``a`` and ``b`` are what ``json.loads`` produces (dicts with string keys, lists, str, int, float, bool, None;
    tuples are compared like lists). Returns ``[(path, value in a, value in b), …]`` where ``path`` is ``path``
    extended with ``.key`` (``["key"]`` for keys that are not identifiers) and ``[index]``; prefix it with ``$`` to
    print a JSON-path (the root itself is ``""``). A key or list item present on one side only is reported with
    :data:`MISSING` on the other. Values of different types differ as a whole (``1`` vs ``1.0``, ``true`` vs ``1``).
    Dict keys are visited in ``a``'s order, then the keys only ``b`` has. Never raises for JSON data.
    """
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        out: list[tuple[str, Any, Any]] = []
        for key in a:
            out += diff(a[key], b[key], _key_path(path, key)) if key in b else [(_key_path(path, key), a[key],
                                                                                 MISSING)]
        out += [(_key_path(path, key), MISSING, b[key]) for key in b if key not in a]
        return out
    if _is_list(a) and _is_list(b):
        out = []
        for index in range(max(len(a), len(b))):
            sub = f"{path}[{index}]"
            if index >= len(a):
                out.append((sub, MISSING, b[index]))
            elif index >= len(b):
                out.append((sub, a[index], MISSING))
            else:
                out += diff(a[index], b[index], sub)
        return out
    if isinstance(a, Mapping) or isinstance(b, Mapping) or _is_list(a) or _is_list(b):
        return [(path, a, b)]
    return [] if _same_scalar(a, b) else [(path, a, b)]


def _is_list(value: Any) -> bool:
    return isinstance(value, Sequence) and not isinstance(value, str | bytes)


def json_path(path: str) -> str:
    """A :func:`diff` path as a printable JSON-path (``$`` for the root)."""
    return "$" + path


@dataclass
class ReplayReport:
    """The outcome of :func:`replay_phase`: the digests (stored and re-run), the differences between the stored
    ``Phase.result`` and the re-run's (each ``(path, stored, replayed)``), and whether the phase had a stored result
    at all (phases resolved before results were stored have only the digest)."""

    phase_id: int
    stored_digest: str
    replayed_digest: str
    differences: list[tuple[str, Any, Any]] = field(default_factory=list)
    has_stored_result: bool = True

    @property
    def identical(self) -> bool:
        return self.stored_digest == self.replayed_digest and not self.differences


class ReplayError(Exception):
    """The phase can't be replayed: unknown id, not resolved yet, or no stored input snapshot."""


def replay_orders(phase, seat_snapshots: Sequence[Mapping[str, Any]]) -> dict[int, dict]:
    """The orders that counted at ``phase``'s deadline, judged against the stored seat snapshots (the same rule as
    ``services.latest_orders``, FM-5.6): each seat's last order version; withdrawn ones (payload ``None``) dropped;
    only seats alive in the snapshot and, if ``phase.actors`` is set, among them."""
    from .models import Order

    latest: dict[int, Any] = {}
    for seat_id, payload in Order.objects.filter(phase=phase).order_by("seat_id", "version").values_list(
        "seat_id", "payload"
    ):
        latest[seat_id] = payload
    allowed = {s["id"] for s in seat_snapshots if s.get("alive", True)
               and (phase.actors is None or s["id"] in phase.actors)}
    return {sid: p for sid, p in latest.items() if p is not None and sid in allowed}


def replay_phase(phase_id: int) -> ReplayReport:
    """Re-run resolved phase ``phase_id`` from its stored snapshot, orders and RNG seed and compare it with what was
    stored. Raises :class:`ReplayError` for an unknown or unresolved phase. Never writes anything."""
    from . import services
    from .models import Phase

    phase = Phase.objects.select_related("game").filter(pk=phase_id).first()
    if phase is None:
        raise ReplayError(f"There is no phase with id {phase_id}.")
    if phase.status != Phase.Status.RESOLVED:
        raise ReplayError(f"Phase {phase_id} ({phase.kind} {phase.number} of game {phase.game_id}) is not resolved "
                          f"yet (status: {phase.status}); only resolved phases can be replayed.")
    snapshot = phase.state
    if not isinstance(snapshot, Mapping) or "game" not in snapshot or "seats" not in snapshot:
        raise ReplayError(f"Phase {phase_id} has no stored input snapshot to replay.")
    orders = replay_orders(phase, snapshot["seats"])
    result = services.run_engine(game=phase.game, phase=phase, snapshot=snapshot, orders=orders)
    data = services.resolution_data(result, phase.game.game_module.constant_state_keys)
    replayed = json.loads(json.dumps(data, ensure_ascii=False, default=str))  # as the database returns it
    has_stored = bool(phase.result)
    return ReplayReport(
        phase_id=phase.pk,
        stored_digest=phase.result_digest,
        replayed_digest=services.canonical_digest(data),
        differences=diff(phase.result, replayed) if has_stored else [],
        has_stored_result=has_stored,
    )
