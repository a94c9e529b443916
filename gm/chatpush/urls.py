from django.urls import path

from . import views

app_name = "chatpush"

urlpatterns = [
    path("accounts/notifications/channels/", views.channels, name="channels"),
    path("accounts/notifications/channels/chat/", views.add_apprise, name="add_apprise"),
    path("accounts/notifications/channels/push/", views.add_webpush, name="add_webpush"),
    path("accounts/notifications/channels/<int:pk>/", views.edit, name="edit"),
    path("accounts/notifications/channels/<int:pk>/enable/", views.enable, name="enable"),
    path("accounts/notifications/channels/<int:pk>/remove/", views.remove, name="remove"),
    # At the root, so the service worker may control the whole site (its scope is its own path's directory).
    path("chatpush-sw.js", views.service_worker, name="service_worker"),
]
