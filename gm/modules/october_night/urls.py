"""URLs of October Night: the player's order, his character claim at sign-up (page and API) and the master's
per-game data edit."""
from django.urls import path

from . import api, views

app_name = "october_night"

urlpatterns = [
    path("games/<int:pk>/oc/order/", views.order, name="order"),
    path("games/<int:pk>/oc/data/", views.data_edit, name="data"),
    path("games/<int:pk>/oc/claim/", views.claim, name="claim"),
    path("games/<int:pk>/oc/board/", views.board_edit, name="board"),
    path("api/games/<int:pk>/oc/claim/", api.ClaimView.as_view(), name="api_claim"),
]
