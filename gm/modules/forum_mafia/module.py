"""The forum Mafia card game module (``forum_mafia``, rules ``FM-…``, ``docs/rules/forum_mafia.md``).

The only file the core imports (through ``settings.GM_MODULES`` and :mod:`gm.core.registry`): it declares what the
core needs to know and delegates every hook in one line — rules to the pure :mod:`.engine`, words to :mod:`.texts`,
the options form to :mod:`.forms`, reads to :mod:`.selectors`, the thread's room proposals to :mod:`.services`, the
game page's panel to :mod:`.views` and the order options to :mod:`.api`. Phases: ``deckbuilding`` (FM-4.5), then
``night`` and ``day`` in turn (FM-5–FM-7) until FM-10 ends the game.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gm.core.engine import GameModule

from .api import orders as order_api
from .engine import game as rules
from .engine import master_edit, opening, thread_rules, veche
from .engine import stats as engine_stats
from .engine.state import MIN_PLAYERS
from .forms import options as option_forms
from .selectors import orders as order_selectors
from .selectors import player_needs
from .selectors import veche as veche_selectors
from .services import rooms as room_services
from .texts import (
    AUDIT_ACTIONS,
    MESSAGES,
    NAME,
    PHASE_KINDS,
    group_label,
    render_event,
    secret_role_name,
    winner_label,
)
from .texts import orders as order_texts
from .texts import seats as seat_texts
from .views import setup as setup_views

HOUR = 3600


class ForumMafiaModule(GameModule):
    """Forum Mafia (FM-…): simultaneous night/day phases after a deck-building stage. Options: ``hero`` (FM-3.4),
    ``roles`` (a fixed composition, FM-3.4), ``stalemate_phases`` (FM-10.H1)."""

    slug = "forum_mafia"
    name = NAME
    min_seats = MIN_PLAYERS
    max_seats = 40
    uses_cards = True
    phase_kinds = PHASE_KINDS
    default_durations = {"deckbuilding": 48 * HOUR, "night": 24 * HOUR, "day": 48 * HOUR}
    audit_actions = AUDIT_ACTIONS
    messages = MESSAGES
    template_name = "forum_mafia/panel.html"
    signup_view = "forum_mafia:signup"
    own_order_form = True
    constant_state_keys = ("collection",)
    scenario_runner = "gm.modules.forum_mafia.scenario.run"

    # -- options and setup (FM-3, FM-4.5, FM-10.H1) ------------------------------------------------------------
    def validate_options(self, options: Mapping[str, Any]) -> dict:
        return rules.validate_options(options)

    def options_fields(self):
        return option_forms.options_fields()

    def options_from_fields(self, values):
        return option_forms.options_from_fields(values)

    def public_options(self, options):
        return rules.public_options(options)

    def setup(self, *, seats, options, rng):
        return opening.setup(seats, options, rng)

    # -- orders and resolution (FM-4.5, FM-5, FM-6) -------------------------------------------------------------
    def validate_order(self, *, state, phase, seat, payload, seats=()):
        return order_selectors.validate_order(state=state, phase=phase, seat=seat, payload=payload, seats=seats)

    def resolve(self, *, state, phase, seats, orders, rng):
        return rules.resolve(state=state, phase=phase, seats=seats, orders=orders, rng=rng)

    # -- what each viewer sees (FM-2, FM-4.6, FM-5.1, FM-8) -------------------------------------------------------
    def view(self, *, state, seats, viewer):
        return rules.view(state, sees_everything=viewer.sees_everything)

    def own_seat_data(self, data):
        return rules.own_seat_data(data)

    def public_seat_data(self, data):
        return rules.public_seat_data(data)

    def player_needs(self, *, game, phase, seat, payload):
        return player_needs(game=game, phase=phase, seat=seat, payload=payload)

    def page_context(self, *, game, viewer) -> dict:
        return setup_views.panel_context(game=game, viewer=viewer)

    # -- words ----------------------------------------------------------------------------------------------
    def seat_facts(self, data, *, secret):
        return seat_texts.seat_facts(data, secret=secret)

    def order_lines(self, *, payload, seat_data, seat_names):
        return order_texts.order_lines(payload=payload, seat_data=seat_data, seat_names=seat_names)

    def group_label(self, slug, *, state=None):
        return group_label(slug, state=state)

    def winner_label(self, slug: str) -> str:
        return winner_label(slug)

    # -- statistics (gm.community): the finished table's secret roles, sides and results --------------------
    def final_results(self, *, state, seats, outcome, options):
        return engine_stats.final_results(state, seats, outcome)

    def role_label(self, slug: str) -> str:
        return secret_role_name(slug)

    def render_event(self, kind: str, data: Mapping[str, Any]) -> str:
        return render_event(kind, data)

    # -- the master's console -------------------------------------------------------------------------------------
    def master_seat_fields(self, *, state, seat):
        return master_edit.seat_fields(state, seat)

    def master_seat_summary(self, data):
        return seat_texts.master_seat_summary(data)

    def master_seat_form(self, *, state, seat, phase):
        return seat_texts.master_seat_form(state=state, seat=seat, phase=phase)

    def master_edit_lines(self, *, before, after):
        return seat_texts.master_edit_lines(before=before, after=after)

    def master_seat_edit(self, *, state, seat, seats, changes):
        return master_edit.seat_edit(state, seat, changes)

    def master_set_alive(self, *, state, phase, seat, seats, alive):
        return master_edit.set_alive(state, phase, seat, seats, alive)

    # -- the game thread (FM-9) ---------------------------------------------------------------------------------
    def may_post(self, seat_data, alive):
        return thread_rules.may_post(seat_data, alive)

    def check_private(self, *, state, phase, sender, recipient, seats, sent):
        return thread_rules.check_private(phase=phase, sender=sender, recipient=recipient, seats=seats, sent=sent)

    def post_saved(self, post, *, clock):
        room_services.post_saved(post, clock=clock)

    def post_notes(self, *, viewer, posts):
        return room_services.post_notes(viewer, posts)

    def comment_help(self, *, game, viewer):
        return room_services.comment_help(game=game, viewer=viewer)

    # -- the module kit: order options, playtest bots, demo games ---------------------------------------------
    has_hammer = True
    #: FM-9.7.H1 [house]: a dead avenger still speaks in the thread, so the dead may not read everything.
    forbidden_options = ("dead_see_everything",)

    def hammer(self, *, state, phase, seats, orders):
        return veche.day_hammer(phase_kind=phase.kind, seats=seats, orders=orders)

    def vote_history_url(self, *, game_id, kind, number):
        return veche_selectors.vote_history_url(game_id=game_id, kind=kind, number=number)

    def order_options(self, *, game, viewer):
        return order_api.order_options(game=game, viewer=viewer)

    def bot_policy(self):
        from .playtest.policy import ForumMafiaPolicy

        return ForumMafiaPolicy()

    def balance_policy(self):
        from .balance import ForumMafiaSim

        return ForumMafiaSim()

    def demo_games(self):
        from .demo import GAMES

        return GAMES


MODULE = ForumMafiaModule()
