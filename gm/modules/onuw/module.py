"""One Night Ultimate Werewolf as a core game module (rules ``ON-…``, ``/work/shared/rules/onuw.md``).

The rules live in the pure :mod:`.engine`; this class adapts them to :class:`gm.core.engine.GameModule`: options,
setup, order validation per phase, resolution of the doppelganger step, the night and the day, per-viewer views,
and the log messages in the reader's language. Phases: ``doppelganger`` (only when a doppelganger is in play,
ON-14), ``night`` (ON-13), ``day`` (ON-15); the game ends with the day.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from gm.core.engine import (
    Event,
    GameModule,
    Outcome,
    PhaseSpec,
    Resolution,
    RuleError,
    RuleViolation,
    SetupResult,
)

from . import engine

ROLE_NAMES = {
    "villager": _("Villager"),
    "werewolf": _("Werewolf"),
    "seer": _("Seer"),
    "robber": _("Robber"),
    "troublemaker": _("Troublemaker"),
    "tanner": _("Tanner"),
    "drunk": _("Drunk"),
    "hunter": _("Hunter"),
    "mason": _("Mason"),
    "insomniac": _("Insomniac"),
    "minion": _("Minion"),
    "doppelganger": _("Doppelganger"),
}
TEAM_NAMES = {"village": _("village"), "werewolf": _("werewolves"), "tanner": _("tanner")}
#: How each team wins (ON-9–ON-12), for the player's card.
VILLAGE_WIN = _("Village team: you win if at least one werewolf dies, or, when no player is a werewolf, if nobody "
                "dies.")
WIN_TEXTS = {
    "werewolf": _("Werewolf team: you win if no werewolf dies — unless the tanner dies."),
    "minion": _("Werewolf team: you win if no werewolf dies, even if you die — unless the tanner dies. If no player "
                "is a werewolf, you win if someone other than you dies."),
    "tanner": _("You are on no team: you win only if you die."),
}
#: ON-5: the card that counts is the one in front of the player at the end of the night.
FINAL_CARD_NOTE = _("Your team is that of the card in front of you at the end of the night, which may have been "
                    "swapped.")
CENTER_NAMES = {"center1": _("center card 1"), "center2": _("center card 2"), "center3": _("center card 3")}

MESSAGES = {
    "onuw.roles_in_play": _("Cards in play (players + 3 in the center): %(roles)s."),
    "onuw.your_card": _("Your card: %(role)s."),
    "onuw.warning": _("Set-up warning: %(text)s"),
    "onuw.deal": _("Deal: %(deal)s; center: %(center)s."),
    "onuw.copied": _("You looked at %(name)s's card: %(role)s. You are now %(role)s."),
    "onuw.copied_nothing": _("You copied nobody; you stay a doppelganger (village team)."),
    "onuw.trace_copy": _("%(name)s (doppelganger) copied %(target_name)s: %(role)s."),
    "onuw.trace_no_copy": _("%(name)s (doppelganger) copied nobody."),
    "onuw.werewolves": _("The other werewolves: %(names)s."),
    "onuw.lone_wolf": _("You are the only werewolf among the players; you may look at one center card."),
    "onuw.lone_wolf_no_peek": _("You are the only werewolf among the players."),
    "onuw.minion_sees": _("The werewolves: %(names)s."),
    "onuw.minion_no_wolves": _("No player is a werewolf."),
    "onuw.masons": _("The other masons: %(names)s."),
    "onuw.lone_mason": _("You are the only mason among the players: the other one is in the center."),
    "onuw.seer_saw": _("You saw: %(seen)s."),
    "onuw.trace_seer": _("%(name)s (seer) saw: %(seen)s."),
    "onuw.wolf_saw": _("You looked at %(center)s: %(card)s."),
    "onuw.trace_wolf": _("%(name)s (lone werewolf) looked at %(center)s: %(card)s."),
    "onuw.robbed": _("You took %(name)s's card and looked at it: %(card)s. You are now %(as)s."),
    "onuw.trace_robber": _("%(name)s (robber) swapped cards with %(target_name)s and got %(card)s."),
    "onuw.swapped": _("You swapped the cards of %(names)s."),
    "onuw.trace_troublemaker": _("%(name)s (troublemaker) swapped the cards of %(names)s."),
    "onuw.drunk_took": _("You swapped your card with %(center)s without looking at it."),
    "onuw.trace_drunk": _("%(name)s (drunk) took %(center)s."),
    "onuw.trace_drunk_random": _("%(name)s (drunk) gave no order: %(center)s was taken at random."),
    "onuw.insomniac_saw": _("At the end of the night your card is: %(card)s (%(as)s)."),
    "onuw.trace_insomniac": _("%(name)s (insomniac) saw her card: %(card)s."),
    "onuw.night_over": _("The night is over. Discuss, then vote."),
    "onuw.votes": _("Votes: %(votes)s."),
    "onuw.nobody_died": _("No player has more than one vote: nobody dies."),
    "onuw.died": _("%(name)s dies with %(count)s votes and reveals %(card)s."),
    "onuw.hunter_shot": _("%(hunter_name)s was the hunter: %(name)s dies too and reveals %(card)s."),
    "onuw.final_cards": _("Every card: %(table)s; center: %(center)s."),
    "onuw.winners": _("Winners: %(teams)s (%(names)s)."),
    "onuw.no_winners": _("Nobody wins."),
}


def role_name(slug: str) -> str:
    """A role's name in the active language (unknown slugs as given)."""
    return str(ROLE_NAMES.get(slug, slug))


def _errors(exc: engine.OnuwError) -> RuleViolation:
    return RuleViolation([RuleError(message, field=f, rule=exc.rule, params=dict(p)) for f, message, p in exc.errors])


def _seat_order(seats) -> list[str]:
    return [str(s.id) for s in sorted(seats, key=lambda s: s.position)]


def card_text(card: str, as_role: str | None = None) -> str:
    """A card's name in the active language; the doppelganger card with the role it counts as, "Doppelganger
    (Robber)" (ON-4.1) — in parentheses, as the arrow belongs to "dealt → ended"."""
    if card == "doppelganger" and as_role and as_role != card:
        return f"{role_name(card)} ({role_name(as_role)})"
    return role_name(card)


def win_text(role: str) -> str:
    """How the holder of ``role`` wins (ON-9–ON-12) and that the final card decides (ON-5), in the active
    language, for the player's card: werewolf, minion and tanner their own; every other role the village's."""
    return f"{WIN_TEXTS.get(role, VILLAGE_WIN)} {FINAL_CARD_NOTE}"


def dealt_and_final(dealt: str, copy: str | None, final: str, final_as: str | None) -> str:
    """A seat's two cards in words, the final one last as it decides the team (ON-5): "dealt Werewolf → ended
    Robber". ``copy`` is the doppelganger's copied role (ON-4.1), ``final_as`` the role the final card counts as."""
    return gettext("dealt %(dealt)s → ended %(final)s") % {"dealt": card_text(dealt, copy),
                                                           "final": card_text(final, final_as)}


def result_word(won: bool) -> str:
    """"won" or "lost" in the active language (ON-9–ON-12)."""
    return gettext("won") if won else gettext("lost")


class OnuwModule(GameModule):
    """One Night Ultimate Werewolf (ON-1–ON-16). Options: ``roles`` (the master's multiset of cards, ON-2; empty:
    the recommended set), ``deal`` (instead of ``roles``: a fixed deal, one card per seat in ring order then the three
    center cards — for scenarios and replays), ``lone_wolf`` (ON-4.2, default on), ``series`` (a tournament series
    name, ON-16)."""

    slug = "onuw"
    # The role multiset is public through the log (ON-3); the options naming it, or a fixed deal, are not.
    public_option_keys = ("lone_wolf", "series")
    name = _("One Night Ultimate Werewolf")
    min_seats = engine.MIN_PLAYERS
    max_seats = engine.MAX_PLAYERS
    phase_kinds = {"doppelganger": _("Doppelganger %(number)s"), "night": _("Night %(number)s"),
                   "day": _("Day %(number)s")}
    default_durations = {"doppelganger": 6 * 3600, "night": 24 * 3600, "day": 48 * 3600}
    messages = MESSAGES
    template_name = "onuw/game.html"
    own_order_form = True
    public_order_kinds = ("day",)  # ON-15: votes are public and changeable until the deadline
    scenario_runner = "gm.modules.onuw.scenario.run"

    # -- options and setup (ON-1–ON-3, ON-16) ------------------------------------------------------------
    def validate_options(self, options):
        errors = []
        for key in sorted(set(options) - {"roles", "deal", "lone_wolf", "series"}):
            errors.append(RuleError(_("Unknown option “%(key)s”."), field=key, params={"key": key}))
        roles = options.get("roles") or []
        if isinstance(roles, str):
            roles = [r.strip() for r in roles.replace(",", " ").split() if r.strip()]
        if not isinstance(roles, list) or not all(isinstance(r, str) for r in roles):
            errors.append(RuleError(_("Give the roles as a list of role slugs."), field="roles", rule="ON-2"))
            roles = []
        else:
            try:
                engine.check_roles(roles)
            except engine.OnuwError as exc:
                errors += _errors(exc).errors
        deal = options.get("deal") or []
        if not isinstance(deal, list) or not all(isinstance(r, str) for r in deal):
            errors.append(RuleError(_("Give the deal as a list of role slugs."), field="deal", rule="ON-3"))
            deal = []
        elif deal:
            try:
                engine.check_roles(deal)
            except engine.OnuwError as exc:
                errors += [RuleError(err.message, field="deal", rule=err.rule, params=err.params)
                           for err in _errors(exc).errors]
            if roles:
                errors.append(RuleError(_("Give either the roles or a fixed deal, not both."), field="deal"))
        lone_wolf = options.get("lone_wolf", True)
        if not isinstance(lone_wolf, bool):
            errors.append(RuleError(_("The lone wolf option is true or false."), field="lone_wolf", rule="ON-4.2"))
        series = options.get("series", "")
        if not isinstance(series, str) or len(series) > 60:
            errors.append(RuleError(_("The series is a short name (at most 60 characters)."), field="series",
                                    rule="ON-16"))
        if errors:
            raise RuleViolation(errors)
        clean: dict[str, Any] = {"lone_wolf": lone_wolf}
        if roles:
            clean["roles"] = sorted(roles)
        if deal:
            clean["deal"] = list(deal)
        if series.strip():
            clean["series"] = series.strip()
        return clean

    def options_fields(self) -> dict:
        from django import forms
        from django.utils.html import conditional_escape, format_html_join
        from django.utils.safestring import mark_safe

        # The slugs are what the master types: shown as code, each with the role's name in his language.
        slugs = format_html_join(", ", "<code>{}</code> ({})", ((r, role_name(r)) for r in engine.ROLES))
        return {
            "roles": forms.CharField(
                label=_("Cards in play (players + 3; empty: the recommended set)"), required=False,
                help_text=mark_safe(conditional_escape(gettext("Role slugs separated by spaces: %(roles)s."))
                                    % {"roles": slugs})),
            "lone_wolf": forms.BooleanField(label=_("A lone werewolf may look at a center card"), required=False,
                                            initial=True),
            "series": forms.CharField(label=_("Tournament series (first to 5 tokens wins)"), required=False,
                                      max_length=60),
        }

    def options_from_fields(self, values):
        roles = [r for r in (values.get("roles") or "").replace(",", " ").split() if r]
        clean: dict[str, Any] = {"lone_wolf": bool(values.get("lone_wolf"))}
        if roles:
            clean["roles"] = roles
        if values.get("series"):
            clean["series"] = values["series"]
        return clean

    def setup(self, *, seats, options, rng):
        fixed = list(options.get("deal") or [])
        try:
            roles = fixed or list(options.get("roles") or engine.recommended_roles(len(seats)))
            warnings = engine.check_roles(roles, len(seats))
        except engine.OnuwError as exc:
            raise _errors(exc) from None
        ordered = sorted(seats, key=lambda s: s.position)
        if fixed:  # the master fixed the deal (seats in ring order, then the center): scenarios, replays
            cards = {str(s.id): fixed[i] for i, s in enumerate(ordered)}
            center = fixed[len(ordered):]
        else:
            cards, center = engine.deal([s.id for s in ordered], roles, rng)
        state = engine.initial_state(cards, center, lone_wolf=options.get("lone_wolf", True))
        names = {str(s.id): s.name for s in seats}
        events = [Event("onuw.roles_in_play", {"roles": state["roles"]})]
        events += [Event("onuw.warning", {"text": message, "params": params}, visibility="master")
                   for message, params in warnings]
        events.append(Event("onuw.deal", {"cards": cards, "center": center, "names": names}, visibility="master"))
        events += [Event("onuw.your_card", {"role": cards[str(s.id)]}, visibility="seat", seat=s.id) for s in ordered]
        if state["stage"] == "night":
            events += self._events(engine.knowledge(state, _seat_order(seats)), names)
        learned = _learned(events)
        return SetupResult(
            state=state, first_phase=PhaseSpec(state["stage"], 1),
            seat_data={s.id: {"card": cards[str(s.id)], **({"learned": learned[s.id]} if s.id in learned else {})}
                       for s in seats},
            events=events,
        )

    # -- orders -------------------------------------------------------------------------------------------
    def validate_order(self, *, state, phase, seat, payload, seats=()):
        order = _seat_order(seats) or list(state["dealt"])
        sid = str(seat.id)
        try:
            if phase.kind == "doppelganger":
                return engine.validate_copy(state, sid, payload, order)
            if phase.kind == "night":
                return engine.validate_night(state, sid, payload, order)
            if phase.kind == "day":
                return engine.validate_vote(sid, payload, order)
        except engine.OnuwError as exc:
            raise _errors(exc) from None
        raise RuleViolation([RuleError(_("This phase takes no orders."))])

    # -- resolution ---------------------------------------------------------------------------------------
    @staticmethod
    def _events(evs, names: Mapping[str, str]) -> list[Event]:
        out = []
        for ev in evs:
            data = {**ev.data, "names": {k: names[k] for k in _seat_refs(ev.data) if k in names}}
            if ev.to == "public":
                out.append(Event(ev.kind, data))
            elif ev.to == "master":
                out.append(Event(ev.kind, data, visibility="master"))
            else:
                out.append(Event(ev.kind, data, visibility="seat", seat=int(ev.to)))
        return out

    def resolve(self, *, state, phase, seats, orders, rng):
        order = _seat_order(seats)
        names = {str(s.id): s.name for s in seats}
        by_str = {str(k): v for k, v in orders.items()}
        if phase.kind == "doppelganger":
            new, evs = engine.resolve_doppelganger(state, by_str, order)
            events = self._events(evs, names)
            seat_data = _with_learned(seats, events)
            dop = engine.doppelganger_seat(new)
            if dop is not None and new.get("copy"):
                base = seat_data.get(int(dop)) or dict(next(s.data for s in seats if s.id == int(dop)))
                seat_data[int(dop)] = {**base, "card": "doppelganger", "copy": new["copy"]}
            return Resolution(new, events, seat_data=seat_data, next_phase=PhaseSpec("night", 1))
        if phase.kind == "night":
            new, evs = engine.resolve_night(state, by_str, order, rng)
            events = self._events(evs, names)
            return Resolution(new, events, seat_data=_with_learned(seats, events), next_phase=PhaseSpec("day", 1))
        new, evs, teams, winners = engine.resolve_day(state, by_str, order)
        alive = {int(sid): False for sid in new["dead"]}
        won = {int(s) for s in winners}
        seat_data = {}
        for s in seats:
            final = new["cards"][str(s.id)]
            final_as = engine.effective(final, new)
            seat_data[s.id] = {**s.data, "final": final, "final_as": final_as, "team": engine.team(final_as),
                               "won": s.id in won}
        return Resolution(new, self._events(evs, names), seat_data=seat_data, alive=alive,
                          outcome=Outcome(teams, [int(s) for s in winners]))

    # -- what each viewer sees (ON-3, ON-5) -------------------------------------------------------------
    def view(self, *, state, seats, viewer):
        if viewer.sees_everything:
            return dict(state)
        public = {"roles": state.get("roles", []), "stage": state.get("stage")}
        if state.get("stage") == "over":
            public.update({"votes": state.get("votes", {}), "dead": state.get("dead", [])})
        return public

    def own_seat_data(self, data):
        # The dealt card (and the doppelganger's copy) and what he learned only: a player never learns his final
        # card by looking (ON-5).
        return {k: v for k, v in data.items() if k in ("card", "copy", "learned")}

    # -- the seats table and the full reveal, in words ------------------------------------------------------
    def seat_facts(self, data, *, secret):
        """The seats table and the full reveal: nothing public (every card is secret until the end, ON-3); the
        secret part — while the game runs the dealt card (and the doppelganger's copy, ON-4.1); once it is over
        both cards with the final one deciding ("dealt Werewolf → ended Robber", ON-5), the team and the result of
        the final card (ON-9–ON-12); and what the seat learned in the night (ON-13, its own log lines)."""
        if not secret:
            return []
        facts = []
        if data.get("final"):
            facts.append((gettext("Card"), dealt_and_final(data.get("card") or "", data.get("copy"), data["final"],
                                                           data.get("final_as"))))
            if data.get("team"):
                facts.append((gettext("Team"), str(TEAM_NAMES.get(data["team"], data["team"]))))
            if "won" in data:
                facts.append((gettext("Result"), result_word(data["won"])))
        elif data.get("card"):
            facts.append((gettext("Dealt card"), card_text(data["card"], data.get("copy"))))
        learned = [self.render_event(e.get("kind", ""), e.get("data") or {})
                   for e in data.get("learned") or [] if isinstance(e, Mapping)]
        if learned:
            facts.append((gettext("Learned"), " ".join(learned)))
        return facts

    def order_lines(self, *, payload, seat_data, seat_names):
        """An order version in words: the doppelganger's copy (ON-4.1), the seer's or lone werewolf's look
        (ON-4.5, ON-4.2), the robber's, troublemaker's and drunk's swaps (ON-4.6–ON-4.8), the day vote (ON-7).
        ``seat_names`` maps seat ids (int) to character names; center references are named "center card N"."""
        def ref(value) -> str:
            if isinstance(value, str) and value in CENTER_NAMES:
                return str(CENTER_NAMES[value])
            return seat_names.get(int(value), str(value))

        lines = []
        if payload.get("copy") is not None:
            lines.append(gettext("Copy %(name)s's card.") % {"name": ref(payload["copy"])})
        look = payload.get("look")
        if look:
            looked = [ref(r) for r in look]
            if len(looked) == 2:  # the seer's two center cards (ON-4.5)
                lines.append(gettext("Look at %(first)s and %(second)s.") % {"first": looked[0],
                                                                             "second": looked[1]})
            elif isinstance(look[0], str) and look[0] in CENTER_NAMES:  # a lone werewolf or the seer, one center
                lines.append(gettext("Look at %(center)s.") % {"center": looked[0]})
            else:
                lines.append(gettext("Look at %(name)s's card.") % {"name": looked[0]})
        if payload.get("swap_with") is not None:
            lines.append(gettext("Swap cards with %(name)s.") % {"name": ref(payload["swap_with"])})
        if payload.get("swap"):
            a, b = (ref(r) for r in payload["swap"])
            lines.append(gettext("Swap the cards of %(a)s and %(b)s.") % {"a": a, "b": b})
        if payload.get("take"):
            lines.append(gettext("Take %(center)s.") % {"center": ref(payload["take"])})
        if payload.get("vote") is not None:
            lines.append(gettext("Vote for %(name)s.") % {"name": ref(payload["vote"])})
        return lines or [gettext("Nothing.")]


    def player_needs(self, *, game, phase, seat, payload):
        """ON-4: a night asks an order only of a seat whose card chooses something (the others just wake or sleep);
        the day (ON-6) asks everyone's vote."""
        from gm.core.dashboard import ACT, DONE, IDLE, Need

        label = phase.label
        if phase.kind == "day":
            if payload is None:
                return [Need(_("Voting is open in %(phase)s: you have not voted (ON-6).") % {"phase": label}, ACT,
                             phase.deadline)]
            return [Need(_("You have voted in %(phase)s; you may change your vote until the deadline.")
                         % {"phase": label}, DONE, phase.deadline)]
        if phase.kind == "night" and engine.night_choice(game.state or {}, str(seat.pk),
                                                         list((game.state or {}).get("dealt") or [])) is None:
            return [Need(_("%(phase)s: your card has nothing to choose; wait for the day.") % {"phase": label}, IDLE,
                         phase.deadline)]
        return None

    def page_context(self, *, game, viewer):
        from .views import page_context

        return page_context(game=game, viewer=viewer)

    # -- rendering ------------------------------------------------------------------------------------------
    def winner_label(self, slug: str) -> str:
        """A winning team of ON-7 (``village``, ``werewolf``, ``tanner``) in the active language."""
        return str(TEAM_NAMES.get(slug, slug))

    def render_event(self, kind: str, data: Mapping[str, Any]) -> str:
        names = data.get("names", {})

        def who(sid) -> str:
            return names.get(str(sid), str(sid))

        params = dict(data)
        if "seat" in data:
            params["name"] = who(data["seat"])
        if "target" in data:
            params["target_name"] = who(data["target"])
        if "hunter" in data:
            params["hunter_name"] = who(data["hunter"])
        if isinstance(data.get("seats"), list) and kind != "onuw.final_cards":
            params["names"] = ", ".join(who(s) for s in data["seats"]) or "—"
        if "role" in data:
            params["role"] = role_name(data["role"])
        if "card" in data:
            params["card"] = card_text(data["card"], data.get("as"))
            if kind in ("onuw.died", "onuw.hunter_shot") and data.get("dealt") not in (None, data["card"]):
                params["card"] = gettext("%(card)s (dealt %(dealt)s)") % {
                    "card": params["card"], "dealt": card_text(data["dealt"], data.get("copy"))}
        if "as" in data:
            params["as"] = role_name(data["as"])
        if isinstance(data.get("center"), str) and data["center"] in CENTER_NAMES:
            params["center"] = str(CENTER_NAMES[data["center"]])
        if kind == "onuw.roles_in_play":
            params["roles"] = ", ".join(role_name(r) for r in data["roles"])
        elif kind == "onuw.warning":
            p = dict(data.get("params") or {})
            if "role" in p:
                p["role"] = role_name(p["role"])
            params["text"] = gettext(data["text"]) % p if p else gettext(data["text"])
        elif kind == "onuw.deal":
            params["deal"] = ", ".join(f"{names.get(k, k)}: {role_name(v)}" for k, v in data["cards"].items())
            params["center"] = ", ".join(role_name(c) for c in data["center"])
        elif kind in ("onuw.seer_saw", "onuw.trace_seer"):
            params["seen"] = ", ".join(
                f"{CENTER_NAMES[s['center']] if 'center' in s else who(s['seat'])}: {role_name(s['card'])}"
                for s in data["seen"])
        elif kind == "onuw.votes":
            params["votes"] = ", ".join(f"{who(v)} → {who(t)}" for v, t in data["votes"]) or "—"
        elif kind == "onuw.final_cards":
            params["table"] = "; ".join(_final_row(who(s["seat"]), s, data.get("copy")) for s in data["seats"])
            params["center"] = ", ".join(role_name(c) for c in data["center"])
        elif kind == "onuw.winners":
            if not data["teams"]:
                return str(MESSAGES["onuw.no_winners"])
            params["teams"] = ", ".join(str(TEAM_NAMES.get(t, t)) for t in data["teams"])
            params["names"] = ", ".join(who(s) for s in data["seats"]) or "—"
        return super().render_event(kind, params)

    # -- the module kit ---------------------------------------------------------------------------------------
    def order_options(self, *, game, viewer):
        from .options import order_options

        return order_options(game=game, viewer=viewer)

    def bot_policy(self):
        from .bots import OnuwPolicy

        return OnuwPolicy()


def _final_row(name: str, row: Mapping[str, Any], copy: str | None) -> str:
    """One seat of the final reveal line (ON-5): "Boris: dealt Werewolf → ended Robber (village, lost)"; entries
    written before the team and result were stored read without them."""
    text = f"{name}: {dealt_and_final(row['dealt'], copy, row['card'], row['as'])}"
    if "team" in row and "won" in row:
        text += f" ({TEAM_NAMES.get(row['team'], row['team'])}, {result_word(row['won'])})"
    return text


def _learned(events: list[Event]) -> dict[int, list[dict]]:
    """Seat id → what that seat learned from ``events`` (its own ``seat`` events, data with names), stored in its
    seat data so the seats table and the full reveal can tell it (ON-13)."""
    learned: dict[int, list[dict]] = {}
    for ev in events:
        if ev.visibility == "seat" and ev.seat is not None and ev.kind != "onuw.your_card":  # the card is its own fact
            learned.setdefault(int(ev.seat), []).append({"kind": ev.kind, "data": dict(ev.data)})
    return learned


def _with_learned(seats, events: list[Event]) -> dict[int, dict]:
    """The seat-data changes adding what each seat learned from ``events`` to what it knew before."""
    by_id = {s.id: s for s in seats}
    return {sid: {**by_id[sid].data, "learned": [*(by_id[sid].data.get("learned") or []), *new]}
            for sid, new in _learned(events).items() if sid in by_id}


def _seat_refs(data: Mapping[str, Any]) -> set[str]:
    """Seat ids (strings) an event's data names, so the module can add their display names for rendering."""
    refs: set[str] = set()
    for key in ("seat", "target", "hunter"):
        if key in data:
            refs.add(str(data[key]))
    for value in data.get("seats", []):
        refs.add(str(value["seat"]) if isinstance(value, dict) else str(value))
    for item in data.get("seen", []):
        if "seat" in item:
            refs.add(str(item["seat"]))
    for pair in data.get("votes", []):
        refs.update(str(v) for v in pair)
    return refs


MODULE = OnuwModule()
