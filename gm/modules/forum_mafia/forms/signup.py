"""Forms of the forum Mafia signup page (FM-2). They only parse input: the services decide (role taken, custom name
of a listed role, name taken, pledges) and their field errors are put back on these forms."""
from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.validators import ALLOWED_FORMATS, validate_avatar

from ..engine.roles import CUSTOM
from ..services.signup import MESSENGERS_MAX, NAME_MAX, REASON_MAX

_ACCEPT = ",".join(f"image/{fmt.lower()}" for fmt in sorted(ALLOWED_FORMATS))
_AVATAR_ERRORS = {"invalid_image": _("The avatar must be an image (JPEG, PNG, GIF or WebP).")}

#: FM-2.4: the three pledges at the end of the rules, in full (the Russian catalogue holds the seed's own words).
PLEDGES = (
    _("You will try to lead your own character to victory and will not secretly help the enemy. You are sure that "
      "you will not abandon the game before its end: even one character who quits can spoil the game for a "
      "faction."),
    _("You are playing Mafia. Here people may (and often must) lie to you about their roles and actions; your "
      "character may be slandered and hanged; someone may make an alliance with you and stab you in the back. "
      "These are parts of the game, and you must take them calmly. What happens in the game stays in the game. "
      "There is no honour among thieves."),
    _("You must not break the basic rule of the game and pass game information outside the game's rules, "
      "including through people who don't play. You must not pass game information to living players after your "
      "character has been announced dead."),
)


class RoleSelect(forms.Select):
    """A ``<select>`` whose taken roles are disabled options (their label names the holder)."""

    def __init__(self, *args, taken: set[str] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.taken = taken or set()

    def create_option(self, name, value, label, selected, index, subindex=None, attrs=None):
        option = super().create_option(name, value, label, selected, index, subindex, attrs)
        if value in self.taken:
            option["attrs"]["disabled"] = True
        return option


class SignupForm(forms.Form):
    """FM-2.1–FM-2.4. ``roles`` is :func:`.services.role_choices` (FM-8 list order, holders named)."""

    public_role = forms.ChoiceField(label=_("Public role («Class»)"), choices=())
    custom_role = forms.CharField(label=_("Name of your role, if you chose “Other”"), max_length=NAME_MAX,
                                  required=False,
                                  help_text=_("Any role not in the list and not taken; it has no ability."))
    character_name = forms.CharField(label=_("Character name (optional)"), max_length=NAME_MAX, required=False,
                                     widget=forms.TextInput(attrs={"autocomplete": "off"}),
                                     help_text=_("Leave it empty to play under your own name; you can change it "
                                                 "later (FM-2.1)."))
    messengers = forms.CharField(
        label=_("Messengers («Appearance»)"), required=False, max_length=MESSENGERS_MAX,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("Your identifiers in the messengers you are ready to use during the game, e.g. Telegram @name, "
                    "Discord name. Only the master sees them."))
    avatar = forms.ImageField(label=_("Character avatar"), required=False, validators=[validate_avatar],
                              error_messages=_AVATAR_ERRORS,
                              widget=forms.ClearableFileInput(attrs={"accept": _ACCEPT}),
                              help_text=_("JPEG, PNG, GIF or WebP. You can change it later."))
    # Checked by the service (so a missing pledge is reported together with every other problem); the browser
    # asks for it too.
    pledges = forms.BooleanField(label=_("I accept these three pledges."), required=False,
                                 widget=forms.CheckboxInput(attrs={"required": True}))

    def __init__(self, *args, roles: list[dict], **kwargs):
        super().__init__(*args, **kwargs)
        choices = [("", _("Choose a role…"))]
        for role in roles:
            label = role["name"]
            if role["holder"]:
                label = _("%(role)s — taken by %(name)s") % {"role": role["name"], "name": role["holder"]}
            choices.append((role["slug"], label))
        choices.append((CUSTOM, _("Other (write its name below)")))
        field = self.fields["public_role"]
        field.choices = choices
        field.widget = RoleSelect(choices=choices, taken={r["slug"] for r in roles if r["holder"]})
        field.error_messages["required"] = _("Choose a public role.")


class CharacterForm(forms.Form):
    """FM-2.1: the character's name, avatar and messengers, changeable after the start too."""

    character_name = forms.CharField(label=_("Character name"), max_length=NAME_MAX)
    messengers = forms.CharField(label=_("Messengers («Appearance»)"), required=False, max_length=MESSENGERS_MAX,
                                 widget=forms.Textarea(attrs={"rows": 3}))
    avatar = forms.ImageField(label=_("Character avatar"), required=False, validators=[validate_avatar],
                              error_messages=_AVATAR_ERRORS,
                              widget=forms.ClearableFileInput(attrs={"accept": _ACCEPT}),
                              help_text=_("JPEG, PNG, GIF or WebP."))

    def __init__(self, *args, prefix: str = "character", **kwargs):
        super().__init__(*args, prefix=prefix, **kwargs)


class RejectForm(forms.Form):
    """FM-2.5: the master's reason for rejecting a signup (shown to the player)."""

    reason = forms.CharField(label=_("Reason (shown to the player)"), max_length=REASON_MAX,
                             widget=forms.TextInput())
