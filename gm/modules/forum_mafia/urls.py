"""URLs of forum Mafia, every one under ``games/<pk>/fm/`` (pages and their POST actions) or ``api/games/<pk>/fm/``
(the API): signups (FM-2), the start-stretch panel forms (joker colours, engineer picks, lucky redeal; FM-3.3, FM-8),
the night and day order form (FM-5), the instant abilities and the deck rebuild (FM-3.3, FM-4.7, FM-8), the chat
rooms (FM-9.3), the Veche (FM-7) and the stalemate extension (FM-10.H1).

Paths first published outside the prefix still answer (``legacy_…`` names, the same views) so bookmarks and API
clients keep working, but every answer from one says it is deprecated (RFC 9745: ``Deprecation: @<unix time>`` of
:data:`DEPRECATED_AT`) and names the path that replaces it (RFC 8288: ``Link: <path>; rel="successor-version"``);
the legacy API paths are left out of the OpenAPI schema. ``api/games/<pk>/order-options/`` stays where it is.
"""
from datetime import UTC, datetime
from functools import wraps

from django.urls import path, reverse
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
#: When the paths outside the prefix were deprecated (the move of every path under ``fm/``).
DEPRECATED_AT = datetime(2026, 11, 26, tzinfo=UTC)


def _deprecated(view, successor: str):
    """``view`` (a view function) answering as before, with the RFC 9745 ``Deprecation`` header (the moment of
    :data:`DEPRECATED_AT` as ``@<unix seconds>``) and a ``Link`` to its successor: the path of the URL named
    ``successor`` (in this app) with the same arguments."""
    stamp = f"@{int(DEPRECATED_AT.timestamp())}"

    @wraps(view)
    def legacy(request, *args, **kwargs):
        response = view(request, *args, **kwargs)
        response["Deprecation"] = stamp
        response["Link"] = f'<{reverse(f"{app_name}:{successor}", args=args, kwargs=kwargs)}>; rel="successor-version"'
        return response

    return legacy


def _unlisted(view):
    """``view`` (an ``APIView`` class) as a subclass that the OpenAPI schema leaves out, for a legacy path."""
    return extend_schema(exclude=True)(type(f"Legacy{view.__name__}", (view,), {"__doc__": view.__doc__}))


def _pages(prefix: str, name: str = "{}", legacy: bool = False) -> list:
    """The signup pages (FM-2) under ``prefix``, named by ``name`` (a format string); ``legacy``: each answers with
    the deprecation headers of :func:`_deprecated`, its successor the canonical path of the same view."""
    views = [
        ("signup/", signup.signup, "signup"),
        ("signup/withdraw/", signup.withdraw, "withdraw"),
        ("signup/character/", signup.character, "character"),
        ("signup/status/", signup.signup_status, "signup_status"),
        ("signup/<int:signup_id>/reject/", signup.reject, "reject"),
    ]
    return [path(f"{prefix}{route}", _deprecated(view, key) if legacy else view, name=name.format(key))
            for route, view, key in views]


def _api(prefix: str, name: str = "{}", legacy: bool = False) -> list:
    """The API paths first published outside the prefix, under ``prefix``, named by ``name`` (a format string);
    ``legacy``: each view class is routed as its :func:`_unlisted` subclass, answering with the deprecation headers
    of :func:`_deprecated` (its successor the canonical path of the same view)."""
    views = [
        ("rooms/", rooms_api.RoomListView, "api_rooms"),
        ("rooms/<str:room>/posts/", rooms_api.RoomPostsView, "api_room_posts"),
        ("abilities/", abilities_api.AbilityUseView, "api_ability_use"),
        ("deck/rebuild/", abilities_api.DeckRebuildView, "api_deck_rebuild"),
        ("veche/", veche_api.VecheView, "api_veche"),
        ("veche/vote/", veche_api.VecheVoteView, "api_veche_vote"),
        ("signups/", signup_api.SignupListView, "api_signups"),
        ("signups/withdraw/", signup_api.SignupWithdrawView, "api_signup_withdraw"),
        ("signups/character/", signup_api.CharacterView, "api_character"),
        ("signups/<int:signup_id>/reject/", signup_api.SignupRejectView, "api_signup_reject"),
    ]
    return [path(f"{prefix}{route}", _deprecated(_unlisted(view).as_view(), key) if legacy else view.as_view(),
                 name=name.format(key))
            for route, view, key in views]


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
    *_pages("games/<int:pk>/", "legacy_{}", legacy=True),
    *_api("api/games/<int:pk>/", "legacy_{}", legacy=True),
]
