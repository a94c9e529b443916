"""The site's VAPID key pair (RFC 8292) for Web Push: generated once (``manage.py gm_vapid_keys``) and given in the
environment as ``GM_WEBPUSH_VAPID_PRIVATE_KEY`` / ``GM_WEBPUSH_VAPID_PUBLIC_KEY``."""
from __future__ import annotations

import base64

from django.conf import settings


def _b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def generate_keys() -> dict[str, str]:
    """A new P-256 key pair: ``{"private": raw 32-byte key, "public": uncompressed 65-byte point}``, both
    base64url without padding (the forms pywebpush and the browser's ``applicationServerKey`` take)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    key = ec.generate_private_key(ec.SECP256R1())
    private = key.private_numbers().private_value.to_bytes(32, "big")
    public = key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return {"private": _b64url(private), "public": _b64url(public)}


def public_key() -> str:
    """The site's public VAPID key for the browser ("" when Web Push is not configured: no subscribe button)."""
    if not settings.GM_WEBPUSH_VAPID_PRIVATE_KEY:
        return ""
    return settings.GM_WEBPUSH_VAPID_PUBLIC_KEY
