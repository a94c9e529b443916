"""Forms of the accounts app: the profile editor."""

from __future__ import annotations

from django import forms
from django.forms.utils import flatatt
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from .models import Profile
from .validators import ALLOWED_FORMATS, validate_avatar

_ACCEPT = ",".join(f"image/{fmt.lower()}" for fmt in sorted(ALLOWED_FORMATS))


class LongSelect(forms.Select):
    """A ``<select>`` of many plain options (the ~600 time zones) written in Python: Django's widget renders a
    template per option, about 70 ms for the profile page. Same markup: the name, the attributes (id, required…)
    and each option with its value, label and ``selected``; no option groups."""

    def render(self, name, value, attrs=None, renderer=None):
        widget = self.get_context(name, value, attrs)["widget"]
        options = format_html_join("", '<option value="{}"{}>{}</option>', (
            (opt["value"], " selected" if opt["selected"] else "", opt["label"])
            for _group, group, _index in widget["optgroups"] for opt in group))
        return format_html('<select name="{}"{}>{}</select>', widget["name"], flatatt(widget["attrs"]), options)


class ProfileForm(forms.ModelForm):
    """Edit one :class:`~accounts.models.Profile`: display name, avatar, messengers, language, time zone.

    Bind as ``ProfileForm(request.POST, request.FILES, instance=profile)``. A new avatar upload is checked by
    :func:`accounts.validators.validate_avatar`; a refused upload is reported as an error on the ``avatar``
    field (``form.errors["avatar"]``) and never raises.
    """

    class Meta:
        model = Profile
        fields = ["display_name", "avatar", "messengers", "language", "time_zone"]
        widgets = {
            "avatar": forms.ClearableFileInput(attrs={"accept": _ACCEPT}),
            "messengers": forms.Textarea(attrs={"rows": 3}),
            "time_zone": LongSelect,
        }
        error_messages = {
            # Same wording as the validator's own "not an image" error, so users see one message whichever
            # check (Django's image field or ours) catches the file first.
            "avatar": {"invalid_image": _("The avatar must be an image (JPEG, PNG, GIF or WebP).")},
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Model-field validators do not reach form fields; on the form field the validator runs only for a new
        # upload (FileField.clean returns the stored file untouched), which is exactly what we want.
        self.fields["avatar"].validators.append(validate_avatar)
        self.fields["avatar"].help_text = _("JPEG, PNG, GIF or WebP.")

    def _get_validation_exclusions(self):
        # The form field has already validated any new upload. Model validation would re-run
        # validate_avatar on the *stored* avatar at every save: a file gone from storage (FileNotFoundError,
        # a 500) or a lowered AVATAR_MAX_BYTES would then block edits of unrelated fields.
        exclude = super()._get_validation_exclusions()
        exclude.add("avatar")
        return exclude


class AccountDeleteForm(forms.Form):
    """Confirm deleting the account of ``user`` (pass ``user=`` when binding): his current password and a ticked
    box. An unusable or wrong password is reported on ``password``."""

    password = forms.CharField(label=_("Your password"), widget=forms.PasswordInput, strip=False)
    confirm = forms.BooleanField(label=_("I understand that my account cannot be restored."), required=True)

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self):
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(_("The password is not correct."), code="password")
        return password
