"""URLs of October Night: the player's order and the master's per-game data edit."""
from django.urls import path

from . import views

app_name = "october_night"

urlpatterns = [
    path("games/<int:pk>/oc/order/", views.order, name="order"),
    path("games/<int:pk>/oc/data/", views.data_edit, name="data"),
]
