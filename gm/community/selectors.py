"""Community reads (issue 24 items 2 and 3). Everything here comes from finished games (the statistics and the
history are written at game end, when every role is revealed) or from a player's own record; nothing reads a
running game's secrets."""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.db.models import Count, Sum
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from gm.core import registry
from gm.core.models import Game

from .models import PlayerGame, Reliability, Sanction, SanctionLevel, SetupStat, SignupRequirement, WarningPoint


def when(moment: datetime) -> str:
    """A date in the active language and time zone (refusal messages, pages)."""
    return date_format(timezone.localtime(moment), "DATE_FORMAT")


def record_of(user) -> Reliability:
    """``user``'s reliability record (an unsaved all-zero one when he has none yet)."""
    return Reliability.objects.filter(user=user).first() or Reliability(user=user)


def active_points(user, now: datetime) -> int:
    """``user``'s warning points that count at ``now`` (given, not expired, not revoked)."""
    return (WarningPoint.objects.filter(user=user, created_at__lte=now, expires_at__gt=now, revoked_at__isnull=True)
            .aggregate(total=Sum("points"))["total"] or 0)


def active_sanctions(user, now: datetime) -> list[Sanction]:
    """``user``'s sanctions in force at ``now``, the strongest (most points) first."""
    return list(Sanction.objects.filter(user=user, starts_at__lte=now, ends_at__gt=now).order_by("-points", "-pk"))


def sanction_table() -> list[SanctionLevel]:
    """The published sanction table, fewest points first."""
    return list(SanctionLevel.objects.order_by("points"))


def signup_refusals(*, game: Game, user, now: datetime) -> list[str]:
    """Why ``user`` may not sign up for ``game`` now, one sentence per failing requirement in the active language
    (empty: he may): an active ``no_signup`` sanction (every game), then the game's requirements in order."""
    reasons: list[str] = []
    sanctions = active_sanctions(user, now)
    blocking = [s for s in sanctions if s.kind == SanctionLevel.Kind.NO_SIGNUP]
    if blocking:
        last = max(s.ends_at for s in blocking)
        reasons.append(_("You may not sign up for games until %(date)s: a sanction for %(points)s warning points "
                         "(see the sanction table).") % {"date": when(last), "points": blocking[0].points})
    req = SignupRequirement.objects.filter(game=game).first()
    if req is None or not req.any:
        return reasons
    record = record_of(user)
    if req.min_finished is not None and record.finished < req.min_finished:
        reasons.append(_("This game requires at least %(min)s finished games; you have %(count)s.")
                       % {"min": req.min_finished, "count": record.finished})
    if req.max_missed_percent is not None and record.missed_rate > req.max_missed_percent:
        reasons.append(_("This game requires a missed-order rate of at most %(max)s %%; yours is %(rate)s %%.")
                       % {"max": req.max_missed_percent, "rate": record.missed_rate})
    if req.max_modkilled is not None and record.modkilled > req.max_modkilled:
        reasons.append(_("This game accepts players with at most %(max)s modkills; you have %(count)s.")
                       % {"max": req.max_modkilled, "count": record.modkilled})
    if req.no_sanction and sanctions and not blocking:
        reasons.append(_("This game requires no active sanction; yours lasts until %(date)s.")
                       % {"date": when(max(s.ends_at for s in sanctions))})
    return reasons


def requirement_of(game: Game) -> SignupRequirement | None:
    """``game``'s signup requirements, or ``None`` when it has none."""
    req = SignupRequirement.objects.filter(game=game).first()
    return req if req is not None and req.any else None


def requirement_lines(req: SignupRequirement | None) -> list[str]:
    """``req`` in words (the game page and the signup form), in the active language."""
    if req is None:
        return []
    lines = []
    if req.min_finished is not None:
        lines.append(_("at least %(min)s finished games") % {"min": req.min_finished})
    if req.max_missed_percent is not None:
        lines.append(_("missed orders at most %(max)s %%") % {"max": req.max_missed_percent})
    if req.max_modkilled is not None:
        lines.append(_("at most %(max)s modkills") % {"max": req.max_modkilled})
    if req.no_sanction:
        lines.append(_("no active sanction"))
    return lines


def _label(module: Any, kind: str, key: str) -> str:
    if not key:
        return "—"
    if module is None:
        return key
    return module.side_label(key) if kind == SetupStat.Kind.SIDE else module.role_label(key)


def _module(slug: str):
    try:
        return registry.get(slug)
    except registry.UnknownModule:
        return None


def setup_label(module: Any, setup: str) -> str:
    """A setup (role slugs joined by ``+``) in words: each role with its count, e.g. "2 × Werewolf, Seer"."""
    if not setup:
        return _("any roles")
    counts: dict[str, int] = defaultdict(int)
    for slug in setup.split("+"):
        counts[slug] += 1
    parts = []
    for slug, n in counts.items():
        name = module.role_label(slug) if module is not None else slug
        parts.append(f"{n} × {name}" if n > 1 else name)
    return ", ".join(parts)


def _mean(total: int, n: int, scale: float = 1.0) -> float:
    return round(total / n / scale, 2) if n else 0.0


def stats_rows(*, module: str = "", players: int | None = None, setup: str | None = None) -> list[dict]:
    """The statistics as rows for pages and exports, summed over the filters left open (a sum over stored
    aggregate rows, never over games): ``{"module", "module_name", "players", "setup", "setup_label", "kind", "key",
    "label", "games", "wins", "draws", "win_percent", "mean_phases", "mean_days"}``. ``module`` ``""``: every
    module; ``players``/``setup`` ``None``: every player count / setup (then rows of one module, kind and key are
    summed across them, ``players`` ``None`` and ``setup`` ``None`` in the result)."""
    qs = SetupStat.objects.all()
    if module:
        qs = qs.filter(module=module)
    if players is not None:
        qs = qs.filter(players=players)
    if setup is not None:
        qs = qs.filter(setup=setup)
    group = ["module", "kind", "key"] + (["players"] if players is not None else []) + (
        ["setup"] if setup is not None else [])
    rows = []
    for r in qs.values(*group).annotate(games_=Sum("games"), wins_=Sum("wins"), draws_=Sum("draws"),
                                        phases_=Sum("phases"), seconds_=Sum("seconds")).order_by(*group):
        mod = _module(r["module"])
        rows.append({
            "module": r["module"], "module_name": str(mod.name) if mod is not None else r["module"],
            "players": r.get("players"), "setup": r.get("setup"),
            "setup_label": setup_label(mod, r["setup"]) if r.get("setup") is not None else _("all setups"),
            "kind": r["kind"], "key": r["key"], "label": _label(mod, r["kind"], r["key"]),
            "games": r["games_"], "wins": r["wins_"], "draws": r["draws_"],
            "win_percent": round(100.0 * r["wins_"] / r["games_"], 1) if r["games_"] else 0.0,
            "mean_phases": _mean(r["phases_"], r["games_"]), "mean_days": _mean(r["seconds_"], r["games_"], 86400.0),
        })
    return rows


def setups_of(module: str) -> list[dict]:
    """The setups played in ``module`` (finished, not abandoned games): ``{"players", "setup", "label", "games"}``,
    most played first."""
    mod = _module(module)
    rows = (SetupStat.objects.filter(module=module, kind=SetupStat.Kind.GAME).order_by("-games", "players", "setup")
            .values("players", "setup", "games"))
    return [{**r, "label": setup_label(mod, r["setup"])} for r in rows]


def modules_with_stats() -> list[tuple[str, str]]:
    """``(slug, name)`` of every module with statistics, by name."""
    slugs = SetupStat.objects.values_list("module", flat=True).distinct()
    out = []
    for slug in slugs:
        mod = _module(slug)
        out.append((slug, str(mod.name) if mod is not None else slug))
    return sorted(out, key=lambda pair: pair[1])


def chart_data(rows: list[dict]) -> dict[str, Any]:
    """The chart's data (JSON for ``static/community/stats.js``): labels and win percentages of the side rows, and
    of the role rows."""
    sides = [r for r in rows if r["kind"] == SetupStat.Kind.SIDE]
    roles = [r for r in rows if r["kind"] == SetupStat.Kind.ROLE]
    return {
        "sides": {"labels": [r["label"] for r in sides], "values": [r["win_percent"] for r in sides],
                  "games": [r["games"] for r in sides]},
        "roles": {"labels": [r["label"] for r in roles], "values": [r["win_percent"] for r in roles],
                  "games": [r["games"] for r in roles]},
        "title_sides": _("Win % by side"), "title_roles": _("Win % by role"),
    }


def history_of(user, *, limit: int = 200) -> list[dict]:
    """``user``'s history: his finished, not abandoned games, newest first, each as ``{"game", "module_name",
    "side", "role", "result", "result_label", "phases", "days", "finished_at"}`` (revealed facts only)."""
    lines = list(PlayerGame.objects.filter(user=user).select_related("game").order_by("-finished_at", "-pk")[:limit])
    out = []
    for line in lines:
        mod = _module(line.module)
        out.append({"game": line.game, "module": line.module,
                    "module_name": str(mod.name) if mod is not None else line.module,
                    "side": line.side, "side_label": _label(mod, SetupStat.Kind.SIDE, line.side),
                    "role": line.role, "role_label": _label(mod, SetupStat.Kind.ROLE, line.role),
                    "result": line.result, "result_label": PlayerGame.Result(line.result).label,
                    "phases": line.phases, "days": round(line.seconds / 86400.0, 2),
                    "finished_at": line.finished_at})
    return out


def history_summary(user) -> Mapping[str, int]:
    """``user``'s games, wins, draws and replaced-out lines in his history."""
    counts = {"games": 0, "won": 0, "lost": 0, "draw": 0, "replaced": 0}
    for result, n in (PlayerGame.objects.filter(user=user).values("result").annotate(n=Count("pk"))
                      .values_list("result", "n")):
        counts[result] = n
        counts["games"] += n
    return counts


def warnings_of(user, now: datetime) -> list[WarningPoint]:
    """``user``'s warnings (his own page and staff), newest first."""
    return list(WarningPoint.objects.filter(user=user).select_related("given_by").order_by("-created_at", "-pk"))


def recent_warnings(now: datetime, *, limit: int = 100) -> list[WarningPoint]:
    """The latest warnings given (the staff page), active ones first."""
    return list(WarningPoint.objects.select_related("user__profile", "given_by").order_by("-created_at", "-pk")[:limit])
