"""Celery application. Tasks are Django-aware (``delay_on_commit``) through ``DjangoTask``."""
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gm.settings")

app = Celery("gm", task_cls="celery.contrib.django.task:DjangoTask")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
