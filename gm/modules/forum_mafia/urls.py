"""URLs of the forum Mafia signups (FM-2): the signup page with its POST actions, and the signups API; the night
and day order form (FM-5) and the order-options API; the instant abilities and the deck rebuild (FM-3.3, FM-4.7,
FM-8) and their API; the chat rooms (FM-9.3) and their API; the Veche (FM-7): its panel and API."""
from django.urls import path

from . import ability_views, api, order_views, room_views, veche_views, views

app_name = "forum_mafia"

urlpatterns = [
    path("games/<int:pk>/signup/", views.signup, name="signup"),
    path("games/<int:pk>/signup/withdraw/", views.withdraw, name="withdraw"),
    path("games/<int:pk>/signup/character/", views.character, name="character"),
    path("games/<int:pk>/signup/status/", views.signup_status, name="signup_status"),
    path("games/<int:pk>/signup/<int:signup_id>/reject/", views.reject, name="reject"),
    path("games/<int:pk>/fm/stalemate/extend/", views.stalemate_extend, name="stalemate_extend"),
    path("games/<int:pk>/fm/orders/", order_views.orders, name="orders"),
    path("games/<int:pk>/fm/orders/withdraw/", order_views.withdraw, name="order_withdraw"),
    path("games/<int:pk>/fm/abilities/", ability_views.use, name="ability_use"),
    path("games/<int:pk>/fm/rebuild/", ability_views.rebuild, name="rebuild"),
    path("games/<int:pk>/fm/veche/", veche_views.panel, name="veche"),
    path("games/<int:pk>/fm/rooms/<str:room>/", room_views.room, name="room"),
    path("api/games/<int:pk>/rooms/", room_views.RoomListView.as_view(), name="api_rooms"),
    path("api/games/<int:pk>/rooms/<str:room>/posts/", room_views.RoomPostsView.as_view(), name="api_room_posts"),
    path("api/games/<int:pk>/abilities/", ability_views.AbilityUseView.as_view(), name="api_ability_use"),
    path("api/games/<int:pk>/deck/rebuild/", ability_views.DeckRebuildView.as_view(), name="api_deck_rebuild"),
    path("api/games/<int:pk>/veche/", veche_views.VecheView.as_view(), name="api_veche"),
    path("api/games/<int:pk>/veche/vote/", veche_views.VecheVoteView.as_view(), name="api_veche_vote"),
    path("api/games/<int:pk>/signups/", api.SignupListView.as_view(), name="api_signups"),
    path("api/games/<int:pk>/signups/withdraw/", api.SignupWithdrawView.as_view(), name="api_signup_withdraw"),
    path("api/games/<int:pk>/signups/character/", api.CharacterView.as_view(), name="api_character"),
    path("api/games/<int:pk>/signups/<int:signup_id>/reject/", api.SignupRejectView.as_view(),
         name="api_signup_reject"),
]
