from django.contrib import admin

from .models import CardKind


@admin.register(CardKind)
class CardKindAdmin(admin.ModelAdmin):
    """Masters edit the collection here; running games keep the snapshot they started with."""

    list_display = ("slug", "name_ru", "name_en", "colour", "price", "free", "timing", "target")
    list_filter = ("colour", "timing", "free", "price")
    search_fields = ("slug", "name_ru", "name_en")
