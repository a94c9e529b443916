"""Forum Mafia models: signups (FM-2).

A :class:`Signup` is a player's claim for a game: the public role (FM-2.2, FM-2.3), the messenger identifiers
(FM-2.1 «Внешность»), the character's avatar and the accepted pledges (FM-2.4). Its core
:class:`~gm.core.models.Seat` carries the character name (``display_name``) and the claimed public role in
``seat.data["public_role"]`` (what the engine reads). Rows are written only by :mod:`.services`.
"""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.signals import pre_delete
from django.dispatch import receiver
from django.utils.translation import gettext_lazy as _

from accounts.validators import SanitisedImageField, validate_avatar
from gm.core.models import Game, Seat

from .engine.roles import CUSTOM


def character_avatar_path(instance, filename):
    """``fm_avatars/<game>/<user>/<name>``; ``filename`` is the server-chosen name of
    :func:`accounts.validators.sanitise_image`."""
    return f"fm_avatars/{instance.game_id}/{instance.user_id}/{filename}"


class Signup(models.Model):
    """One signup of a user for a forum Mafia game (FM-2).

    ``role_key`` is :func:`.roles.public_role_key` of the claim (the slug, or ``custom:<casefolded name>``): two
    partial unique constraints make sure that among *active* signups of a game each public role is held once
    (FM-2.2, the database backstop of the service's check) and each user signs up once.
    """

    class Status(models.TextChoices):
        ACTIVE = "active", _("active")
        WITHDRAWN = "withdrawn", _("withdrawn")
        REJECTED = "rejected", _("rejected")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="fm_signups", verbose_name=_("game"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="fm_signups",
                             verbose_name=_("user"))
    seat = models.OneToOneField(Seat, on_delete=models.SET_NULL, null=True, blank=True, related_name="fm_signup",
                                verbose_name=_("seat"))
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.ACTIVE)
    #: the character name at signup, kept in step with ``seat.display_name`` (and kept after the seat is gone).
    character_name = models.CharField(_("character name"), max_length=80)
    #: a slug of :data:`.roles.PUBLIC_ROLES` (FM-8) or ``"custom"`` (FM-2.3; no choices: the list is data).
    public_role = models.CharField(_("public role"), max_length=40)
    custom_role = models.CharField(_("custom role"), max_length=80, blank=True)
    role_key = models.CharField(_("role key"), max_length=100)
    messengers = models.TextField(_("messenger identifiers"), blank=True, max_length=500)
    avatar = SanitisedImageField(_("avatar"), upload_to=character_avatar_path, blank=True,
                               validators=[validate_avatar])
    pledged_at = models.DateTimeField(_("pledges accepted at"))
    reject_reason = models.TextField(_("reason for rejection"), blank=True, max_length=1000)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["game", "created_at", "id"]
        verbose_name = _("signup")
        verbose_name_plural = _("signups")
        constraints = [
            models.UniqueConstraint(fields=["game", "role_key"], condition=Q(status="active"),
                                    name="fm_signup_one_active_per_public_role"),
            models.UniqueConstraint(fields=["game", "user"], condition=Q(status="active"),
                                    name="fm_signup_one_active_per_user"),
        ]

    def __str__(self):
        return f"{self.character_name} ({self.role_key}) in {self.game_id}"

    @property
    def public_role_value(self) -> str | dict:
        """The claim as the engine reads it in ``seat.data["public_role"]``: the slug or ``{"custom": name}``."""
        return {CUSTOM: self.custom_role} if self.public_role == CUSTOM else self.public_role


@receiver(pre_delete, sender=Seat, dispatch_uid="forum_mafia_signup_seat_deleted")
def _seat_deleted(sender, instance: Seat, **kwargs) -> None:
    """A seat removed by another path (the core "leave" page or API) withdraws its active signup, so the public
    role it held becomes free again (FM-2.2)."""
    Signup.objects.filter(seat_id=instance.pk, status=Signup.Status.ACTIVE).update(status=Signup.Status.WITHDRAWN)


class RoomProposal(models.Model):
    """The chat-room proposal (FM-9.3) the comment of one game-thread post makes, as read when the post was last saved,
    and whether it went into its author's day order.

    ``members`` are seat ids, the author included (empty when the comment could not be read); ``problem`` is
    ``None`` when the proposal is part of the author's order, else why not: ``{"rule", "message", "params"}`` with
    ``message`` an untranslated msgid (rendered in the reader's language). The author and the master see it under the
    post; the proposal itself is public anyway (it is the post's comment). Written only by :mod:`.room_services`.
    """

    post = models.OneToOneField("core.Post", on_delete=models.CASCADE, related_name="fm_room_proposal")
    # No index of its own: an index or unique constraint of the Meta leads with it (test_db_indexes).
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="+", db_index=False)
    #: the post's phase (the day whose order holds the proposal); ``None`` when the post was written between phases.
    phase = models.ForeignKey("core.Phase", on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    members = models.JSONField(default=list, blank=True)
    conspiracy = models.BooleanField(default=False)
    problem = models.JSONField(null=True, blank=True)
    updated_at = models.DateTimeField()

    class Meta:
        ordering = ["post"]
        indexes = [models.Index(fields=["seat", "phase"])]

    def __str__(self):
        return f"room proposal of post {self.post_id}"

    @property
    def recorded(self) -> bool:
        return self.problem is None


class RoomPost(models.Model):
    """A post in a chat room (FM-9.3): a private thread of the room's members, read by them and the master only.

    ``room`` is the room's group slug (``room:<day>-<n>``, a key of ``state["fm"]["rooms"]``); ``body`` is BBCode,
    rendered and sanitised like the game thread's (``gm.core.markup``). Read only through :mod:`.room_services`,
    which asks who may read the room.
    """

    MAX_BODY = 20000

    # No index of its own: an index or unique constraint of the Meta leads with it (test_db_indexes).
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="fm_room_posts", db_index=False)
    room = models.CharField(_("room"), max_length=80)
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    seat = models.ForeignKey(Seat, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    #: the phase open when it was written.
    phase = models.ForeignKey("core.Phase", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    body = models.TextField(_("text"), max_length=MAX_BODY)
    created_at = models.DateTimeField(_("created"))

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["game", "room", "created_at", "id"])]
        verbose_name = _("room post")
        verbose_name_plural = _("room posts")

    def __str__(self):
        return f"post {self.pk} in {self.room} of {self.game_id}"
