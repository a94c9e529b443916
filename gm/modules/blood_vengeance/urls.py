"""URLs of Mafia: Blood Vengeance: the player's order (night vote, verdict, arbiter's choice, light actions), the
master's actions, and the live check of a set-up on the "new game" page."""
from django.urls import path

from . import views

app_name = "blood_vengeance"

urlpatterns = [
    path("games/<int:pk>/bv/order/", views.order, name="order"),
    path("games/<int:pk>/bv/enchant/", views.enchant, name="enchant"),
    path("games/<int:pk>/bv/hunters-win/", views.hunters_win, name="hunters_win"),
    path("games/<int:pk>/bv/hunters-room/", views.hunters_post, name="hunters_post"),
    # Before a game exists: the live check of the set-up the master is building on the "new game" page (BV-2).
    path("games/new/bv/setup-check/", views.setup_check, name="setup_check"),
]
