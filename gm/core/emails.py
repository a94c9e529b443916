"""Notification e-mails rendered from templates: every one ends with a link to the recipient's notification
settings and carries a ``List-Unsubscribe`` header pointing there (RFC 2369), so mail clients offer an
"unsubscribe" button."""
from __future__ import annotations

from django.core.mail import EmailMessage
from django.template.loader import render_to_string
from django.urls import reverse

from .links import absolute_url


def settings_url() -> str:
    """The absolute URL of the notification settings page (on ``SITE_URL``)."""
    return absolute_url(reverse("inbox:settings"))


def notification_email(*, subject: str, template: str, context: dict, to: str) -> EmailMessage:
    """An e-mail to the address ``to`` whose plain-text body is ``template`` (under ``templates/email/``, it
    extends ``email/base.txt``) rendered with ``context`` plus ``settings_url``. Render it inside the recipient's
    ``translation.override``/``timezone.override``: the template's text follows the active language."""
    url = settings_url()
    body = render_to_string(f"email/{template}", {**context, "settings_url": url})
    return EmailMessage(subject=subject, body=body, to=[to], headers={"List-Unsubscribe": f"<{url}>"})
