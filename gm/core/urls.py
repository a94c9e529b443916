from django.urls import include, path

from . import comaster_views, console_views, life_views, rules_views, views

app_name = "gm"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("games/new/", views.game_create, name="game_create"),
    path("games/<int:pk>/", views.game_detail, name="game"),
    path("games/<int:pk>/feed/", views.PublicLogFeed(), name="game_feed"),
    path("games/<int:pk>/signup/open/", views.game_open_signup, name="game_open_signup"),
    path("games/<int:pk>/start/", views.game_start, name="game_start"),
    path("games/<int:pk>/join/", views.seat_join, name="seat_join"),
    path("games/<int:pk>/leave/", views.seat_leave, name="seat_leave"),
    path("games/<int:pk>/order/", views.order_submit, name="order_submit"),
    path("games/<int:pk>/order/withdraw/", views.order_withdraw, name="order_withdraw"),
    path("games/<int:pk>/posts/", views.post_create, name="post_create"),
    path("games/<int:pk>/thread/", views.thread, name="thread"),
    path("games/<int:pk>/thread/news/", views.thread_news, name="thread_news"),
    path("games/<int:pk>/phase/", views.phase_card, name="phase_card"),
    path("games/<int:pk>/posts/<int:post_id>/", views.post_detail, name="post_detail"),
    path("games/<int:pk>/posts/<int:post_id>/edit/", views.post_edit, name="post_edit"),
    path("games/<int:pk>/extend/", views.phase_extend, name="phase_extend"),
    path("games/<int:pk>/pause/", views.game_pause, name="game_pause"),
    path("games/<int:pk>/resume/", views.game_resume, name="game_resume"),
    path("games/<int:pk>/resolve-now/", views.phase_resolve_now, name="phase_resolve_now"),
    path("games/<int:pk>/console/", include(console_views.urlpatterns)),
    # Forum life (issue 23 items 1–4): gm.core.life_views.
    path("games/<int:pk>/role-read/", life_views.role_read, name="role_read"),
    path("games/<int:pk>/replacement/", life_views.replacement_request, name="replacement_request"),
    path("games/<int:pk>/replacement/withdraw/", life_views.replacement_withdraw, name="replacement_withdraw"),
    path("games/<int:pk>/standby/<int:seat_id>/volunteer/", life_views.volunteer, name="volunteer"),
    path("games/<int:pk>/standby/<int:seat_id>/withdraw/", life_views.volunteer_withdraw, name="volunteer_withdraw"),
    path("games/<int:pk>/console/life/", life_views.console_life, name="console_life"),
    path("games/<int:pk>/life/activity/", life_views.console_activity, name="console_activity"),
    path("games/<int:pk>/life/flag/", life_views.console_flag, name="console_flag"),
    path("games/<int:pk>/life/ack/", life_views.console_ack, name="console_ack"),
    path("games/<int:pk>/life/approve/", life_views.console_approve, name="console_approve"),
    path("standby/", life_views.standby, name="standby"),
    path("away/", life_views.away, name="away"),
    path("games/<int:pk>/", include(life_views.urlpatterns)),  # the long-game features (issue 23, items 5–10)
    *comaster_views.urlpatterns,  # co-masters, setup review, takeover (issue 24 item 5)
    path("rules/", rules_views.rules_index, name="rules_index"),
    path("rules/id/<str:rule_id>/", rules_views.rule_redirect, name="rule"),
    path("rules/<slug:slug>/", rules_views.rules_page, name="rules"),
]
