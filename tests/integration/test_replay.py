"""``manage.py gm_replay``: a resolved phase re-runs identically from its stored snapshot, orders and seed; tampering
with the stored result or an order is reported by JSON-path; bad phase ids exit 2. Plus the pure ``diff``."""
from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command

from gm.core import services
from gm.core.models import Order, Phase
from gm.core.replay import MISSING, diff

pytestmark = pytest.mark.django_db


def replay(*args, **kwargs) -> tuple[int, str, str]:
    out, err = StringIO(), StringIO()
    try:
        call_command("gm_replay", *[str(a) for a in args], stdout=out, stderr=err, **kwargs)
        code = 0
    except SystemExit as exc:
        code = exc.code
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def resolved_phase(frozen, running_game, players) -> Phase:
    phase = running_game.phases.get(status=Phase.Status.OPEN)
    for i, user in enumerate(players):
        services.order_submit(phase=phase, user=user, payload={"number": i + 1})
    services.order_submit(phase=phase, user=players[2], payload={"number": 0})  # the last version counts (FM-5.6)
    services.order_withdraw(phase=phase, user=players[3])
    frozen.shift(3600)
    assert services.phases_sweep().resolved == [phase.pk]
    phase.refresh_from_db()
    return phase


def test_resolution_stores_the_engine_result_as_json(resolved_phase, players):
    result = resolved_phase.result
    assert set(result) == {"state", "events", "seat_data", "alive", "groups", "next_phase", "outcome"}
    dead = str(resolved_phase.game.seats.get(user=players[2]).pk)
    assert result["alive"] == {dead: False}  # seat ids as JSON keys
    assert result["next_phase"]["kind"] == "round" and result["next_phase"]["number"] == 2
    assert result["state"]["totals"] == [1 + 2 + 0]  # p3's withdrawn order and p2's first version don't count


def test_resolved_phase_replays_identically(resolved_phase):
    code, out, err = replay(resolved_phase.pk)
    assert (code, out.strip(), err) == (0, "identical", "")


def test_replay_json_output(resolved_phase):
    code, out, _err = replay(resolved_phase.pk, json=True)
    data = json.loads(out)
    assert code == 0
    assert data["identical"] is True and data["differences"] == [] and data["difference_count"] == 0
    assert data["stored_digest"] == data["replayed_digest"] == resolved_phase.result_digest


def test_tampered_stored_result_is_reported_by_path(resolved_phase):
    result = resolved_phase.result
    result["state"]["totals"] = [99]
    del result["events"][1]["data"]["total"]
    Phase.objects.filter(pk=resolved_phase.pk).update(result=result)
    code, out, _err = replay(resolved_phase.pk)
    assert code == 1
    assert "$.state.totals[0]: stored 99, replayed 3" in out
    assert "$.events[1].data.total: stored <missing>, replayed 3" in out
    assert "identical" not in out


def test_tampered_order_changes_the_replay(resolved_phase, players):
    """Changing the order that counted (the last version) makes the re-run differ from what was stored."""
    last = Order.objects.filter(phase=resolved_phase, seat__user=players[0]).order_by("-version").first()
    Order.objects.filter(pk=last.pk).update(payload={"number": 9})
    code, out, _err = replay(resolved_phase.pk, json=True)
    data = json.loads(out)
    assert code == 1 and data["identical"] is False
    assert data["stored_digest"] != data["replayed_digest"]
    paths = {d["path"]: (d["stored"], d["replayed"]) for d in data["differences"]}
    assert paths["$.state.totals[0]"] == (3, 11)


def test_earlier_order_versions_do_not_count_in_the_replay(resolved_phase, players):
    first = Order.objects.filter(phase=resolved_phase, seat__user=players[2]).order_by("version").first()
    Order.objects.filter(pk=first.pk).update(payload={"number": 9})  # superseded by version 2: no effect
    assert replay(resolved_phase.pk)[0] == 0


def test_unknown_or_unresolved_phase_exits_2(resolved_phase):
    code, out, err = replay(999999)
    assert code == 2 and out == "" and "There is no phase with id 999999" in err
    open_phase = resolved_phase.game.phases.get(status=Phase.Status.OPEN)
    code, _out, err = replay(open_phase.pk)
    assert code == 2 and "is not resolved yet" in err


def test_phase_without_stored_result_compares_the_digest(resolved_phase):
    Phase.objects.filter(pk=resolved_phase.pk).update(result={})
    code, out, _err = replay(resolved_phase.pk)
    assert code == 0 and out.startswith("identical") and "only the digest" in out
    Phase.objects.filter(pk=resolved_phase.pk).update(result_digest="0" * 64)
    code, out, _err = replay(resolved_phase.pk)
    assert code == 1 and "result_digest: stored 0000" in out


# -- the pure diff ------------------------------------------------------------------------------------------------


def test_diff_reports_paths_values_and_missing_sides():
    a = {"x": 1, "y": [1, 2, 3], "z": {"w": True}, "odd key": "a", "gone": 1}
    b = {"x": 1.0, "y": [1, 5], "z": {"w": 1}, "odd key": "b", "new": None}
    assert diff(a, b) == [
        (".x", 1, 1.0),
        (".y[1]", 2, 5),
        (".y[2]", 3, MISSING),
        (".z.w", True, 1),
        ('["odd key"]', "a", "b"),
        (".gone", 1, MISSING),
        (".new", MISSING, None),
    ]


def test_diff_of_equal_values_and_type_changes():
    value = {"a": [{"b": None}, "c"], "d": 2.5}
    assert diff(value, json.loads(json.dumps(value))) == []
    assert diff([1], (1,)) == []
    assert diff({"a": [1]}, {"a": {"0": 1}}) == [(".a", [1], {"0": 1})]
    assert diff("x", "y", "$") == [("$", "x", "y")]
