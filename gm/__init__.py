"""The game-master service: Django project package (settings, urls, Celery app, core, modules)."""
from .celery import app as celery_app

__all__ = ("celery_app",)
