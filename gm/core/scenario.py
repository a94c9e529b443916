"""Scenario files (``manage.py gm_scenario``): the game-agnostic part.

A scenario is a small game fixed in advance — who holds what, what each player orders in each phase, what must be
true afterwards (``/work/shared/rules/scenario-format.md``, ``docs/scenarios.md``). This module loads a file (JSON
or YAML), picks the runner of the game module named by its ``game:`` key, runs it inside a transaction that is
rolled back unless the caller keeps the game, and turns the outcome into a :class:`FileResult` (exit status 0 pass,
1 an expectation failed, 2 the file is invalid).

A game module offers scenarios through a ``scenario_runner`` attribute on its ``GameModule`` (a callable or a dotted
path, ``"pkg.mod.func"`` or ``"pkg.mod:func"``), or by convention a ``run`` function in ``<module package>.scenario``.
A runner is called as ``runner(data, name=<file stem>)`` with the parsed file (a dict; ``game`` already checked)
and returns a :class:`ScenarioRun`. It builds the game only through the site's services and raises
:class:`ScenarioError` for anything wrong with the file. The core knows nothing game-specific.

Every module's runner subclasses :class:`ScenarioRunner` (parse, build, submit through the services, resolve through
the deadline entry point, check the expectations, fixed dice), with two kinds of step: a whole phase of simultaneous
orders (``STEP_PHASE``) and one move or answer of one player (``STEP_MOVE``, turn-based games). Helpers for runners:
:func:`check_keys`, :func:`parse_phase_label`, :func:`parse_dice`, :func:`phase_label`, :func:`resolve_at_deadline`,
:func:`entry_matches`, :func:`scenario_user`. ``docs/scenarios.md`` documents the runner API.
"""
from __future__ import annotations

import difflib
import json
import re
import secrets
import traceback
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import timedelta
from importlib import import_module
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import translation

from . import registry

#: File name endings a scenario may have.
SUFFIXES = (".yaml", ".yml", ".json")
#: Username of the master of every scenario game (created on first use, no usable password).
MASTER_USERNAME = "scenario-master"


class ScenarioError(Exception):
    """The scenario file itself is invalid (exit status 2): bad YAML/JSON, an unknown game, player, card or role slug,
    an unknown key, a step whose ``phase`` is not the open phase… ``place`` names where (``"step 2, order 3, key
    target"``; ``""`` for the whole file), ``message`` what is wrong."""

    def __init__(self, place: str, message: str):
        self.place = place
        self.message = message
        super().__init__(f"{place}: {message}" if place else message)


@dataclass
class Failure:
    """One expectation that did not hold: ``step`` (1-based index, ``None`` for the whole file), ``phase`` (the
    step's phase label, ``"night 1"``), ``key`` (what was checked, e.g. ``players.Вася.hand``), ``expected`` and
    ``actual`` (JSON-compatible)."""

    step: int | None
    key: str
    expected: Any
    actual: Any
    phase: str = ""

    @property
    def where(self) -> str:
        """``step 1 (night 1)``, or ``file`` for a failure outside any step."""
        if self.step is None:
            return "file"
        return f"step {self.step} ({self.phase})" if self.phase else f"step {self.step}"

    def to_dict(self) -> dict:
        return {"step": self.step, "phase": self.phase, "key": self.key, "expected": self.expected,
                "actual": self.actual}

    def __str__(self) -> str:
        return f"{self.where}, {self.key}: expected {show(self.expected)}, actual {show(self.actual)}"


@dataclass
class ScenarioRun:
    """What a module's runner returns: the ``game`` it built (``None`` if it built none) and its ``failures``."""

    game: Any
    failures: list[Failure] = field(default_factory=list)


@dataclass
class FileResult:
    """The outcome of one file: ``failures`` (expectations that failed), ``error`` (the file is invalid), ``url``
    of the kept game (``--keep``), ``crash`` (the text of an unexpected exception, counted as a failure)."""

    file: str
    failures: list[Failure] = field(default_factory=list)
    error: ScenarioError | None = None
    url: str = ""

    @property
    def passed(self) -> bool:
        return self.error is None and not self.failures

    @property
    def exit_code(self) -> int:
        """0 passed, 1 an expectation failed, 2 the file is invalid."""
        return 2 if self.error is not None else (1 if self.failures else 0)

    def to_json(self) -> dict:
        """The ``--json`` line: ``{"file", "passed", "failures": [...]}`` plus ``invalid`` and, if kept, ``url``.
        An invalid file has one failure ``{"key": "invalid", "place", "message"}``."""
        if self.error is not None:
            failures = [{"step": None, "phase": "", "key": "invalid", "place": self.error.place,
                         "message": self.error.message, "expected": None, "actual": None}]
        else:
            failures = [f.to_dict() for f in self.failures]
        data = {"file": self.file, "passed": self.passed, "failures": failures, "invalid": self.error is not None}
        if self.url:
            data["url"] = self.url
        return data


def show(value: Any) -> str:
    """A value as it is quoted in a failure or error message (JSON, non-ASCII kept)."""
    return json.dumps(value, ensure_ascii=False, default=str)


# -- loading --------------------------------------------------------------------------------------------------


def _yaml_loader():
    import yaml

    class UniqueKeyLoader(yaml.SafeLoader):
        """YAML's safe loader refusing a key given twice in one mapping (YAML keeps the last one silently, which
        would hide a typo or a pasted line)."""

    def construct_mapping(loader, node, deep=False):
        seen = set()
        for key_node, _value in node.value:
            key = loader.construct_object(key_node, deep=deep)
            if key in seen:
                mark = key_node.start_mark
                raise ScenarioError(f"line {mark.line + 1}, column {mark.column + 1}", f"the key {key!r} is given "
                                    "twice in one mapping")
            seen.add(key)
        return yaml.SafeLoader.construct_mapping(loader, node, deep=deep)

    UniqueKeyLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, construct_mapping)
    return UniqueKeyLoader


def _unique_pairs(pairs):
    out = {}
    for key, value in pairs:
        if key in out:
            raise ScenarioError("", f"the key {key!r} is given twice in one object")
        out[key] = value
    return out


def load_file(path: str | Path) -> dict:
    """Parse a scenario file: ``.json`` as JSON, ``.yaml``/``.yml`` as YAML (safe loader). Returns the top-level
    mapping. Raises :class:`ScenarioError` for a missing file, another suffix, a syntax error (with its line and
    column), a key given twice, or a top level that is not a mapping."""
    import yaml

    path = Path(path)
    if path.suffix.lower() not in SUFFIXES:
        raise ScenarioError("", f"a scenario file ends in {', '.join(SUFFIXES)}, not {path.suffix or '(nothing)'}")
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ScenarioError("", "no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ScenarioError("", f"can't read the file: {exc}") from None
    if path.suffix.lower() == ".json":
        try:
            data = json.loads(text, object_pairs_hook=_unique_pairs)
        except json.JSONDecodeError as exc:
            raise ScenarioError(f"line {exc.lineno}, column {exc.colno}", f"bad JSON: {exc.msg}") from None
    else:
        try:
            data = yaml.load(text, Loader=_yaml_loader())  # noqa: S506 - a SafeLoader subclass
        except yaml.MarkedYAMLError as exc:
            mark = exc.problem_mark or exc.context_mark
            place = f"line {mark.line + 1}, column {mark.column + 1}" if mark else ""
            problem = " ".join(str(p) for p in (exc.context, exc.problem) if p)
            raise ScenarioError(place, f"bad YAML: {problem or exc}") from None
        except yaml.YAMLError as exc:
            raise ScenarioError("", f"bad YAML: {exc}") from None
    if not isinstance(data, dict):
        raise ScenarioError("", "the file must hold one mapping (game, players, steps…), not "
                                f"{type(data).__name__ if data is not None else 'nothing'}")
    return data


def expand_paths(paths: Iterable[str]) -> list[str]:
    """Each path as given; a directory becomes every scenario file below it (sorted)."""
    out: list[str] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            out += sorted(str(p) for p in path.rglob("*") if p.is_file() and p.suffix.lower() in SUFFIXES)
        else:
            out.append(raw)
    return out


# -- dispatch ------------------------------------------------------------------------------------------------


def _import_callable(path: str) -> Callable:
    module_path, sep, attr = path.partition(":")
    if not sep:
        module_path, _dot, attr = path.rpartition(".")
    return getattr(import_module(module_path), attr)


def runner_for(slug: Any) -> Callable[..., ScenarioRun]:
    """The scenario runner of game module ``slug``: its ``scenario_runner`` attribute (callable or dotted path), else
    ``run`` in ``<package>.scenario`` of the package that defines the module. Raises :class:`ScenarioError` (place
    ``game``) for a missing or unknown game, or a module that has no runner."""
    if not isinstance(slug, str) or not slug:
        raise ScenarioError("game", "give the game module's slug, e.g. `game: forum_mafia`")
    try:
        module = registry.get(slug)
    except registry.UnknownModule:
        known = ", ".join(m.slug for m in registry.all_modules())
        raise ScenarioError("game", f"unknown game {slug!r} (loaded modules: {known})") from None
    hook = getattr(module, "scenario_runner", None)
    if callable(hook):
        return hook
    if isinstance(hook, str) and hook:
        return _import_callable(hook)
    package = type(module).__module__.rpartition(".")[0]
    try:
        scenario_module = import_module(f"{package}.scenario")
    except ModuleNotFoundError as exc:
        if exc.name != f"{package}.scenario":
            raise
        raise ScenarioError("game", f"the game {slug!r} has no scenario runner") from None
    run = getattr(scenario_module, "run", None)
    if not callable(run):
        raise ScenarioError("game", f"the game {slug!r} has no scenario runner")
    return run


def game_url(game) -> str:
    """The game's page, absolute when ``settings.SITE_URL`` is set."""
    base = (getattr(settings, "SITE_URL", "") or "").rstrip("/")
    return base + game.get_absolute_url()


def run_file(path: str | Path, *, keep: bool = False, on_crash: Callable[[str], None] | None = None) -> FileResult:
    """Load and run one scenario file in its own transaction, rolled back unless ``keep`` (then the game, if still
    running, is paused so the deadline sweep leaves it as the scenario left it, and ``url`` is set).

    Messages are produced in English. An exception that is not a :class:`ScenarioError` (a bug in an engine or a
    runner) is reported as a failure with key ``exception`` (exit status 1) and its traceback is passed to
    ``on_crash``; nothing of the file is kept then.
    """
    result = FileResult(file=str(path))
    try:
        data = load_file(path)
        runner = runner_for(data.get("game"))
        with translation.override("en"), transaction.atomic():
            run = runner(data, name=Path(path).stem)
            result.failures = list(run.failures)
            if keep and run.game is not None:
                _pause_kept(run.game)
                result.url = game_url(run.game)
            else:
                transaction.set_rollback(True)
    except ScenarioError as exc:
        result.error = exc
    except Exception as exc:  # noqa: BLE001 - one broken file must not stop the others
        if on_crash is not None:
            on_crash(f"{path}: " + "".join(traceback.format_exception(exc)))
        notes = " ".join(getattr(exc, "__notes__", ()))
        result.failures.append(Failure(step=None, key="exception", expected="no exception",
                                       actual=f"{type(exc).__name__}: {exc}" + (f" ({notes})" if notes else "")))
    return result


def _pause_kept(game) -> None:
    """Pause a kept game that is still running, so the deadline sweep does not resolve its open phase with nobody
    ordering before the master has looked at it (he resumes it from the game page to play on)."""
    from . import services

    game.refresh_from_db()
    if not game.is_over and game.paused_at is None and game.phases.filter(status="open").exists():
        services.game_pause(game=game, actor=game.master, reason="Scenario game kept for inspection (gm_scenario "
                                                                  "--keep).")


# -- helpers for runners ---------------------------------------------------------------------------------------


def check_keys(value: Any, *, place: str, allowed: Iterable[str], required: Iterable[str] = (),
               what: str = "a mapping") -> dict:
    """``value`` as a dict after checking it is a mapping with only ``allowed`` keys and every ``required`` one.
    Raises :class:`ScenarioError` naming ``place`` and the unknown keys (with the closest allowed key as a hint)."""
    if not isinstance(value, dict):
        raise ScenarioError(place, f"expected {what}, got {show(value)}")
    allowed = list(allowed)
    unknown = [k for k in value if k not in allowed]
    if unknown:
        hints = []
        for key in unknown:
            close = difflib.get_close_matches(str(key), allowed, n=1)
            hints.append(f"{key!r}" + (f" (did you mean {close[0]!r}?)" if close else ""))
        raise ScenarioError(place, f"unknown key{'s' if len(unknown) > 1 else ''} {', '.join(hints)}; "
                                   f"allowed: {', '.join(allowed)}")
    missing = [k for k in required if k not in value]
    if missing:
        raise ScenarioError(place, f"missing key{'s' if len(missing) > 1 else ''} {', '.join(missing)}")
    return value


_LABEL = re.compile(r"^\s*([a-z_]+)(?:\s+(\d+))?\s*$", re.IGNORECASE)


def parse_phase_label(value: Any, *, place: str, kinds: Iterable[str] | None = None) -> tuple[str, int]:
    """``"night 1"`` → ``("night", 1)``; a bare kind (``"night"``) is number 1. ``kinds`` restricts the kind.
    Raises :class:`ScenarioError`."""
    match = _LABEL.match(value) if isinstance(value, str) else None
    if match is None:
        raise ScenarioError(place, f"expected a phase such as 'night 1', got {show(value)}")
    kind, number = match.group(1).lower(), int(match.group(2) or 1)
    kinds = list(kinds) if kinds is not None else None
    if kinds is not None and kind not in kinds:
        raise ScenarioError(place, f"unknown phase kind {kind!r}; expected one of {', '.join(kinds)}")
    if number < 1:
        raise ScenarioError(place, "phase numbers start at 1")
    return kind, number


def phase_label(phase) -> str:
    """A phase as scenario files name it: ``"night 1"``."""
    return f"{phase.kind} {phase.number}"


def resolve_at_deadline(phase):
    """Resolve ``phase`` the way the deadline task does: with the clock one second past its deadline, through
    :func:`gm.core.services.phase_resolve_due` (claim, then resolve). Returns the resolved phase; raises
    ``RuntimeError`` if it could not be claimed (e.g. the game is paused)."""
    from . import services

    moment = phase.deadline + timedelta(seconds=1)
    resolved = services.phase_resolve_due(phase_id=phase.pk, clock=lambda: moment)
    if resolved is None:
        raise RuntimeError(f"phase {phase.pk} ({phase_label(phase)}) could not be claimed for resolution")
    return resolved


def entry_matches(entry, needle: str) -> bool:
    """Whether ``needle`` occurs in a log entry's English text or in its data serialised as JSON (so slugs match
    whatever the display language). A needle that reads as JSON object members (``'"hit": true, "amount": 4'``)
    also matches any object in the data holding those members, in whatever order the database keeps the keys
    (PostgreSQL's jsonb sorts them; SQLite keeps the engine's order)."""
    with translation.override("en"):
        text = entry.text()
    if needle in text or needle in json.dumps(entry.data, ensure_ascii=False, default=str):
        return True
    try:
        members = json.loads("{" + needle + "}")
    except ValueError:
        return False
    return isinstance(members, dict) and bool(members) and _holds(entry.data, members)


def _holds(data: Any, members: Mapping[str, Any]) -> bool:
    """Whether some object inside ``data`` (at any depth) has every key of ``members`` with an equal value."""
    if isinstance(data, Mapping):
        if all(k in data and data[k] == v for k, v in members.items()):
            return True
        return any(_holds(v, members) for v in data.values())
    if isinstance(data, list):
        return any(_holds(v, members) for v in data)
    return False


def entry_summary(entry) -> str:
    """A log entry for a failure report: its kind and English text (shortened)."""
    with translation.override("en"):
        text = entry.text()
    return f"{entry.kind}: {text[:160]}"


def scenario_user(username: str, display_name: str, *, host: bool = False):
    """Get or create a user for a scenario (unusable password, profile display name); ``host`` grants the
    ``core.host_game`` permission. Player usernames should carry a random part (:func:`unique_username`) so runs
    that are kept never collide."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Permission

    from accounts.models import Profile

    User = get_user_model()
    user = User.objects.filter(username=username).first()
    if user is None:
        user = User(username=username, email="")
        user.set_unusable_password()
        user.save()
    if host and not user.has_perm("core.host_game"):
        user.user_permissions.add(Permission.objects.get(content_type__app_label="core", codename="host_game"))
        user = User.objects.get(pk=user.pk)  # drop the cached permissions
    profile, _created = Profile.objects.get_or_create(user=user)
    if profile.display_name != display_name:
        profile.display_name = display_name
        profile.save(update_fields=["display_name"])
    return user


def unique_username(prefix: str) -> str:
    """``<prefix>-<8 random hex digits>``."""
    return f"{prefix}-{secrets.token_hex(4)}"


def parse_dice(value: Any, *, place: str, faces: int = 6) -> list[int]:
    """A step's ``dice``: a non-empty list of whole numbers 1…``faces``. Raises :class:`ScenarioError`."""
    if (not isinstance(value, list) or not value
            or not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= faces for d in value)):
        raise ScenarioError(place, f"expected a list of die faces 1–{faces}, got {show(value)}")
    return list(value)


#: The kinds of scenario step: a whole phase of simultaneous orders, resolved at its deadline; or one move or answer
#: of one player (turn-based games), after which the open phase closes once every actor has answered.
STEP_PHASE = "phase"
STEP_MOVE = "move"


@dataclass
class Played:
    """What one step did: the ``phases`` it resolved (in order) and the lines ``refused`` at submission (each a dict
    with at least ``player`` and ``message``; a module adds what identifies the line)."""

    phases: list = field(default_factory=list)
    refused: list[dict] = field(default_factory=list)


class ScenarioRunner:
    """The base of every game module's scenario runner: ``Runner(data, name).run()`` checks the whole file, builds
    the game, plays each step through the site's services and checks its ``expect``.

    A subclass sets ``module`` (the game's slug) and implements the hooks:

    * :meth:`parse` — check the whole file (raise :class:`ScenarioError`) and set ``self.steps``; a step is a dict
      or an object with ``index`` (1-based) and a label (``phase`` key or ``label`` attribute) used in failures;
    * :meth:`build` — create the game through the services, set ``self.game``, ``self.master`` and ``self.seats``
      (display name → ``Seat`` with its user);
    * :meth:`submit_step` — a whole-phase step's orders into the open ``phase`` (use :meth:`submit`); returns the
      refused lines;
    * :meth:`move_payload` — a move step's ``(player name, order payload)`` (``None`` player: only the deadline
      passes);
    * :meth:`check` — the step's ``expect`` against the database (use :meth:`fail`).

    Shared: :meth:`run` (the exception note naming the step), :meth:`play` (by :meth:`step_kind`),
    :meth:`expect_open` (the step's ``phase`` must be the open one), :meth:`submit` (``order_submit`` with the
    phase's opening as the clock), :meth:`resolve` (the deadline entry point), fixed dice (:meth:`step_dice`: fixed
    through ``interventions.phase_dice_fix`` before the phase resolves, their use checked afterwards by re-running
    the engine on the phase's stored input, key ``dice``) and the log checks (:meth:`check_log`).
    """

    module: str = ""
    #: Log lines shown in a failure report at most.
    shown_entries = 20

    def __init__(self, data: Mapping[str, Any], name: str):
        self.data = data
        self.name = name
        self.failures: list[Failure] = []
        self.steps: list = []
        self.game: Any = None
        self.master: Any = None
        self.seats: dict[str, Any] = {}
        self.parse()

    # -- hooks ------------------------------------------------------------------------------------------------
    def parse(self) -> None:
        """Check the whole file and set ``self.steps``; raise :class:`ScenarioError` naming the place."""
        raise NotImplementedError

    def build(self) -> Any:
        """Create the game through the services; set ``self.game``, ``self.master`` and ``self.seats``."""
        raise NotImplementedError

    def start_game(self, *, master: Any, names: Iterable[str], options: Mapping[str, Any], seed: Any,
                   user_prefix: str = "scn", error_key: str = "players") -> Any:
        """A helper for :meth:`build`: create a game of :attr:`module` through the services (title and description
        from the file's ``title``/``description``, else named after the file), seat one scenario user per name of
        ``names`` in that order (each accepting the module's ``signup_consents``), start it, and set ``self.game``,
        ``self.master``, ``self.seats`` (name → seat) and ``self.ids`` (name → seat id). A refusal of any step raises
        :class:`ScenarioError` under ``error_key``."""
        from . import services as core

        try:
            game = core.game_create(master=master, module=self.module,
                                    title=str(self.data.get("title") or f"Scenario: {self.name}")[:200],
                                    description=str(self.data.get("description") or
                                                    f"Built by manage.py gm_scenario from {self.name}."),
                                    options=dict(options), rng_seed=seed)
            core.game_open_signup(game=game, actor=master)
            # A scenario's players accept whatever the game asks at signup (a code of honour, BV-15.15).
            consents = [c.key for c in game.game_module.signup_consents(game.options or {})]
            for i, name in enumerate(names, 1):
                core.seat_join(game=game, user=scenario_user(unique_username(f"{user_prefix}-{i}"), name),
                               display_name=name, accept=consents)
            core.game_start(game=game, actor=master)
        except core.ServiceError as exc:
            raise ScenarioError(error_key, str(exc)) from None
        game.refresh_from_db()
        self.game = game
        self.master = master
        self.seats = {s.display_name: s for s in game.seats.select_related("user")}
        self.ids = {name: s.pk for name, s in self.seats.items()}
        return game

    def step_kind(self, step: Any) -> str:
        """:data:`STEP_PHASE` (default) or :data:`STEP_MOVE`."""
        return STEP_PHASE

    def step_phase(self, step: Any) -> tuple[str, int] | None:
        """The ``(kind, number)`` a whole-phase step names, checked against the open phase; ``None``: not checked.
        Default: the step's ``phase`` key parsed as a label."""
        label = step.get("phase") if isinstance(step, Mapping) else getattr(step, "phase", None)
        if isinstance(label, tuple):
            return label
        return parse_phase_label(label, place=f"step {self.step_index(step)}, key phase") if label else None

    def step_dice(self, step: Any) -> list[int] | None:
        """The dice the step fixes (``dice:``), or ``None``. Default: the step's ``dice`` key or attribute."""
        return step.get("dice") if isinstance(step, Mapping) else getattr(step, "dice", None)

    def submit_step(self, phase: Any, step: Any) -> list[dict]:
        """Submit a whole-phase step's orders into ``phase``; return the refused lines."""
        raise NotImplementedError

    def move_payload(self, step: Any) -> tuple[str | None, Any]:
        """A move step's player name and order payload; ``(None, None)`` when the step lets the deadline pass."""
        raise NotImplementedError

    def check(self, step: Any, played: Played) -> None:
        """Check the step's ``expect``; record each failure with :meth:`fail`."""
        raise NotImplementedError

    # -- running ------------------------------------------------------------------------------------------------
    def run(self) -> ScenarioRun:
        """Build the game and play every step; an unexpected exception carries a note naming the step."""
        self.build()
        for step in self.steps:
            try:
                played = self.play(step)
                self.check(step, played)
                self.check_dice(step, played)
            except ScenarioError:
                raise
            except Exception as exc:
                exc.add_note(f"in step {self.step_index(step)} ({self.step_label(step)})")
                raise
        return ScenarioRun(game=self.game, failures=self.failures)

    def play(self, step: Any) -> Played:
        """Play one step by its kind and return what it did (the game refreshed)."""
        if self.step_kind(step) == STEP_MOVE:
            played = self.play_move(step)
        else:
            played = self.play_phase(step)
        self.game.refresh_from_db()
        return played

    def play_phase(self, step: Any) -> Played:
        """A whole phase: its orders, then the deadline (unless something already closed it, e.g. an instant
        ability that ended the game)."""
        phase = self.expect_open(step)
        self.fix_dice(phase, step)
        played = Played(refused=list(self.submit_step(phase, step)))
        phase.refresh_from_db()
        if phase.status == "open":
            played.phases.append(self.resolve(phase))
        else:
            played.phases.append(phase)
        return played

    def play_move(self, step: Any) -> Played:
        """One move or answer of one player into the open phase; the phase closes through the deadline entry point
        once every actor has an order in it (or at once for a ``deadline`` step), and the engine goes on by itself
        to the next phase that waits for a player."""
        from .models import Order

        phase = self.open_phase()
        if phase is None:
            raise ScenarioError(f"step {self.step_index(step)}", "no phase is open (the game is over)")
        wanted = self.step_phase(step)
        if wanted is not None and (phase.kind, phase.number) != wanted:
            raise ScenarioError(f"step {self.step_index(step)}, key phase",
                                f"the open phase is {phase_label(phase)}, not {wanted[0]} {wanted[1]}")
        self.fix_dice(phase, step)
        player, payload = self.move_payload(step)
        played = Played()
        if player is not None:
            self.submit(phase, player, payload, played.refused)
            actors = set(phase.actors if phase.actors is not None
                         else self.game.seats.filter(alive=True).values_list("pk", flat=True))
            ordered = set(Order.objects.filter(phase=phase, seat_id__in=actors).values_list("seat_id", flat=True))
            if actors - ordered:
                return played
        played.phases.append(self.resolve(phase))
        return played

    # -- shared parts ---------------------------------------------------------------------------------------
    def open_phase(self) -> Any:
        """The game's open phase, or ``None``."""
        return self.game.phases.filter(status="open").first()

    def expect_open(self, step: Any) -> Any:
        """The open phase, which must be the one the step names; raises :class:`ScenarioError` (key ``phase``)."""
        phase = self.open_phase()
        wanted = self.step_phase(step)
        if phase is None or (wanted is not None and (phase.kind, phase.number) != wanted):
            actual = phase_label(phase) if phase else "none (the game is over)"
            raise ScenarioError(f"step {self.step_index(step)}, key phase",
                                f"the open phase is {actual}, not {self.step_label(step)}")
        return phase

    def submit(self, phase: Any, player: str, payload: Any, refused: list[dict], **record: Any) -> bool:
        """``order_submit`` of ``player``'s whole ``payload`` into ``phase`` (the clock at the phase's opening);
        a refusal is appended to ``refused`` as ``{"player", "message", **record}``. Returns whether it was taken."""
        from . import services

        try:
            services.order_submit(phase=phase, user=self.seats[player].user, payload=payload,
                                  clock=lambda: phase.opens_at)
        except services.ServiceError as exc:
            refused.append({"player": player, **record, "message": str(exc)})
            return False
        return True

    def resolve(self, phase: Any) -> Any:
        """Resolve ``phase`` as the deadline task does (:func:`resolve_at_deadline`)."""
        return resolve_at_deadline(phase)

    def fix_dice(self, phase: Any, step: Any) -> None:
        """Fix the step's dice on ``phase`` through the master's service, before it resolves."""
        dice = self.step_dice(step)
        if dice:
            from . import interventions

            interventions.phase_dice_fix(game=self.game, actor=self.master, dice=list(dice),
                                         reason=f"Scenario {self.name}, step {self.step_index(step)}")

    def check_dice(self, step: Any, played: Played) -> None:
        """A step with ``dice`` must roll exactly those: dice left over fail it (expected ``all used``, actual the
        dice left), a die rolled after the list ran out too (expected the list's length, actual the number rolled).
        Counted by re-running the module's pure engine on each resolved phase's stored input."""
        dice = self.step_dice(step)
        if not dice:
            return
        from . import engine
        from .replay import replay_orders

        left: list[int] = []
        rolled = 0
        for phase in played.phases:
            phase.refresh_from_db()
            snapshot = phase.state or {}
            if "seats" not in snapshot or not snapshot.get("dice"):
                continue
            game = self.game
            constant = {k: game.state[k] for k in game.game_module.constant_state_keys if k in game.state}
            rng = engine.FixedDice(phase.rng_seed, snapshot["dice"])
            info = engine.PhaseInfo(kind=phase.kind, number=phase.number, ordinal=phase.ordinal, actors=phase.actors)
            game.game_module.resolve(state={**constant, **snapshot["game"]}, phase=info,
                                     seats=[engine.SeatInfo(**s) for s in snapshot["seats"]],
                                     orders=replay_orders(phase, snapshot["seats"]), rng=rng)
            left, rolled = rng.queued, rolled + rng.fixed + rng.seeded
            if rng.seeded:
                self.fail(step, "dice", len(dice), rolled)
        if left:
            self.fail(step, "dice", "all used", left)

    def step_index(self, step: Any) -> int:
        return step["index"] if isinstance(step, Mapping) else step.index

    def step_label(self, step: Any) -> str:
        if isinstance(step, Mapping):
            return str(step.get("phase") or step.get("label") or "")
        return str(getattr(step, "label", ""))

    def fail(self, step: Any, key: str, expected: Any, actual: Any) -> None:
        """Record a failed expectation of ``step``."""
        self.failures.append(Failure(step=self.step_index(step), phase=self.step_label(step), key=key,
                                     expected=expected, actual=actual))

    def check_refused(self, step: Any, refused: list[dict], key: str = "orders of {player}") -> None:
        """Without a ``rejected`` expectation every refused line is a failure (expected ``accepted``): a refused
        line nobody expected is almost always a mistake in the file."""
        for r in refused:
            self.fail(step, key.format(**r), "accepted", f"refused at submission: {r['message']}")

    def check_log(self, step: Any, key: str, entries: list, needles: Any, *, wanted: bool = True) -> None:
        """Each of ``needles`` (a text or a list) must be in some of ``entries`` (``wanted``), or in none of them;
        a failure shows the last entries."""
        for needle in [needles] if isinstance(needles, str) else list(needles or []):
            if any(entry_matches(e, needle) for e in entries) != wanted:
                self.fail(step, key, needle, [entry_summary(e) for e in entries][-self.shown_entries:])

    @classmethod
    def runner(cls, data: Mapping[str, Any], *, name: str = "scenario") -> ScenarioRun:
        """The ``run(data, name=)`` entry point :func:`runner_for` calls: the messages in English."""
        with translation.override("en"):
            return cls(data, name).run()
