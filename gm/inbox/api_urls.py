from rest_framework.routers import SimpleRouter

from .api import NotificationViewSet

router = SimpleRouter()
router.register("inbox", NotificationViewSet, basename="inbox")

urlpatterns = router.urls
