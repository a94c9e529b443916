"""The HTTP side of a playtest bot: :class:`Client` talks to the site only through the REST API a person's client
would use, with a user's API token, and records what the site accepted and refused in a shared :class:`Tally`.

A game module's bots (``GameModule.bot_policy``) subclass :class:`Client` with its game's choices. Common to every
game: an order for the open phase chosen among ``GET /api/games/<id>/order-options/``, an order sent just after the
deadline (:meth:`Client.late_order`), an order from a dead seat (:meth:`Client.try_while_dead`), a deliberately
illegal request (:meth:`Client.expect_refusal`); every refusal must carry a reason a person can read.
"""
from __future__ import annotations

import random
import re
import threading
import time
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import requests

#: Rule IDs a refusal may name (``FM-5.5``, ``ON-4.2``, ``BW-24b``…): the summary groups refusals by them.
RULE_ID = re.compile(r"\b[A-Z]{2}-\d+(?:\.\d+)*[a-z]?\b")


@dataclass
class Tally:
    """What the bots did and what the site refused, shared by the bots of a game (thread-safe)."""

    refused: Counter = field(default_factory=Counter)  # (deliberate?, what, status, code, reason) -> n
    done: Counter = field(default_factory=Counter)  # action -> n
    failures: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def count(self, action: str) -> None:
        with self.lock:
            self.done[action] += 1

    def refusal(self, *, deliberate: bool, what: str, status: int, body: Any) -> None:
        with self.lock:
            self.refused[(deliberate, what, status, error_code(body), reason(body))] += 1

    def fail(self, text: str) -> None:
        with self.lock:
            self.failures.append(text)

    def without_reason(self) -> int:
        """Refusals that carried no reason a person could read."""
        return sum(n for (_d, _w, _s, _c, why), n in self.refused.items() if not why)


def error_code(body: Any) -> str:
    return str(body.get("code", "")) if isinstance(body, dict) else ""


def messages(body: Any) -> list[str]:
    """Every message of an API error body ``{"errors": {field: [messages]}, "code": slug}``."""
    errors = body.get("errors") if isinstance(body, dict) else None
    out: list[str] = []
    if isinstance(errors, dict):
        for value in errors.values():
            out += [str(m) for m in value] if isinstance(value, list) else [str(value)]
    return [m for m in out if m.strip()]


def reason(body: Any) -> str:
    """The refusal's reason for the summary: the rule IDs it names, else its first message (shortened); ``""``
    when the body gives none."""
    texts = messages(body)
    rules = sorted({r for t in texts for r in RULE_ID.findall(t)})
    if rules:
        return ", ".join(rules)
    if not texts:
        return ""
    # Without a rule ID: the message without its variable parts (names, dates, numbers), so equal reasons add up.
    text = re.sub(r"\([^)]*\)|“[^”]*”|\d+", "…", texts[0].split(";")[0])
    return text[:80]


class Client:
    """One bot player: ``index`` in the table, ``token`` for ``Authorization: Token …``, ``seat_id`` once seated,
    ``rng`` its own seeded choices, ``tally`` shared with the other bots of the game. ``chances`` (class attribute)
    maps a misbehaviour to its probability per phase, read by :meth:`chance`."""

    chances: Mapping[str, float] = {}
    #: The misbehaviours after which the bot is not done with the phase (see :meth:`press_done`).
    SKIPS = ("miss", "late")

    def __init__(self, *, base_url: str, game_id: int, index: int, token: str, rng: random.Random, tally: Tally,
                 timeout: float = 20):
        self.base_url, self.game_id, self.index, self.rng, self.tally = base_url, game_id, index, rng, tally
        self.name = f"Bot {index + 1}"
        self.seat_id: int | None = None
        self.skipped = False  # this phase: it missed it or sends too late (:data:`SKIPS`)
        self.timeout = timeout
        self.http = requests.Session()
        self.http.headers.update({"Authorization": f"Token {token}", "Accept-Language": "en"})

    # -- HTTP ------------------------------------------------------------------------------------------------
    def call(self, method: str, path: str, json: Any = None) -> tuple[int, Any]:
        """One request; ``<id>`` in ``path`` is the game's id. Returns ``(status, body)`` (JSON, else text)."""
        url = f"{self.base_url}{path}".replace("<id>", str(self.game_id))
        response = self.http.request(method, url, json=json, timeout=self.timeout)
        try:
            body = response.json()
        except ValueError:
            body = response.text[:200]
        return response.status_code, body

    def attempt(self, what: str, method: str, path: str, json: Any = None) -> tuple[bool, Any]:
        """A request the bot believes legal: ``(True, body)`` on 2xx; a refusal is recorded (not deliberate)."""
        status, body = self.call(method, path, json)
        if status < 300:
            self.tally.count(what)
            return True, body
        if status >= 500:
            self.tally.fail(f"{self.name}: {what} answered {status}: {str(body)[:200]}")
        self.tally.refusal(deliberate=False, what=what, status=status, body=body)
        return False, body

    def expect_refusal(self, what: str, method: str, path: str, json: Any = None) -> None:
        """A request the bot knows is illegal: the site must refuse it (4xx) with a reason."""
        status, body = self.call(method, path, json)
        if status < 300:
            self.tally.fail(f"{self.name}: illegal {what} was accepted ({status}): {json!r}")
            return
        if status >= 500:
            self.tally.fail(f"{self.name}: illegal {what} answered {status}: {str(body)[:200]}")
        self.tally.refusal(deliberate=True, what=what, status=status, body=body)
        if not messages(body):
            self.tally.fail(f"{self.name}: {what} refused ({status}) without a reason: {str(body)[:200]}")

    def chance(self, key: str) -> bool:
        """Whether the misbehaviour ``key`` of :attr:`chances` happens now (one draw of the bot's RNG)."""
        hit = self.rng.random() < self.chances[key]
        if hit and key in self.SKIPS:
            self.skipped = True
        return hit

    def press_done(self, phase_id: int) -> None:
        """``POST /api/games/<id>/ready/``: the bot is done with phase ``phase_id`` (a game with the ``all_ready``
        option, issue 23). A phase that has already ended answers 409 ``stale``/``late``: not a failure."""
        status, body = self.call("POST", "/api/games/<id>/ready/", {"phase": phase_id, "done": True})
        if status < 300:
            self.tally.count("done")
        elif status >= 500:
            self.tally.fail(f"{self.name}: done answered {status}: {str(body)[:200]}")
        elif status != 409:
            self.tally.refusal(deliberate=False, what="done", status=status, body=body)

    # -- common moves ----------------------------------------------------------------------------------------
    def order_options(self) -> dict | None:
        """``GET /api/games/<id>/order-options/``: the legal choices now, or ``None`` when refused."""
        ok, options = self.attempt("order options", "GET", "/api/games/<id>/order-options/")
        return options if ok else None

    def send_order(self, phase_id: Any, payload: Any, what: str = "order") -> bool:
        """``POST /api/games/<id>/orders/`` of ``payload`` for phase ``phase_id``, believed legal."""
        ok, _body = self.attempt(what, "POST", "/api/games/<id>/orders/", {"phase": phase_id, "payload": payload})
        return ok

    def late_order(self, ordinal: int, deadline: float, phase_id: int) -> None:
        """An order for phase ``phase_id`` sent just after its deadline: refused as ``late`` while the phase waits
        for its resolution, as ``stale`` once it is resolved — never stored, for it or the next phase."""
        self.sleep_until(deadline + 0.01)
        status, body = self.call("POST", "/api/games/<id>/orders/", {"phase": phase_id, "payload": {}})
        if status < 300:
            self.tally.fail(f"{self.name}: an order after the deadline of phase {ordinal} was accepted "
                            f"(for phase {body.get('phase')})")
            return
        self.tally.refusal(deliberate=True, what="late order", status=status, body=body)
        if not messages(body):
            self.tally.fail(f"{self.name}: late order refused ({status}) without a reason")

    def try_while_dead(self, phase_id: int) -> None:
        """A dead seat's order for the open phase ``phase_id``: refused."""
        self.expect_refusal("order while dead", "POST", "/api/games/<id>/orders/", {"phase": phase_id, "payload": {}})

    # -- time ------------------------------------------------------------------------------------------------
    def sleep_into(self, deadline: float, share: float) -> None:
        """Sleep a random part (up to ``share``) of the time left before ``deadline`` (epoch seconds)."""
        left = deadline - time.time()
        if left > 0:
            time.sleep(self.rng.uniform(0, share) * left)

    def sleep_until(self, moment: float) -> None:
        left = moment - time.time()
        if left > 0:
            time.sleep(left)


class ChoiceBot(Client):
    """A bot for a game whose order options list whole choices (``choices`` of ``GET /api/games/<id>/order-options/``):
    each phase it may miss the phase or order too late (:meth:`chance` ``miss``/``late``), may first send one
    deliberately illegal order (``illegal``, :meth:`illegal`), then sends :meth:`compose`'s order and, when
    :meth:`changes_mind`, a second one later in the phase. A module's bot overrides the hooks, not the phase."""

    def play_phase(self, *, kind: str, ordinal: int, deadline: float, phase_id: int) -> None:
        """One phase, as the class docstring says (``deadline``: Unix seconds)."""
        self.sleep_into(deadline, 0.25)
        if self.chance("miss"):
            self.tally.count("missed phase")
            return
        if self.chance("late"):
            self.late_order(ordinal, deadline, phase_id)
            return
        options = self.order_options()
        if not options or not options.get("choices"):
            self.tally.count("nothing to choose")
            return
        if self.chance("illegal"):
            self.illegal(options)
        self.send_order(options["phase"], self.compose(options))
        if self.changes_mind(options):
            self.sleep_into(deadline, 0.6)
            options = self.order_options()
            if options and options.get("choices"):
                self.send_order(options["phase"], self.compose(options), "changed order")

    def compose(self, options: dict) -> Any:
        """The order to send: by default the payload of a random offered choice."""
        return self.rng.choice(options["choices"])["payload"]

    def changes_mind(self, options: dict) -> bool:
        """Whether to change the order later in the phase: by default, sometimes, when there was a choice."""
        return len(options["choices"]) > 1 and self.chance("change_mind")

    def illegal(self, options: dict) -> None:
        """Send one deliberately illegal order (it must be refused); by default none."""
