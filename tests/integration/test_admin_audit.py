"""The audit log is read-only in the admin: a superuser may list and read entries, never add, change or delete."""
from __future__ import annotations

import pytest
from django.urls import reverse

from gm.core import services
from gm.core.models import AuditEntry

pytestmark = pytest.mark.django_db


@pytest.fixture
def entry(running_game, master):
    services.game_pause(game=running_game, actor=master, reason="original reason")
    return AuditEntry.objects.get(game=running_game, action="pause")


@pytest.fixture
def admin_client(client, django_user_model):
    admin = django_user_model.objects.create_superuser("root", "root@mail.test", "pw-root-123")
    client.force_login(admin)
    return client


def test_audit_entries_can_be_listed_and_read(admin_client, entry):
    response = admin_client.get(reverse("admin:core_auditentry_changelist"))
    assert response.status_code == 200 and "original reason" in response.content.decode()
    response = admin_client.get(reverse("admin:core_auditentry_change", args=[entry.pk]))
    assert response.status_code == 200
    page = response.content.decode()
    assert "original reason" in page and 'name="_save"' not in page and 'name="reason"' not in page


def test_audit_entries_cannot_be_added_changed_or_deleted(admin_client, entry):
    assert admin_client.get(reverse("admin:core_auditentry_add")).status_code == 403
    response = admin_client.post(reverse("admin:core_auditentry_change", args=[entry.pk]),
                                 {"reason": "rewritten", "action": "pause", "data": "{}"})
    assert response.status_code == 403
    response = admin_client.post(reverse("admin:core_auditentry_delete", args=[entry.pk]), {"post": "yes"})
    assert response.status_code == 403
    response = admin_client.post(reverse("admin:core_auditentry_changelist"),
                                 {"action": "delete_selected", "_selected_action": [entry.pk], "post": "yes"})
    assert AuditEntry.objects.filter(pk=entry.pk, reason="original reason").exists()
