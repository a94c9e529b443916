"""Community pages (included at the site root by ``gm/urls.py``)."""
from django.urls import path

from . import views

app_name = "community"

urlpatterns = [
    path("stats/", views.stats, name="stats"),
    path("players/<str:username>/", views.player, name="player"),
    path("sanctions/", views.sanctions, name="sanctions"),
    path("staff/warnings/", views.warnings, name="warnings"),
    path("staff/warnings/<int:warning_id>/revoke/", views.warning_revoke, name="warning_revoke"),
    path("games/<int:pk>/requirements/", views.requirements, name="requirements"),
]
