from django.contrib import admin

from .models import AuditEntry, Game, LogEntry, Order, Phase, Post, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("position", "display_name", "user", "alive")


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("title", "module", "master", "status", "created_at")
    list_filter = ("module", "status")
    search_fields = ("title",)
    inlines = [SeatInline]


@admin.register(Phase)
class PhaseAdmin(admin.ModelAdmin):
    list_display = ("game", "ordinal", "kind", "number", "status", "deadline", "overdue_at")
    list_filter = ("status",)
    readonly_fields = ("claim_token", "claimed_at", "claims", "result_digest")


admin.site.register(Order)
admin.site.register(LogEntry)
admin.site.register(Post)


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    """The audit log, read-only for everyone, superusers included: entries are written by the services alone and
    are the record of what masters did, so the admin may list and show them but never add, change or delete one
    (which also keeps the admin from deleting a game that has entries)."""

    list_display = ("created_at", "game", "phase", "actor", "action", "reason")
    list_filter = ("action",)
    search_fields = ("game__title", "actor__username", "reason")
    list_select_related = ("game", "phase", "actor")
    date_hierarchy = "created_at"

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
