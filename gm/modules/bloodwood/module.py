"""Bloodwood as a core game module (rules ``BW-…``, ``docs/rules/bloodwood.md``).

The only file the core imports (through ``settings.GM_MODULES`` and :mod:`gm.core.registry`): it declares what the
core needs to know and delegates every hook in one line — rules to the pure :mod:`.engine`, words to :mod:`.texts`,
forms to :mod:`.forms`, reads to :mod:`.selectors`, the panel to :mod:`.views`. Turn-based: every step of BW-24
(``turn``, ``reaction``, ``discard``, ``give``, ``keep``, ``refill``) is a core phase with its actors and its own
deadline, closing as soon as every actor has answered (:meth:`phase_complete`).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gm.core.engine import GameModule, results_from_seat_data

from . import engine, forms, selectors, texts, views


def _minutes(kind: str) -> int:
    return selectors.game_data()["deadlines"]["turn" if kind == "turn" else "step"] * 60


class BloodwoodModule(GameModule):
    """Bloodwood (BW-1–BW-27). Options (BW-27): ``leaders``, ``inattention``, ``winner_deals``, ``turn_minutes``,
    ``step_minutes``, ``first_player``, ``larger_team``; ``deal`` (a fixed deal, BW-23c) and ``position`` (the
    master's set-up override, used by scenarios) are never public."""

    slug = "bloodwood"
    public_option_keys = engine.PUBLIC_OPTION_KEYS
    name = texts.NAME
    min_seats = engine.MIN_PLAYERS
    max_seats = engine.MAX_PLAYERS
    phase_kinds = texts.PHASE_KINDS
    default_durations = {kind: _minutes(kind) for kind in engine.STEPS}
    messages = texts.MESSAGES
    template_name = "bloodwood/panel.html"
    own_order_form = True
    scenario_runner = "gm.modules.bloodwood.scenario.run"
    audit_actions = {"end_no_winner": texts.END_NO_WINNER, "rematch": texts.REMATCH}
    #: BW-24: every step tells its actors alone ("your move" / "answer now"); nobody else hears of it.
    step_notices = True

    def bench_figures(self, *, master, quick):
        from .bench import figures

        return figures.bench_figures(master=master, quick=quick)

    def bench_goals_missed(self, figures):
        from .bench.figures import goals_missed

        return goals_missed(figures)

    def reminder_lead(self, *, kind, length):
        """BW-24: an actor who has not answered is reminded at half the step's time (``length`` a timedelta)."""
        return length / 2

    # -- options and set-up (BW-1–BW-5, BW-27) --------------------------------------------------------------
    def validate_options(self, options):
        return engine.validate_options(options, bounds=selectors.game_data()["bounds"])

    def options_fields(self) -> dict:
        return forms.options_fields()

    def options_from_fields(self, values):
        return forms.options_from_fields(values)

    def setup(self, *, seats, options, rng):
        return engine.setup_checked(seats=seats, options=options, data=selectors.game_data(), rng=rng)

    # -- steps (BW-6–BW-24) ---------------------------------------------------------------------------------
    def validate_order(self, *, state, phase, seat, payload, seats=()):
        return engine.validate_order(state, sid=str(seat.id), payload=payload)

    def refuse_order(self, *, state, phase, seat, payload):
        engine.validate_order(state, sid=str(seat.id), payload=payload)  # BW-26: its checks come first

    def order_refused(self, *, game, user, seat_id, payload, violation, clock):
        """BW-23a through the core's generic orders API: the inattention penalty of a refused play or answer."""
        from . import services

        codes = {e.code for e in violation.errors}
        if len(codes) == 1:
            services.inattention_penalty(game=game, user=user, seat_id=seat_id, payload=payload, code=codes.pop(),
                                         clock=clock)

    def resolve(self, *, state, phase, seats, orders, rng):
        return engine.resolve(state=state, phase=phase, seats=seats, orders=orders, rng=rng)

    def phase_complete(self, *, state, phase, orders) -> bool:
        return engine.phase_complete(state, orders)

    # -- what each viewer sees (BW-25) ----------------------------------------------------------------------
    def view(self, *, state, seats, viewer):
        return engine.view(state, sees_everything=viewer.sees_everything,
                           seat=str(viewer.seat) if viewer.seat is not None else None)

    def own_seat_data(self, data):
        return engine.own_seat_data(data)

    def player_needs(self, *, game, phase, seat, payload):
        return selectors.player_needs(game=game, phase=phase, seat=seat, payload=payload)

    def page_context(self, *, game, viewer):
        return views.page_context(game=game, viewer=viewer)

    def console_actions(self, *, game):
        return views.console_actions(game=game)

    # -- words ----------------------------------------------------------------------------------------------
    def seat_facts(self, data, *, secret):
        return texts.seat_facts(data, secret=secret)

    def master_seat_summary(self, data):
        return texts.seat_facts(data, secret=True)

    # -- the master's seat edit (BW-22g) --------------------------------------------------------------------
    def master_seat_fields(self, *, state, seat):
        return engine.seat_fields(state, str(seat.id))

    def master_seat_form(self, *, state, seat, phase):
        return forms.master_seat_form(state, str(seat.id))

    def master_edit_lines(self, *, before, after):
        return texts.master_edit_lines(before=before, after=after)

    def master_seat_edit(self, *, state, seat, seats, changes):
        return dict(seat.data), engine.seat_edit(state, str(seat.id), changes)

    def order_lines(self, *, payload, seat_data, seat_names):
        return texts.order_lines(payload=payload, seat_data=seat_data, seat_names=seat_names)

    def winner_label(self, slug: str) -> str:
        return texts.winner_label(slug)

    # -- statistics (gm.community): each seat's side and role at the end, from its data -----------------------
    def final_results(self, *, state, seats, outcome, options):
        return results_from_seat_data(seats, outcome, side_key="team", role_key="entity")

    def role_label(self, slug: str) -> str:
        return texts.entity_name(slug)

    def render_event(self, kind: str, data: Mapping[str, Any]) -> str:
        return texts.render_event(kind, data)

    # -- playtest bots and demo games ----------------------------------------------------------------------
    def order_options(self, *, game, viewer):
        return selectors.order_options(game=game, viewer=viewer)

    def bot_policy(self):
        from .bots import BloodwoodPolicy

        return BloodwoodPolicy()

    def balance_policy(self):
        from .balance import BloodwoodSim

        return BloodwoodSim()

    def demo_games(self):
        from .demo import GAMES

        return GAMES


MODULE = BloodwoodModule()
