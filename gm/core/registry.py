"""The module registry: game modules register here; the core looks them up by slug and knows nothing else.

A module package listed in ``settings.GM_MODULES`` (or ``GM_EXTRA_MODULES``) exposes ``MODULE`` (a
:class:`gm.core.engine.GameModule` instance) in its ``module`` submodule; ``CoreConfig.ready`` loads them all.
"""
from __future__ import annotations

from importlib import import_module

from .engine import GameModule

_modules: dict[str, GameModule] = {}


class UnknownModule(LookupError):
    """No module is registered under that slug."""


def register(module: GameModule) -> GameModule:
    """Register ``module`` under its ``slug``. Raises ``ValueError`` for an empty or already-used slug."""
    if not module.slug:
        raise ValueError("a game module needs a slug")
    existing = _modules.get(module.slug)
    if existing is not None and existing is not module:
        raise ValueError(f"module slug {module.slug!r} is already registered")
    _modules[module.slug] = module
    return module


def get(slug: str) -> GameModule:
    """The module registered as ``slug``; raises :class:`UnknownModule`."""
    try:
        return _modules[slug]
    except KeyError:
        raise UnknownModule(slug) from None


def all_modules() -> list[GameModule]:
    """Every registered module, by slug."""
    return [_modules[k] for k in sorted(_modules)]


def choices() -> list[tuple[str, str]]:
    """(slug, name) pairs for form choices, in the active language."""
    return [(m.slug, str(m.name)) for m in all_modules()]


def load(package_paths: list[str]) -> None:
    """Import ``<package>.module`` for each dotted path and register its ``MODULE``."""
    for path in package_paths:
        register(import_module(f"{path}.module").MODULE)
