"""The pure engine interface every game module implements (functional core).

Nothing here imports Django, touches I/O, reads a clock or uses the global ``random``: a module's engine receives
plain data (JSON-compatible ``dict`` state, :class:`SeatInfo`, :class:`PhaseInfo`) and a seeded
:class:`random.Random`, and returns plain data. The Django shell (``gm.core.services``) loads, calls and saves.

The same interface carries the four phase shapes of the supported games (see ``docs/architecture.md``):
simultaneous phases, ordered extra steps, turn-based play with reaction windows, and split days with dice.
"""
from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Literal


def _(s: str) -> str:
    """Marks a msgid for ``makemessages``; the shell translates it when it renders the error (pure: no gettext)."""
    return s


Visibility = Literal["public", "seat", "group", "master"]
VISIBILITIES: tuple[Visibility, ...] = ("public", "seat", "group", "master")


class RuleViolation(Exception):
    """One or more broken rules; raised by ``validate_options`` and ``validate_order``.

    ``errors`` is a list of :class:`RuleError`; the shell shows every one of them, field by field.
    """

    def __init__(self, errors: Sequence[RuleError]):
        self.errors = list(errors)
        super().__init__("; ".join(e.render() for e in self.errors))


@dataclass(frozen=True)
class RuleError:
    """A broken rule: ``rule`` is the rule ID (e.g. ``"FM-5.5"``) or ``""``; ``field`` is the payload key at
    fault (``""`` for the whole order); ``message`` is a translatable text (may be a lazy string) and
    ``params`` the numbers it names, formatted into it with ``%``; ``code`` the module's own refusal code (e.g.
    BW-26's ``not_your_turn``), ``""`` for none — the core's order API returns it in the error body's ``details``
    (and as the body's ``code`` when every error of the refusal has the same one)."""

    message: Any
    field: str = ""
    rule: str = ""
    params: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    code: str = ""

    def render(self, translate: Callable[[str], str] = str) -> str:
        """The message with ``params`` filled in; ``translate`` (the shell passes Django's ``gettext``) turns a
        plain msgid into the reader's language (lazy messages are already translated by ``str``)."""
        text = translate(str(self.message))
        return text % dict(self.params) if self.params else text


@dataclass(frozen=True)
class SeatInfo:
    """A seat as the engine sees it: ``id`` (stable int), ``name`` (display name), ``position`` (ring order,
    0-based), ``alive`` and the module's ``data`` for this seat (secret and public)."""

    id: int
    name: str
    position: int
    alive: bool = True
    data: Mapping[str, Any] = dataclasses.field(default_factory=dict)


@dataclass(frozen=True)
class PhaseSpec:
    """A phase a module asks the core to open.

    ``kind`` is the module's phase kind slug (``night``, ``day``, ``doppelganger``, ``turn``, ``reaction``,
    ``action``, ``contact``…); ``number`` its count shown in the label («Ночь 2»); ``duration`` the length in
    seconds, or ``None`` to use the game's duration for ``kind``; ``actors`` the seat ids that may order in it
    (``None``: every living seat) — turn-based games name one seat, reaction windows the attacked one;
    ``setup`` marks a phase of the setup stage (deck building): the game stays ``setup`` until it is over.
    """

    kind: str
    number: int = 1
    duration: float | None = None
    actors: Sequence[int] | None = None
    setup: bool = False


@dataclass(frozen=True)
class PhaseInfo:
    """The open phase as the engine sees it: ``kind``, ``number``, ``ordinal`` (1-based across the game) and
    ``actors`` (``None`` = every living seat)."""

    kind: str
    number: int
    ordinal: int
    actors: Sequence[int] | None = None


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, for the log.

    ``kind`` is a module message key (the module renders it in the viewer's language from ``data``);
    ``visibility`` who may read it: ``public``; ``seat`` (``seat`` = the seat id); ``group`` (``group`` = a
    group slug such as ``faction:mafia`` or ``room:3``); ``master`` (the resolution trace). ``data`` must be
    JSON-compatible.
    """

    kind: str
    data: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    visibility: Visibility = "public"
    seat: int | None = None
    group: str = ""

    def __post_init__(self):
        if self.visibility not in VISIBILITIES:
            raise ValueError(f"unknown visibility {self.visibility!r}")
        if (self.visibility == "seat") != (self.seat is not None):
            raise ValueError("a seat event names exactly one seat, and only a seat event does")
        if (self.visibility == "group") != bool(self.group):
            raise ValueError("a group event names its group, and only a group event does")


@dataclass(frozen=True)
class Outcome:
    """The end of a game: ``winners`` (faction slugs) and ``winning_seats`` (seat ids); ``draw`` when the game ends
    without a winner by a rule that says so (e.g. forum Mafia's stalemate, FM-10.H1): every seat's result is then
    "draw", not "lost"."""

    winners: Sequence[str]
    winning_seats: Sequence[int] = ()
    draw: bool = False


@dataclass(frozen=True)
class SeatResult:
    """One seat's revealed facts at the end of a game, for the statistics: ``side`` (the faction or team slug it
    played for at the end, ``""`` unknown), ``role`` (its role slug, ``""`` none) and ``won``."""

    seat_id: int
    side: str = ""
    role: str = ""
    won: bool = False


@dataclass(frozen=True)
class FinalResults:
    """What :meth:`GameModule.final_results` returns: the game's ``setup`` (the roles in play, a sorted tuple of role
    slugs, empty when the module has none) and each seat's :class:`SeatResult`."""

    setup: tuple[str, ...]
    seats: tuple[SeatResult, ...]


def results_from_seat_data(seats: Sequence[SeatInfo], outcome: Mapping[str, Any], *, side_key: str,
                           role_key: str) -> FinalResults:
    """A :meth:`GameModule.final_results` for modules that keep each seat's side and role in its data under
    ``side_key`` and ``role_key``: the setup is the sorted roles, ``won`` by the outcome's ``winning_seats``."""
    won = {int(s) for s in outcome.get("winning_seats") or []}
    rows = tuple(SeatResult(seat_id=s.id, side=str(s.data.get(side_key) or ""), role=str(s.data.get(role_key) or ""),
                            won=s.id in won) for s in seats)
    return FinalResults(setup=tuple(sorted(r.role for r in rows if r.role)), seats=rows)


@dataclass
class SetupResult:
    """What ``setup`` returns: the initial ``state``, per-seat ``seat_data`` (seat id → dict), initial
    ``groups`` (group slug → seat ids, e.g. the Mafia learning each other), ``events`` and the ``first_phase``."""

    state: dict
    first_phase: PhaseSpec
    seat_data: dict[int, dict] = dataclasses.field(default_factory=dict)
    groups: dict[str, list[int]] = dataclasses.field(default_factory=dict)
    events: list[Event] = dataclasses.field(default_factory=list)


@dataclass
class Resolution:
    """What ``resolve`` returns: the new ``state``; ``seat_data`` and ``alive`` changes (seat id → value);
    ``groups`` to add (slug → seat ids); ``events`` in order (their order is the resolution trace);
    ``next_phase`` to open, or ``None`` together with an ``outcome`` when the game ends."""

    state: dict
    events: list[Event] = dataclasses.field(default_factory=list)
    seat_data: dict[int, dict] = dataclasses.field(default_factory=dict)
    alive: dict[int, bool] = dataclasses.field(default_factory=dict)
    groups: dict[str, list[int]] = dataclasses.field(default_factory=dict)
    next_phase: PhaseSpec | None = None
    outcome: Outcome | None = None


@dataclass(frozen=True)
class PrivateSent:
    """A private message (FM-9.2) a seat already put into a post during the current phase, for
    :meth:`GameModule.check_private`: ``recipient`` seat id and whether its name was shown publicly."""

    recipient: int
    public_recipient: bool = False


@dataclass(frozen=True)
class SignupConsent:
    """A text a player must accept to take a seat (``GameModule.signup_consents``): ``key`` (a slug, what the API's
    ``accept`` list names), ``title`` (the text's heading), ``label`` (the checkbox's words), ``text`` (the full
    text shown above it; plain text, paragraphs separated by blank lines) and ``rule`` (the rule ID that asks for it,
    shown with a refusal)."""

    key: str
    title: Any
    label: Any
    text: Any = ""
    rule: str = ""


@dataclass(frozen=True)
class ViewerInfo:
    """Who looks, for ``GameModule.view``: ``kind`` is one of ``master``, ``player``, ``dead_player``,
    ``spectator``, ``anonymous``; ``seat`` the viewer's own seat id (players only); ``revealed`` is true once
    the game has ended (everything is shown to everyone)."""

    kind: str
    seat: int | None = None
    revealed: bool = False

    @property
    def sees_everything(self) -> bool:
        return self.kind == "master" or self.revealed


class GameModule:
    """Base class of a game module (engine hooks are pure; shell hooks name Django forms/templates).

    Subclasses set ``slug`` (``forum_mafia``, ``onuw``…), ``name`` (translatable), ``min_seats``/``max_seats``,
    ``phase_kinds`` (kind slug → translatable label with ``%(number)s``), ``default_durations`` (kind →
    seconds) and ``messages`` (event kind → translatable text with ``%(…)s`` placeholders from the event data).
    """

    slug: str = ""
    name: Any = ""
    min_seats: int = 1
    max_seats: int = 64
    phase_kinds: Mapping[str, Any] = {}
    default_durations: Mapping[str, float] = {}
    messages: Mapping[str, Any] = {}
    #: Django form class (shell) for an order; ``None`` when orders are only given through the API.
    order_form: Any = None
    #: Template rendered inside the game page for the viewer's own controls (shell).
    template_name: str = ""
    #: Whether the game is played with cards (the ``cards`` app snapshots the collection into the state at start
    #: and offers deck building, Hand and Sleeve pages).
    uses_cards: bool = False
    #: URL name of the module's own signup page (shell); when set, the core's generic join is refused and the game
    #: page links there instead (forum Mafia signups claim a public role and take the pledges, FM-2).
    signup_view: str = ""
    #: Whether the module's own template (``template_name``) holds the order form, so the core's generic JSON order
    #: box is not shown (forum Mafia's card-by-card form).
    own_order_form: bool = False
    #: Keys of the game state that never change after the start (forum Mafia's card collection snapshot): the core
    #: keeps them once, on the game, and leaves them out of every phase snapshot and stored result.
    constant_state_keys: tuple[str, ...] = ()
    #: Phase kinds whose orders are public while they are given (ONUW's open day vote, ON-15): the visibility layer
    #: shows every seat's orders of such phases to every viewer. Default: none, orders are secret.
    public_order_kinds: tuple[str, ...] = ()
    #: The module's own audit-log actions (``AuditEntry.action`` slugs its services write) → their names for the
    #: master's console (lazy translations); the core's own are in ``gm.core.models.AUDIT_ACTIONS``.
    audit_actions: Mapping[str, Any] = {}

    # -- pure engine hooks -------------------------------------------------------------------------------
    def validate_options(self, options: Mapping[str, Any]) -> dict:
        """Return the normalised options or raise :class:`RuleViolation` (one error per bad key)."""
        if options:
            raise RuleViolation([RuleError(_("This game takes no options."), field="options")])
        return {}

    def setup(self, *, seats: Sequence[SeatInfo], options: Mapping[str, Any], rng: random.Random) -> SetupResult:
        """Deal the game for ``seats`` (ring order). Raise :class:`RuleViolation` if it can't start."""
        raise NotImplementedError

    def validate_order(
        self, *, state: Mapping[str, Any], phase: PhaseInfo, seat: SeatInfo, payload: Mapping[str, Any],
        seats: Sequence[SeatInfo] = (),
    ) -> dict:
        """Return the normalised order payload for ``seat`` in ``phase`` or raise :class:`RuleViolation`.

        ``seats`` are all the game's seats (ring order) so a module can check targets (alive, not self)."""
        raise NotImplementedError

    def refuse_order(self, *, state: Mapping[str, Any], phase: PhaseInfo, seat: SeatInfo,
                     payload: Mapping[str, Any]) -> None:
        """Checked by ``services.order_submit`` first, under the phase lock and before the core's own checks (a
        deadline passed, a dead seat, a seat that is not an actor of the phase): a module whose rules fix the order
        of refusals and name them (BW-26: ``game_over``, then ``not_your_turn``…) raises :class:`RuleViolation` here
        with its code, so the core's order API reports that refusal and not the core's ``not_allowed``. Default:
        nothing (the core's checks, then :meth:`validate_order`)."""

    def order_refused(self, *, game: Any, user: Any, seat_id: int, payload: Mapping[str, Any],
                      violation: RuleViolation, clock: Callable[[], Any]) -> None:
        """Shell hook, called by ``services.order_submit`` after a :meth:`refuse_order` refusal has been rolled back
        and before it is raised to the caller: a module whose rules make a refused order cost something (Bloodwood's
        inattention, BW-23a: the card is lost) writes that penalty here, in its own transaction, so that it holds
        whichever way the order came (its own form or API, or the core's generic orders API). ``violation`` is the
        refusal (its errors carry the module's codes). The refusal is raised all the same. Default: nothing."""

    def resolve(
        self,
        *,
        state: Mapping[str, Any],
        phase: PhaseInfo,
        seats: Sequence[SeatInfo],
        orders: Mapping[int, Mapping[str, Any]],
        rng: random.Random,
    ) -> Resolution:
        """Resolve ``phase`` with the last order of each seat (``orders``: seat id → payload) at once."""
        raise NotImplementedError

    def view(self, *, state: Mapping[str, Any], seats: Sequence[SeatInfo], viewer: ViewerInfo) -> dict:
        """The part of ``state`` this viewer may see (default: nothing unless the viewer sees everything)."""
        return dict(state) if viewer.sees_everything else {}

    def options_fields(self) -> dict:
        """Shell hook: Django form fields (name → field) for this game's options on the "new game" page; empty: the
        options are given as JSON."""
        return {}

    def options_from_fields(self, values: Mapping[str, Any]) -> dict:
        """Shell hook: the options dict from the cleaned values of :meth:`options_fields` (validated afterwards by
        :meth:`validate_options`)."""
        return {k: v for k, v in values.items() if v not in (None, "")}

    #: Names of the options everyone may read while the game runs; the default :meth:`public_options` shows only
    #: these, so an option a module adds (a role list, a fixed deal) stays with the master unless declared here.
    public_option_keys: tuple[str, ...] = ()

    def public_options(self, options: Mapping[str, Any]) -> dict:
        """The game options everyone may read: by default only those named in :attr:`public_option_keys` (none
        unless the module declares them). A module overriding this must never return a deal or a role list."""
        return {key: options[key] for key in self.public_option_keys if key in options}

    def own_seat_data(self, data: Mapping[str, Any]) -> dict:
        """The part of one seat's module data its own player may see during the game (default: all of it;
        card games hide the deck's order, FM-4.6). The master, and everyone after the game, see all of it."""
        return dict(data)

    def public_seat_data(self, data: Mapping[str, Any]) -> dict:
        """The part of one seat's module data anyone may see (default: nothing)."""
        return {}

    # -- the master's interventions (pure) -----------------------------------------------------------------
    def master_seat_fields(self, *, state: Mapping[str, Any], seat: SeatInfo) -> dict:
        """The part of one seat the master may edit from the console (his containers and flags), as plain JSON
        data: exactly the shape :meth:`master_seat_edit` takes back. Default: nothing is editable."""
        return {}

    def master_seat_summary(self, data: Mapping[str, Any]) -> list[tuple[str, str]]:
        """Shell hook: ``(label, text)`` pairs the console shows for one seat's module data, in the active language
        (e.g. the secret role). Default: none (the console still shows :meth:`master_seat_fields`)."""
        return []

    def master_seat_form(self, *, state: Mapping[str, Any], seat: SeatInfo, phase: PhaseInfo | None) -> list[dict]:
        """Shell hook: the fields of :meth:`master_seat_fields` as the console shows and edits them, in the active
        language, one dict per key in display order. Every dict has ``key``, ``label`` (translated), ``kind``,
        ``value`` (as in :meth:`master_seat_fields`) and ``text`` (the value in words, for the seat's summary);
        by ``kind``:

        * ``"cards"`` — an ordered list of card slugs; ``choices``: ``[(slug, name)]`` of every card it may hold
          (the console shows one picker per card and a few empty ones to add cards);
        * ``"number"`` — an integer from ``min`` to ``max``;
        * ``"choice"`` — one of ``choices``: ``[(value, label)]``, ``None`` allowed as a value (no flag).

        Optional ``help`` (translated). ``phase`` is the unresolved phase, if any. Default: nothing (the console
        offers no edit form)."""
        return []

    def master_edit_lines(self, *, before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
        """Shell hook: one master's seat edit (the ``before`` and ``after`` values of the keys it changed, as the
        audit log keeps them) as lines in the active language, e.g. "Hand: Pistol → Tail". Default: none."""
        return []

    def master_seat_edit(
        self, *, state: Mapping[str, Any], seat: SeatInfo, seats: Sequence[SeatInfo], changes: Mapping[str, Any],
    ) -> tuple[dict, dict]:
        """Apply the master's edit ``changes`` (keys of :meth:`master_seat_fields`, each optional) to ``seat``.

        Returns ``(seat_data, state)``: the seat's new module data and the new game state (flags kept in the state,
        e.g. forum Mafia's jail). Raises :class:`RuleViolation` naming every bad key and value. The game's own
        conservation rules need not hold for a master's edit. Default: this game has nothing to edit."""
        raise RuleViolation([RuleError(_("This game has no seat data the master can edit."), field="changes")])

    def master_set_alive(
        self, *, state: Mapping[str, Any], phase: PhaseInfo | None, seat: SeatInfo, seats: Sequence[SeatInfo],
        alive: bool,
    ) -> tuple[dict, list[Event], Outcome | None]:
        """The master kills (``alive=False``) or revives ``seat`` (``seats`` as they are before the change): returns
        the new game state, the events to log as the game's rules would announce it, and the :class:`Outcome` if
        the game is won by it (``None``: it goes on). Default: state unchanged, one public ``core.seat_killed`` /
        ``core.seat_revived`` line naming the player, no outcome."""
        kind = "core.seat_revived" if alive else "core.seat_killed"
        return dict(state), [Event(kind, {"player": seat.name})], None

    # -- the game thread (pure) --------------------------------------------------------------------------
    def may_post(self, seat_data: Mapping[str, Any], alive: bool) -> bool:
        """Whether a seat with this module data may post in the game thread (and edit its posts). Default: the
        living only (forum Mafia FM-9.7 lets a dead ``avenger`` speak too). The core checks everything else
        (a seat at all, the game running)."""
        return alive

    def thread_closed(self, *, state: Mapping[str, Any], phase: PhaseInfo | None, seat: SeatInfo) -> str:
        """Why ``seat`` (a living player :meth:`may_post` lets speak) may not post in the thread during ``phase``
        (the game's unresolved phase, also past its deadline; ``None`` between phases and after the end), in the
        reader's language with the rule ID; ``""`` when the thread is open to him. The master always posts. Default:
        always open (Blood Vengeance closes it by day and lets only the tied speak in a defence, BV-14.8)."""
        return ""

    def check_private(
        self, *, state: Mapping[str, Any], phase: PhaseInfo | None, sender: SeatInfo, recipient: SeatInfo,
        seats: Sequence[SeatInfo], sent: Sequence[PrivateSent],
    ) -> bool:
        """Whether ``sender`` may put a private message for ``recipient`` into a post now (forum Mafia FM-9.2).

        ``phase`` is the phase accepting input (``None`` between phases or past a deadline), ``seats`` every seat
        in ring order, ``sent`` the private messages ``sender`` already sent in ``phase``. Returns whether the
        recipient's name is shown publicly; raises :class:`RuleViolation` with the reason when refused.
        Default: this game has no private messages."""
        raise RuleViolation([RuleError(_("This game has no private messages."), field="body")])

    # -- notifications (pure) ----------------------------------------------------------------------------
    #: Whether every phase is a short *step* with named actors (Bloodwood's turn, reaction, refill…, BW-24): the
    #: inbox and the chat/push fan-out then tell only the next step's actors ("your move" / "answer now") and keep
    #: the per-step results to the master and the lines addressed to a seat, so a player with nothing to do gets
    #: nothing until the game ends. Default: off (every recipient gets every phase's results).
    step_notices: bool = False

    def reminder_lead(self, *, kind: str, length: timedelta) -> timedelta | None:
        """How long before the deadline of a phase of ``kind`` that is ``length`` long (opening to base deadline)
        the players who have not acted yet are reminded, when the master set no reminder of his own (his
        ``gm.inbox`` setting always wins, 0 included). ``None``: the module sets none (the deadline grid's lead
        table applies when the game uses it). Default: ``None`` (Bloodwood: half the step, BW-24)."""
        return None

    # -- shell hooks -------------------------------------------------------------------------------------
    def bench_figures(self, *, master: Any, quick: bool) -> Mapping[str, float]:
        """The module's own figures for ``manage.py gm_bench``, measured in the same run as the core's (so they
        compare on one machine under one load), on the benchmark's scratch database: plain numbers under keys
        prefixed with the module's short name. ``master`` may host games; ``quick``: tiny sizes (the test suite).
        Default: none (Blood Vengeance: a 20-player night's resolution, issue 21)."""
        return {}

    def bench_goals_missed(self, figures: Mapping[str, float]) -> Sequence[str]:
        """The module's benchmark goals that ``figures`` (the whole ``gm_bench`` run: every module's figures) misses,
        in words; empty when every goal is met. Default: none."""
        return ()

    def signup_consents(self, options: Mapping[str, Any]) -> Sequence[SignupConsent]:
        """The texts a player must accept to sign up for a game with these (validated) ``options``, in the reader's
        language: the core's join form shows each with a required checkbox and ``seat_join`` refuses a signup that
        does not accept every one. A module with its own ``signup_view`` shows and checks them itself. Default:
        none (Blood Vengeance asks for the players' code of honour when the spell of silence is on, BV-15.15)."""
        return ()

    def post_saved(self, post: Any, *, clock: Callable[[], Any]) -> None:
        """Shell hook: called inside the transaction that wrote a game-thread post or changed it by an edit
        (``post`` is the Django model, already saved; ``clock`` the service's clock), e.g. to read a proposal from
        its ``comment`` (forum Mafia chat rooms, FM-9.3). Whatever it writes commits or rolls back with the post.
        Default: nothing."""

    def post_notes(self, *, viewer: Any, posts: Sequence[Any]) -> dict[int, list[str]]:
        """Shell hook: notes the module shows under thread posts, for ``viewer`` (a ``gm.core.visibility.Viewer``):
        post id → texts in the active language, e.g. whether a chat-room proposal of the comment went into the
        author's order (forum Mafia, FM-9.3). ``posts`` are the Django models being shown; whatever it returns must
        already respect what that viewer may see. Default: none."""
        return {}

    def comment_help(self, *, game: Any, viewer: Any) -> dict | None:
        """Shell hook: what the comment field of the game thread's composer does in this game, for ``viewer`` (a
        ``gm.core.visibility.Viewer``), as ``{"title": str, "lines": [str]}`` in the active language (forum Mafia:
        the chat-room proposal syntax, FM-9.3). No query beyond what the page has loaded. Default: ``None``."""
        return None

    def console_actions(self, *, game: Any) -> list[dict]:
        """Shell hook: the module's own master actions, shown as buttons on the master's console (``game`` the Django
        model, read for the master only). Each dict has ``key`` (a slug, unique in the game), ``url`` (the module's
        POST view: it reads ``reason`` and calls one service that audits it), ``label`` (translated) and optional
        ``confirm`` (the question asked first) and ``help`` (translated). Default: none (Bloodwood: "end the game
        with no winner", BW-22d)."""
        return []

    def page_context(self, *, game: Any, viewer: Any) -> dict:
        """Extra context for the module's ``template_name`` on the game page, as ``module_context`` (shell:
        ``game`` is the Django model, ``viewer`` a ``gm.core.visibility.Viewer``; whatever it returns must
        already respect what that viewer may see). Default: nothing."""
        return {}

    def player_needs(self, *, game: Any, phase: Any, seat: Any, payload: Any) -> list | None:
        """Shell hook: what the open ``phase`` needs from ``seat``'s (living, acting) player, for his "My games" page
        (``gm.core.dashboard``), as a list of :class:`gm.core.dashboard.Need` in the active language — e.g. "vote
        open", "deck due" instead of the core's generic "you owe an order". ``game``, ``phase`` and ``seat`` are the
        Django models (already loaded: no query allowed, the page reads every game in a fixed number of queries);
        ``payload`` is the player's latest order in ``phase`` (``None``: none, or withdrawn). Return ``None`` for the
        core's default ("you owe an order" / "your order is in"). Default: ``None``."""
        return None

    def vote_history_url(self, *, game_id: int, kind: str, number: int) -> str:
        """Shell hook: the URL of the module's own vote history of phase ``kind`` ``number`` of game ``game_id`` (the
        thread's phase index links it), or ``""``: the core's history (``gm:votes``) is linked for the kinds in
        :attr:`public_order_kinds`, nothing for others. Default: ``""``."""
        return ""

    def seat_facts(self, data: Mapping[str, Any], *, secret: bool) -> list[tuple[str, str]]:
        """Shell hook: one seat's data as ``(label, text)`` pairs in the active language, for the seats table and
        the full reveal after the game. ``secret=False``: ``data`` is the public part (:meth:`public_seat_data`);
        ``secret=True``: the whole seat data, shown only where ``gm.core.visibility`` lets the viewer read it.
        Default: each key with its value as text."""
        return [(str(k), str(v)) for k, v in data.items()]

    def order_lines(self, *, payload: Mapping[str, Any], seat_data: Mapping[str, Any],
                    seat_names: Mapping[int, str]) -> list[str]:
        """Shell hook: one stored order version (not a withdrawal) as sentences in the active language, for the
        full reveal after the game. ``seat_data`` is the ordering seat's data when the order was resolved (to name
        its cards); ``seat_names`` maps seat ids to character names. Default: the payload as JSON."""
        return [json.dumps(payload, ensure_ascii=False, sort_keys=True)]

    def final_results(self, *, state: Mapping[str, Any], seats: Sequence[SeatInfo], outcome: Mapping[str, Any],
                      options: Mapping[str, Any]) -> FinalResults:
        """Pure hook for the statistics: the finished game's setup and each seat's final side, role and result.
        ``state`` the final game state, ``seats`` every seat with its final data, ``outcome`` the stored
        ``Game.outcome`` (``{"winners", "winning_seats", "draw"?}``), ``options`` the game's options. Called only
        once the game is over, so it may read secrets. Default: no roles, no sides, ``won`` by ``winning_seats``."""
        won = {int(s) for s in outcome.get("winning_seats") or []}
        return FinalResults(setup=(), seats=tuple(SeatResult(seat_id=s.id, won=s.id in won) for s in seats))

    def role_label(self, slug: str) -> str:
        """A role slug of :meth:`final_results` named in the active language. Default: the slug itself."""
        return slug

    def side_label(self, slug: str) -> str:
        """A side slug of :meth:`final_results` named in the active language. Default: :meth:`winner_label`."""
        return self.winner_label(slug)

    # -- rendering helpers (pure given the active language) ------------------------------------------
    def phase_label(self, kind: str, number: int) -> str:
        """The phase label in the active language, e.g. «Ночь 1» / "Night 1"."""
        label = self.phase_kinds.get(kind)
        return str(label) % {"number": number} if label else f"{kind} {number}"

    def group_label(self, slug: str, *, state: Mapping[str, Any] | None = None) -> str:
        """A group (the slug of an ``Event.group``, e.g. ``faction:mafia`` or ``room:1-2``) named in the active
        language, for the master's console and the player's results; ``state`` is the game state, where the
        module keeps what it needs to name it. Default: the slug itself."""
        return slug

    def winner_label(self, slug: str) -> str:
        """The name of a winner (a faction or team slug of :class:`Outcome` ``winners``) in the active language,
        for the game's result and its log line. Default: the slug itself."""
        return slug

    def render_event(self, kind: str, data: Mapping[str, Any]) -> str:
        """An event's text in the active language; unknown keys render as the key itself."""
        template = self.messages.get(kind)
        if template is None:
            return kind
        try:
            return str(template) % dict(data)
        except (KeyError, TypeError, ValueError):
            return str(template)

    def phase_complete(self, *, state: Mapping[str, Any], phase: PhaseInfo, orders: Mapping[int, Any]) -> bool:
        """Whether the open ``phase`` may close before its deadline because everyone it waits for has answered.

        Asked after every stored order, under the phase row lock: ``state`` the game state, ``orders`` seat id →
        the payload that counts now for every living actor who has one (withdrawn orders left out). ``True``
        brings the phase's deadline forward to now; it then resolves once, like any due phase, through the
        deadline task and the beat sweep (BW-24: a step closes as soon as every actor has answered). Pure: no
        I/O, no clock. Default: ``False`` (the phase runs to its deadline)."""
        return False

    def has_legal_action(self, *, state: Mapping[str, Any], phase: PhaseInfo, seat: SeatInfo,
                         seats: Sequence[SeatInfo] = ()) -> bool:
        """Whether ``seat`` (living, among ``phase``'s actors) has anything to order in ``phase`` at all, for the
        core's automatic extensions (issue 23): a seat with nothing to do never spends an extension token, and its
        silence never holds the phase. ``state`` the game state, ``seats`` every seat in ring order. Pure. Default:
        ``True`` (every actor may order)."""
        return True

    #: The core's per-game activity options (``gm.core.services.activity.ACTIVITY_DEFAULTS``: ``extensions_per_player``,
    #: ``emergency_pause``…) this game's rules forbid; the master can't turn them on. Default: none.
    forbidden_activity_options: tuple[str, ...] = ()

    #: The core's per-game options (``gm.core.models.GameLife`` fields, e.g. ``dead_see_everything``) this module's
    #: rules do not allow: the master's services refuse them (say why in the rules reference and docs/modules.md).
    forbidden_options: tuple[str, ...] = ()
    #: Whether the module answers :meth:`hammer` (the per-game ``hammer`` option is refused otherwise).
    has_hammer: bool = False

    def hammer(self, *, state: Mapping[str, Any], phase: PhaseInfo, seats: Sequence[SeatInfo],
               orders: Mapping[int, Any]) -> int | None:
        """With the game's ``hammer`` option on (``gm.core.services.early_ends``): the seat id of the candidate whose
        votes now pass half of the living voting strength in the open ``phase``, by the module's own weights, or
        ``None``. Asked after every stored order, under the phase row lock; ``orders`` as in :meth:`phase_complete`.
        A hammer brings the deadline forward to now (later votes are refused as late) and is logged publicly. Pure.
        Default: ``None`` (set :attr:`has_hammer` when implementing it)."""
        return None

    def read_only_co_masters(self, state: Mapping[str, Any]) -> list[int]:
        """The seat ids whose players the rules make read-only co-masters (they see everything like the master,
        can't act, and no longer play: BV-15.14's first executed player), read from the module's ``state`` after
        each applied resolution (``gm.core.services.comasters.module_comasters_sync``). Pure. Default: ``[]``."""
        return []

    # -- shell hooks: order options, playtest bots, demo games ----------------------------------------------
    def order_options(self, *, game: Any, viewer: Any) -> dict | None:
        """Shell hook: what ``viewer`` (a ``gm.core.visibility.Viewer``) may order now in ``game`` (the Django model),
        served by ``GET /api/games/<id>/order-options/`` as JSON. The shape every module returns (more keys allowed,
        e.g. forum Mafia's ``cards``, ``hand``, ``sleeve``, ``abilities``):

        * ``phase`` (int) — the id of the open phase the options are for: name it as ``phase`` in the order;
        * ``can_order`` (bool) and ``why_not`` (text in the active language, ``""`` when he can order);
        * ``targets`` — ``[{"id": seat id, "name": str}]``: the seats he may name now;
        * ``choices`` — optional: ``[{"key": str, "label": str, "payload": {...}}]``, every legal order as a whole
          payload for ``POST /api/games/<id>/orders/`` (modules whose orders are a short list of choices).

        May raise a DRF ``APIException`` (403 without a living seat, 409 when no phase takes his orders), which
        the API answers as it says. ``None``: this game offers no order options (the API answers 404).
        Default: ``None``."""
        return None

    def bot_policy(self) -> Any:
        """Shell hook: the playtest bots of this game (``manage.py gm_playtest --game <slug>``), an instance of
        ``gm.core.playtest.Policy``; ``None``: the game has no bots. Default: ``None``."""
        return None

    def balance_policy(self) -> Any:
        """Pure hook: the bots of this game's balance report (``gm.core.balance``: "estimate balance" on the game's
        setup page, ``manage.py gm_balance <slug>``), an instance of ``gm.core.balance.SimPolicy`` that chooses legal
        orders from the engine's state, with no HTTP and no database; ``None``: no balance report for this game.
        Default: ``None``."""
        return None

    def demo_games(self) -> dict[str, Any]:
        """Shell hook: the demo games of this game for ``manage.py gm_demo`` (``bin/demo``), as ``{title: build}``;
        ``build(master=, players=)`` creates one through the site's services and returns the ``Game`` — ``master``
        the demo master (a user), ``players`` the demo players as ``[(user, display name)]`` (six). The titles are
        how the command finds games it already made. Default: none."""
        return {}


class FixedDice(random.Random):
    """The seeded RNG of a phase whose next die rolls are fixed (scenario files' ``dice:``, a master's forced dice).

    A die is a call ``randint(1, sides)``: each such call takes the next value of ``dice`` while any is left, then
    falls back to the seeded stream. Every other draw (``shuffle``, ``choice``, ``random``…) comes from the seed as
    with a plain ``random.Random(seed)``, so fixing dice changes nothing else. ``fixed`` counts the dice taken from
    the list, ``seeded`` the dice rolled after it ran out. Raises ``ValueError`` when a fixed value is not in
    ``[a, b]`` (a die of that size can't show it)."""

    def __init__(self, seed: Any = None, dice: Sequence[int] = ()):
        super().__init__(seed)
        self.queued = [int(d) for d in dice]
        self.fixed = 0
        self.seeded = 0

    def randint(self, a: int, b: int) -> int:
        if self.queued:
            value = self.queued.pop(0)
            if not a <= value <= b:
                raise ValueError(f"fixed die {value} is not between {a} and {b}")
            self.fixed += 1
            return value
        self.seeded += 1
        return super().randint(a, b)


def phase_random(seed: int, dice: Sequence[int] | None = None) -> random.Random:
    """The RNG handed to ``resolve`` for a phase seeded ``seed``: a plain ``random.Random(seed)``, or a
    :class:`FixedDice` when the phase carries fixed ``dice`` (kept in its stored input, so a replay rolls the same)."""
    return FixedDice(seed, dice) if dice else random.Random(seed)


def phase_rng(game_seed: int, ordinal: int) -> int:
    """The RNG seed of phase ``ordinal`` of a game seeded ``game_seed``: a deterministic 63-bit integer, so a
    phase can be re-run from its stored seed alone and different phases get unrelated streams."""
    return random.Random(f"{game_seed}:{ordinal}").getrandbits(63)
