"""Options, the role set and the deal, the introduction day (BV-2, BV-3, BV-4, BV-15.16).

The role table comes in as an argument (``table``: the default table the module loaded from ``data/roles.yaml``);
the master's changes (option ``table``) are applied to it and the result is snapshotted into the state, so a running
game never changes when the file does. Every draw uses the ``rng`` passed in (the game's RNG, BV-14.10).
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from gm.core.engine import PhaseSpec, SeatInfo, SetupResult

from .night import open_night
from .state import (
    COUNTS,
    DEFAULT_GRIMACES,
    LORDS,
    MAX_PLAYERS,
    NIGHT_VARIANTS,
    PRESET_OPTIONS,
    PRESETS,
    ROLES,
    VARIANTS,
    WARGS,
    WEREWOLVES,
    BvError,
    Ev,
    State,
    _,
    fail,
)
from .table import apply_changes, normalise_table

OPTION_KEYS = ("deal", "roles", "preset", "picks", "selection", "piles", "werewolf", "table", *VARIANTS, "grimaces",
               "werewolf_invasion", "wolf_pits", "undercover", "wargs", "missed_action", "doomed_info", "secret_lord",
               "secret_werewolf", "roles_public", "series", "hoh_seat", "silenced_seats", "start")
PILES = ("lords", "special_vampires", "special_hunters", "werewolves")


def _bool(options: Mapping[str, Any], key: str, errors: list) -> bool:
    value = options.get(key, False)
    if not isinstance(value, bool):
        errors.append((key, _("Option %(key)s must be true or false."), {"key": key}))
        return False
    return value


def _cards(value: Any, key: str, errors: list) -> list[str]:
    if not isinstance(value, list) or not value or any(c not in ROLES for c in value):
        errors.append((key, _("Option %(key)s must be a list of card slugs of BV-1."), {"key": key}))
        return []
    return list(value)


def validate_options(options: Mapping[str, Any], *, table: Mapping[str, Any]) -> dict:
    """The normalised options (BV-2, BV-3, BV-15.16) or :class:`BvError` (rule BV-15.16) listing every bad key.

    ``table`` is the default role table (slug → row); the option ``table`` (a master's per-game changes) is checked
    against it (BV-13.1). Every variant of BV-15 is ``False`` unless given. The role set itself is checked at the
    start, when the number of seats is known (:func:`build_cards`)."""
    errors: list = []
    unknown = [k for k in options if k not in OPTION_KEYS]
    for key in unknown:
        errors.append((key, _("Unknown option %(key)s."), {"key": key}))
    out: dict[str, Any] = {}
    for key in VARIANTS + ("werewolf_invasion", "wolf_pits", "secret_lord", "secret_werewolf", "werewolf"):
        out[key] = _bool(options, key, errors)
    if "deal" in options:
        out["deal"] = _cards(options["deal"], "deal", errors)
    if "roles" in options:
        out["roles"] = _cards(options["roles"], "roles", errors)
    if "picks" in options:
        out["picks"] = _cards(options["picks"], "picks", errors)
    selection = options.get("selection", "master")
    if selection not in ("players", "master", "fate"):
        errors.append(("selection", _("Option selection must be players, master or fate."), {}))
    out["selection"] = selection
    if selection == "fate":
        piles = options.get("piles") or {}
        if not isinstance(piles, Mapping) or any(k not in PILES or not isinstance(v, int) or v < 0
                                                 for k, v in piles.items()):
            errors.append(("piles", _("Option piles maps lords, special_vampires, special_hunters, werewolves to "
                                      "counts."), {}))
        else:
            out["piles"] = {k: int(piles.get(k, 0)) for k in PILES}
    undercover = options.get("undercover")
    if undercover not in (None, False, "scout", "beauty"):
        errors.append(("undercover", _("Option undercover must be scout or beauty."), {}))
    out["undercover"] = undercover or None
    wargs = options.get("wargs") or []
    if not isinstance(wargs, list) or any(w not in WARGS for w in wargs) or len(set(wargs)) != len(wargs):
        errors.append(("wargs", _("Option wargs must be a list of different warg slugs."), {}))
        wargs = []
    out["wargs"] = list(wargs)
    for key, allowed, default in (("missed_action", ("none", "random"), "none"),
                                  ("doomed_info", ("give", "withhold"), "give"),
                                  ("roles_public", ("list", "counts"), "counts" if selection == "fate" else "list")):
        value = options.get(key, default)
        if value not in allowed:
            errors.append((key, _("Option %(key)s must be one of: %(choices)s."),
                           {"key": key, "choices": ", ".join(allowed)}))
        out[key] = value
    grimaces = options.get("grimaces")
    if grimaces is not None:
        if not isinstance(grimaces, Mapping) or any(
                str(k) not in "123456" or len(str(k)) != 1 or v not in NIGHT_VARIANTS for k, v in grimaces.items()):
            errors.append(("grimaces", _("Option grimaces maps die faces 1–6 to a variant or standard."), {}))
        else:
            out["grimaces"] = {**{str(k): v for k, v in DEFAULT_GRIMACES.items()},
                               **{str(k): v for k, v in grimaces.items()}}
    elif out.get("grimaces_of_fate"):
        out["grimaces"] = {str(k): v for k, v in DEFAULT_GRIMACES.items()}
    if options.get("series"):
        out["series"] = str(options["series"])[:60]
    if "hoh_seat" in options:
        out["hoh_seat"] = options["hoh_seat"]
    if "start" in options:  # a scenario's start position: night N or light N (scenario-format, blood_vengeance)
        parts = str(options["start"]).split()
        if len(parts) != 2 or parts[0] not in ("night", "light") or not parts[1].isdigit() or int(parts[1]) < 1:
            errors.append(("start", _("Option start must be night N or light N."), {}))
        else:
            out["start"] = f"{parts[0]} {int(parts[1])}"
    if "silenced_seats" in options:
        out["silenced_seats"] = list(options["silenced_seats"] or [])
    try:
        base = normalise_table(table)
        if options.get("table"):
            apply_changes(base, options["table"])
            out["table"] = dict(options["table"])
    except BvError as exc:
        errors.extend(exc.errors)
    preset = options.get("preset")
    if preset is not None:
        if preset not in PRESETS:
            errors.append(("preset", _("Unknown scenario preset %(slug)s."), {"slug": preset}))
        else:
            out["preset"] = preset
            for key, value in PRESET_OPTIONS.get(preset, {}).items():
                if key not in options:
                    out[key] = value
    if errors:  # the role table's own faults cite BV-13.1, every other option BV-15.16
        table_only = all(str(f).startswith("table") for f, _m, _p in errors)
        raise BvError(errors, rule="BV-13.1" if table_only else "BV-15.16")
    return out


def recommended(n: int, *, werewolf: bool = False) -> list[str]:
    """BV-2.1 and BV-2.8 for ``n`` players (6–20): the first game's set — the count as lord (none with 6), ordinary
    vampires, and the table's lower bound of hunters; with ``werewolf`` one ordinary vampire becomes the werewolf
    and, in a row with ranges, the vampires and hunters drop to their lower bounds (BV-2.3)."""
    if n not in COUNTS:
        raise fail("players", _("The role table of BV-2.1 covers 6 to 20 players."), rule="BV-2.1")
    (vlo, vhi), lords, _sv, (hlo, _hhi), _sh = COUNTS[n]
    hunters = hlo
    cards = (["count"] if lords else []) + ["hunter"] * hunters
    cards += ["vampire"] * (n - len(cards))
    if werewolf:
        cards[cards.index("vampire")] = "werewolf"
    return cards


def check_counts(cards: Sequence[str], table: Mapping[str, Any], *, options: Mapping[str, Any]) -> list[str]:
    """BV-2.4's hard limits on a role set. Returns the warnings for departures from BV-2.1–BV-2.3 (as
    ``(msgid % params)`` texts in English msgids with params, for the set-up page); raises :class:`BvError` (rule
    BV-2.4) when a hard limit is broken: 6–39 seats (exactly 3 with ``guards_at_the_gate``), at most one lord, at most
    one card of each lord, special role and werewolf, wargs only with ≥ 20 seats and a werewolf or kitsune."""
    n = len(cards)
    errors: list = []
    if options.get("guards_at_the_gate"):
        if sorted(cards) != ["hunter", "vampire", "vampire"]:
            errors.append(("roles", _("Guards at the gate needs exactly a hunter and two vampires (BV-15.13)."), {}))
    elif not 6 <= n <= MAX_PLAYERS:
        errors.append(("roles", _("Blood Vengeance needs 6 to 39 players, not %(n)s."), {"n": n}))
    counts = Counter(cards)
    lords = [c for c in cards if table[c].get("lord")]
    if len(lords) > 1:
        errors.append(("roles", _("At most one vampire lord may be in play (BV-2.2)."), {}))
    for card, k in counts.items():
        if card not in ("vampire", "hunter") and k > 1:
            errors.append(("roles", _("The box has one %(card)s card only."), {"card": card}))
    wargs = [c for c in cards if c in WARGS]
    if wargs and (n < 20 or not any(c in WEREWOLVES for c in cards)):
        errors.append(("roles", _("Wargs need 20 or more players and a werewolf or kitsune (BV-13.24)."), {}))
    if errors:
        raise BvError(errors, rule="BV-2.4")
    return [f"{w['what'].replace('_', ' ')} {w['n']}, BV-2.1 recommends "
            + (f"{w['lo']}–{w['hi']}" if w["lo"] != w["hi"] else f"{w['lo']}")
            for w in departures(cards, table, options=options)]


def departures(cards: Sequence[str], table: Mapping[str, Any], *, options: Mapping[str, Any]) -> list[dict]:
    """BV-2.1–BV-2.3: how a role set departs from the table's row for its size, as data for the set-up page:
    ``{"what": vampires | hunters | lords | special_vampires | special_hunters, "n", "lo", "hi"}`` (a werewolf lowers
    the vampires' bound by one, a second werewolf the hunters', BV-2.3). Empty outside 6–20 players."""
    n = len(cards)
    out: list[dict] = []
    row = COUNTS.get(n)
    if row is None or options.get("guards_at_the_gate"):
        return out
    (vlo, vhi), lord_n, (svlo, svhi), (hlo, hhi), (shlo, shhi) = row
    sides = [table[c]["side"] for c in cards]
    wolves = sides.count("werewolf")
    counts = {
        "vampires": (sides.count("vampires"), vlo - wolves, vhi),
        "hunters": (sides.count("hunters"), hlo - max(0, wolves - 1), hhi),
        "lords": (sum(1 for c in cards if table[c].get("lord")), lord_n, lord_n),
        "special_vampires": (sum(1 for c in cards if table[c]["side"] == "vampires" and table[c].get("special")),
                             svlo, svhi),
        "special_hunters": (sum(1 for c in cards if table[c]["side"] == "hunters" and table[c].get("special")),
                            shlo, shhi),
    }
    for what, (k, lo, hi) in counts.items():
        if not lo <= k <= hi:
            out.append({"what": what, "n": k, "lo": (vlo if what == "vampires" else hlo if what == "hunters" else lo),
                        "hi": hi})
    return out


def summary(cards: Sequence[str], table: Mapping[str, Any]) -> dict[str, int]:
    """The readable set-up summary players see at signup (issue 21: "12 players: 8 vampires incl. the lord and 2
    special, 4 hunters incl. 1 special"): counts by side, lords and special roles."""
    out = {"players": len(cards), "vampires": 0, "lords": 0, "special_vampires": 0, "hunters": 0,
           "special_hunters": 0, "werewolves": 0}
    for c in cards:
        r = table[c]
        if r["side"] == "vampires":
            out["vampires"] += 1
            out["lords"] += 1 if r.get("lord") else 0
            out["special_vampires"] += 1 if r.get("special") and not r.get("lord") else 0
        elif r["side"] == "hunters":
            out["hunters"] += 1
            out["special_hunters"] += 1 if r.get("special") else 0
        else:
            out["werewolves"] += 1
    return out


def _preset_cards(options: Mapping[str, Any], n: int, table: Mapping[str, Any], rng: random.Random) -> list[str]:
    """BV-3.1/BV-3.2: the preset's cards, "A or B" by the master's ``picks`` (in order) or drawn; extra seats become
    ordinary hunters up to the table's hunter count, then ordinary vampires; fewer seats are refused."""
    slug = options["preset"]
    size, spec = PRESETS[slug]
    if slug == "first_game":
        return recommended(n, werewolf=bool(options.get("werewolf")))
    if n < size:
        raise fail("preset", _("The preset %(slug)s needs %(size)s players."), rule="BV-3.2", slug=slug, size=size)
    picks = list(options.get("picks") or [])
    cards: list[str] = []
    for item in spec:
        alternatives = (tuple(LORDS) if item == "lord" else item) if not isinstance(item, str) or item == "lord" \
            else None
        if alternatives is None:
            cards.append(item)
            continue
        pick = next((p for p in picks if p in alternatives), None)
        if pick is not None:
            picks.remove(pick)
        else:
            pick = rng.choice(list(alternatives))
        cards.append(pick)
    if n > size:
        hunters_now = sum(1 for c in cards if table[c]["side"] == "hunters")
        wolves = sum(1 for c in cards if table[c]["side"] == "werewolf")
        hlo = COUNTS[n][3][0] if n in COUNTS else round(n / 3.5)
        want = max(hlo - (1 if wolves > 1 else 0), hunters_now)
        cards += ["hunter"] * (want - hunters_now)
        cards += ["vampire"] * (n - len(cards))
    return cards


def _fate_cards(piles: Mapping[str, int], n: int, table: Mapping[str, Any], rng: random.Random) -> list[str]:
    """BV-2.5 ``selection: fate``: each pile shuffled and the wanted number counted off; ordinary hunters up to the
    table's lower bound (minus one per werewolf beyond the first), ordinary vampires for the rest."""
    pools = {
        "lords": [c for c in ROLES if table[c].get("lord")],
        "special_vampires": [c for c in ROLES if table[c]["side"] == "vampires" and table[c].get("special")],
        "special_hunters": [c for c in ROLES if table[c]["side"] == "hunters" and table[c].get("special")],
        "werewolves": list(WEREWOLVES),
    }
    cards: list[str] = []
    for pile in PILES:
        pool = list(pools[pile])
        rng.shuffle(pool)
        cards += pool[:min(piles.get(pile, 0), len(pool), 1 if pile == "lords" else len(pool))]
    hunters = sum(1 for c in cards if table[c]["side"] == "hunters")
    hlo = COUNTS[n][3][0] if n in COUNTS else round(n / 3.5)
    cards += ["hunter"] * max(0, hlo - hunters)
    cards += ["vampire"] * max(0, n - len(cards))
    return cards[:n]


def build_cards(options: Mapping[str, Any], n: int, table: Mapping[str, Any], rng: random.Random) -> list[str]:
    """The role set for ``n`` seats (BV-2, BV-3): the fixed ``deal``, the master's ``roles``, a ``preset``, the
    fate's ``piles``, or BV-2.8's first-game set; then ``wargs`` replace ordinary vampires (BV-13.24). Not dealt."""
    if options.get("deal"):
        cards = list(options["deal"])
    elif options.get("roles"):
        cards = list(options["roles"])
    elif options.get("preset"):
        cards = _preset_cards(options, n, table, rng)
    elif options.get("selection") == "fate" and options.get("piles"):
        cards = _fate_cards(options["piles"], n, table, rng)
    elif options.get("guards_at_the_gate"):
        cards = ["hunter", "vampire", "vampire"]
    else:
        cards = recommended(n, werewolf=bool(options.get("werewolf"))) if n in COUNTS else \
            ["hunter"] * round(n / 3.5) + ["vampire"] * (n - round(n / 3.5))
    for warg in options.get("wargs") or []:
        if warg not in cards and "vampire" in cards:
            cards[cards.index("vampire")] = warg
    if options.get("secret_lord") and not options.get("deal"):
        for i, c in enumerate(cards):
            if table[c].get("lord"):
                cards[i] = rng.choice(list(LORDS))  # BV-2.6: drawn unseen from the three lord cards
    if options.get("secret_werewolf") and not options.get("deal"):
        for i, c in enumerate(cards):
            if c in WEREWOLVES and not options.get("werewolf_invasion"):
                cards[i] = rng.choice(list(WEREWOLVES))
    if len(cards) != n:
        raise fail("roles", _("The role set has %(k)s cards for %(n)s players."), rule="BV-2.4", k=len(cards), n=n)
    return cards


def roles_in_play(cards: Sequence[str], table: Mapping[str, Any], options: Mapping[str, Any]) -> dict:
    """BV-2.6/BV-2.7: the public list of the roles in play — the cards (sorted by the table's call order), a secret
    lord shown as ``lord`` and a secret werewolf as ``werewolf_any``; with ``roles_public: counts`` only the summary."""
    if options.get("roles_public") == "counts":
        return {"counts": summary(cards, table)}
    shown = []
    for c in cards:
        if options.get("secret_lord") and table[c].get("lord"):
            shown.append("lord")
        elif options.get("secret_werewolf") and c in WEREWOLVES:
            shown.append("werewolf_any")
        else:
            shown.append(c)
    return {"roles": sorted(shown, key=lambda c: (ROLES.index(c) if c in ROLES else 0, c))}


def initial_state(cards: Mapping[str, str], ring: Sequence[str], table: Mapping[str, Any],
                  options: Mapping[str, Any]) -> State:
    """The state at the end of the introduction day (BV-4): nobody dead, night 1 next."""
    return {
        "table": dict(table), "options": dict(options), "cards": dict(cards), "ring": list(ring), "hunters": [],
        "stage": "night", "night": 0, "light": 0, "dead": [], "variant": "standard", "die": None, "tied": [],
        "tally": {}, "no_vote": [], "weights": {}, "vengeance": None, "for_executed": [], "arbiter": None,
        "last_arbiter": None, "hoh": None, "heir": None, "elect": bool(options.get("hunter_of_hunters")),
        "silenced": [], "co_masters": [], "grooms": {}, "self_used": [],
        "lives": {sid: int(table[c].get("lives", 1)) - 1 for sid, c in cards.items() if table[c].get("lives", 1) > 1},
        "doom": {}, "paralysed": [], "last_targets": {}, "executed": [], "executions": 0, "winner": None,
        "points": {},
    }


def setup(*, seats: Sequence[SeatInfo], options: Mapping[str, Any], rng: random.Random,
          table: Mapping[str, Any]) -> SetupResult:
    """Deal the game (BV-2.7) and hold the introduction day (BV-4). ``seats`` in ring order; ``options`` as
    :func:`validate_options` returns them; ``table`` the default role table (the master's ``table`` changes are
    applied here and the result snapshotted into the state). Events: the roles in play (public), each player's card,
    the hunters' names to the hunters (BV-4.1; not the undercover one, BV-3.5; at light 1 under BV-15.1), the
    werewolves and wargs to each other (BV-3.3, BV-13.24), the introduction order (master trace, BV-4.2). Opens
    night 1 (BV-4.4). Raises :class:`BvError` for a set the hard limits refuse (BV-2.4)."""
    full = apply_changes(normalise_table(table), options.get("table"))
    ordered = sorted(seats, key=lambda s: s.position)
    ring = [str(s.id) for s in ordered]
    names = {str(s.id): s.name for s in ordered}
    cards_list = build_cards(options, len(ring), full, rng)
    check_counts(cards_list, full, options=options)
    if not options.get("deal"):
        rng.shuffle(cards_list)
    cards = dict(zip(ring, cards_list, strict=True))
    state: dict[str, Any] = dict(initial_state(cards, ring, full, options))
    events: list[Ev] = [Ev("bv.roles_in_play", roles_in_play(cards_list, full, options))]
    seat_data: dict[int, dict] = {}
    for sid in ring:
        card = cards[sid]
        seat_data[int(sid)] = {"card": card, "side": full[card]["side"], "learned": []}
        events.append(Ev("bv.your_card", {"card": card}, to=sid))
    undercover = options.get("undercover")
    hunters = [s for s in ring if full[cards[s]]["side"] == "hunters" and cards[s] != undercover]
    state["hunters"] = hunters
    groups: dict[str, list[int]] = {}
    if hunters and not options.get("visiting_hunters") and not options.get("lone_hunters"):
        groups["faction:hunters"] = [int(s) for s in hunters]
        for s in hunters:
            events.append(Ev("bv.hunters_met", {"seats": hunters}, to=s))
    pack = [s for s in ring if full[cards[s]]["side"] == "werewolf"]
    if len(pack) > 1 and (options.get("werewolf_invasion") or options.get("wargs")):
        for s in pack:
            events.append(Ev("bv.pack_met", {"seats": pack}, to=s))
    intro = sorted((s for s in ring if full[cards[s]].get("slot") != "none"),
                   key=lambda s: (full[cards[s]]["order"] if full[cards[s]]["slot"] != "day" else 55))
    events.append(Ev("bv.introduction", {"seats": intro}, to="master"))
    if options.get("hoh_seat") is not None:
        idx = int(options["hoh_seat"])
        if 0 <= idx < len(ring):
            state["hoh"] = ring[idx]
            state["elect"] = False
    for idx in options.get("silenced_seats") or []:
        if 0 <= int(idx) < len(ring):
            state["silenced"].append(ring[int(idx)])
            seat_data[int(ring[int(idx)])]["silenced"] = True  # BV-15.12: no posts
    kind, number = (options.get("start") or "night 1").split()
    if kind == "light":
        state.update(stage="light", night=int(number), light=int(number))
        spec = PhaseSpec("light", int(number))
    else:
        night_events, spec = open_night(state, int(number), rng, names)
        events += night_events
    return SetupResult(state=state, first_phase=spec, seat_data=seat_data, groups=groups,
                       events=events)  # type: ignore[arg-type]


def first_phase() -> PhaseSpec:
    """The first phase of every game: night 1 (BV-4.4)."""
    return PhaseSpec("night", 1)
