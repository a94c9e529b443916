"""WSGI entry point (gunicorn ``gm.wsgi:application``)."""
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gm.settings")
application = get_wsgi_application()

from gm.core.startup import ensure_static_collected  # noqa: E402 - needs the settings loaded above

ensure_static_collected()
