from django.urls import path

from . import api, views

app_name = "cards"

urlpatterns = [
    path("games/<int:pk>/deck/", views.deck_builder, name="deck"),
    path("games/<int:pk>/cards/", views.my_cards, name="my_cards"),
    path("games/<int:pk>/cards/move/", views.hand_move, name="hand_move"),
    path("api/cards/", api.CollectionView.as_view(), name="api_collection"),
    path("api/games/<int:pk>/deck/", api.DeckView.as_view(), name="api_deck"),
    path("api/games/<int:pk>/cards/", api.GameCardsView.as_view(), name="api_cards"),
    path("api/games/<int:pk>/cards/reorder/", api.HandReorderView.as_view(), name="api_reorder"),
]
