"""The contract suite's fixture layer: every registered game module (the test-only fake games aside), its package,
its scenario files, and one game of it at each stage (``signup``, ``running``, ``finished``) seen by the six viewer
kinds (anonymous, logged in without a seat, another seat, a dead seat, the own seat, the master).

Everything here is module-agnostic: a module is found through the registry and ``settings.GM_MODULES``, its URLs by
walking the URLconf for patterns whose view lives in its package, its games by running its own scenario files
(``gm.core.scenario.run_file`` with ``keep=True``) or, for the signup stage, through the core services. A new module
gets every contract test by being registered and shipping scenario files.
"""
from __future__ import annotations

import json
import os
import re
import secrets
import tempfile
from dataclasses import dataclass, field
from functools import cache
from importlib import import_module
from pathlib import Path

import pytest
import yaml
from django.conf import settings
from django.urls import URLPattern, URLResolver, get_resolver
from filelock import FileLock

ROOT = Path(__file__).resolve().parents[2]
STAGES = ("signup", "running", "finished")
VIEWER_KINDS = ("anonymous", "outsider", "other_seat", "dead_seat", "own_seat", "master")


# -- the modules ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ModuleInfo:
    """A registered game module as the contract tests see it: its ``slug``, its ``MODULE`` object, its dotted
    ``package`` and the package's folder."""

    slug: str
    module: object
    package: str

    @property
    def folder(self) -> Path:
        return Path(import_module(self.package).__file__).parent

    def __str__(self) -> str:
        return self.slug


@cache
def game_modules() -> tuple[ModuleInfo, ...]:
    """Every module of ``settings.GM_MODULES`` that the registry holds, by slug (``GM_EXTRA_MODULES``, the
    test-only fake games, are left out)."""
    from gm.core import registry

    packages = {}
    for path in settings.GM_MODULES:
        packages[id(import_module(f"{path}.module").MODULE)] = path
    return tuple(ModuleInfo(m.slug, m, packages[id(m)]) for m in registry.all_modules() if id(m) in packages)


def pytest_generate_tests(metafunc):
    """A test taking ``gm_module`` runs once per registered module, its id the module's slug."""
    if "gm_module" in metafunc.fixturenames:
        modules = game_modules()
        metafunc.parametrize("gm_module", modules, ids=[m.slug for m in modules])


def scenario_files(info: ModuleInfo) -> list[Path]:
    """The module's scenario files: ``<package>/tests/scenarios/`` or ``tests/scenarios/<slug>/``, whichever
    exists, sorted by name."""
    for folder in (info.folder / "tests" / "scenarios", ROOT / "tests" / "scenarios" / info.slug):
        if folder.is_dir():
            return sorted(p for p in folder.rglob("*") if p.suffix in (".yaml", ".yml", ".json"))
    return []


# -- the URLs ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Route:
    """One URL pattern: its full route text, its qualified name, its parameters and the module its view lives in."""

    pattern: str
    name: str
    params: tuple[str, ...]
    view_module: str


def _view_module(callback) -> str:
    for attr in ("cls", "view_class"):
        if hasattr(callback, attr):
            return getattr(callback, attr).__module__
    return getattr(callback, "__module__", "")


def _walk(patterns, prefix="", namespaces=(), params=()):
    for p in patterns:
        if isinstance(p, URLResolver):
            ns = namespaces + ((p.namespace,) if p.namespace else ())
            yield from _walk(p.url_patterns, prefix + str(p.pattern), ns, params + tuple(p.pattern.regex.groupindex))
        elif isinstance(p, URLPattern) and p.name:
            yield Route(prefix + str(p.pattern), ":".join((*namespaces, p.name)),
                        params + tuple(p.pattern.regex.groupindex), _view_module(p.callback))


def all_routes() -> list[Route]:
    """Every named pattern of the root URLconf."""
    return list(_walk(get_resolver().url_patterns))


def module_routes(info: ModuleInfo) -> list[Route]:
    """The patterns whose view lives in the module's package (DRF's ``.<format>`` twins left out)."""
    return [r for r in all_routes() if r.view_module.startswith(info.package + ".") and "format" not in r.params]


#: Core and shared views that show a game's module data (the game page, its API, the console, the cards pages).
GAME_VIEW_PREFIXES = ("gm.core.", "gm.inbox.", "cards.")
#: Parameters the audit fills: the game, and every seat or post of it.
FILLABLE = {"pk", "seat_id", "post_id"}


def game_routes(info: ModuleInfo) -> list[Route]:
    """What the canary audit fetches for a game of the module: the module's own patterns and every core or shared
    pattern keyed by a game (``pk`` in a ``games/`` path), whose parameters it can fill (:data:`FILLABLE`). Legacy
    paths (``…:legacy_…``, the same views as their successors) are compared with their successors by
    ``tests/integration/test_leak_audit.py::test_legacy_paths_show_what_their_successors_show`` instead."""
    out = {}
    for r in all_routes():
        if "format" in r.params or not set(r.params) <= FILLABLE or "pk" not in r.params or ":legacy_" in r.name:
            continue
        ours = r.view_module.startswith(info.package + ".")
        core = r.view_module.startswith(GAME_VIEW_PREFIXES) and "games/" in r.pattern
        if ours or core:
            out[r.pattern] = r
    return list(out.values())


def route_urls(route: Route, game) -> list[str]:
    """``route`` filled with ``game``'s id and each of its seats' or posts' ids."""
    from django.urls import reverse

    values = {"pk": [game.pk], "seat_id": list(game.seats.values_list("pk", flat=True)),
              "post_id": list(game.posts.values_list("pk", flat=True))}
    combos = [{}]
    for name in route.params:
        combos = [{**c, name: v} for c in combos for v in values[name]]
    return [reverse(route.name, kwargs=c) for c in combos]


# -- the games --------------------------------------------------------------------------------------------------


def game_of(result):
    """The game a kept scenario run left (``FileResult.url`` is its page)."""
    from gm.core.models import Game

    assert result.passed, f"{result.file}: {[str(f) for f in result.failures]} {result.error}"
    match = re.search(r"/games/(\d+)/", result.url or "")
    assert match, f"{result.file} kept no game"
    return Game.objects.get(pk=int(match.group(1)))


def run_scenario(path: Path, *, steps: int | None = None, tmp_path: Path | None = None):
    """Run scenario file ``path`` and keep its game; with ``steps`` only its first ``steps`` steps (the game is
    left running, paused by the runner, at the phase that follows them)."""
    from gm.core import scenario

    if steps is not None:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        data["steps"] = data["steps"][:steps]
        path = tmp_path / f"{path.stem}-{steps}{path.suffix}"
        path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return game_of(scenario.run_file(path, keep=True))


def players_in(path: Path) -> int:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    return len(data.get("players") or [])


def steps_in(path: Path) -> int:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    return len(data.get("steps") or [])


#: slug → the scenario file :func:`finishing_file` chose (the choice depends on the files only).
_FINISHING: dict[str, Path] = {}


def _shared_choices() -> Path | None:
    """The file where this run's pytest-xdist processes share :func:`finishing_file`'s choices (``None`` outside
    xdist): a folder of the system's temp dir named by the run's id, so no other run's choice is read."""
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    if not run:
        return None
    folder = Path(tempfile.gettempdir()) / f"gm-contract-{run}"
    folder.mkdir(exist_ok=True)
    return folder / "finishing.json"


def finishing_file(info: ModuleInfo, *, min_players: int = 3) -> tuple[Path, object]:
    """The first scenario file of the module (by name) with ``min_players`` players or more and at least two steps
    that ends its game with a dead seat, and the kept game. A game where nobody ever dies (Bloodwood, BW-10b) has no
    such file: then the first file that ends its game, and :func:`_seated` marks a seat dead for that viewer kind.

    Finding it may run most of the module's files (Bloodwood: all 55, seconds): the choice is remembered in this
    process and, under pytest-xdist, shared with the run's other processes through a locked file, so one process
    searches while the others wait for its answer."""
    if info.slug in _FINISHING:
        return _finish_with(info, _FINISHING[info.slug])
    shared = _shared_choices()
    if shared is None:
        return _search_finishing(info, min_players=min_players)
    with FileLock(f"{shared}.lock"):
        known = json.loads(shared.read_text(encoding="utf-8")) if shared.exists() else {}
        if info.slug in known:
            _FINISHING[info.slug] = Path(known[info.slug])
            return _finish_with(info, _FINISHING[info.slug])
        path, game = _search_finishing(info, min_players=min_players)
        shared.write_text(json.dumps({**known, info.slug: str(path)}), encoding="utf-8")
        return path, game


def _finish_with(info: ModuleInfo, path: Path) -> tuple[Path, object]:
    game = run_scenario(path)
    assert game.is_over, f"{info.slug}: {path.name} no longer ends its game"
    return path, game


def _search_finishing(info: ModuleInfo, *, min_players: int) -> tuple[Path, object]:
    deathless = None
    for path in scenario_files(info):
        if players_in(path) < min_players or steps_in(path) < 2:
            continue
        game = run_scenario(path)
        if game.is_over and game.seats.filter(alive=False).exists():
            _FINISHING[info.slug] = path
            return path, game
        if game.is_over and deathless is None:
            deathless = path
    if deathless is not None:
        _FINISHING[info.slug] = deathless
        return deathless, run_scenario(deathless)
    pytest.fail(f"{info.slug}: no scenario file of {min_players}+ players finishes its game")


@dataclass
class Table:
    """A game of the module at one stage and a user for each viewer kind (``None`` where the stage has none:
    nobody is seated in a forum Mafia signup, for instance)."""

    stage: str
    game: object
    viewers: dict = field(default_factory=dict)
    seats: dict = field(default_factory=dict)  # viewer kind → its Seat

    def users(self) -> dict:
        return {k: u for k, u in self.viewers.items() if u is not None or k == "anonymous"}


def _seated(table: Table, make_user) -> Table:
    """Assign the viewer kinds of a game with seats: a living seat as the own one, another living seat, a dead seat
    (one made dead in the database if the game has none yet: who is dead is what the viewer kind needs, not how)."""
    from gm.core.models import Seat

    game = table.game
    seats = list(game.seats.select_related("user").order_by("position"))
    living = [s for s in seats if s.alive]
    dead = [s for s in seats if not s.alive]
    assert len(living) >= 2 or game.is_over, f"{game}: fewer than two living seats"
    own, other = (living + dead)[:2]
    if not dead:
        spare = [s for s in seats if s not in (own, other)]
        assert spare, f"{game}: no third seat to be the dead one"
        Seat.objects.filter(pk=spare[0].pk).update(alive=False)
        spare[0].refresh_from_db()
        dead = [spare[0]]
    table.seats = {"own_seat": own, "other_seat": other, "dead_seat": dead[0]}
    table.viewers = {"anonymous": None, "outsider": make_user(f"outsider{secrets.token_hex(3)}"),
                     "other_seat": other.user, "dead_seat": dead[0].user, "own_seat": own.user,
                     "master": game.master}
    return table


def build_table(info: ModuleInfo, stage: str, *, make_user, tmp_path: Path) -> Table:
    """A game of the module at ``stage``:

    * ``finished``: the first scenario file that finishes a game with a dead seat, kept;
    * ``running``: the same file cut to its first step, kept (the runner pauses it at the next phase);
    * ``signup``: a new game with signups open (``game_create`` with the module's default options), players
      seated through ``seat_join`` unless the module has its own signup page.
    """
    from gm.core import services

    if stage == "finished":
        _path, game = finishing_file(info)
        return _seated(Table(stage, game), make_user)
    if stage == "running":
        path = _FINISHING.get(info.slug) or finishing_file(info)[0]
        game = run_scenario(path, steps=1, tmp_path=tmp_path)
        assert not game.is_over, f"{path.name}: the game is over after its first step"
        return _seated(Table(stage, game), make_user)
    master = make_user(f"gm{secrets.token_hex(3)}", host=True)
    game = services.game_create(master=master, module=info.slug, title="Contract", rng_seed=7)
    services.game_open_signup(game=game, actor=master)
    table = Table(stage, game)
    if info.module.signup_view:
        table.viewers = {"anonymous": None, "outsider": make_user(f"outsider{secrets.token_hex(3)}"),
                         "other_seat": None, "dead_seat": None, "own_seat": None, "master": master}
        return table
    for i in range(max(3, info.module.min_seats)):
        services.seat_join(game=game, user=make_user(f"seat{i}{secrets.token_hex(3)}"), display_name=f"Seat{i}")
    game.refresh_from_db()
    return _seated(table, make_user)


@pytest.fixture
def table_at(db, make_user, tmp_path, card_collection):
    """``table_at(gm_module, stage)`` → a :class:`Table` of that module at that stage."""

    def build(info: ModuleInfo, stage: str) -> Table:
        return build_table(info, stage, make_user=make_user, tmp_path=tmp_path)

    return build


# -- the browser ------------------------------------------------------------------------------------------------

from tests.browser.conftest import chromium, new_context  # noqa: E402, F401 - the browser tests' own fixtures
