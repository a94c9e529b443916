"""The Sites row follows SITE_URL (set at every migrate), so password-reset and other allauth e-mails name the
site's real host, never Django's default example.com."""
from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from django.contrib.sites.models import Site
from django.core import mail
from django.core.cache import cache
from django.core.management.sql import emit_post_migrate_signal
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_the_site_row_is_the_host_of_site_url(settings):
    site = Site.objects.get(pk=settings.SITE_ID)
    assert site.domain == urlsplit(settings.SITE_URL).netloc != "example.com"


def test_migrate_brings_the_row_in_step_and_password_reset_mail_names_the_site(settings, client, django_user_model):
    cache.clear()  # allauth's reset rate limit
    settings.SITE_URL = "https://gm.example.org"
    Site.objects.filter(pk=settings.SITE_ID).update(domain="example.com", name="example.com")
    Site.objects.clear_cache()
    emit_post_migrate_signal(verbosity=0, interactive=False, db="default")
    site = Site.objects.get(pk=settings.SITE_ID)
    assert (site.domain, site.name) == ("gm.example.org", "gm.example.org")
    django_user_model.objects.create_user(username="alice", email="alice@mail.test", password="Correct-horse-42")
    response = client.post(reverse("account_reset_password"), {"email": "alice@mail.test"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    text = message.subject + message.body
    assert "gm.example.org" in text
    assert "example.com" not in text
