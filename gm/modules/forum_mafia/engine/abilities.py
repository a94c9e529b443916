"""Forum Mafia role abilities in play (FM-3.1, FM-3.3, FM-8): checks, instant effects and the state they keep.

Pure (functional core). Two kinds of ability:

* **Phase abilities** are part of an order (``payload["abilities"]``, a list) and resolve with the phase in the
  layers of FM-6 (see :mod:`.resolution`): the Mafia message, the maniac's Sleeve discard for damage or armour, the
  joker's ``hr_department`` effect and ``ace``, the hero's armour or mark, the assassin's kill, the scientist's
  discard. Shape: ``{"ability": <role slug>, "mode": str, "target": seat id, "guess": role slug, "text": str,
  "pay": uid|slug, "discard": [uid|slug, uid|slug]}`` (keys as the ability needs).
* **Instant abilities** act at once when used, outside orders (:func:`apply_instant`): the maniac's Hand↔Sleeve
  swap, the joker's mapping guess, the looter's copies, the geek's card. Shape: ``{"ability": <role slug>,
  "mode": str, "hand_card", "sleeve_card", "mapping": {seat id: secret role}, "target", "card"}``.

Per-game state in ``state["fm"]``: ``used`` (seat → once-per-game abilities spent: ``assassin``, ``scientist``,
``looter``, ``geek``, ``mafia_message`` — the last recharged by a rebuild, FM-4.8), ``hero_marks`` (seat → true),
``hero_goals`` (hero seat → goals met, ``"armour"``/``"mark"``), ``left`` (seat → ``"won"``/``"lost"``: the joker's
guess or the hero's double goal took him out of the game) and ``rebuilds`` (seat → count).

**[house]** choices: abilities are not cards, so ``arrest`` does not cancel them and ``redirect`` does not move
them; the maniac's damage is not "damage from other characters' cards" for the highlander's cap; the joker's ace goes
to another living character (FM-5.5 targets); a left character is out of the game like the dead (``alive`` false)
but wins or loses by his own result; the hero is told only that his mark was placed or not placed when a goal is
met, never whether a guess was right.
"""
from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cards.containers import Containers
from cards.domain import Collection
from gm.core.engine import Event, Outcome, PhaseInfo, SeatInfo

from .roles import MAFIA, MAFIA_ROLES, SECRET_ROLES
from .state import NIGHT, fm_state, has_left, untargetable, used


def _(s: str) -> str:
    return s


MANIAC_DAMAGE = 2
MANIAC_ARMOUR = 3
MANIAC_DRAWS = 2
HERO_ARMOUR = 3
#: Phase abilities: (role kind, mode) → timing (``night``, ``any``).
PHASE_ABILITIES: dict[tuple[str, str], str] = {
    ("mafia", "message"): "any",
    ("maniac", "damage"): "night",
    ("maniac", "armour"): "night",
    ("joker", "hr"): "night",
    ("joker", "ace"): "any",
    ("hero", "armour"): "night",
    ("hero", "mark"): "night",
    ("assassin", ""): "any",
    ("scientist", ""): "night",
}
INSTANT_ABILITIES: dict[tuple[str, str], str] = {
    ("maniac", "swap"): "any",
    ("joker", "guess"): "any",
    ("looter", ""): "any",
    ("geek", ""): "any",
}
#: Phase abilities aimed at one living other character (FM-5.5 applies).
TARGETED_ABILITIES = {("mafia", "message"), ("maniac", "damage"), ("joker", "hr"), ("joker", "ace"),
                      ("hero", "armour"), ("hero", "mark"), ("assassin", "")}
#: Abilities that can be used once per game (``used``), and the Mafia message (recharged by a rebuild, FM-4.8).
ONCE = ("assassin", "scientist", "looter", "geek", "mafia_message")

REASONS: dict[str, tuple[str, str]] = {
    "not_your_ability": ("FM-8", _("You don't have the ability “%(ability)s”.")),
    "unknown_mode": ("FM-8", _("“%(mode)s” is not a way to use “%(ability)s”.")),
    "ability_night_only": ("FM-8", _("“%(ability)s” can only be used at night.")),
    "ability_spent": ("FM-8", _("You have already used “%(ability)s” (once per game).")),
    "ability_twice": ("FM-8", _("“%(ability)s” can be used once per phase.")),
    "ability_left": ("FM-3.3", _("You have left the game.")),
    "ability_sleeve_slot": ("FM-3.3", _("The maniac's discard is his Sleeve play: you already play a Sleeve card.")),
    "ability_pay": ("FM-3.3", _("Name a card of your Sleeve to discard for it.")),
    "hero_sleeve_play": ("FM-3.3", _("The hero's night ability is only for a night without a Sleeve play.")),
    "hero_no_damage": ("FM-3.3", _("The hero can never deal damage: “%(card)s” is not for him.")),
    "hero_guess": ("FM-3.3", _("Name a Mafia secret role for the mark.")),
    "mafia_target": ("FM-3.1", _("The Mafia message goes to another living mafioso.")),
    "assassin_one_card": ("FM-8", _("The assassin kills only a character with exactly 1 Hand card; %(target)s has "
                                    "%(count)s.")),
    "scientist_discard": ("FM-8", _("Name two different cards of your Hand to discard.")),
    "swap_cards": ("FM-3.3", _("Name one card of your Hand and one of your Sleeve to swap.")),
    "mapping_incomplete": ("FM-3.3", _("The mapping must name the secret role of every other player: missing "
                                       "%(missing)s.")),
    "mapping_role": ("FM-3.3", _("“%(role)s” is not a secret role.")),
    "looter_dead": ("FM-8", _("Name a dead character.")),
    "geek_card": ("FM-8", _("Name a card of the collection.")),
    "no_instant_now": ("FM-8", _("Abilities are used during a night or a day.")),
    "deck_not_empty": ("FM-4.7", _("You can rebuild only when your deck is empty; it still holds %(count)s cards.")),
}


def role_kind(seat: SeatInfo) -> set[str]:
    """The ability kinds a seat has: its secret role (``mafia`` for the three mafiosi) and its public role slug."""
    secret = seat.data.get("secret_role", "")
    public = seat.data.get("public_role")
    kinds = {"mafia" if secret in MAFIA_ROLES else secret}
    if isinstance(public, str):
        kinds.add(public)
    return kinds


def ability_key(ability: str) -> str:
    """``mafia_boss``/``mafia_advisor``/``mafia_killer`` → ``mafia``; other slugs as they are."""
    return "mafia" if ability in MAFIA_ROLES else ability


@dataclass
class AbilityUse:
    """A checked phase ability of one order: ``seat`` uses ``ability`` (role kind) in ``mode``; ``target`` and the
    rest as the ability needs; ``pay`` the maniac's Sleeve card uid; ``discard`` the scientist's two uids."""

    seat: int
    index: int
    ability: str
    mode: str = ""
    slug: str = ""
    target: int | None = None
    guess: str = ""
    text: str = ""
    pay: int | None = None
    discard: list[int] = field(default_factory=list)

    def payload(self) -> dict:
        """The normalised order entry (cards as uids)."""
        d: dict[str, Any] = {"ability": self.slug or self.ability}
        for key in ("mode", "target", "guess", "text", "pay", "discard"):
            value = getattr(self, key)
            if value not in (None, "", []):
                d[key] = value
        return d


@dataclass
class AbilityProblem:
    index: int
    field: str
    code: str
    params: dict = dataclasses.field(default_factory=dict)  # qualified: the ``field`` attribute shadows the name


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def check_phase_abilities(checker, raw: Any, used_uids: set[int], sleeve_played: bool,
                          plays: Sequence[Any]) -> tuple[list[AbilityUse], list[AbilityProblem]]:
    """Check the ``abilities`` of an order for ``checker.seat`` (a :class:`.orders._Checker`). ``used_uids``:
    cards the order's plays already use (grows with the cards the abilities take); ``sleeve_played``: whether a
    Sleeve card is played (non-free or free); ``plays``: the checked plays. Returns the legal uses and the
    problems (FM-3.1, FM-3.3, FM-8)."""
    seat, phase = checker.seat, checker.phase
    fm = checker.state.get("fm") or {}
    kinds = role_kind(seat)
    uses: list[AbilityUse] = []
    problems: list[AbilityProblem] = []
    if not isinstance(raw, list):
        return [], [AbilityProblem(0, "abilities", "unknown_mode", {"mode": "?", "ability": "?"})]
    seen: set[tuple[str, str]] = set()
    sleeve_slot = any(p.source == "sleeve" and not p.free for p in plays)  # free plays use no slot (FM-4.4)
    for index, item in enumerate(raw):
        def bad(code: str, fld: str = "", _index: int = index, **params) -> None:
            problems.append(AbilityProblem(_index, fld, code, params))

        if not isinstance(item, Mapping) or not isinstance(item.get("ability"), str):
            bad("unknown_mode", "ability", mode="?", ability="?")
            continue
        ability, mode = item["ability"], item.get("mode") or ""
        key = ability_key(ability)
        names = {"ability": ability, "mode": mode}
        if key not in kinds or (key == "mafia" and seat.data.get("secret_role") != ability):
            bad("not_your_ability", "ability", **names)
            continue
        if has_left(fm, seat.id):
            bad("ability_left", "ability", **names)
            continue
        if (key, mode) in INSTANT_ABILITIES:
            bad("unknown_mode", "mode", **names)  # instant abilities are used at once, not ordered
            continue
        if (key, mode) not in PHASE_ABILITIES:
            bad("unknown_mode", "mode", **names)
            continue
        if PHASE_ABILITIES[(key, mode)] == "night" and phase.kind != "night":
            bad("ability_night_only", "ability", **names)
            continue
        once = "mafia_message" if key == "mafia" else key
        if once in ONCE and once in used(fm, seat.id):
            bad("ability_spent", "ability", **names)
            continue
        if (key, mode) in seen or (key == "hero" and any(k == "hero" for k, _m in seen)):
            bad("ability_twice", "ability", **names)
            continue
        use = AbilityUse(seat=seat.id, index=index, ability=key, mode=mode, slug=ability)
        target = _int(item.get("target"))
        if (key, mode) in TARGETED_ABILITIES:
            if target is None:
                bad("needs_target", "target", card=ability)
                continue
            found = checker.target_problem(_AbilityCard(ability), target)
            if found:
                bad(found[0], "target", **found[1])
                continue
            use.target = target
        if key == "mafia":
            other = checker.by_id[target]
            if other.data.get("secret_role") not in MAFIA_ROLES:
                bad("mafia_target", "target", **names)
                continue
            raw_text = item.get("text")
            text = raw_text if isinstance(raw_text, str) else ""
            problem = checker.text_problem(text)
            if problem:
                bad(problem[0], "text", **problem[1])
                continue
            use.text = text.strip()
        elif key == "maniac":
            if sleeve_slot:
                bad("ability_sleeve_slot", "pay", **names)
                continue
            try:
                uids = checker._refs([item.get("pay")] if item.get("pay") is not None else [], "sleeve", used_uids)
            except (LookupError, ValueError):
                uids = []
            if len(uids) != 1:
                bad("ability_pay", "pay", **names)
                continue
            use.pay = uids[0]
            used_uids.add(uids[0])
            sleeve_slot = True
        elif key == "hero":
            if sleeve_played:
                bad("hero_sleeve_play", "ability", **names)
                continue
            if mode == "mark":
                guess = item.get("guess")
                if guess not in MAFIA_ROLES:
                    bad("hero_guess", "guess", **names)
                    continue
                use.guess = guess
        elif key == "assassin":
            count = len(checker.hand_of(target))
            if count != 1:
                bad("assassin_one_card", "target", target=checker.by_id[target].name, count=count)
                continue
        elif key == "scientist":
            try:
                uids = checker._refs(list(item.get("discard") or []), "hand", used_uids)
            except (LookupError, ValueError):
                uids = []
            if len(uids) != 2 or len(set(uids)) != 2:
                bad("scientist_discard", "discard", **names)
                continue
            use.discard = uids
            used_uids.update(uids)
        seen.add((key, mode))
        uses.append(use)
    return uses, problems


@dataclass(frozen=True)
class _AbilityCard:
    """Stands in for a card in the target checks (an ability targets one living other character)."""

    slug: str
    target: str = "one"


# ------------------------------------------------------------------------------------------ instant abilities


@dataclass
class InstantResult:
    """What an instant ability changed: ``seat_data`` (seat id → new data), ``alive`` (seat id → bool), the new
    ``state``, ``events`` and ``finished`` (the winners if the game is over, FM-10.6)."""

    state: dict
    seat_data: dict[int, dict] = field(default_factory=dict)
    alive: dict[int, bool] = field(default_factory=dict)
    events: list[Event] = field(default_factory=list)
    problems: list[tuple[str, str, dict]] = field(default_factory=list)
    finished: Outcome | None = None


def apply_instant(*, state: Mapping[str, Any], phase: PhaseInfo, seat: SeatInfo, seats: Sequence[SeatInfo],
                  payload: Mapping[str, Any], collection: Collection, rng: random.Random) -> InstantResult:
    """Use an instant ability now (FM-3.3 maniac swap and joker guess, FM-8 looter and geek). Returns the changes,
    or an :class:`InstantResult` whose ``problems`` (code, field, params) say why nothing changed."""
    fm = fm_state(state)
    result = InstantResult(state={**state, "fm": fm})

    def refuse(code: str, fld: str = "", **params) -> InstantResult:
        result.problems.append((code, fld, params))
        result.state = dict(state)
        return result

    if not isinstance(payload, Mapping) or not isinstance(payload.get("ability"), str):
        return refuse("unknown_mode", "ability", mode="?", ability="?")
    ability, mode = payload["ability"], payload.get("mode") or ""
    key = ability_key(ability)
    names = {"ability": ability, "mode": mode}
    if phase.kind not in ("night", "day"):
        return refuse("no_instant_now", "ability")
    if not seat.alive:
        return refuse("ability_left", "ability")
    if key not in role_kind(seat):
        return refuse("not_your_ability", "ability", **names)
    if (key, mode) not in INSTANT_ABILITIES:
        return refuse("unknown_mode", "mode", **names)
    if key in ONCE and key in used(fm, seat.id):
        return refuse("ability_spent", "ability", **names)
    by_id = {s.id: s for s in seats}
    c = Containers.from_dict(seat.data.get("cards"))
    if key == "maniac":
        hand = next((i for i in c.hand if i.kind == payload.get("hand_card") or i.uid == payload.get("hand_card")),
                    None)
        sleeve = next((i for i in c.sleeve if i.kind == payload.get("sleeve_card")
                       or i.uid == payload.get("sleeve_card")), None)
        if hand is None or sleeve is None:
            return refuse("swap_cards", "hand_card")
        index = c.hand.index(hand)
        c.hand[index], c.sleeve[c.sleeve.index(sleeve)] = sleeve, hand  # the new card takes the old one's place
        result.seat_data[seat.id] = {**seat.data, "cards": c.to_dict()}
        result.events.append(Event("fm.swapped", {"cards": [hand.kind, sleeve.kind]}, visibility="seat",
                                   seat=seat.id))
        result.events.append(Event("fm.t_swapped", {"layer": "instant", "step": "swapped", "player": seat.name,
                                                    "cards": [hand.kind, sleeve.kind]}, visibility="master"))
        return result
    if key == "looter":
        target_id = _int(payload.get("target"))
        target = by_id.get(target_id) if target_id is not None else None
        if target is None or target.alive:
            return refuse("looter_dead", "target")
        copies = [i.kind for i in Containers.from_dict(target.data.get("cards")).sleeve]
        for copied in copies:
            c.add(copied, "sleeve", "ability", collection=collection if copied in collection else None)
        fm.setdefault("used", {}).setdefault(str(seat.id), []).append("looter")
        result.seat_data[seat.id] = {**seat.data, "cards": c.to_dict()}
        result.events.append(Event("fm.looted", {"target": target.name, "cards": copies}, visibility="seat",
                                   seat=seat.id))
        result.events.append(Event("fm.t_looted", {"layer": "instant", "step": "looted", "player": seat.name,
                                                   "target": target.name, "cards": copies}, visibility="master"))
        return result
    if key == "geek":
        kind = payload.get("card")
        if not isinstance(kind, str) or kind not in collection or collection[kind].special:
            return refuse("geek_card", "card")
        c.add(kind, "sleeve", "ability", collection=collection)
        fm.setdefault("used", {}).setdefault(str(seat.id), []).append("geek")
        result.seat_data[seat.id] = {**seat.data, "cards": c.to_dict()}
        result.events.append(Event("fm.geek_card", {"cards": [kind]}, visibility="seat", seat=seat.id))
        result.events.append(Event("fm.t_geek_card", {"layer": "instant", "step": "geek_card", "player": seat.name,
                                                      "cards": [kind]}, visibility="master"))
        return result
    # joker's mapping guess (FM-3.3)
    mapping = payload.get("mapping")
    if not isinstance(mapping, Mapping):
        return refuse("mapping_incomplete", "mapping", missing="—")
    clean: dict[int, str] = {}
    for k, v in mapping.items():
        try:
            clean[int(k)] = v
        except (TypeError, ValueError):
            continue
    others = [s for s in sorted(seats, key=lambda s: s.position) if s.id != seat.id]
    missing = [s.name for s in others if s.id not in clean]
    if missing:
        return refuse("mapping_incomplete", "mapping", missing=", ".join(missing))
    for role in clean.values():
        if role not in SECRET_ROLES:
            return refuse("mapping_role", "mapping", role=str(role))
    right = all(clean[s.id] == s.data.get("secret_role") for s in others)
    fm.setdefault("left", {})[str(seat.id)] = "won" if right else "lost"
    result.alive[seat.id] = False
    result.events.append(Event("fm.t_joker_guess", {"layer": "instant", "step": "joker_guess", "player": seat.name,
                                                    "right": right}, visibility="master"))
    result.events.append(Event("fm.joker_left", {"player": seat.name, "right": right}))
    if not right:  # every ace in the game vanishes (§11 ace: vanishes when the Joker fails)
        for other in seats:
            oc = Containers.from_dict((result.seat_data.get(other.id) or other.data).get("cards"))
            gone = [i.uid for i in oc.hand + oc.sleeve if i.kind == "ace"]
            if gone:
                oc.discard_many(gone)
                result.seat_data[other.id] = {**other.data, "cards": oc.to_dict()}
                result.events.append(Event("fm.t_aces_vanish", {"layer": "instant", "step": "aces_vanish",
                                                                "player": other.name, "count": len(gone)},
                                           visibility="master"))
    from .victory import check_victory  # FM-10.6: checked at once after the joker's mapping

    _winner, result.finished = check_victory(seats, {s.id: result.alive.get(s.id, s.alive) for s in seats}, fm)
    return result


def is_left(state: Mapping[str, Any], seat_id: int) -> str:
    """``"won"``/``"lost"`` if the seat left the game through his own ability (joker's guess, hero's goals)."""
    return str((state.get("fm") or {}).get("left", {}).get(str(seat_id), ""))


def mafia_plus_traitor_at_least_rest(seats: Sequence[SeatInfo], alive: Mapping[int, bool]) -> bool:
    """FM-3.3 hero: goals don't count while living Mafia + Traitor ≥ all other living characters."""
    living = [s for s in seats if alive.get(s.id)]
    bad = [s for s in living if SECRET_ROLES.get(s.data.get("secret_role", ""), None) is not None
           and (SECRET_ROLES[s.data["secret_role"]].faction == MAFIA or s.data["secret_role"] == "traitor")]
    return len(bad) >= len(living) - len(bad)


def apply_rebuild(*, state: Mapping[str, Any], seat: SeatInfo, deck_list: Sequence[str], collection: Collection,
                  rng: random.Random) -> InstantResult:
    """FM-4.7/FM-4.8: rebuild an exhausted deck from ``deck_list`` (slugs already valid under FM-4.3 — the shell
    checks them with :mod:`cards.deckrules` for this seat's roles) and shuffle it with ``rng``. Recharges: the Mafia
    message (FM-3.1); ``banker`` draws one card of the new deck into the Sleeve; ``magician``'s first rebuild makes
    the bottom two cards free (FM-8). ``problems`` holds ``("deck_not_empty", "deck", {...})`` if the deck still has
    cards (nothing changes then)."""
    fm = fm_state(state)
    c = Containers.from_dict(seat.data.get("cards"))
    if c.deck:
        return InstantResult(state=dict(state), problems=[("deck_not_empty", "deck", {"count": len(c.deck)})])
    rebuilds = dict(fm.get("rebuilds") or {})
    first = int(rebuilds.get(str(seat.id), 0)) == 0
    public = seat.data.get("public_role")
    c.rebuild(list(deck_list), rng, collection, free_bottom=2 if public == "magician" and first else 0)
    rebuilds[str(seat.id)] = int(rebuilds.get(str(seat.id), 0)) + 1
    fm["rebuilds"] = rebuilds
    spent = fm.setdefault("used", {}).get(str(seat.id), [])
    if "mafia_message" in spent:
        fm["used"][str(seat.id)] = [u for u in spent if u != "mafia_message"]
    events = [Event("fm.rebuilt", {"count": len(deck_list)}, visibility="seat", seat=seat.id),
              Event("fm.t_rebuilt", {"layer": "instant", "step": "rebuilt", "player": seat.name,
                                     "count": len(deck_list)}, visibility="master")]
    if public == "banker":
        drawn = [c.set_provenance(i.uid, "role") for i in c.draw("sleeve", 1)]  # a role's Sleeve card (FM-8)
        events.append(Event("fm.drew_sleeve", {"cards": [i.kind for i in drawn]}, visibility="seat", seat=seat.id))
    data = {**seat.data, "cards": c.to_dict(), "deck_list": [{"kind": k} for k in deck_list]}
    return InstantResult(state={**state, "fm": fm}, seat_data={seat.id: data}, events=events)


# ------------------------------------------------------------------------------------------ what the player may use


#: The form's label of each ability (msgids; the shell translates them), by (role kind, mode).
ABILITY_LABELS: dict[tuple[str, str], str] = {
    ("mafia", "message"): _("Message to another mafioso (once; a rebuild recharges it)"),
    ("maniac", "damage"): _("Discard a Sleeve card: 2 damage to a target (this is your Sleeve play)"),
    ("maniac", "armour"): _("Discard a Sleeve card: 3 armour for yourself (this is your Sleeve play)"),
    ("joker", "hr"): _("The effect of “HR department” on a target (uses no slot)"),
    ("joker", "ace"): _("Put an ace into a target's Sleeve (once per phase)"),
    ("hero", "armour"): _("3 armour to another character (only on a night without a Sleeve play)"),
    ("hero", "mark"): _("Name a character and a Mafia role for your mark (only on a night without a Sleeve play)"),
    ("assassin", ""): _("Kill a character who has exactly 1 Hand card (once per game)"),
    ("scientist", ""): _("Discard two Hand cards and draw replacements, even while playing cards (once per game)"),
    ("maniac", "swap"): _("Swap one Hand card with one Sleeve card (at once, any number of times)"),
    ("joker", "guess"): _("Name the secret role of every other player (at once; you leave the game)"),
    ("looter", ""): _("Copy every card of a dead character's Sleeve into yours (at once, once per game)"),
    ("geek", ""): _("Take any card of the collection into your Sleeve (at once, once per game)"),
}
#: How often an ability can be used: ``game`` (once), ``rebuild`` (once until the next rebuild, FM-4.8), ``phase``
#: or ``night`` (once in each), ``None`` (any number of times).
ABILITY_PERIODS: dict[tuple[str, str], str | None] = {
    ("mafia", "message"): "rebuild", ("maniac", "damage"): "night", ("maniac", "armour"): "night",
    ("joker", "hr"): "night", ("joker", "ace"): "phase", ("hero", "armour"): "night", ("hero", "mark"): "night",
    ("assassin", ""): "game", ("scientist", ""): "game", ("maniac", "swap"): None, ("joker", "guess"): "game",
    ("looter", ""): "game", ("geek", ""): "game",
}
REASONS.update({
    "ability_no_target": ("FM-5.5", _("There is nobody “%(ability)s” could be used on now.")),
    "assassin_no_target": ("FM-8", _("Nobody has exactly 1 Hand card now.")),
})


def ability_options(*, state: Mapping[str, Any], phase: PhaseInfo, seat: SeatInfo,
                    seats: Sequence[SeatInfo]) -> list[dict]:
    """Every ability ``seat`` has (FM-3, FM-8), phase and instant ones, and whether he may use it now — for the order
    form (phase abilities go into the order's ``abilities``) and the panel's instant forms. One dict per ability:

    ``ability`` (the payload's role slug: the mafioso's own secret role for the Mafia message), ``mode``, ``key``
    (``ability-mode``, unique per seat), ``label`` (msgid), ``instant``, ``timing`` (``night``/``any``), ``per``
    (see :data:`ABILITY_PERIODS`), what the payload needs — ``needs_target`` (a living other: ``targets`` lists the
    seat ids allowed now), ``needs_dead_target`` (the looter: ``targets`` are the dead), ``needs_guess``
    (``guesses``: Mafia roles), ``needs_text``, ``needs_pay`` (a Sleeve card: ``pay_choices`` uids),
    ``needs_discard`` (two Hand cards), ``needs_swap`` (a Hand and a Sleeve card), ``needs_mapping`` (``others``:
    seat ids to name a secret role for), ``needs_card`` (a collection card) — and ``available``, ``reason`` (msgid,
    empty when available) with ``reason_params`` (``ability`` is a role slug), ``uses_left`` (``None``: unlimited;
    else what is left in its period). What depends on the rest of the order (the maniac's and the hero's Sleeve
    play, one hero ability per night) is checked when the order is submitted."""
    fm = state.get("fm") or {}
    kinds = role_kind(seat)
    secret = seat.data.get("secret_role", "")
    spent = used(fm, seat.id)
    c = Containers.from_dict(seat.data.get("cards"))
    ordered = sorted(seats, key=lambda s: s.position)
    living = [s for s in ordered if s.alive and s.id != seat.id and not untargetable(s, phase)]
    left = has_left(fm, seat.id)
    playing = phase.kind in ("night", "day") and seat.alive and not left
    out: list[dict] = []
    for (key, mode), timing in [*PHASE_ABILITIES.items(), *INSTANT_ABILITIES.items()]:
        if key not in kinds:
            continue
        ability = secret if key == "mafia" else key
        once = "mafia_message" if key == "mafia" else key
        instant = (key, mode) in INSTANT_ABILITIES
        names = {"ability": ability, "mode": mode}
        targets: list[int] = []
        if key == "mafia":
            targets = [s.id for s in living if s.data.get("secret_role") in MAFIA_ROLES]
        elif key == "assassin":
            targets = [s.id for s in living if len((s.data.get("cards") or {}).get("hand") or []) == 1]
        elif (key, mode) in TARGETED_ABILITIES:
            targets = [s.id for s in living]
        elif key == "looter":
            targets = [s.id for s in ordered if not s.alive and s.id != seat.id]
        option: dict[str, Any] = {
            "ability": ability, "mode": mode, "key": f"{ability}-{mode}" if mode else ability,
            "label": ABILITY_LABELS[(key, mode)], "instant": instant, "timing": timing,
            "per": ABILITY_PERIODS[(key, mode)],
            "needs_target": (key, mode) in TARGETED_ABILITIES, "needs_dead_target": key == "looter",
            "needs_guess": (key, mode) == ("hero", "mark"), "needs_text": key == "mafia",
            "needs_pay": key == "maniac" and mode in ("damage", "armour"), "needs_discard": key == "scientist",
            "needs_swap": (key, mode) == ("maniac", "swap"), "needs_mapping": (key, mode) == ("joker", "guess"),
            "needs_card": key == "geek",
            "targets": targets, "guesses": list(MAFIA_ROLES) if (key, mode) == ("hero", "mark") else [],
            "pay_choices": [i.uid for i in c.sleeve] if key == "maniac" and mode != "swap" else [],
            "others": [s.id for s in ordered if s.id != seat.id] if (key, mode) == ("joker", "guess") else [],
        }
        is_spent = once in ONCE and once in spent
        if option["per"] is None:
            uses_left = None
        else:
            uses_left = 0 if is_spent else 1
        reason: tuple[str, dict] | None = None
        if not playing:
            reason = ("ability_left", {}) if (left or not seat.alive) else ("no_instant_now", {})
        elif timing == "night" and phase.kind != NIGHT:
            reason = ("ability_night_only", names)
        elif is_spent:
            reason = ("ability_spent", names)
        elif key == "mafia" and not targets:
            reason = ("mafia_target", names)
        elif key == "assassin" and not targets:
            reason = ("assassin_no_target", {})
        elif (option["needs_target"] or option["needs_dead_target"]) and not targets:
            reason = ("looter_dead", {}) if key == "looter" else ("ability_no_target", names)
        elif option["needs_pay"] and not c.sleeve:
            reason = ("ability_pay", names)
        elif option["needs_discard"] and len(c.hand) < 2:
            reason = ("scientist_discard", names)
        elif option["needs_swap"] and not (c.hand and c.sleeve):
            reason = ("swap_cards", {})
        option.update(available=reason is None, reason=REASONS[reason[0]][1] if reason else "",
                      reason_params=dict(reason[1]) if reason else {}, uses_left=uses_left)
        out.append(option)
    return out
