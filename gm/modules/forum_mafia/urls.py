"""URLs of forum Mafia, every one under ``games/<pk>/fm/`` (pages and their POST actions) or ``api/games/<pk>/fm/``
(the API): signups (FM-2), the start-stretch panel forms (joker colours, engineer picks, lucky redeal; FM-3.3, FM-8),
the night and day order form (FM-5), the instant abilities and the deck rebuild (FM-3.3, FM-4.7, FM-8), the chat
rooms (FM-9.3), the Veche (FM-7) and the stalemate extension (FM-10.H1).

Paths first published outside the prefix still answer (``legacy_…`` names, the same views) so bookmarks and API
clients keep working; the legacy API paths are left out of the OpenAPI schema. ``api/games/<pk>/order-options/``
stays where it is.
"""
from django.urls import path
from drf_spectacular.utils import extend_schema

from .api import abilities as abilities_api
from .api import rooms as rooms_api
from .api import setup as setup_api
from .api import signup as signup_api
from .api import veche as veche_api
from .views import abilities, orders, rooms, setup, signup, veche

app_name = "forum_mafia"

PAGE = "games/<int:pk>/fm/"
API = "api/games/<int:pk>/fm/"


def _unlisted(view):
    """``view`` (an ``APIView`` class) as a subclass that the OpenAPI schema leaves out, for a legacy path."""
    return extend_schema(exclude=True)(type(f"Legacy{view.__name__}", (view,), {"__doc__": view.__doc__}))


def _listed(view):
    return view


def _pages(prefix: str, name: str = "{}") -> list:
    """The signup pages (FM-2) under ``prefix``, named by ``name`` (a format string)."""
    return [
        path(f"{prefix}signup/", signup.signup, name=name.format("signup")),
        path(f"{prefix}signup/withdraw/", signup.withdraw, name=name.format("withdraw")),
        path(f"{prefix}signup/character/", signup.character, name=name.format("character")),
        path(f"{prefix}signup/status/", signup.signup_status, name=name.format("signup_status")),
        path(f"{prefix}signup/<int:signup_id>/reject/", signup.reject, name=name.format("reject")),
    ]


def _api(prefix: str, name: str = "{}", wrap=_listed) -> list:
    """The API paths first published outside the prefix, under ``prefix``; ``wrap`` turns each view class into the
    one routed (:func:`_unlisted` for the legacy paths)."""
    return [
        path(f"{prefix}rooms/", wrap(rooms_api.RoomListView).as_view(), name=name.format("api_rooms")),
        path(f"{prefix}rooms/<str:room>/posts/", wrap(rooms_api.RoomPostsView).as_view(),
             name=name.format("api_room_posts")),
        path(f"{prefix}abilities/", wrap(abilities_api.AbilityUseView).as_view(), name=name.format("api_ability_use")),
        path(f"{prefix}deck/rebuild/", wrap(abilities_api.DeckRebuildView).as_view(),
             name=name.format("api_deck_rebuild")),
        path(f"{prefix}veche/", wrap(veche_api.VecheView).as_view(), name=name.format("api_veche")),
        path(f"{prefix}veche/vote/", wrap(veche_api.VecheVoteView).as_view(), name=name.format("api_veche_vote")),
        path(f"{prefix}signups/", wrap(signup_api.SignupListView).as_view(), name=name.format("api_signups")),
        path(f"{prefix}signups/withdraw/", wrap(signup_api.SignupWithdrawView).as_view(),
             name=name.format("api_signup_withdraw")),
        path(f"{prefix}signups/character/", wrap(signup_api.CharacterView).as_view(),
             name=name.format("api_character")),
        path(f"{prefix}signups/<int:signup_id>/reject/", wrap(signup_api.SignupRejectView).as_view(),
             name=name.format("api_signup_reject")),
    ]


urlpatterns = [
    *_pages(PAGE),
    path(f"{PAGE}stalemate/extend/", signup.stalemate_extend, name="stalemate_extend"),
    path(f"{PAGE}orders/", orders.orders, name="orders"),
    path(f"{PAGE}orders/withdraw/", orders.withdraw, name="order_withdraw"),
    path(f"{PAGE}abilities/", abilities.use, name="ability_use"),
    path(f"{PAGE}rebuild/", abilities.rebuild, name="rebuild"),
    path(f"{PAGE}veche/", veche.panel, name="veche"),
    path(f"{PAGE}rooms/<str:room>/", rooms.room, name="room"),
    path(f"{PAGE}joker-colours/", setup.joker_colours, name="joker_colours"),
    path(f"{PAGE}engineer-picks/", setup.engineer_picks, name="engineer_picks"),
    path(f"{PAGE}lucky-redeal/", setup.lucky_redeal, name="lucky_redeal"),
    *_api(API),
    path(f"{API}joker-colours/", setup_api.JokerColoursView.as_view(), name="api_joker_colours"),
    path(f"{API}engineer-picks/", setup_api.EngineerPicksView.as_view(), name="api_engineer_picks"),
    path(f"{API}lucky-redeal/", setup_api.LuckyRedealView.as_view(), name="api_lucky_redeal"),
    *_pages("games/<int:pk>/", "legacy_{}"),
    *_api("api/games/<int:pk>/", "legacy_{}", wrap=_unlisted),
]
