"""Result e-mails go through the visibility layer: each recipient reads only what he may see."""
from __future__ import annotations

import pytest
from django.core import mail

from gm.core import services
from gm.core.models import Phase, Seat
from gm.core.notifications import send_phase_results

pytestmark = pytest.mark.django_db


def test_result_mails_carry_only_what_each_recipient_may_see(frozen, running_game, players, master, spectator):
    phase = running_game.phases.get(status=Phase.Status.OPEN)
    seats = {s.user_id: s for s in running_game.seats.all()}
    for i, user in enumerate(players):
        Seat.objects.filter(pk=seats[user.pk].pk).update(data={"secret": 700001 + i, "score": 0})
        services.order_submit(phase=phase, user=user, payload={"number": i + 1})
    frozen.shift(3600)
    services.phases_sweep()
    assert send_phase_results(phase_id=phase.pk) == 5  # master + 4 players; the spectator has no seat
    by_rcpt = {m.to[0]: m for m in mail.outbox}
    assert spectator.email not in by_rcpt
    for i, user in enumerate(players):
        body = by_rcpt[user.email].body
        assert str(700001 + i) in body
        others = [str(700001 + j) for j in range(4) if j != i]
        assert not any(o in body for o in others), f"{user} sees another seat's secret"
        assert "Orders:" not in body  # master-only trace
    master_body = by_rcpt[master.email].body
    assert all(str(700001 + j) in master_body for j in range(4)) and "Orders:" in master_body
    odd, even = by_rcpt[players[1].email].body, by_rcpt[players[0].email].body
    assert "Odd seats ordered" in odd and "Odd seats ordered" not in even


def test_unresolved_phase_sends_nothing(running_game):
    phase = running_game.phases.get(status=Phase.Status.OPEN)
    assert send_phase_results(phase_id=phase.pk) == 0
    assert mail.outbox == []
