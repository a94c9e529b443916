"""The writes of October Night: a player's order for the open phase (action, contact or ritual; OC-4, OC-6, OC-9),
submitted or withdrawn, the master's per-game edit of the data set before the game starts, and the site's data set
staff keep in the admin (OC-17).

Every function is keyword-only and runs in one transaction; orders go through the core's services, which lock the
phase row, validate the payload through the engine and audit it; a refusal raises
:class:`gm.core.services.ServiceError` and saves nothing.
"""
from __future__ import annotations

import re
from typing import Any

import yaml
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from gm.core import services as core
from gm.core.engine import RuleViolation
from gm.core.models import Game, Order, Phase, Seat
from gm.core.services import ServiceError

from . import engine
from .models import DataSet
from .selectors import base_data


def submit_order(*, game: Game, user, phase_id: Any, payload: dict, base_version: int | None) -> Order:
    """Save ``user``'s order ``payload`` for the phase ``phase_id`` of ``game``; ``base_version`` is the order
    version the form edited. Raises ``ServiceError`` (the engine's refusals with their OC-18 codes)."""
    return core.order_submit(game=game, phase_id=phase_id, user=user, payload=payload, base_version=base_version)


def withdraw_order(*, game: Game, user, phase_id: Any, base_version: int | None) -> Order:
    """Withdraw ``user``'s order for the phase ``phase_id`` of ``game``. Raises ``ServiceError``."""
    phase = core.phase_named(game=game, phase_id=phase_id)
    return core.order_withdraw(phase=phase, user=user, base_version=base_version)


def sheet_claim(*, game: Game, user, character: Any) -> Seat:
    """OC-2.1: ``user`` claims the character sheet ``character`` (a slug of the game's data set) for his seat at
    sign-up; ``""`` or ``None`` drops his claim (a random free sheet at the start). Each sheet at most once per
    game: a sheet claimed by another player or assigned to another seat by the master is refused ``sheet_taken``
    naming who has it. Raises ``ServiceError`` ``forbidden`` (no seat), ``state`` (sign-up is over) or the OC-18
    code (``unknown_sheet``, ``sheet_taken``); nothing changes then."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        seats = list(Seat.objects.select_for_update().filter(game_id=game.pk).order_by("position"))
        seat = next((s for s in seats if user and user.is_authenticated and s.user_id == user.pk), None)
        if seat is None:
            raise ServiceError(_("You have no seat in this game."), code="forbidden")
        if game.status != Game.Status.SIGNUP:
            raise ServiceError(_("Character sheets are claimed at sign-up, before the game starts."), code="state")
        data = dict(seat.data or {})
        if character in (None, ""):
            data.pop("claim", None)
        else:
            sheets = engine.game_data(game.options or {}, base_data())
            claims = [(s.data or {}).get("claim") for s in seats]
            try:
                holder = engine.sheet_holder(sheets, game.options or {}, claims, seats.index(seat), str(character))
                if holder is not None:
                    raise RuleViolation([engine.refusal("sheet_taken", "character",
                                                        player=seats[holder].display_name)])
            except RuleViolation as exc:
                raise core.violation_refusal(exc) from None
            data["claim"] = str(character)
        seat.data = data
        seat.version += 1
        seat.save(update_fields=["data", "version"])
        return seat


def _path(field: str) -> list[str]:
    """An error's field (``enemies[ghoul].sections[2].location``) as its steps: keys, and ``[slug or index]``."""
    return re.findall(r"\[[^\]]*\]|[^.\[\]]+", field)


def yaml_line(text: str, field: str) -> int | None:
    """The line (1-based) of the YAML ``text`` that holds the entry an error's ``field`` names, or of its nearest
    part found there (``enemies[ghoul].location``: the ``location`` of the list entry whose ``slug`` is ``ghoul``;
    ``sections[2]``: the second section; ``enemies[3]``: the fourth entry); ``None`` when the text has none of it
    (the error is in the default data the overrides are merged into)."""
    try:
        node = yaml.compose(text or "")
    except yaml.YAMLError:
        return None
    line = None
    parent = ""
    for step in _path(field):
        found = None
        if step.startswith("[") and isinstance(node, yaml.SequenceNode):
            key = step[1:-1]
            for item in node.value:
                if isinstance(item, yaml.MappingNode) and any(
                        k.value in ("slug", "token") and v.value == key for k, v in item.value):
                    found = item
            if found is None and key.isdigit():
                index = int(key) - (1 if parent == "sections" else 0)
                found = node.value[index] if 0 <= index < len(node.value) else None
        elif isinstance(node, yaml.MappingNode):
            found = next((v for k, v in node.value if str(k.value) == step.strip("[]")), None)
        if found is None:
            break
        node, parent = found, step
        line = found.start_mark.line + 1
    return line


def _with_lines(exc: RuleViolation, text: str, *, prefix: str = "") -> ServiceError:
    """A refused edit of YAML ``text`` (OC-17, OC-11.6): every error as "line N: entry: message (rule)"."""
    errors: dict[str, list[str]] = {}
    for err in exc.errors:
        field = err.field[len(prefix):] if prefix and err.field.startswith(prefix) else err.field
        line = yaml_line(text, field)
        where = (_("line %(line)s") % {"line": line} + ": ") if line else ""
        message = f"{where}{field}: {err.render(_)}" + (f" ({err.rule})" if err.rule else "")
        errors.setdefault("data", []).append(message)
    return ServiceError(errors)


def parse_data(text: str) -> dict:
    """The master's data overrides from YAML text (OC-17): a mapping of sections; raises ``ServiceError`` naming the
    line of a YAML error."""
    try:
        value = yaml.safe_load(text or "") or {}
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = _("line %(line)s") % {"line": mark.line + 1} if mark is not None else ""
        why = getattr(exc, "problem", exc)
        raise ServiceError({"data": [_("Bad YAML %(where)s: %(why)s") % {"where": where, "why": why}]}) from None
    if not isinstance(value, dict):
        raise ServiceError({"data": [_("The data must be a mapping of sections.")]})
    return value


def data_edit(*, game: Game, actor, overrides: dict, reason: str = "", clock=timezone.now, text: str = "") -> Game:
    """OC-17: the master replaces the game's data overrides (entries by slug replace the fields they give; new slugs
    are added) before the game starts. The merged set is checked by the engine; every error names its entry
    (``enemies[ghoul].location``) and, given the master's YAML ``text``, the line of it that is wrong. Audited as
    ``data_edit``. Raises ``ServiceError`` ``forbidden``, ``state``
    (the game has started) or ``invalid``."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        core.require_master(game, actor)
        if game.status not in (Game.Status.DRAFT, Game.Status.SIGNUP):
            raise ServiceError(_("The data can be edited only before the game starts."), code="state")
        options = {**(game.options or {}), "data": overrides}
        if not overrides:
            options.pop("data")
        try:
            clean = engine.validate_options(options, base_data())
        except RuleViolation as exc:
            if text:  # from the form: name the YAML line at fault
                raise _with_lines(exc, text, prefix="data.") from None
            raise ServiceError(core.violation_errors(exc)) from None
        game.options = clean
        game.save(update_fields=["options"])
        core.audit_write(game=game, actor=actor, action="data_edit", reason=reason, now=clock(),
                         data={"data": overrides})
        return game


def board_edit(*, game: Game, actor, text: str, reason: str, clock=timezone.now) -> Game:
    """OC-11.6: the master edits the board of a running game — enemy tokens, the bag, the decks, the reserve — as
    YAML (the keys of ``engine.board_fields``, each optional), with a reason. Checked by the engine; every error
    names its entry and the YAML line. Audited as ``board_edit`` (the keys changed). Raises ``ServiceError``
    ``forbidden``, ``state`` (not running, or no open phase: a result is being resolved) or ``invalid``."""
    changes = parse_data(text)
    reason = (reason or "").strip()
    with transaction.atomic():
        phase = (Phase.objects.select_for_update(of=("self",)).filter(game_id=game.pk, status=Phase.Status.OPEN)
                 .first())
        game = Game.objects.select_for_update().get(pk=game.pk)
        core.require_master(game, actor)
        if not reason:
            raise ServiceError({"reason": [_("Give a reason for the audit log.")]})
        if game.status != Game.Status.RUNNING or phase is None:
            raise ServiceError(_("The board can be edited only while a phase of a running game is open."),
                               code="state")
        try:
            game.state = engine.board_edit(game.state, changes)
        except RuleViolation as exc:
            raise _with_lines(exc, text) from None
        game.save(update_fields=["state"])
        core.audit_write(game=game, actor=actor, action="board_edit", reason=reason, phase=phase, now=clock(),
                         data={"changes": sorted(changes)})
        return game


def data_set_check(*, text: str) -> dict:
    """OC-17: the site's whole data set from YAML ``text``, checked as a game start checks it (every slug unique and
    known, roads symmetric and the board connected, …). Returns the parsed set; raises ``ServiceError`` (field
    ``data``) with every error as "line N: entry: message (rule)"."""
    data = parse_data(text)
    errors = engine.validate_data(data)
    if errors:
        raise _with_lines(RuleViolation(errors), text)
    return data


def data_set_save(*, data_set: DataSet, actor=None) -> DataSet:
    """OC-17: save a version of the site's data set (from the admin) after :func:`data_set_check`, with the digest
    a game started from it will store; an active one deactivates the others, so new games start from it while
    running games keep their snapshot. Raises ``ServiceError`` and saves nothing when the set is invalid."""
    with transaction.atomic():
        data = data_set_check(text=data_set.text)
        data_set.digest = engine.digest(data)
        data_set.updated_by = actor if actor is not None and actor.is_authenticated else None
        if data_set.active:
            DataSet.objects.select_for_update().filter(active=True).exclude(pk=data_set.pk).update(active=False)
        data_set.save()
        return data_set
