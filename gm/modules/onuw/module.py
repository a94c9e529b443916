"""One Night Ultimate Werewolf as a core game module (rules ``ON-…``, ``docs/rules/onuw.md``).

The only file the core imports (through ``settings.GM_MODULES`` and :mod:`gm.core.registry`): it declares what the
core needs to know and delegates every hook in one line — rules to the pure :mod:`.engine`, words to :mod:`.texts`,
forms to :mod:`.forms`, reads to :mod:`.selectors`, the game page's panel to :mod:`.views`. Phases:
``doppelganger`` (only when a doppelganger is in play, ON-14), ``night`` (ON-13), ``day`` (ON-15); the game ends
with the day.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gm.core.engine import GameModule

from . import engine, forms, selectors, texts, views
from .engine import stats as engine_stats


class OnuwModule(GameModule):
    """One Night Ultimate Werewolf (ON-1–ON-16). Options: ``roles`` (the master's multiset of cards, ON-2; empty:
    the recommended set), ``deal`` (instead of ``roles``: a fixed deal, one card per seat in ring order then the three
    center cards — for scenarios and replays), ``lone_wolf`` (ON-4.2, default on), ``series`` (a tournament series
    name, ON-16)."""

    slug = "onuw"
    # The role multiset is public through the log (ON-3); the options naming it, or a fixed deal, are not.
    public_option_keys = ("lone_wolf", "series")
    name = texts.NAME
    min_seats = engine.MIN_PLAYERS
    max_seats = engine.MAX_PLAYERS
    phase_kinds = texts.PHASE_KINDS
    default_durations = {"doppelganger": 6 * 3600, "night": 24 * 3600, "day": 48 * 3600}
    messages = texts.MESSAGES
    template_name = "onuw/panel.html"
    own_order_form = True
    public_order_kinds = ("day",)  # ON-15: votes are public and changeable until the deadline
    scenario_runner = "gm.modules.onuw.scenario.run"

    # -- options and setup (ON-1–ON-3, ON-16) ------------------------------------------------------------
    def validate_options(self, options):
        return engine.validate_options(options)

    def options_fields(self) -> dict:
        return forms.options_fields()

    def options_from_fields(self, values):
        return forms.options_from_fields(values)

    def setup(self, *, seats, options, rng):
        return engine.setup(seats=seats, options=options, rng=rng)

    # -- orders and resolution (ON-4–ON-14) ---------------------------------------------------------------
    def validate_order(self, *, state, phase, seat, payload, seats=()):
        return engine.validate_order(state, kind=phase.kind, sid=str(seat.id), payload=payload,
                                     order=engine.seat_order(seats) or list(state["dealt"]))

    def has_legal_action(self, *, state, phase, seat, seats=()):
        return engine.has_action(state, kind=phase.kind, sid=str(seat.id),
                                 order=engine.seat_order(seats) or list(state["dealt"]))

    def resolve(self, *, state, phase, seats, orders, rng):
        return engine.resolve(state=state, kind=phase.kind, seats=seats, orders=orders, rng=rng)

    # -- what each viewer sees (ON-3, ON-5) -------------------------------------------------------------
    def view(self, *, state, seats, viewer):
        return engine.view(state, sees_everything=viewer.sees_everything)

    def own_seat_data(self, data):
        return engine.own_seat_data(data)

    def player_needs(self, *, game, phase, seat, payload):
        return selectors.player_needs(game=game, phase=phase, seat=seat, payload=payload)

    def page_context(self, *, game, viewer):
        return views.page_context(game=game, viewer=viewer)

    # -- words ----------------------------------------------------------------------------------------------
    def seat_facts(self, data, *, secret):
        return texts.seat_facts(data, secret=secret)

    def order_lines(self, *, payload, seat_data, seat_names):
        return texts.order_lines(payload=payload, seat_data=seat_data, seat_names=seat_names)

    def winner_label(self, slug: str) -> str:
        return texts.winner_label(slug)

    # -- statistics (gm.community): the finished game's cards in play, teams and results -------------------
    def final_results(self, *, state, seats, outcome, options):
        return engine_stats.final_results(state, seats, outcome)

    def role_label(self, slug: str) -> str:
        return texts.role_name(slug)

    def render_event(self, kind: str, data: Mapping[str, Any]) -> str:
        return texts.render_event(kind, data)

    # -- playtest bots: what a seat may order now, and how bots choose -------------------------------------
    def order_options(self, *, game, viewer):
        return selectors.order_options(game=game, viewer=viewer)

    def bot_policy(self):
        from .bots import OnuwPolicy

        return OnuwPolicy()

    def balance_policy(self):
        from .balance import OnuwSim

        return OnuwSim()

    def demo_games(self):
        from .demo import GAMES

        return GAMES


MODULE = OnuwModule()
