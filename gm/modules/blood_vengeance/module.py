"""Mafia: Blood Vengeance as a core game module (rules ``BV-…``, ``docs/rules/blood-vengeance.md``).

The only file the core imports: it declares what the core needs to know and delegates every hook in one line —
rules to the pure :mod:`.engine` (with the role table :mod:`.selectors` loads from ``data/roles.yaml``), words to
:mod:`.texts`, forms to :mod:`.forms`, reads to :mod:`.selectors`, the panel to :mod:`.views`. Phases: ``night``
(BV-5), ``defence`` (BV-5.2), ``verdict`` (BV-5.3), ``arbiter`` (BV-15.8), ``light`` (BV-6, BV-14.2).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gm.core.engine import GameModule, results_from_seat_data

from . import engine, forms, selectors, texts, views


class BloodVengeanceModule(GameModule):
    """Mafia: Blood Vengeance (BV-1–BV-16). Options: see :data:`.engine.OPTION_KEYS` (BV-15.16)."""

    slug = "blood_vengeance"
    # A role list, a fixed deal and the role table stay with the master; the variants are public rules.
    public_option_keys = (*engine.VARIANTS, "missed_action", "doomed_info", "wolf_pits", "werewolf_invasion",
                          "series", "preset")
    name = texts.NAME
    min_seats = engine.MIN_PLAYERS
    max_seats = engine.MAX_PLAYERS
    phase_kinds = texts.PHASE_KINDS
    default_durations = engine.DURATIONS
    messages = texts.MESSAGES
    template_name = "blood_vengeance/panel.html"
    own_order_form = True
    scenario_runner = "gm.modules.blood_vengeance.scenario.run"
    audit_actions = texts.AUDIT_ACTIONS

    # -- options and setup (BV-2, BV-3, BV-4, BV-13.1, BV-15.16) ------------------------------------------------
    def validate_options(self, options):
        return engine.check_options(options, table=selectors.default_table())

    def options_fields(self) -> dict:
        return forms.options_fields()

    def options_from_fields(self, values):
        return forms.options_from_fields(values)

    def setup(self, *, seats, options, rng):
        return engine.start(seats=seats, options=options, rng=rng, table=selectors.default_table())

    # -- orders and resolution (BV-5–BV-16) ---------------------------------------------------------------------
    def validate_order(self, *, state, phase, seat, payload, seats=()):
        return engine.check_order(state, kind=phase.kind, sid=str(seat.id), payload=payload)

    def resolve(self, *, state, phase, seats, orders, rng):
        return engine.resolve(state=state, kind=phase.kind, seats=seats, orders=orders, rng=rng)

    def master_set_alive(self, *, state, phase, seat, seats, alive):
        return engine.master_set_alive(state, seat=seat, alive=alive)

    def read_only_co_masters(self, state):
        """BV-15.14 ``temporary_master``: the first executed player becomes a read-only co-master of the game."""
        return [int(s) for s in (state.get("co_masters") or [])]

    # -- what each viewer sees (BV-1.2, BV-7, BV-14.5) ------------------------------------------------------------
    def view(self, *, state, seats, viewer):
        return engine.view(state, sees_everything=viewer.sees_everything)

    def own_seat_data(self, data):
        return engine.own_seat_data(data)

    def public_seat_data(self, data):
        return engine.public_seat_data(data)

    def may_post(self, seat_data, alive):
        return engine.may_post(seat_data, alive)

    def thread_closed(self, *, state, phase, seat):
        return texts.thread_closed_text(engine.thread_closed(state, phase=phase, sid=str(seat.id)))

    def signup_consents(self, options):
        return texts.signup_consents(asked=engine.asks_code_of_honour(options))

    def player_needs(self, *, game, phase, seat, payload):
        return selectors.player_needs(game=game, phase=phase, seat=seat, payload=payload)

    def page_context(self, *, game, viewer):
        return views.page_context(game=game, viewer=viewer)

    # -- words ----------------------------------------------------------------------------------------------------
    def seat_facts(self, data, *, secret):
        return texts.seat_facts(data, secret=secret)

    def order_lines(self, *, payload, seat_data, seat_names):
        return texts.order_lines(payload=payload, seat_data=seat_data, seat_names=seat_names)

    def group_label(self, slug, *, state=None):
        return texts.group_label(slug)

    def winner_label(self, slug: str) -> str:
        return texts.winner_label(slug)

    # -- statistics (gm.community): each seat's side and role at the end, from its data -----------------------
    def final_results(self, *, state, seats, outcome, options):
        return results_from_seat_data(seats, outcome, side_key="side", role_key="card")

    def role_label(self, slug: str) -> str:
        return texts.role_name(slug)

    def render_event(self, kind: str, data: Mapping[str, Any]) -> str:
        return texts.render_event(kind, data)

    # -- bots, demo, benchmarks ---------------------------------------------------------------------------------
    def bench_figures(self, *, master, quick):
        from .bench import figures

        return figures.bench_figures(master=master, quick=quick)

    def bench_goals_missed(self, figures):
        from .bench.figures import goals_missed

        return goals_missed(figures)

    def order_options(self, *, game, viewer):
        return selectors.order_options(game=game, viewer=viewer)

    def bot_policy(self):
        from .bots import BloodVengeancePolicy

        return BloodVengeancePolicy()

    def balance_policy(self):
        from .balance import BloodVengeanceSim

        return BloodVengeanceSim()

    def demo_games(self):
        from .demo import GAMES

        return GAMES


MODULE = BloodVengeanceModule()
