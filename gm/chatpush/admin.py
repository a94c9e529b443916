from django.contrib import admin

from .models import Channel, Delivery


@admin.register(Channel)
class ChannelAdmin(admin.ModelAdmin):
    """Channels without their addresses (they hold the user's tokens)."""

    list_display = ("id", "user", "kind", "label", "enabled", "failures", "created_at")
    list_filter = ("kind", "enabled")
    exclude = ("target", "subscription")


@admin.register(Delivery)
class DeliveryAdmin(admin.ModelAdmin):
    list_display = ("id", "channel", "event", "status", "attempts", "created_at", "sent_at")
    list_filter = ("status", "event")
    raw_id_fields = ("channel", "game")
