"""A user's channels: link, choose events, re-enable, remove. Every function is keyword-only; bad input raises
:class:`~gm.core.services.ServiceError` (field errors) and changes nothing.

Which apprise services may be linked is ``GM_CHATPUSH_APPRISE_SERVICES`` (apprise protocol names, default Discord,
Slack, Telegram, Matrix): the server posts to the URL a user gives, so generic ones (``json://``, ``form://``) that
reach any host are refused unless listed. Targets on a loopback, private or link-local address (a Matrix server,
a Web Push endpoint) and plain ``http`` push endpoints are refused unless ``GM_CHATPUSH_ALLOW_LOCAL`` (tests, a
developer's machine): the site must not be a way into its own network.
"""
from __future__ import annotations

import base64
import binascii
import ipaddress
import json
import socket
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from gm.core.services import ServiceError
from gm.core.services.base import Clock

from ..models import DEFAULT_EVENTS, EVENTS, Channel

#: The longest apprise URL or subscription JSON accepted (characters).
MAX_TARGET = 2000
#: apprise services whose host is whatever the user writes (checked against local addresses).
SELF_HOSTED = {"json", "jsons", "matrix", "matrixs", "form", "forms", "xml", "xmls"}
#: The most channels one user may link.
MAX_CHANNELS = 20


def _require_user(user) -> None:
    if user is None or not user.is_authenticated:
        raise ServiceError(_("Log in first."), code="forbidden")


def _own(user, channel_id: Any) -> Channel:
    _require_user(user)
    try:
        pk = int(channel_id)
    except (TypeError, ValueError):
        pk = None
    channel = Channel.objects.filter(pk=pk, user=user).first() if pk is not None else None
    if channel is None:
        raise ServiceError(_("Not found"), code="not_found")
    return channel


def clean_events(events: Any) -> list[str]:
    """``events`` (an iterable of slugs) as a list in :data:`~gm.chatpush.models.EVENTS` order; a slug that is not
    an event raises :class:`ServiceError` (field ``events``)."""
    if isinstance(events, str) or not hasattr(events, "__iter__"):
        raise ServiceError({"events": [_("Choose events from the list.")]})
    chosen = set(events)
    unknown = chosen - set(EVENTS)
    if unknown:
        raise ServiceError({"events": [_("Unknown event: %(name)s.") % {"name": ", ".join(sorted(map(str, unknown)))}]})
    return [slug for slug in EVENTS if slug in chosen]


def _local_host(host: str) -> bool:
    """Whether ``host`` is, or resolves to, a loopback, private, link-local or reserved address (or does not
    resolve at all: nothing to post to)."""
    host = host.strip("[]")
    try:
        addresses = [ipaddress.ip_address(host)]
    except ValueError:
        try:
            infos = socket.getaddrinfo(host, None)
        except (OSError, UnicodeError):
            return True
        addresses = [ipaddress.ip_address(info[4][0].split("%")[0]) for info in infos]
    return any(a.is_loopback or a.is_private or a.is_link_local or a.is_reserved or a.is_unspecified
               or a.is_multicast for a in addresses)


def _check_host(host: str, field: str) -> None:
    if not getattr(settings, "GM_CHATPUSH_ALLOW_LOCAL", False) and (not host or _local_host(host)):
        raise ServiceError({field: [_("This address is not reachable from the site (a local or unknown host).")]})


def parse_apprise(url: Any):
    """The apprise plugin instance for ``url`` (a string), after the checks above; :class:`ServiceError` (field
    ``url``) for a malformed URL, a service apprise does not know or the site does not allow, or a local host."""
    import apprise

    if not isinstance(url, str) or not url.strip():
        raise ServiceError({"url": [_("Paste the address of your webhook.")]})
    url = url.strip()
    if len(url) > MAX_TARGET or any(c.isspace() for c in url):
        raise ServiceError({"url": [_("This is not a valid address.")]})
    scheme = urlsplit(url).scheme.lower() if "://" in url else ""
    if not scheme:
        raise ServiceError({"url": [_("This is not a valid address: it must start with a service name, e.g. "
                                      "discord://, tgram:// or https://.")]})
    plugin = apprise.Apprise.instantiate(url, suppress_exceptions=True)
    if plugin is None:
        raise ServiceError({"url": [_("This address is not one of a supported service, or it is incomplete "
                                      "(%(scheme)s://).") % {"scheme": scheme}]})
    protocols = set()
    for attr in ("protocol", "secure_protocol"):
        value = getattr(plugin, attr, None)
        protocols |= {value} if isinstance(value, str) else set(value or ())
    allowed = set(getattr(settings, "GM_CHATPUSH_APPRISE_SERVICES", ()))
    if not protocols & allowed:
        raise ServiceError({"url": [_("The site does not send to %(service)s. Supported: Discord, Slack, "
                                      "Telegram, Matrix.") % {"service": plugin.service_name}]})
    if protocols & SELF_HOSTED:
        _check_host(str(getattr(plugin, "host", "") or ""), "url")
    return plugin


def _b64url(value: Any, size: int, field: str) -> bytes:
    if not isinstance(value, str) or not value:
        raise ServiceError({field: [_("The subscription lacks its keys.")]})
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        raise ServiceError({field: [_("The subscription's keys are not valid.")]}) from None
    if len(raw) != size:
        raise ServiceError({field: [_("The subscription's keys are not valid.")]})
    return raw


def parse_subscription(data: Any) -> dict:
    """A browser's ``PushSubscription.toJSON()`` (a JSON string or dict) checked and reduced to ``{"endpoint",
    "keys": {"p256dh", "auth"}}``: an ``https`` endpoint (``http`` and local hosts only with
    ``GM_CHATPUSH_ALLOW_LOCAL``), a P-256 public key (65 bytes, base64url) and a 16-byte auth secret.
    :class:`ServiceError` (field ``subscription``) otherwise."""
    field = "subscription"
    if isinstance(data, str):
        if len(data) > MAX_TARGET:
            raise ServiceError({field: [_("The subscription is too long.")]})
        try:
            data = json.loads(data)
        except ValueError:
            raise ServiceError({field: [_("The subscription is not valid JSON.")]}) from None
    if not isinstance(data, dict) or not isinstance(data.get("keys"), dict):
        raise ServiceError({field: [_("The subscription must be an object with an endpoint and keys.")]})
    endpoint = data.get("endpoint")
    parts = urlsplit(endpoint) if isinstance(endpoint, str) and len(endpoint) <= MAX_TARGET else None
    local = getattr(settings, "GM_CHATPUSH_ALLOW_LOCAL", False)
    if parts is None or parts.scheme not in (("https", "http") if local else ("https",)) or not parts.hostname:
        raise ServiceError({field: [_("The subscription's endpoint is not a valid https address.")]})
    _check_host(parts.hostname, field)
    p256dh = _b64url(data["keys"].get("p256dh"), 65, field)
    if p256dh[0] != 4:
        raise ServiceError({field: [_("The subscription's keys are not valid.")]})
    _b64url(data["keys"].get("auth"), 16, field)
    return {"endpoint": endpoint, "keys": {"p256dh": data["keys"]["p256dh"], "auth": data["keys"]["auth"]}}


def _label(label: Any, default: str) -> str:
    if label is not None and not isinstance(label, str):
        raise ServiceError({"label": [_("The name must be text.")]})
    label = " ".join((label or "").split())
    if len(label) > 80:
        raise ServiceError({"label": [_("At most %(max)s characters.") % {"max": 80}]})
    return label or default


def _create(*, user, kind: str, label: str, target: str, subscription: dict, events: list[str], now) -> Channel:
    if Channel.objects.filter(user=user).count() >= MAX_CHANNELS:
        raise ServiceError(_("You have linked as many channels as allowed (%(max)s).") % {"max": MAX_CHANNELS},
                           code="full")
    try:
        with transaction.atomic():
            return Channel.objects.create(user=user, kind=kind, label=label, target=target, subscription=subscription,
                                          events=events, created_at=now)
    except IntegrityError:
        raise ServiceError(_("This channel is already linked."), code="duplicate") from None


def channel_add_apprise(*, user, url: Any, label: Any = "", events: Any = None,
                        clock: Clock = timezone.now) -> Channel:
    """Link a chat webhook (an apprise URL: ``discord://…``, ``https://discord.com/api/webhooks/…``,
    ``slack://…``, ``tgram://…``, ``matrixs://…``) for ``user``, receiving ``events`` (default
    :data:`~gm.chatpush.models.DEFAULT_EVENTS`). ``label``: the user's name for it (default: the service's name).
    Raises :class:`ServiceError`: ``forbidden`` (anonymous), field ``url`` (see :func:`parse_apprise`), ``events``,
    ``label``; ``duplicate`` for a URL already linked, ``full`` past :data:`MAX_CHANNELS`."""
    _require_user(user)
    plugin = parse_apprise(url)
    chosen = clean_events(DEFAULT_EVENTS if events is None else events)
    return _create(user=user, kind=Channel.Kind.APPRISE, label=_label(label, str(plugin.service_name)),
                   target=url.strip(), subscription={}, events=chosen, now=clock())


def channel_add_webpush(*, user, subscription: Any, label: Any = "", events: Any = None,
                        clock: Clock = timezone.now) -> Channel:
    """Link one browser's Web Push subscription (see :func:`parse_subscription`) for ``user``. The same endpoint
    linked again (the browser renewed its keys) updates the keys and enables the channel again instead of failing.
    Errors as :func:`channel_add_apprise` (field ``subscription``)."""
    _require_user(user)
    sub = parse_subscription(subscription)
    chosen = clean_events(DEFAULT_EVENTS if events is None else events)
    existing = Channel.objects.filter(user=user, target=sub["endpoint"]).first()
    if existing is not None:
        existing.subscription, existing.enabled, existing.failures = sub, True, 0
        existing.disabled_at, existing.disabled_reason = None, ""
        existing.save(update_fields=["subscription", "enabled", "failures", "disabled_at", "disabled_reason"])
        return existing
    return _create(user=user, kind=Channel.Kind.WEBPUSH, label=_label(label, _("This browser")),
                   target=sub["endpoint"], subscription=sub, events=chosen, now=clock())


def channel_set_events(*, user, channel_id: Any, events: Any, label: Any = None) -> Channel:
    """Choose which events channel ``channel_id`` of ``user`` receives (and rename it when ``label`` is given).
    ``not_found`` for another user's channel; field ``events``/``label`` for bad values."""
    channel = _own(user, channel_id)
    chosen = clean_events(events)
    channel.events = chosen
    fields = ["events"]
    if label is not None:
        channel.label = _label(label, channel.label)
        fields.append("label")
    channel.save(update_fields=fields)
    return channel


def channel_enable(*, user, channel_id: Any) -> Channel:
    """Enable a disabled channel again (its failure count starts over). ``not_found`` for another user's."""
    channel = _own(user, channel_id)
    Channel.objects.filter(pk=channel.pk).update(enabled=True, failures=0, disabled_at=None, disabled_reason="")
    channel.refresh_from_db()
    return channel


def channel_remove(*, user, channel_id: Any) -> None:
    """Unlink channel ``channel_id`` of ``user`` (its queued messages go with it). ``not_found`` otherwise."""
    _own(user, channel_id).delete()

