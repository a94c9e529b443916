from django.urls import include, path
from rest_framework.routers import DefaultRouter

from accounts.api import TokenView

from . import comasters, console, life, order_options
from .views import GameViewSet

router = DefaultRouter()
router.register("games", GameViewSet, basename="game")

urlpatterns = [
    path("", include(router.urls)),
    path("auth/token/", TokenView.as_view(), name="api-token"),
    path("games/<int:pk>/order-options/", order_options.OrderOptionsView.as_view(), name="api-order-options"),
    # Reading a long thread (gm.core.api.life, issue 23).
    path("games/<int:pk>/iso/<str:author>/", life.IsoView.as_view(), name="api-iso"),
    path("games/<int:pk>/phase-index/", life.PhaseIndexView.as_view(), name="api-phase-index"),
    path("games/<int:pk>/votes/", life.VoteHistoryView.as_view(), name="api-votes"),
    path("games/<int:pk>/ready/", life.ReadyView.as_view(), name="api-ready"),
    path("games/<int:pk>/graveyard/", life.GraveyardView.as_view(), name="api-graveyard"),
    # The master's console (gm.core.api.console).
    path("games/<int:pk>/console/", console.ConsoleView.as_view(), name="api-console"),
    path("games/<int:pk>/console/preview/", console.PreviewView.as_view(), name="api-console-preview"),
    path("games/<int:pk>/console/seats/<int:seat_id>/edit/", console.SeatEditView.as_view(),
         name="api-console-seat-edit"),
    path("games/<int:pk>/console/seats/<int:seat_id>/alive/", console.SeatAliveView.as_view(),
         name="api-console-seat-alive"),
    path("games/<int:pk>/console/seats/<int:seat_id>/replace/", console.SeatReplaceView.as_view(),
         name="api-console-seat-replace"),
    path("games/<int:pk>/console/review/", console.ReviewModeView.as_view(), name="api-console-review"),
    path("games/<int:pk>/console/publish/", console.PublishView.as_view(), name="api-console-publish"),
    path("games/<int:pk>/console/publish-at/", console.PublishAtView.as_view(), name="api-console-publish-at"),
    # Forum life (issue 23 items 1–4): gm.core.api.life.
    path("standby/", life.StandbyView.as_view(), name="api-standby"),
    path("away/", life.AwayView.as_view(), name="api-away"),
    path("away/emergency-pause/", life.EmergencyPauseView.as_view(), name="api-emergency-pause"),
    path("games/<int:pk>/role-read/", life.RoleReadView.as_view(), name="api-role-read"),
    path("games/<int:pk>/replacement/", life.ReplacementView.as_view(), name="api-replacement"),
    path("games/<int:pk>/replacement/withdraw/", life.ReplacementWithdrawView.as_view(),
         name="api-replacement-withdraw"),
    path("games/<int:pk>/standby/<int:seat_id>/volunteer/", life.VolunteerView.as_view(), name="api-volunteer"),
    path("games/<int:pk>/console/life/", life.LifeConsoleView.as_view(), name="api-console-life"),
    path("games/<int:pk>/console/seats/<int:seat_id>/flag/", life.LifeFlagView.as_view(), name="api-console-flag"),
    path("games/<int:pk>/console/life/ack/", life.LifeAckView.as_view(), name="api-console-ack"),
    path("games/<int:pk>/console/life/approve/", life.LifeApproveView.as_view(), name="api-console-approve"),
    # Co-masters, takeover and setup review (issue 24 item 5): gm.core.api.comasters.
    path("games/<int:pk>/comasters/", comasters.GameCoMastersView.as_view(), name="api-comasters"),
    path("games/<int:pk>/console/comasters/", comasters.ConsoleCoMastersView.as_view(), name="api-console-comasters"),
    path("games/<int:pk>/console/comasters/remove/", comasters.ConsoleCoMasterRemoveView.as_view(),
         name="api-console-comasters-remove"),
    path("games/<int:pk>/takeover/", comasters.TakeoverView.as_view(), name="api-takeover"),
    path("games/<int:pk>/review/request/", comasters.ReviewRequestView.as_view(), name="api-review-request"),
    path("reviews/", comasters.ReviewsView.as_view(), name="api-reviews"),
    path("reviews/<int:pk>/", comasters.ReviewDecideView.as_view(), name="api-review-decide"),
]
