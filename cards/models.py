"""The card collection as editable data (FM-4.2, §11). A master edits kinds in the Django admin; a game carries
a snapshot of the collection it started with in its state, so editing kinds never changes a running game."""
from __future__ import annotations

from django.core.validators import MaxValueValidator
from django.db import models
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from . import domain

COLOUR_CHOICES = [
    ("damage", _("Damage")),
    ("recon", _("Recon")),
    ("protection", _("Protection")),
    ("sabotage", _("Sabotage")),
    ("control", _("Control")),
    ("support", _("Support")),
    ("neutral", _("Neutral")),
    ("special", _("Special")),
]
TIMING_CHOICES = [("night", _("Night")), ("day", _("Day")), ("any", _("Any phase"))]
TARGET_CHOICES = [
    ("none", _("None or self")),
    ("one", _("One living character")),
    ("two", _("Two characters")),
    ("dead", _("One dead character")),
    ("one_card", _("One character and a card")),
    ("one_text", _("One character and a message")),
]


class CardKind(models.Model):
    """One kind of card of the collection; ``effect`` is the spec the engine reads (see
    ``cards/collection_data.py`` for its keys)."""

    slug = models.SlugField(_("slug"), max_length=40, unique=True)
    name_ru = models.CharField(_("name (Russian)"), max_length=80)
    name_en = models.CharField(_("name (English)"), max_length=80)
    colour = models.CharField(_("colour"), max_length=12, choices=COLOUR_CHOICES)
    price = models.PositiveSmallIntegerField(_("price"), default=0, validators=[MaxValueValidator(3)])
    free = models.BooleanField(_("free"), default=False)
    timing = models.CharField(_("timing"), max_length=5, choices=TIMING_CHOICES, default="night")
    target = models.CharField(_("target"), max_length=10, choices=TARGET_CHOICES, default="one")
    text_ru = models.TextField(_("effect (Russian)"), blank=True)
    text_en = models.TextField(_("effect (English)"), blank=True)
    effect = models.JSONField(_("effect spec"), default=dict, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["colour", "slug"]
        verbose_name = _("card kind")
        verbose_name_plural = _("card kinds")
        constraints = [models.CheckConstraint(condition=models.Q(price__lte=3), name="card_price_at_most_3")]

    def __str__(self):
        return f"{self.name} ({self.slug})"

    @property
    def name(self) -> str:
        return self.name_ru if (translation.get_language() or "ru").startswith("ru") else self.name_en

    @property
    def text(self) -> str:
        return self.text_ru if (translation.get_language() or "ru").startswith("ru") else self.text_en

    def to_domain(self) -> domain.CardKind:
        return domain.CardKind(
            slug=self.slug, colour=self.colour, price=self.price, free=self.free, timing=self.timing,
            target=self.target, effect=dict(self.effect), name_ru=self.name_ru, name_en=self.name_en,
            text_ru=self.text_ru, text_en=self.text_en,
        )


def current_collection() -> domain.Collection:
    """The collection as it is in the database now (what a game starting now will snapshot)."""
    return domain.Collection.from_kinds(k.to_domain() for k in CardKind.objects.all())
