"""``manage.py gm_vapid_keys``: print a new VAPID key pair for Web Push as environment lines."""
from __future__ import annotations

from django.core.management.base import BaseCommand

from gm.chatpush.services.vapid import generate_keys


class Command(BaseCommand):
    help = ("Print a new VAPID key pair for browser push notifications, as lines for the environment (.env). "
            "Generate it once: browsers subscribed with one public key stop receiving when it changes.")

    def handle(self, *args, **options):
        keys = generate_keys()
        self.stdout.write(f"GM_WEBPUSH_VAPID_PRIVATE_KEY={keys['private']}")
        self.stdout.write(f"GM_WEBPUSH_VAPID_PUBLIC_KEY={keys['public']}")
