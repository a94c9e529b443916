"""URLs of Bloodwood: a player's line or answer in the open step, and a declaration."""
from django.urls import path

from . import views

app_name = "bloodwood"

urlpatterns = [
    path("games/<int:pk>/bw/order/", views.order, name="order"),
    path("games/<int:pk>/bw/declare/", views.declare, name="declare"),
]
