"""URLs of One Night Ultimate Werewolf: the player's order (doppelganger copy, night action, day vote)."""
from django.urls import path

from . import views

app_name = "onuw"

urlpatterns = [
    path("games/<int:pk>/onuw/order/", views.order, name="order"),
]
