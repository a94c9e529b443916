from django.contrib import admin

from .models import Signup


@admin.register(Signup)
class SignupAdmin(admin.ModelAdmin):
    """Forum Mafia signups (FM-2). Change them through the site (services keep seat and signup in step); the admin
    is for looking things up."""

    list_display = ("character_name", "game", "user", "public_role", "custom_role", "status", "created_at")
    list_filter = ("status",)
    search_fields = ("character_name", "custom_role", "user__username", "game__title")
    raw_id_fields = ("game", "user", "seat")
    readonly_fields = ("role_key", "pledged_at", "created_at")
