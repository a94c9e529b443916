"""Flooding in the forum Mafia chat rooms (FM-9.3): a per-seat limit a minute on room posts (``GM_SEAT_RATES
["room"]``), each member counted apart. (A module of its own: it borrows the rooms tests' ``table`` fixture.)"""
from __future__ import annotations

import pytest
from django.core.cache import cache

from gm.core.services import ServiceError
from gm.modules.forum_mafia.tests.test_rooms_shell import english, night, table  # noqa: F401 - fixtures

pytestmark = pytest.mark.django_db


def test_chat_room_posts_per_seat(settings, night):  # noqa: F811
    cache.clear()
    settings.GM_SEAT_RATES = {"room": 2}
    night.room_post("Anna", "1-2", "one")
    night.room_post("Anna", "1-2", "two")
    with pytest.raises(ServiceError) as err:
        night.room_post("Anna", "1-2", "three")
    assert err.value.code == "throttled" and err.value.errors["__all__"][0].startswith("Slow down")
    night.room_post("Boris", "1-2", "another member")
    night.frozen.shift(60)
    night.room_post("Anna", "1-2", "a minute later")
