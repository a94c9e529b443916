from django.contrib import admin

from .models import GameReminder, Notification, NotificationSettings, PhaseReminder


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ("user", "kind", "game", "phase", "created_at", "read_at", "emailed_at")
    list_filter = ("kind",)
    raw_id_fields = ("user", "game", "phase", "entry")


admin.site.register(NotificationSettings)
admin.site.register(GameReminder)
admin.site.register(PhaseReminder)
