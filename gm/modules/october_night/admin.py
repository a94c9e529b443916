"""The admin of October Night's site-wide data set (OC-17): staff edit the YAML of the active set; a save is checked
as a game start checks the set (each error with the line of the YAML at fault) and changes no running game."""
from django import forms
from django.contrib import admin

from gm.core.services import ServiceError

from . import services
from .models import DataSet
from .texts import DATA_FILE


class DataSetForm(forms.ModelForm):
    """The data set's YAML, refused with every error (line, entry, message, rule) when the set is invalid."""

    class Meta:
        model = DataSet
        fields = ("name", "text", "active")
        widgets = {"text": forms.Textarea(attrs={"rows": 40, "cols": 100, "spellcheck": "false"})}

    def clean_text(self):
        text = self.cleaned_data["text"]
        try:
            services.data_set_check(text=text)
        except ServiceError as exc:
            raise forms.ValidationError([m for msgs in exc.errors.values() for m in msgs]) from None
        return text


@admin.register(DataSet)
class DataSetAdmin(admin.ModelAdmin):
    form = DataSetForm
    list_display = ("name", "active", "digest", "updated_at", "updated_by")
    readonly_fields = ("digest", "updated_at", "updated_by")

    def get_changeform_initial_data(self, request):
        """A new set starts as a copy of the shipped one (``data/default.yaml``)."""
        return {"text": DATA_FILE.read_text(encoding="utf-8")}

    def save_model(self, request, obj, form, change):
        services.data_set_save(data_set=obj, actor=request.user)
