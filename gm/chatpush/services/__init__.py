"""The chat and push services: :mod:`.channels` (a user's channels), :mod:`.fanout` (who gets which message),
:mod:`.delivery` (sending one, retries, disabling a failing channel) and :mod:`.vapid` (the site's Web Push keys)."""
