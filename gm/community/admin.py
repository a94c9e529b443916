"""Admin of the community app: the sanction table (published), warning points (staff give them here too, with a
reason), sanctions, signup requirements, and the reliability records and statistics (read-only: they are kept by
the game events; ``manage.py gm_community_recompute --fix`` rebuilds them)."""
from datetime import timedelta

from django.conf import settings
from django.contrib import admin
from django.utils import timezone

from .models import PlayerGame, Reliability, Sanction, SanctionLevel, SetupStat, SignupRequirement, WarningPoint
from .services import warning_give


@admin.register(SanctionLevel)
class SanctionLevelAdmin(admin.ModelAdmin):
    list_display = ("points", "kind", "days")


@admin.register(WarningPoint)
class WarningPointAdmin(admin.ModelAdmin):
    list_display = ("user", "points", "reason", "given_by", "created_at", "expires_at", "revoked_at")
    list_filter = ("revoked_at",)
    search_fields = ("user__username", "reason")
    readonly_fields = ("given_by", "created_at")
    raw_id_fields = ("user",)
    fields = ("user", "points", "reason", "expires_at", "revoked_at", "given_by", "created_at")

    def get_changeform_initial_data(self, request):
        return {"expires_at": timezone.now() + timedelta(days=settings.GM_WARNING_DAYS)}

    def save_model(self, request, obj, form, change):
        if change:
            super().save_model(request, obj, form, change)
            return
        # A new warning goes through the service, so the sanction table applies as on the staff page.
        days = max(1, min(730, round((obj.expires_at - timezone.now()).total_seconds() / 86400)))
        created = warning_give(actor=request.user, user=obj.user, points=obj.points, reason=obj.reason, days=days)
        obj.pk = created.pk
        obj.given_by, obj.created_at, obj.expires_at = created.given_by, created.created_at, created.expires_at


@admin.register(Sanction)
class SanctionAdmin(admin.ModelAdmin):
    list_display = ("user", "kind", "points", "starts_at", "ends_at")
    search_fields = ("user__username",)
    readonly_fields = ("user", "warning", "points", "kind", "starts_at")


@admin.register(SignupRequirement)
class SignupRequirementAdmin(admin.ModelAdmin):
    list_display = ("game", "min_finished", "max_missed_percent", "max_modkilled", "no_sanction")


class ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Reliability)
class ReliabilityAdmin(ReadOnly):
    list_display = ("user", "finished", "replaced_out", "modkilled", "missed_orders", "action_phases")
    search_fields = ("user__username",)


@admin.register(SetupStat)
class SetupStatAdmin(ReadOnly):
    list_display = ("module", "players", "setup", "kind", "key", "games", "wins", "draws")
    list_filter = ("module", "kind")


@admin.register(PlayerGame)
class PlayerGameAdmin(ReadOnly):
    list_display = ("user", "game", "module", "side", "role", "result", "finished_at")
    list_filter = ("module", "result")
