"""Celery application. Tasks are Django-aware (``delay_on_commit``) through ``gm.core.queueing.SafeDjangoTask``, which
logs a broker failure after commit instead of failing the request."""
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gm.settings")

app = Celery("gm", task_cls="gm.core.queueing:SafeDjangoTask")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
