"""Sending one queued message, and what a failure does to its channel.

:func:`attempt` is what ``gm.chatpush.tasks.deliver_task`` runs: claim the row, send it (apprise or Web Push),
record the outcome. A failed attempt counts against the channel (``Channel.failures``, reset by any success);
at ``GM_CHATPUSH_DISABLE_AFTER`` failures in a row, or at once when the push service says the subscription is gone
(HTTP 404/410), the channel is disabled, its waiting messages are dropped and its owner is told in his inbox.
Otherwise the message is tried again after :func:`backoff` seconds, up to ``GM_CHATPUSH_MAX_ATTEMPTS`` attempts.

Edits: apprise has no "edit a sent message" call (Discord webhooks, Telegram and Matrix allow edits through their
own APIs; Slack's incoming webhooks do not), so a chat channel gets a new deadline warning only when the deadline
changed, saying that it replaces the previous one. Web Push replaces it in place: the ``Topic`` header collapses it
at the push service and the notification ``tag`` replaces it on the device.
"""
from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.urls import reverse
from django.utils import timezone, translation

from gm.core.services.base import Clock

from .. import texts
from ..models import Channel, Delivery

logger = logging.getLogger("gm.chatpush")

#: How long one attempt may hold its row before another worker may take it (seconds).
CLAIM_SECONDS = 120


@dataclass(frozen=True)
class Sent:
    """One transport's answer: ``ok``; ``permanent`` (retrying cannot help: the subscription is gone);
    ``error`` (a short reason, no secrets)."""

    ok: bool
    error: str = ""
    permanent: bool = False


@dataclass(frozen=True)
class Outcome:
    """What :func:`attempt` did: ``status`` of the row afterwards, and ``retry_in`` (seconds) when the task should
    try again."""

    status: str
    retry_in: float | None = None


def backoff(attempt: int) -> float:
    """Seconds to wait after failed attempt number ``attempt`` (1-based): ``GM_CHATPUSH_BACKOFF`` doubled for each
    further attempt (30, 60, 120… by default), at most ``GM_CHATPUSH_BACKOFF_MAX``."""
    base = float(settings.GM_CHATPUSH_BACKOFF)
    return min(base * 2 ** max(0, attempt - 1), float(settings.GM_CHATPUSH_BACKOFF_MAX))


def _text(delivery: Delivery) -> str:
    return "\n".join(part for part in (delivery.body, delivery.url) if part)


def send_apprise(channel: Channel, delivery: Delivery) -> Sent:
    """Post ``delivery`` to the channel's apprise URL (title, then the body and the link)."""
    import apprise

    client = apprise.Apprise()
    if not client.add(channel.target):
        return Sent(False, "the address is no longer valid", permanent=True)
    try:
        with apprise.LogCapture(level=logging.WARNING) as captured:
            ok = client.notify(title=delivery.title, body=_text(delivery), body_format=apprise.NotifyFormat.TEXT)
            log = captured.getvalue()
    except Exception as exc:  # a plugin's bug or a network error it did not catch: retried like any failure
        return Sent(False, type(exc).__name__)
    lines = [line.strip() for line in log.splitlines() if line.strip()]
    return Sent(bool(ok), "" if ok else (lines[-1] if lines else "the service refused the message")[:500])


def push_payload(delivery: Delivery) -> dict:
    """The JSON the service worker (``static/js/chatpush-sw.js``) shows: ``title``, ``body``, ``url`` and ``tag``
    (the collapse key, so a newer deadline warning replaces the shown one)."""
    return {"title": delivery.title, "body": delivery.body, "url": delivery.url,
            "tag": delivery.collapse or f"gm-{delivery.pk}", "renotify": bool(delivery.collapse)}


def send_webpush(channel: Channel, delivery: Delivery) -> Sent:
    """Encrypt and post ``delivery`` to the channel's push endpoint (RFC 8030/8291/8292): ``TTL`` the row's
    ``ttl``, ``Topic`` its collapse key (a newer message with the same topic replaces one not yet delivered),
    signed with the site's VAPID key. 404/410 mean the subscription is gone (permanent)."""
    from pywebpush import WebPushException, webpush

    private_key = settings.GM_WEBPUSH_VAPID_PRIVATE_KEY
    if not private_key:
        return Sent(False, "Web Push is not configured on the site (no VAPID key)")
    headers = {"Urgency": "high" if delivery.collapse else "normal"}
    if delivery.collapse:
        headers["Topic"] = delivery.collapse
    try:
        webpush(subscription_info=channel.subscription, data=json.dumps(push_payload(delivery)),
                vapid_private_key=private_key, vapid_claims={"sub": settings.GM_WEBPUSH_VAPID_SUBJECT},
                ttl=delivery.ttl, headers=headers, timeout=settings.GM_CHATPUSH_TIMEOUT)
    except WebPushException as exc:
        status = getattr(exc.response, "status_code", None)
        return Sent(False, f"push service answered {status}" if status else "push service unreachable",
                    permanent=status in (404, 410))
    except Exception as exc:  # a network error, a bad key: retried like any failure
        return Sent(False, type(exc).__name__)
    return Sent(True)


TRANSPORTS = {Channel.Kind.APPRISE: send_apprise, Channel.Kind.WEBPUSH: send_webpush}


def _claim(delivery_id: int, now: datetime) -> Delivery | None:
    """Take the pending row for one attempt (compare-and-set on ``claimed_until``), so two workers running the same
    task (late acknowledgement) never both send it."""
    free = Delivery.objects.filter(pk=delivery_id, status=Delivery.Status.PENDING).filter(
        claimed_until__isnull=True) | Delivery.objects.filter(pk=delivery_id, status=Delivery.Status.PENDING,
                                                              claimed_until__lt=now)
    if not free.update(claimed_until=now + timedelta(seconds=CLAIM_SECONDS), attempts=F("attempts") + 1):
        return None
    return Delivery.objects.select_related("channel__user__profile").get(pk=delivery_id)


def attempt(*, delivery_id: int, clock: Clock = timezone.now) -> Outcome:
    """One attempt to send delivery ``delivery_id`` (see the module's docstring). A row that is not pending (sent,
    superseded, failed) or is being sent by another worker is left alone (``Outcome(status)``, no retry)."""
    now = clock()
    delivery = _claim(delivery_id, now)
    if delivery is None:
        status = Delivery.objects.filter(pk=delivery_id).values_list("status", flat=True).first()
        return Outcome(status or "gone")
    channel = delivery.channel
    if not channel.enabled:
        Delivery.objects.filter(pk=delivery.pk).update(status=Delivery.Status.FAILED, claimed_until=None,
                                                       last_error="channel disabled")
        return Outcome(Delivery.Status.FAILED)
    sent = TRANSPORTS[channel.kind](channel, delivery)
    if sent.ok:
        Delivery.objects.filter(pk=delivery.pk).update(status=Delivery.Status.SENT, sent_at=clock(),
                                                       claimed_until=None, last_error="")
        Channel.objects.filter(pk=channel.pk).update(failures=0, last_error="", last_success_at=clock())
        return Outcome(Delivery.Status.SENT)
    logger.warning("chat/push delivery failed", extra={"delivery": delivery.pk, "channel": channel.pk,
                                                       "error": sent.error})
    disabled = _count_failure(channel, delivery, sent, clock())
    if disabled or delivery.attempts >= settings.GM_CHATPUSH_MAX_ATTEMPTS:
        Delivery.objects.filter(pk=delivery.pk).update(status=Delivery.Status.FAILED, claimed_until=None,
                                                       last_error=sent.error)
        return Outcome(Delivery.Status.FAILED)
    wait = backoff(delivery.attempts)
    Delivery.objects.filter(pk=delivery.pk).update(claimed_until=None, last_error=sent.error,
                                                   delays=[*delivery.delays, wait])
    return Outcome(Delivery.Status.PENDING, retry_in=wait)


def _count_failure(channel: Channel, delivery: Delivery, sent: Sent, now: datetime) -> bool:
    """Count one failed attempt on ``channel``; disable it at the threshold (or at once for a permanent failure).
    Returns whether the channel is disabled now."""
    with transaction.atomic():
        row = Channel.objects.select_for_update().get(pk=channel.pk)
        row.failures += 1
        row.last_error = sent.error
        disable = row.enabled and (sent.permanent or row.failures >= settings.GM_CHATPUSH_DISABLE_AFTER)
        if disable:
            with translation.override(_language(row.user)):
                row.disabled_reason = texts.channel_disabled(label=row.label, failures=row.failures)
            row.enabled, row.disabled_at = False, now
            Delivery.objects.filter(channel=row, status=Delivery.Status.PENDING).exclude(pk=delivery.pk).update(
                status=Delivery.Status.FAILED, last_error="channel disabled")
            _tell_owner(row, delivery, now)
        row.save(update_fields=["failures", "last_error", "enabled", "disabled_at", "disabled_reason"])
    return not row.enabled


def _language(user) -> str:
    profile = getattr(user, "profile", None)
    return getattr(profile, "language", None) or settings.LANGUAGE_CODE


def _tell_owner(channel: Channel, delivery: Delivery, now: datetime) -> None:
    """The owner's inbox notification (kind ``channel_disabled``, on the game of the message that failed last)."""
    from gm.inbox.models import Notification

    Notification.objects.get_or_create(
        user=channel.user, key=f"chatpush-disabled:{channel.pk}:{int(now.timestamp())}",
        defaults={"game_id": delivery.game_id, "kind": Notification.Kind.CHANNEL_DISABLED, "created_at": now,
                  "data": {"channel": channel.label, "failures": channel.failures, "error": channel.last_error[:200],
                           "url": reverse("chatpush:channels")}})
