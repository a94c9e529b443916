from django.urls import path

from . import api, views

app_name = "fairplay"

urlpatterns = [
    path("privacy/", views.privacy, name="privacy"),
    path("api/games/<int:pk>/console/fairplay/", api.GameFlagsView.as_view(), name="api_flags"),
]
