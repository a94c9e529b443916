"""The balance report's pages, under the game's URL."""
from django.urls import path

from . import views

app_name = "balance"

urlpatterns = [
    path("games/<int:pk>/balance/", views.page, name="page"),
    path("games/<int:pk>/balance/<int:report_id>/", views.report, name="report"),
]
