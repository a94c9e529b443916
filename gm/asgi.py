"""ASGI entry point."""
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gm.settings")
application = get_asgi_application()

from gm.core.startup import ensure_static_collected  # noqa: E402 - needs the settings loaded above

ensure_static_collected()
