"""October Night as a core game module (rules ``OC-…``, ``docs/rules/october-night.md``).

The only file the core imports: it declares what the core needs to know and delegates every hook in one line —
rules to the pure :mod:`.engine` (with the default data set read by :mod:`.texts` and snapshotted at set-up,
OC-17), words to :mod:`.texts`, forms to :mod:`.forms`, reads to :mod:`.selectors`, the panel to :mod:`.views`.
Phases: ``action N`` and ``contact N`` for the 35 days (OC-3.1), then ``ritual`` (OC-9).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gm.core.engine import GameModule, results_from_seat_data

from . import engine, forms, selectors, texts, views


class OctoberNightModule(GameModule):
    """October Night (OC-1–OC-18). Options: ``data`` (the master's overrides of the default data, OC-17),
    ``role_deck`` (OC-1.4), ``first_week_bonus`` (OC-3.3), ``phase_hours``, and for scenarios and replays
    ``sides``, ``characters`` and ``position``."""

    slug = "october_night"
    public_option_keys = ("first_week_bonus", "phase_hours")
    name = texts.NAME
    min_seats = engine.MIN_PLAYERS
    max_seats = engine.MAX_PLAYERS
    phase_kinds = texts.PHASE_KINDS
    default_durations = {"action": 24 * 3600, "contact": 12 * 3600, "ritual": 24 * 3600}
    messages = texts.MESSAGES
    template_name = "october_night/panel.html"
    own_order_form = True
    scenario_runner = "gm.modules.october_night.scenario.run"
    audit_actions = {"data_edit": texts.DATA_EDIT, "board_edit": texts.BOARD_EDIT}

    def validate_options(self, options):
        return engine.validate_options(options, selectors.base_data())

    def options_fields(self) -> dict:
        return forms.options_fields()

    def options_from_fields(self, values):
        return forms.options_from_fields(values)

    def setup(self, *, seats, options, rng):
        return engine.setup(seats=seats, options=options, rng=rng, base=selectors.base_data())

    def validate_order(self, *, state, phase, seat, payload, seats=()):
        return engine.validate_order(state, kind=phase.kind, sid=str(seat.id), payload=payload)

    def resolve(self, *, state, phase, seats, orders, rng):
        return engine.resolve(state=state, kind=phase.kind, seats=seats, orders=orders, rng=rng)

    def view(self, *, state, seats, viewer):
        return engine.view(state, sees_everything=viewer.sees_everything,
                           seat=str(viewer.seat) if viewer.seat is not None else None)

    def own_seat_data(self, data):
        return engine.own_seat_data(data)

    def public_seat_data(self, data):
        return {k: data[k] for k in ("character", "claim") if data.get(k)}  # OC-2.1, OC-11.3: sheets are public

    def master_seat_fields(self, *, state, seat):
        return engine.seat_fields(state, str(seat.id))

    def master_seat_form(self, *, state, seat, phase):
        return forms.master_seat_form(state, str(seat.id))

    def master_edit_lines(self, *, before, after):
        return texts.master_edit_lines(before=before, after=after)

    def master_seat_edit(self, *, state, seat, seats, changes):
        return dict(seat.data), engine.seat_edit(state, str(seat.id), changes)

    def player_needs(self, *, game, phase, seat, payload):
        return selectors.player_needs(game=game, phase=phase, seat=seat, payload=payload)

    def page_context(self, *, game, viewer):
        return views.page_context(game=game, viewer=viewer)

    def seat_facts(self, data, *, secret):
        return texts.seat_facts(data, secret=secret)

    def order_lines(self, *, payload, seat_data, seat_names):
        return texts.order_lines(payload=payload, seat_data=seat_data, seat_names=seat_names)

    def winner_label(self, slug: str) -> str:
        return texts.winner_label(slug)

    # -- statistics (gm.community): each seat's side and role at the end, from its data -----------------------
    def final_results(self, *, state, seats, outcome, options):
        return results_from_seat_data(seats, outcome, side_key="side", role_key="character")

    def role_label(self, slug: str) -> str:
        return texts.name(slug)

    def render_event(self, kind: str, data: Mapping[str, Any]) -> str:
        return texts.render_event(kind, data)

    def order_options(self, *, game, viewer):
        return selectors.order_options(game=game, viewer=viewer)

    def bench_figures(self, *, master, quick):
        from .bench import figures

        return figures.bench_figures(master=master, quick=quick)

    def bench_goals_missed(self, figures):
        from .bench.figures import goals_missed

        return goals_missed(figures)

    def bot_policy(self):
        from .bots import OctoberNightPolicy

        return OctoberNightPolicy()

    def balance_policy(self):
        from .balance import OctoberNightSim

        return OctoberNightSim()

    def demo_games(self):
        from .demo import GAMES

        return GAMES


MODULE = OctoberNightModule()
