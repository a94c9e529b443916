"""The forum Mafia card game module (``forum_mafia``): registration with the core, options, rendering of its log.

The pure rules live in :mod:`.engine`, everything shown to people in :mod:`.texts`; writes in :mod:`.services`.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from cards.containers import Containers, hide_deck_order
from cards.deckbuilding import MESSAGES as CARD_MESSAGES
from cards.deckrules import COLOUR_NAMES
from gm.core.engine import GameModule, PhaseSpec, Resolution, RuleError, RuleViolation

from .engine import master_edit, opening, resolution, thread_rules, victory
from .engine.orders import validate_order
from .engine.roles import FACTION_NAMES, PUBLIC_ROLES, SECRET_ROLES
from .engine.state import DECKBUILDING, MIN_PLAYERS, NIGHT, STALEMATE_PHASES, game_collection
from .texts import (
    PHASE_KINDS,
    RESOLUTION_MESSAGES,
    RESULT_NAMES,
    WINNER_NAMES,
    card_name,
    cards_text,
    named_error,
    public_role_name,
    render_resolution_event,
    secret_role_name,
)

HOUR = 3600


class ForumMafiaModule(GameModule):
    """Forum Mafia (FM-…): simultaneous night/day phases after a deck-building stage."""

    slug = "forum_mafia"
    name = _("Forum Mafia")
    min_seats = MIN_PLAYERS
    max_seats = 40
    uses_cards = True
    phase_kinds = PHASE_KINDS
    default_durations = {"deckbuilding": 48 * HOUR, "night": 24 * HOUR, "day": 48 * HOUR}
    audit_actions = {"setup_override": _("table set up by the master"), "fm_signup_reject": _("signup rejected"),
                     "stalemate_reset": _("stalemate count reset (FM-10.H1)")}
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
        "fm.stalemate_reset": _("The master extends the game: the stalemate count (FM-10.H1) starts again from 0 "
                                "(it was %(count)s of %(limit)s)."),
        **RESOLUTION_MESSAGES,
    }
    template_name = "forum_mafia/panel.html"
    signup_view = "forum_mafia:signup"
    own_order_form = True
    constant_state_keys = ("collection",)
    scenario_runner = "gm.modules.forum_mafia.scenario.run"

    # -- engine hooks ----------------------------------------------------------------------------------------
    def validate_options(self, options: Mapping[str, Any]) -> dict:
        errors: list[RuleError] = []
        for key in sorted(set(options) - {"hero", "roles", "stalemate_phases"}):
            errors.append(RuleError(_("Unknown option “%(key)s”."), field=key, params={"key": key}))
        hero = options.get("hero", False)
        if not isinstance(hero, bool):
            errors.append(RuleError(_("“hero” is true or false."), field="hero", rule="FM-3.4"))
        roles = options.get("roles")
        if roles is not None:
            errors += opening.validate_fixed_composition(roles)
        stalemate = options.get("stalemate_phases", STALEMATE_PHASES)
        if not isinstance(stalemate, int) or isinstance(stalemate, bool) or \
                not 0 <= stalemate <= victory.STALEMATE_MAX:
            errors.append(RuleError(_("“stalemate_phases” is a whole number from 0 (off) to %(max)s."),
                                    field="stalemate_phases", rule="FM-10.H1",
                                    params={"max": victory.STALEMATE_MAX}))
        if errors:
            raise RuleViolation(errors)
        clean: dict[str, Any] = {"hero": hero, "stalemate_phases": stalemate}
        if roles:
            clean["roles"] = list(roles)
        return clean

    def setup(self, *, seats, options, rng):
        return opening.setup(seats, options, rng)

    def validate_order(self, *, state, phase, seat, payload, seats=()):
        """FM-5.2–FM-5.7: see :func:`.engine.orders.validate_order`; no orders during deck building (FM-4.5)."""
        if phase.kind == DECKBUILDING:
            raise RuleViolation([RuleError(_("During deck building there are no orders: build your deck in the deck "
                                             "builder."), rule="FM-4.5")])
        try:
            return validate_order(state=state, phase=phase, seat=seat, seats=seats or [seat],
                                             payload=payload)
        except RuleViolation as exc:  # card slugs in the messages become card names in the reader's language
            raise RuleViolation([named_error(e) for e in exc.errors]) from None

    def resolve(self, *, state, phase, seats, orders, rng):
        """Deck building opens the game (FM-4.5); a night or day resolves by FM-6
        (:func:`.engine.resolution.resolve`)."""
        if phase.kind == DECKBUILDING:
            seat_data, events = opening.open_game(seats, state, rng)
            return Resolution(dict(state), events, seat_data, next_phase=PhaseSpec(NIGHT, 1))
        return resolution.resolve(state=state, phase=phase, seats=seats, orders=orders, rng=rng)

    def view(self, *, state, seats, viewer):
        return {"hero": state.get("hero")} if not viewer.sees_everything else dict(state)

    def options_fields(self):
        """The "new game" page's forum Mafia options: the hero (FM-3.4) and a composition by the table or fixed."""
        from django import forms
        from django.utils.html import format_html_join

        # The slugs are what the master types: shown as code, each with the role's name in his language.
        slugs = format_html_join(", ", "<code>{}</code> ({})", ((r, secret_role_name(r)) for r in SECRET_ROLES))

        return {
            "hero": forms.BooleanField(label=_("Hero in play (replaces one Law member, FM-3.4)"), required=False),
            "composition": forms.ChoiceField(
                label=_("Secret roles"), initial="table",
                choices=[("table", _("Dealt by the FM-3.4 table from the game's seed")),
                         ("fixed", _("A composition I fix (below)"))],
                widget=forms.RadioSelect),
            "roles": forms.CharField(
                label=_("Fixed composition: secret-role slugs, comma-separated, one per player"), required=False,
                help_text=slugs, widget=forms.Textarea(attrs={"rows": 2})),
            "stalemate_phases": forms.IntegerField(
                label=_("Stalemate: a draw after this many phases in a row with no death and nothing that can harm "
                        "(FM-10.H1; 0 = never)"),
                initial=STALEMATE_PHASES, min_value=0, max_value=victory.STALEMATE_MAX, required=False),
        }

    def options_from_fields(self, values):
        stalemate = values.get("stalemate_phases")
        options: dict[str, Any] = {"hero": bool(values.get("hero")),
                                   "stalemate_phases": STALEMATE_PHASES if stalemate is None else stalemate}
        if values.get("composition") == "fixed":
            options["roles"] = [r.strip() for r in (values.get("roles") or "").replace("\n", ",").split(",")
                                if r.strip()]
        return options

    def public_options(self, options):
        """The hero option is announced; a fixed composition (FM-3.4) is only said to exist, not shown."""
        public = {"hero": options.get("hero", False),
                  "stalemate_phases": options.get("stalemate_phases", STALEMATE_PHASES)}
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

    def seat_facts(self, data, *, secret):
        """The seats table and the full reveal: publicly the claimed role and the Hand count (FM-2, FM-5.1); the
        secret part (FM-3, FM-4) — secret role and faction, colours, Hand (in order), Sleeve, deck (top first, when
        the viewer may see its order) or its count, discard pile, and the deck as built."""
        if not secret:
            facts = []
            if data.get("public_role"):
                facts.append((gettext("Public role"), public_role_name(data["public_role"])))
            if "hand_count" in data:
                facts.append((gettext("Cards in Hand"), str(data["hand_count"])))
            return facts
        facts = []
        role = data.get("secret_role")
        if role:
            faction = data.get("faction")
            text = secret_role_name(role)
            if faction:
                text += f" ({gettext(FACTION_NAMES.get(faction, faction))})"
            facts.append((gettext("Secret role"), text))
        if role == "joker" and data.get("joker_colours"):
            facts.append((gettext("Colours"), ", ".join(gettext(COLOUR_NAMES[c]) for c in data["joker_colours"]
                                                         if c in COLOUR_NAMES)))
        if data.get("result") in RESULT_NAMES:  # set at the end of the game (FM-10, FM-10.H1)
            facts.append((gettext("Result"), str(RESULT_NAMES[data["result"]])))
        cards = data.get("cards")
        if isinstance(cards, Mapping):
            def names(key: str) -> str:
                return ", ".join(card_name(c.get("kind", "")) for c in cards.get(key) or []
                                 if isinstance(c, Mapping)) or "—"

            facts.append((gettext("Hand"), names("hand")))
            facts.append((gettext("Sleeve"), names("sleeve")))
            if "deck" in cards:
                facts.append((gettext("Deck (top first)"), names("deck")))
            elif "deck_count" in cards:
                facts.append((gettext("Cards in the deck"), str(cards["deck_count"])))
            facts.append((gettext("Discard pile"), names("discard")))
        built = [e.get("kind", "") for e in data.get("deck_list") or [] if isinstance(e, Mapping)]
        if built:  # FM-4: the deck as submitted (all there is while the decks are being built)
            counts: dict[str, int] = {}
            for kind in built:
                counts[kind] = counts.get(kind, 0) + 1
            facts.append((gettext("Deck as built"), ", ".join(
                card_name(k) + (f" × {n}" if n > 1 else "") for k, n in sorted(counts.items(),
                                                                            key=lambda kn: card_name(kn[0])))))
        return facts

    def order_lines(self, *, payload, seat_data, seat_names):
        """An order version in words (card, slot, targets, abilities, the Veche vote): see
        :func:`.views.orders.describe_order`; card ids are named from ``seat_data``'s containers."""
        from .views.orders import describe_order

        cards = seat_data.get("cards") if isinstance(seat_data, Mapping) else None
        uids = {c["uid"]: c.get("kind", "") for key in ("hand", "sleeve", "deck", "discard")
                for c in ((cards or {}).get(key) or []) if isinstance(c, Mapping) and "uid" in c}
        return describe_order(payload, cards=uids, name=card_name, seat_names=seat_names)

    # -- the master's console ------------------------------------------------------------------------------------
    def master_seat_fields(self, *, state, seat):
        """Hand (in order), Sleeve, deck (top first), discard as slugs; jail and handcuffs (see
        :mod:`.master_edit`)."""
        return master_edit.seat_fields(state, seat)

    def master_seat_summary(self, data):
        """The secret role (FM-3), the claimed public role (FM-2) and the faction."""
        rows = [(str(_("Secret role")), secret_role_name(data.get("secret_role", "")))]
        if data.get("public_role"):
            rows.append((str(_("Public role")), public_role_name(data["public_role"])))
        if data.get("faction"):
            rows.append((str(_("Faction")), gettext(FACTION_NAMES.get(data["faction"], data["faction"]))))
        return rows

    @staticmethod
    def _master_field(key: str, value: Any) -> tuple[str, str]:
        """One editable field of :func:`.master_edit.seat_fields` as ``(label, value in words)``."""
        if key in ("hand", "sleeve", "deck", "discard"):
            labels = {"hand": gettext("Hand (front first)"), "sleeve": gettext("Sleeve"),
                      "deck": gettext("Deck (top first)"), "discard": gettext("Discard pile")}
            return labels[key], cards_text(value)
        if key == "jail":
            return (gettext("Jail: phases left (0: free)"),
                    ngettext("%(n)s phase", "%(n)s phases", value) % {"n": value} if value else gettext("not in jail"))
        if key == "handcuffs":
            return (gettext("Handcuffs"), gettext("Night %(number)s") % {"number": value} if value
                    else gettext("not handcuffed"))
        if key == "public_role":
            return gettext("Public role"), public_role_name(value) if value else "—"
        return key, str(value)

    def master_seat_form(self, *, state, seat, phase):
        """The console's seat edit in words: the four containers as pickers of card names (every kind of the game's
        collection, FM-4.2), jail as a number of phases (FM-7.5), handcuffs as a choice of night (the night number
        they apply to, FM-8), the claimed public role as a choice of the FM-8 roles (a custom one, FM-2.3, kept)."""
        fields = master_edit.seat_fields(state, seat)
        kinds = set(game_collection(state).kinds)
        specs = []
        for key in ("hand", "sleeve", "deck", "discard"):
            held = fields[key]
            choices = sorted(((k, card_name(k)) for k in kinds | set(held)), key=lambda kn: kn[1].casefold())
            label, text = self._master_field(key, held)
            specs.append({"key": key, "label": label, "kind": "cards", "value": held, "choices": choices,
                          "text": text})
        label, text = self._master_field("jail", fields["jail"])
        specs.append({"key": "jail", "label": label, "kind": "number", "value": fields["jail"], "min": 0,
                      "max": master_edit.MAX_JAIL, "text": text})
        cuffs = fields["handcuffs"]
        night = phase.number if phase is not None and phase.kind != "deckbuilding" else 1
        choices = [(None, gettext("not handcuffed"))] + [
            (n, gettext("Night %(number)s") % {"number": n}) for n in range(1, max(night + 2, cuffs or 0) + 1)]
        label, text = self._master_field("handcuffs", cuffs)
        specs.append({"key": "handcuffs", "label": label, "kind": "choice", "value": cuffs, "choices": choices,
                      "text": text, "help": gettext("The night they bind: no targeted cards that night.")})
        claimed = fields["public_role"]
        roles = sorted(((r.slug, public_role_name(r.slug)) for r in PUBLIC_ROLES), key=lambda rn: rn[1].casefold())
        if isinstance(claimed, Mapping):  # a custom role (FM-2.3) can be kept, not typed here
            roles.insert(0, ("custom", public_role_name(claimed)))
        elif claimed is None:
            roles.insert(0, (None, "—"))
        label, text = self._master_field("public_role", claimed)
        specs.append({"key": "public_role", "label": label, "kind": "choice",
                      "value": "custom" if isinstance(claimed, Mapping) else claimed, "choices": roles,
                      "text": text, "help": gettext("Public: everyone is told of a change.")})
        return specs

    def master_edit_lines(self, *, before, after):
        """A seat edit of the audit log in words: ``"Hand (front first): Pistol, Tail → Tail"`` per changed key."""
        return [f"{label}: {old} → {self._master_field(key, after.get(key))[1]}"
                for key in after for label, old in [self._master_field(key, before.get(key))]]

    def master_seat_edit(self, *, state, seat, seats, changes):
        """The master's edit of containers and flags (:func:`.master_edit.seat_edit`): unknown card slugs refused,
        conservation not required."""
        return master_edit.seat_edit(state, seat, changes)

    def master_set_alive(self, *, state, phase, seat, seats, alive):
        """A death announced as FM-6.2 announces one and entered in the death order; victory checked at once
        (FM-10.6)."""
        return master_edit.set_alive(state, phase, seat, seats, alive)

    # -- the game thread (FM-9) ---------------------------------------------------------------------------------
    def may_post(self, seat_data, alive):
        """FM-9.7: the living post; a dead ``avenger`` too (FM-8). See :func:`.thread_rules.may_post`."""
        return thread_rules.may_post(seat_data, alive)

    def check_private(self, *, state, phase, sender, recipient, seats, sent):
        """FM-9.2 private messages: by day, to a living neighbour; ``postman`` once a day to anyone, named publicly
        (FM-8). See :func:`.thread_rules.check_private`."""
        return thread_rules.check_private(phase=phase, sender=sender, recipient=recipient, seats=seats, sent=sent)

    def post_saved(self, post, *, clock):
        """FM-9.3: a day post's comment may propose a chat room; :func:`.services.rooms.post_saved` records it in the
        author's day order (inside the post's transaction)."""
        from .services.rooms import post_saved  # the shell part; imported late to keep this module light

        post_saved(post, clock=clock)

    def post_notes(self, *, viewer, posts):
        """FM-9.3: whether each post's room proposal was recorded, for its author and the master."""
        from .services.rooms import post_notes

        return post_notes(viewer, posts)

    # -- shell ----------------------------------------------------------------------------------------------
    def comment_help(self, *, game, viewer):
        from .services.rooms import comment_help

        return comment_help(game=game, viewer=viewer)

    def player_needs(self, *, game, phase, seat, payload):
        from .selectors import player_needs

        return player_needs(game=game, phase=phase, seat=seat, payload=payload)

    def page_context(self, *, game, viewer) -> dict:
        """The game page's ``module_context`` for ``forum_mafia/panel.html``: the viewer's own roles and
        the start-stretch controls (joker colours, engineer picks, lucky redeals, psychic's top cards)."""
        from .views.setup import panel_context  # the shell part; imported late to keep this module light

        return panel_context(game=game, viewer=viewer)

    # -- rendering ------------------------------------------------------------------------------------------
    def group_label(self, slug, *, state=None):
        """The Mafia's group (``faction:mafia``, FM-3) and the chat rooms (``room:D-N``, FM-9.3; the conspirator's
        room lasts to the end of the game, FM-8), named in the active language."""
        kind, _sep, rest = slug.partition(":")
        if kind == "faction" and rest in FACTION_NAMES:
            return gettext(FACTION_NAMES[rest])
        if kind == "room":
            day, _sep, number = rest.partition("-")
            if day.isdigit() and number.isdigit():
                room = (((state or {}).get("fm") or {}).get("rooms") or {}).get(slug)
                if room is not None and room.get("until") is None:
                    return gettext("Conspiracy of Day %(day)s") % {"day": day}
                return gettext("Room %(number)s of Day %(day)s") % {"day": day, "number": number}
        return slug

    def winner_label(self, slug: str) -> str:
        """A winner of FM-10 (``law``, ``mafia``, ``maniac``, ``avenger``, or a role winning on his own: ``hero``,
        ``joker``) in the active language."""
        if slug in WINNER_NAMES:
            return str(WINNER_NAMES[slug])
        return secret_role_name(slug) if slug in SECRET_ROLES else slug

    def render_event(self, kind: str, data: Mapping[str, Any]) -> str:
        if kind.startswith(("fm.t_", "fm.recon", "fm.")) and kind in RESOLUTION_MESSAGES:
            return render_resolution_event(kind, data)
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

    # -- the module kit ---------------------------------------------------------------------------------------
    def order_options(self, *, game, viewer):
        from .views.orders import order_options_response

        return order_options_response(game=game, viewer=viewer)

    def bot_policy(self):
        from .playtest.policy import ForumMafiaPolicy

        return ForumMafiaPolicy()

    def demo_games(self):
        from .demo import GAMES

        return GAMES


MODULE = ForumMafiaModule()

