from django.urls import path

from . import views

app_name = "inbox"

urlpatterns = [
    path("inbox/", views.inbox, name="list"),
    path("inbox/badge/", views.badge, name="badge"),
    path("inbox/<int:pk>/read/", views.mark_read, name="read"),
    path("inbox/read-all/", views.mark_all_read, name="read_all"),
    path("inbox/games/<int:pk>/read-all/", views.mark_all_read, name="read_game"),
    path("my-games/", views.my_games, name="my_games"),
    path("inbox/settings/", views.settings_edit, name="settings"),
    path("inbox/games/<int:pk>/reminder/", views.reminder_edit, name="reminder"),
]
