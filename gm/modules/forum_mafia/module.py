"""The forum Mafia card game module (``forum_mafia``): registration with the core, options, rendering of its log.

The pure rules live in :mod:`.engine` and :mod:`.roles`; signups (FM-2) in :mod:`.services` (shell).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils import translation
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from cards.collection_data import CARDS
from cards.containers import Containers, hide_deck_order
from cards.deckbuilding import MESSAGES as CARD_MESSAGES
from cards.deckrules import COLOUR_NAMES
from gm.core.engine import Event, GameModule, PhaseSpec, Resolution, RuleError, RuleViolation

from . import engine
from .roles import PUBLIC_ROLE_BY_SLUG, SECRET_ROLES

_CARD_NAMES = {c["slug"]: (c["name_ru"], c["name_en"]) for c in CARDS}
HOUR = 3600


def card_name(slug: str) -> str:
    ru, en = _CARD_NAMES.get(slug, (slug, slug))
    return ru if (translation.get_language() or "ru").startswith("ru") else en


def secret_role_name(slug: str) -> str:
    role = SECRET_ROLES.get(slug)
    return gettext(role.name) if role else slug


def public_role_name(value: Any) -> str:
    """A claimed public role for display: the FM-8 name in the active language, or the custom name (FM-2.3)."""
    if isinstance(value, dict):
        return str(value.get("custom", ""))
    role = PUBLIC_ROLE_BY_SLUG.get(value)
    if role is None:
        return str(value or "")
    return role.name_ru if (translation.get_language() or "ru").startswith("ru") else role.name_en


class ForumMafiaModule(GameModule):
    """Forum Mafia (FM-…): simultaneous night/day phases after a deck-building stage."""

    slug = "forum_mafia"
    name = _("Forum Mafia")
    min_seats = engine.MIN_PLAYERS
    max_seats = 40
    uses_cards = True
    phase_kinds = {"deckbuilding": _("Deck building"), "night": _("Night %(number)s"), "day": _("Day %(number)s")}
    default_durations = {"deckbuilding": 48 * HOUR, "night": 24 * HOUR, "day": 48 * HOUR}
    messages = {
        **{k: _(v) for k, v in CARD_MESSAGES.items()},
        "fm.your_role": _("Your secret role: %(role)s."),
        "fm.mafia_members": _("The Mafia: %(members)s."),
        "fm.deal": _("Secret roles dealt: %(deal)s."),
        "fm.joker_colours_random": _("You chose no colours in time; yours are %(colours)s."),
        "fm.joker_colours": _("Your colours: %(colours)s."),
        "fm.opening": _("Your opening Hand: %(hand)s. Sleeve: %(sleeve)s."),
        "fm.mafia_decks": _("The Mafia's Hands and decks: %(members)s."),
        "fm.lucky_redeal": _("You redealt your Hand: %(hand)s (%(left)s redeals left)."),
        "fm.engineer_picks": _("Your two guaranteed cards among the first six: %(cards)s."),
        "fm.phase_passed": _("No orders are taken in this phase yet: the night and day rules arrive with the engine."),
    }
    template_name = "forum_mafia/panel.html"
    signup_view = "forum_mafia:signup"

    # -- engine hooks ----------------------------------------------------------------------------------------
    def validate_options(self, options: Mapping[str, Any]) -> dict:
        errors: list[RuleError] = []
        for key in sorted(set(options) - {"hero", "roles"}):
            errors.append(RuleError(_("Unknown option “%(key)s”."), field=key, params={"key": key}))
        hero = options.get("hero", False)
        if not isinstance(hero, bool):
            errors.append(RuleError(_("“hero” is true or false."), field="hero", rule="FM-3.4"))
        roles = options.get("roles")
        if roles is not None:
            errors += engine.validate_fixed_composition(roles)
        if errors:
            raise RuleViolation(errors)
        clean: dict[str, Any] = {"hero": hero}
        if roles:
            clean["roles"] = list(roles)
        return clean

    def setup(self, *, seats, options, rng):
        return engine.setup(seats, options, rng)

    def validate_order(self, *, state, phase, seat, payload):
        if phase.kind == engine.DECKBUILDING:
            raise RuleViolation([RuleError(_("During deck building there are no orders: build your deck in the deck "
                                             "builder."), rule="FM-4.5")])
        raise RuleViolation([RuleError(_("Night and day orders are not open yet on this site."), rule="FM-5.2")])

    def resolve(self, *, state, phase, seats, orders, rng):
        if phase.kind == engine.DECKBUILDING:
            seat_data, events = engine.open_game(seats, state, rng)
            return Resolution(dict(state), events, seat_data, next_phase=PhaseSpec(engine.NIGHT, 1))
        nxt = PhaseSpec(engine.DAY, phase.number) if phase.kind == engine.NIGHT else PhaseSpec(engine.NIGHT,
                                                                                               phase.number + 1)
        return Resolution(dict(state), [Event("fm.phase_passed")], next_phase=nxt)

    def view(self, *, state, seats, viewer):
        return {"hero": state.get("hero")} if not viewer.sees_everything else dict(state)

    def options_fields(self):
        """The "new game" page's forum Mafia options: the hero (FM-3.4) and a composition by the table or fixed."""
        from django import forms

        return {
            "hero": forms.BooleanField(label=_("Hero in play (replaces one Law member, FM-3.4)"), required=False),
            "composition": forms.ChoiceField(
                label=_("Secret roles"), initial="table",
                choices=[("table", _("Dealt by the FM-3.4 table from the game's seed")),
                         ("fixed", _("A composition I fix (below)"))],
                widget=forms.RadioSelect),
            "roles": forms.CharField(
                label=_("Fixed composition: secret-role slugs, comma-separated, one per player"), required=False,
                help_text=", ".join(SECRET_ROLES), widget=forms.Textarea(attrs={"rows": 2})),
        }

    def options_from_fields(self, values):
        options: dict[str, Any] = {"hero": bool(values.get("hero"))}
        if values.get("composition") == "fixed":
            options["roles"] = [r.strip() for r in (values.get("roles") or "").replace("\n", ",").split(",")
                                if r.strip()]
        return options

    def public_options(self, options):
        """The hero option is announced; a fixed composition (FM-3.4) is only said to exist, not shown."""
        public = {"hero": options.get("hero", False)}
        if options.get("roles"):
            public["fixed_composition"] = True
        return public

    def own_seat_data(self, data):
        """The owner's view: no deck order (FM-4.6), except the ``psychic``'s top three cards (FM-8)."""
        visible = hide_deck_order(data)
        if data.get("public_role") == "psychic":
            visible["deck_top"] = [c.kind for c in Containers.from_dict(data.get("cards") or {}).peek(3)]
        return visible

    def public_seat_data(self, data):
        """Public: the claimed public role (FM-2) and the Hand count (FM-5.1)."""
        public = {"hand_count": len((data.get("cards") or {}).get("hand", []))}
        if data.get("public_role"):
            public["public_role"] = data["public_role"]
        return public

    # -- shell ----------------------------------------------------------------------------------------------
    def page_context(self, *, game, viewer) -> dict:
        """The game page's ``module_context`` for ``templates/forum_mafia/panel.html``: the viewer's own roles and
        the start-stretch controls (joker colours, engineer picks, lucky redeals, psychic's top cards)."""
        from .setup_views import panel_context  # the shell part; imported late to keep this module light

        return panel_context(game=game, viewer=viewer)

    # -- rendering ------------------------------------------------------------------------------------------
    def render_event(self, kind: str, data: Mapping[str, Any]) -> str:
        params = dict(data)
        if "role" in params:
            params["role"] = secret_role_name(params["role"])
        if kind == "fm.mafia_members":
            params["members"] = ", ".join(f"{m['name']} ({secret_role_name(m['role'])})" for m in data["members"])
        if kind == "fm.deal":
            params["deal"] = "; ".join(f"{name}: {secret_role_name(role)}" for name, role in data["deal"].items())
        if "colours" in params:
            params["colours"] = ", ".join(gettext(COLOUR_NAMES[c]) for c in data["colours"])
        for key in ("hand", "sleeve", "cards"):
            if isinstance(params.get(key), list):
                params[key] = ", ".join(card_name(k) for k in params[key]) or "—"
        if kind == "fm.mafia_decks":
            params["members"] = "; ".join(
                f"{m['name']}: {', '.join(card_name(k) for k in m['hand'])} / "
                f"{', '.join(card_name(k) for k in m['deck'])}" for m in data["members"])
        if kind == "cards.random_deck":
            params["deck"] = ", ".join(card_name(k) for k in data.get("deck", []))
        return super().render_event(kind, params)


MODULE = ForumMafiaModule()
