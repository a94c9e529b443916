"""Community API routes (included under ``/api/`` by ``gm/urls.py``)."""
from django.urls import path

from . import api

urlpatterns = [
    path("stats/", api.StatsView.as_view(), name="api-stats"),
    path("players/<str:username>/history/", api.HistoryView.as_view(), name="api-player-history"),
    path("players/<str:username>/reliability/", api.ReliabilityView.as_view(), name="api-player-reliability"),
]
