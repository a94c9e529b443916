"""URLs of the forum Mafia start-stretch actions: the player's panel forms on the game page, and their API."""
from django.urls import path

from . import setup_api, setup_views

app_name = "forum_mafia_setup"

urlpatterns = [
    path("games/<int:pk>/fm/joker-colours/", setup_views.joker_colours, name="joker_colours"),
    path("games/<int:pk>/fm/engineer-picks/", setup_views.engineer_picks, name="engineer_picks"),
    path("games/<int:pk>/fm/lucky-redeal/", setup_views.lucky_redeal, name="lucky_redeal"),
    path("api/games/<int:pk>/fm/joker-colours/", setup_api.JokerColoursView.as_view(), name="api_joker_colours"),
    path("api/games/<int:pk>/fm/engineer-picks/", setup_api.EngineerPicksView.as_view(), name="api_engineer_picks"),
    path("api/games/<int:pk>/fm/lucky-redeal/", setup_api.LuckyRedealView.as_view(), name="api_lucky_redeal"),
]
