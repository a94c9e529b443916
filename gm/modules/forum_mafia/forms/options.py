"""The forum Mafia options on the "new game" page (``GameModule.options_fields``/``options_from_fields``): the hero
(FM-3.4), a composition dealt by the table or fixed by the master (FM-3.4), and the stalemate limit (FM-10.H1).
The engine (:func:`..engine.game.validate_options`) decides what is valid."""
from __future__ import annotations

from typing import Any

from django import forms
from django.utils.html import format_html_join
from django.utils.translation import gettext_lazy as _

from ..engine import victory
from ..engine.roles import SECRET_ROLES
from ..engine.state import STALEMATE_PHASES
from ..texts import secret_role_name


def options_fields() -> dict:
    """The "new game" page's forum Mafia option fields, by name."""
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


def options_from_fields(values: dict[str, Any]) -> dict:
    """The options of the cleaned field ``values`` (a fixed composition's slugs split at commas and line ends)."""
    stalemate = values.get("stalemate_phases")
    options: dict[str, Any] = {"hero": bool(values.get("hero")),
                               "stalemate_phases": STALEMATE_PHASES if stalemate is None else stalemate}
    if values.get("composition") == "fixed":
        options["roles"] = [r.strip() for r in (values.get("roles") or "").replace("\n", ",").split(",")
                            if r.strip()]
    return options
