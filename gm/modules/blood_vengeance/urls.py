"""URLs of Mafia: Blood Vengeance: the player's order (night vote, verdict, arbiter's choice, light actions)."""
from django.urls import path

from . import views

app_name = "blood_vengeance"

urlpatterns = [
    path("games/<int:pk>/bv/order/", views.order, name="order"),
    path("games/<int:pk>/bv/enchant/", views.enchant, name="enchant"),
    path("games/<int:pk>/bv/hunters-win/", views.hunters_win, name="hunters_win"),
]
