"""API serializers. Seats, orders and log entries are always serialized from the visibility layer's output."""
from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from .. import visibility
from ..models import AuditEntry, Game, LogEntry, Order, Phase


class PhaseSerializer(serializers.ModelSerializer):
    label = serializers.CharField(read_only=True)

    class Meta:
        model = Phase
        fields = ["id", "ordinal", "kind", "number", "label", "status", "opens_at", "deadline", "resolved_at",
                  "actors"]


class GameSerializer(serializers.ModelSerializer):
    master = serializers.CharField(source="master.get_username", read_only=True)
    module_name = serializers.CharField(read_only=True)

    class Meta:
        model = Game
        fields = ["id", "module", "module_name", "title", "description", "master", "status", "options", "durations",
                  "created_at", "starts_at", "started_at", "finished_at", "paused_at", "signups_closed", "outcome"]
        read_only_fields = fields

    def to_representation(self, game):
        data = super().to_representation(game)
        request = self.context.get("request")
        data["options"] = visibility.game_options(getattr(request, "user", None), game)
        return data


class GameCreateSerializer(serializers.Serializer):
    module = serializers.CharField(max_length=40, help_text=_("The game module's slug, e.g. forum_mafia."))
    title = serializers.CharField(max_length=200)
    description = serializers.CharField(required=False, allow_blank=True, default="")
    options = serializers.DictField(required=False, default=dict)
    durations = serializers.DictField(child=serializers.FloatField(), required=False, default=dict)
    rng_seed = serializers.IntegerField(required=False, min_value=0, max_value=2**63 - 1, allow_null=True,
                                        default=None)
    starts_at = serializers.DateTimeField(required=False, allow_null=True, default=None)



class SeatSerializer(serializers.Serializer):
    """A seat as the visibility layer projected it (``private`` only where the viewer may see it)."""

    id = serializers.IntegerField()
    display_name = serializers.CharField()
    position = serializers.IntegerField()
    alive = serializers.BooleanField()
    public = serializers.DictField()
    private = serializers.DictField(required=False)


class LogEntrySerializer(serializers.ModelSerializer):
    text = serializers.SerializerMethodField()
    phase = serializers.IntegerField(source="phase.ordinal", allow_null=True, read_only=True)

    class Meta:
        model = LogEntry
        fields = ["id", "phase", "visibility", "seat", "group", "kind", "data", "text", "created_at"]

    def get_text(self, entry) -> str:
        return entry.text()


class OrderSerializer(serializers.ModelSerializer):
    seat = serializers.CharField(source="seat.display_name", read_only=True)
    phase = serializers.IntegerField(source="phase.ordinal", read_only=True)

    class Meta:
        model = Order
        fields = ["id", "phase", "seat", "version", "payload", "created_at"]


class OrderTargetSerializer(serializers.Serializer):
    """What every order write names: the phase it is for, and the order version it edits."""

    phase = serializers.IntegerField(help_text=_(
        "The id of the phase this is for (required). If that phase has ended, nothing is saved and the answer is "
        "409 with code “stale”, “phase” and “open_phase” (the id of the phase open now, or null)."))
    base_version = serializers.IntegerField(required=False, allow_null=True, default=None, min_value=0, help_text=_(
        "The version of your order this one replaces, as you last read it (0: you had none). If your order has "
        "changed since, nothing is saved and the answer is 409 with code “conflict” and “version”. Omitted or null: "
        "no check."))


class OrderSubmitSerializer(OrderTargetSerializer):
    payload = serializers.JSONField(help_text=_("The order, in the module's shape (a JSON object)."))

    def validate_payload(self, value):
        if not isinstance(value, dict):
            raise serializers.ValidationError(_("An order must be a JSON object."))
        return value


class JoinSerializer(serializers.Serializer):
    display_name = serializers.CharField(max_length=80)
    accept = serializers.ListField(
        child=serializers.CharField(max_length=60), required=False, default=list,
        help_text=_("The keys of the texts the game asks its players to accept (e.g. a code of honour); a refusal "
                    "without them lists them under “consents”."))


class PostPrivateSerializer(serializers.Serializer):
    """The private part of a post (FM-9.2) as the viewer may see it: ``text``/``html`` only for its recipient and
    the master, ``recipient`` only for them, its sender, and everyone when ``public_recipient``."""

    recipient = serializers.CharField(allow_null=True,
                                      help_text=_("The recipient's name, where the viewer may know it."))
    public_recipient = serializers.BooleanField(help_text=_("The recipient is named publicly (e.g. the postman's)."))
    to_viewer = serializers.BooleanField(help_text=_("The viewer is the recipient."))
    text = serializers.CharField(allow_null=True, help_text=_("BBCode; null unless the viewer may read it."))
    html = serializers.CharField(allow_null=True, help_text=_("Sanitised HTML; null unless the viewer may read it."))


class PostRevisionSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    body = serializers.CharField()
    comment = serializers.CharField()
    written_at = serializers.DateTimeField()
    replaced_at = serializers.DateTimeField()


class PostSerializer(serializers.Serializer):
    """A thread post as ``visibility.thread_items`` projected it for the viewer (never from the row directly)."""

    id = serializers.IntegerField()
    author = serializers.CharField()
    seat = serializers.IntegerField(allow_null=True)
    author_alive = serializers.BooleanField(allow_null=True)
    phase = serializers.IntegerField(allow_null=True, help_text=_("Ordinal of the phase it was written in."))
    body = serializers.CharField(help_text=_("The public BBCode text."))
    html = serializers.CharField(help_text=_("The public text rendered and sanitised."))
    comment = serializers.CharField()
    created_at = serializers.DateTimeField()
    edited_at = serializers.DateTimeField(allow_null=True)
    can_edit = serializers.BooleanField()
    private = PostPrivateSerializer(allow_null=True)
    revisions = PostRevisionSerializer(
        many=True, allow_null=True, help_text=_("Earlier versions, oldest first: the master only (null for others)."))
    notes = serializers.ListField(child=serializers.CharField(), help_text=_(
        "The game module's notes for the caller, e.g. whether the comment's chat-room proposal went into the "
        "author's order (forum Mafia FM-9.3: the author and the master only)."))
    system = serializers.BooleanField(help_text=_("A post of the site itself (e.g. \"B replaces A\"), in the "
                                                  "caller's language."))
    away_until = serializers.DateField(allow_null=True, help_text=_(
        "The last day the author declared himself away, when he is away today; null otherwise."))


class PostCreateSerializer(serializers.Serializer):
    body = serializers.CharField(max_length=20000, help_text=_(
        'BBCode; may hold one [private="Name"]text[/private] where the game allows it (FM-9.2).'))
    comment = serializers.CharField(max_length=500, required=False, allow_blank=True, default="",
                                    help_text=_("One line of plain text shown under the post."))


class PostEditSerializer(serializers.Serializer):
    body = serializers.CharField(max_length=20000, required=False, allow_blank=True, help_text=_(
        "The new BBCode text (no private tags: a sent private message can't be changed). Omitted: unchanged."))
    comment = serializers.CharField(max_length=500, required=False, allow_blank=True,
                                    help_text=_("The new comment. Omitted: unchanged."))


class ReasonSerializer(serializers.Serializer):
    """A master's intervention: the reason is required and goes into the audit log."""

    reason = serializers.CharField(max_length=500, help_text=_("Why (required): it goes into the audit log."))


class PhaseActionSerializer(ReasonSerializer):
    """A master's action on the open phase: ``phase`` (optional) names it, so a retried request is refused once
    that phase has resolved instead of acting on the next one."""

    phase = serializers.IntegerField(
        required=False, source="phase_id", min_value=1,
        help_text=_("The id of the open phase this action is meant for (recommended when requests may be retried)."))


class ExtendSerializer(PhaseActionSerializer):
    minutes = serializers.IntegerField(min_value=1, max_value=60 * 24 * 30)


class AuditEntrySerializer(serializers.ModelSerializer):
    actor = serializers.CharField(source="actor.get_username")

    class Meta:
        model = AuditEntry
        fields = ["id", "action", "reason", "data", "actor", "created_at"]
