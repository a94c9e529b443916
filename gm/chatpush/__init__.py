"""Chat and push notifications (issue 24, item 1).

A user links channels on his profile — chat webhooks through apprise (Discord, Slack, Telegram, Matrix) and Web
Push subscriptions of his browsers (pywebpush) — and picks, per channel, the events that go there (:data:`EVENTS`
in :mod:`.models`). The messages are built from the same fan-out as the inbox (the core's signals and the inbox's
deadline reminders), read through ``gm.core.visibility`` for each recipient, and carry the game's title and an
absolute link but never a secret: private results and private messages are announced, their text stays on the site.

Delivery is a Celery task per message and channel (:mod:`.tasks`), after commit, with retries and exponential
backoff; a channel that fails ``GM_CHATPUSH_DISABLE_AFTER`` times in a row is disabled and its owner told (inbox
and profile page). See ``docs/notifications.md``.
"""
