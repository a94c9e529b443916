"""The privacy page (issue 24 item 6): what the site keeps of a login and for how long."""
from __future__ import annotations

from django.conf import settings
from django.shortcuts import render


def privacy(request):
    """What is stored at login (keyed hashes of the IP address and of the device cookie), why (fair-play signals
    for the masters), for how long, who sees what, and that deleting the account deletes it."""
    return render(request, "fairplay/privacy.html", {
        "retention": settings.GM_FAIRPLAY_RETENTION_DAYS, "window": settings.GM_FAIRPLAY_WINDOW_DAYS})
