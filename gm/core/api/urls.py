from django.urls import include, path
from rest_framework.routers import DefaultRouter

from accounts.api import TokenView

from . import console, order_options
from .views import GameViewSet

router = DefaultRouter()
router.register("games", GameViewSet, basename="game")

urlpatterns = [
    path("", include(router.urls)),
    path("auth/token/", TokenView.as_view(), name="api-token"),
    path("games/<int:pk>/order-options/", order_options.OrderOptionsView.as_view(), name="api-order-options"),
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
]
