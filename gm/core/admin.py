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
admin.site.register(AuditEntry)
