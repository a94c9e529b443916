"""URLs of Bloodwood: a player's line or answer in the open step and a declaration, as form POSTs under
``games/<pk>/bw/`` and as API paths under ``api/games/<pk>/bw/``."""
from django.urls import path

from . import api, views

app_name = "bloodwood"
API = "api/games/<int:pk>/bw/"

urlpatterns = [
    path("games/<int:pk>/bw/order/", views.order, name="order"),
    path("games/<int:pk>/bw/panel/", views.panel, name="panel"),
    path("games/<int:pk>/bw/declare/", views.declare, name="declare"),
    path("games/<int:pk>/bw/end-no-winner/", views.end_no_winner, name="end_no_winner"),
    path("games/<int:pk>/bw/rematch/", views.rematch, name="rematch"),
    path("games/<int:pk>/bw/deal/", views.deal, name="deal"),
    path(f"{API}line/", api.LineView.as_view(), name="api_line"),
    path(f"{API}react/", api.ReactView.as_view(), name="api_react"),
    path(f"{API}declare/", api.DeclareView.as_view(), name="api_declare"),
]
