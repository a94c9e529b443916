"""``manage.py gm_scenario`` (scenario-format.md): invalid files exit 2 naming the place, passing ones 0, failed
expectations 1 with expected and actual; ``--json``; rollback unless ``--keep``; the forum Mafia runner plays orders
through ``order_submit`` and the deadline resolution; the master setup override; and every file of
``tests/scenarios/`` passes."""
from __future__ import annotations

import json
import textwrap
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.utils import translation

from cards.containers import Containers
from gm.core import registry, services
from gm.core.engine import Event, phase_rng
from gm.core.models import AuditEntry, Game, GroupMembership, Order, Phase
from gm.core.scenario import Failure, ScenarioRun
from gm.core.services import ServiceError
from gm.modules.forum_mafia.services.overrides import game_setup_override
from tests.helpers import gm_scenario as run

pytestmark = pytest.mark.django_db

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
#: Scenario folders: ``tests/scenarios/<slug>/`` and each module's ``gm/modules/<slug>/tests/scenarios/``, by slug.
SCENARIO_DIRS = {p.name: p for p in (SCENARIOS.iterdir() if SCENARIOS.is_dir() else ()) if p.is_dir()} | {
    p.parents[1].name: p for p in (Path(__file__).resolve().parents[2] / "gm" / "modules").glob("*/tests/scenarios")}
SCENARIO_FILES = sorted((f"{slug}/{p.relative_to(folder)}", p) for slug, folder in SCENARIO_DIRS.items()
                        for p in folder.rglob("*") if p.suffix in (".yaml", ".yml", ".json"))

PLAYERS = """\
players:
  - {name: Вася, public_role: paranoid, secret_role: sheriff,
     hand: [advice, pistol, surveillance_camera, bunker, witness], deck: [pistol, coffee]}
  - {name: Босс, public_role: guard, secret_role: mafia_boss, hand: [pistol, arrest, tail, advice, bluff]}
  - {name: Киллер, public_role: {custom: Лесник}, secret_role: mafia_killer,
     hand: [pistol, sniper_rifle, ambush, hack, advice]}
  - {name: Советник, public_role: secretary, secret_role: mafia_advisor,
     hand: [body_armour, first_aid, advice, arson, tail]}
  - {name: Док, public_role: monk, secret_role: doctor, hand: [body_armour, bodyguard, arson, advice, tail]}
  - {name: Гена, public_role: highlander, secret_role: commissioner,
     hand: [dossier, tail, body_armour, arrest, witness, accusation]}
"""


def scenario_text(steps: str, *, head: str = "game: forum_mafia\nseed: 7\n", players: str = PLAYERS,
                  start: str = "start: night 1\n") -> str:
    return head + players + start + "steps:\n" + textwrap.indent(textwrap.dedent(steps), "  ")




@pytest.fixture
def write(tmp_path):
    def write(text: str, name: str = "scenario.yaml") -> Path:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path

    return write


QUIET_NIGHT = """\
- phase: night 1
  expect: {next_phase: day 1, players: {Вася: {hand_count: 5, sleeve: [bunker]}}, winner: null}
"""


# -- passing, failing, output ----------------------------------------------------------------------------------


def test_quiet_night_passes_and_is_rolled_back(write):
    games, users = Game.objects.count(), get_user_model().objects.count()
    code, out, err = run(write(scenario_text(QUIET_NIGHT)))
    assert (code, err) == (0, "")
    assert out.startswith("PASS ")
    assert Game.objects.count() == games and get_user_model().objects.count() == users


def test_failed_expectations_exit_1_with_step_key_expected_and_actual(write):
    steps = """\
    - phase: night 1
      expect:
        next_phase: night 2
        players: {Вася: {hand_count: 4, alive: true}, Гена: {hand: [tail]}}
        public_log_contains: ["no such words"]
    """
    code, out, _err = run(write(scenario_text(steps)))
    assert code == 1
    assert out.startswith("FAIL ")
    assert 'step 1 (night 1), next_phase: expected "night 2", actual "day 1"' in out
    assert "step 1 (night 1), players.Вася.hand_count: expected 4, actual 5" in out
    assert ('players.Гена.hand: expected ["tail"], actual ["dossier", "tail", "body_armour", "arrest", "witness", '
            '"accusation"]') in out
    assert 'public_log_contains[0]: expected "no such words", actual ["core.phase_opened: Night 1 has begun.' in out
    assert '"fm.hand_counts: Cards in Hand: Вася: 5, Босс: 5, ' in out  # each public line of the phase, in English
    assert "alive" not in out  # it held


def test_json_output_one_object_per_file(write):
    good = write(scenario_text(QUIET_NIGHT), "good.yaml")
    bad = write(scenario_text("- phase: night 1\n  expect: {winner: mafia}\n"), "bad.yaml")
    invalid = write("game: forum_mafia\nplayers: []\n", "invalid.yaml")
    code, out, err = run(good, bad, invalid, json=True)
    assert code == 2 and err == ""
    lines = [json.loads(line) for line in out.splitlines()]
    assert [(d["file"], d["passed"], d["invalid"]) for d in lines] == [
        (str(good), True, False), (str(bad), False, False), (str(invalid), False, True)]
    assert lines[0]["failures"] == []
    assert lines[1]["failures"] == [{"step": 1, "phase": "night 1", "key": "winner", "expected": "mafia",
                                     "actual": None}]
    assert lines[2]["failures"][0]["key"] == "invalid"
    assert lines[2]["failures"][0]["place"] == "players"
    assert "non-empty list of players" in lines[2]["failures"][0]["message"]


def test_keep_leaves_the_game_paused_and_prints_its_url(write, settings):
    settings.SITE_URL = "https://gm.example.org/"
    code, out, _err = run(write(scenario_text(QUIET_NIGHT)), keep=True)
    assert code == 0
    game = Game.objects.get(module="forum_mafia", title="Scenario: scenario")
    assert f"game kept: https://gm.example.org/games/{game.pk}/" in out
    assert game.status == Game.Status.RUNNING and game.paused_at is not None  # the sweep leaves it alone
    assert game.phases.get(status=Phase.Status.OPEN).kind == "day"
    assert game.master.username == "scenario-master"
    assert sorted(game.seats.values_list("display_name", flat=True)) == sorted(
        ["Вася", "Босс", "Киллер", "Советник", "Док", "Гена"])
    # a second kept run gets fresh users: nothing collides
    assert run(write(scenario_text(QUIET_NIGHT)), keep=True)[0] == 0
    assert Game.objects.filter(title="Scenario: scenario").count() == 2


def test_a_directory_runs_every_scenario_file_in_it(write, tmp_path):
    write(scenario_text(QUIET_NIGHT), "a.yaml")
    write(json.dumps({"game": "forum_mafia", "players": [
        {"name": "A", "secret_role": "sheriff", "hand": ["pistol"]}], "steps": []}), "b.json")
    (tmp_path / "notes.txt").write_text("not a scenario")
    code, out, _err = run(tmp_path)
    assert code == 0
    assert out.count("PASS ") == 2 and "2 files: 2 passed, 0 failed, 0 invalid" in out


# -- invalid files: exit 2, the place named ----------------------------------------------------------------------


@pytest.mark.parametrize("edit, place, message", [
    (lambda t: t.replace("bunker, witness]", "bunkr, witness]"), "player 1 (Вася), key hand", "Unknown card 'bunkr'"),
    (lambda t: t.replace("public_role: monk", "public_role: monkk"), "player 5 (Док), key public_role",
     "Unknown public role 'monkk'"),
    (lambda t: t.replace("secret_role: doctor", "secret_role: doc"), "player 5 (Док), key secret_role",
     "Unknown secret role"),
    (lambda t: t.replace("secret_role: doctor,", "secret_role: doctor, colors: [damage, recon],"),
     "player 5 (Док)", "unknown key 'colors' (did you mean 'colours'?)"),
    (lambda t: t.replace("target: Вася}", "target: Вас}"), "step 1, order 1, key target",
     "unknown player \"Вас\" (did you mean 'Вася'?)"),
    (lambda t: t.replace("card: pistol, from", "card: pistols, from"), "step 1, order 1, key card",
     "unknown card \"pistols\""),
    (lambda t: t.replace("from: hand", "from: pocket"), "step 1, order 1, key from", "expected hand or sleeve"),
    (lambda t: t.replace("- phase: night 1", "- phase: day 1"), "step 1, key phase",
     "the open phase is night 1, not day 1"),
    (lambda t: t.replace("expect:", "expects:"), "step 1", "unknown key 'expects' (did you mean 'expect'?)"),
    (lambda t: t.replace("hand_count: 3", "hand_cnt: 3"), "step 1, expect, key players.Вася",
     "unknown key 'hand_cnt'"),
    (lambda t: t.replace("seed: 7", "seed: seven"), "seed", "expected a whole number"),
    (lambda t: t.replace("game: forum_mafia", "game: chess"), "game", "unknown game 'chess'"),
    (lambda t: t.replace("steps:", "stepz:"), "", "unknown key 'stepz' (did you mean 'steps'?)"),
    (lambda t: t.replace("    orders:", "    votes: [{player: Вася, for: peace}]\n    orders:"), "step 1, key votes",
     "votes are given by day only"),
    (lambda t: t.replace("rejected: []", "rejected: [{player: Вася, card: bunker, why: x}]"),
     "step 1, expect, key rejected[0]", "unknown key 'why'"),
    (lambda t: t.replace("next_phase: day 1", "next_phase: dusk 1"), "step 1, expect, key next_phase",
     "unknown phase kind 'dusk'"),
    (lambda t: t.replace("  - {name: Босс", "  - {name: вася"), "player 2 (вася), key name", "given twice"),
])
def test_invalid_file_exits_2_naming_the_place(write, edit, place, message):
    steps = """\
    - phase: night 1
      orders:
        - {player: Босс, card: pistol, from: hand, target: Вася}
      expect: {rejected: [], players: {Вася: {hand_count: 3}}, next_phase: day 1}
    """
    text = scenario_text(steps)
    edited = edit(text)
    assert edited != text
    games = Game.objects.count()
    code, out, err = run(write(edited))
    assert code == 2, out + err
    assert err.startswith("INVALID ")
    assert f": {place}: " in err or (place == "" and "scenario.yaml: unknown key" in err)
    assert message in err
    assert Game.objects.count() == games


def test_bad_yaml_and_json_name_line_and_column(write):
    code, _out, err = run(write("game: forum_mafia\nplayers: [\n  {name: a\n"))
    assert code == 2 and "line 4, column 1: bad YAML" in err
    code, _out, err = run(write('{"game": "forum_mafia",\n "players": [}', "s.json"))
    assert code == 2 and "line 2, column 14: bad JSON" in err
    code, _out, err = run(write("game: forum_mafia\ngame: forum_mafia\n"))
    assert code == 2 and "line 2, column 1: the key 'game' is given twice" in err
    code, _out, err = run(write("- just\n- a list\n"))
    assert code == 2 and "the file must hold one mapping" in err
    code, _out, err = run(write("game: x", "s.txt"))
    assert code == 2 and "a scenario file ends in .yaml, .yml, .json" in err
    code, _out, err = run("/nonexistent/s.yaml")
    assert code == 2 and "/nonexistent/s.yaml: no such file" in err


def test_a_module_without_scenario_runner_is_invalid(write):
    code, _out, err = run(write("game: tally\nplayers: []\n"))
    assert code == 2 and "game: the game 'tally' has no scenario runner" in err


def test_module_hook_scenario_runner_callable_or_dotted_path(write, monkeypatch):
    calls = []

    def runner(data, *, name):
        calls.append((data["players"], name))
        return ScenarioRun(game=None, failures=[Failure(step=2, phase="round 2", key="total", expected=3, actual=4)])

    tally = registry.get("tally")
    monkeypatch.setattr(tally, "scenario_runner", runner, raising=False)
    code, out, _err = run(write("game: tally\nplayers: [x]\n", "t.yaml"))
    assert code == 1 and calls == [(["x"], "t")]
    assert "step 2 (round 2), total: expected 3, actual 4" in out
    monkeypatch.setattr(tally, "scenario_runner", f"{__name__}:_crashing_runner", raising=False)
    code, out, err = run(write("game: tally\n", "t.yaml"))
    assert code == 1 and 'file, exception: expected "no exception", actual "RuntimeError: boom"' in out
    assert "Traceback" in err and "RuntimeError: boom" in err


def _crashing_runner(data, *, name):
    raise RuntimeError("boom")


# -- the forum Mafia runner with the real engine ------------------------------------------------------------------

FM_6_1 = """\
- phase: night 1
  orders:
    - {player: Вася, card: bunker, from: hand}
    - {player: Вася, card: pistol, from: hand, target: Босс}
    - {player: Босс, card: pistol, from: hand, target: Вася}
    - {player: Киллер, card: pistol, from: hand, target: Вася}
    - {player: Гена, card: accusation, from: hand, target: Босс, named_card: pistol}
  expect:
    rejected: [{player: Гена, card: accusation}, {player: Вася, card: pistol}]
    players:
      Вася: {hand: [pistol, surveillance_camera, witness], hand_count: 3, sleeve: [bunker], alive: true,
             jailed: false, deck_count: 2}
      Босс: {hand: [arrest, tail, advice, bluff, mulligan], deck_count: 0}
    public_log_contains: ["Вася"]
    private_log: {Вася: ["advice"]}
    next_phase: day 1
    winner: null
"""


def test_FM_6_1_worked_example_through_the_services(write):
    """FM-6.1: Вася plays bunker (+2) and is shot for 4: one loss absorbs the bunker's replacement draw, one discards
    the front card (advice). Orders go through ``order_submit``: a line the engine refuses (a second Hand play,
    FM-5.2; a day card at night) is recorded as rejected and left out of the order, the rest still counts."""
    code, out, err = run(write(scenario_text(FM_6_1)), keep=True)
    assert code == 0, out + err
    game = Game.objects.get(title="Scenario: scenario")
    night = game.phases.get(kind="night", number=1)
    vasya = game.seats.get(display_name="Вася")
    versions = list(Order.objects.filter(phase=night, seat=vasya).values_list("version", "payload"))
    assert [(v, [p["card"] for p in payload["plays"]]) for v, payload in versions] == [(1, ["bunker"])]
    assert not Order.objects.filter(phase=night, seat__display_name="Гена").exists()
    assert night.result and night.result_digest
    assert run_replay(night.pk) == 0


def run_replay(phase_id: int) -> int:
    try:
        call_command("gm_replay", str(phase_id), stdout=StringIO(), stderr=StringIO())
    except SystemExit as exc:
        return exc.code
    return 0


def test_refused_order_without_rejected_expectation_is_a_failure(write):
    steps = """\
    - phase: night 1
      orders:
        - {player: Вася, card: sniper_rifle, from: hand, target: Босс}
      expect: {next_phase: day 1}
    """
    code, out, _err = run(write(scenario_text(steps)))
    assert code == 1
    assert 'step 1 (night 1), orders[1]: expected "accepted", actual "refused at submission: ' in out
    assert "sniper" in out.lower()


def test_rejected_must_list_exactly_the_rejections(write):
    steps = """\
    - phase: night 1
      orders:
        - {player: Гена, card: accusation, from: hand, target: Босс, named_card: pistol}
      expect: {rejected: [{player: Вася, card: bunker}]}
    """
    code, out, _err = run(write(scenario_text(steps)))
    assert code == 1
    assert ('rejected: expected {"player": "Вася", "card": "bunker"}, actual [{"player": "Гена", '
            '"card": "accusation", "reason": "submission"}]') in out
    assert 'rejected: expected "not rejected", actual {"player": "Гена", "card": "accusation"' in out


def test_plays_voided_during_resolution_count_as_rejected(write, monkeypatch):
    """A play voided at L0/L1 (the engine's master trace ``fm.t_void``) matches ``rejected`` like a refusal."""
    module = registry.get("forum_mafia")
    real_resolve = module.resolve

    def resolve(*, state, phase, seats, orders, rng):
        result = real_resolve(state=state, phase=phase, seats=seats, orders=orders, rng=rng)
        seat = next(s for s in seats if s.name == "Босс")
        result.events.append(Event("fm.t_void", {"player": "Босс", "seat": seat.id, "card": "pistol",
                                                 "ability": None, "reason": "price_unpaid", "layer": "L1"},
                                   visibility="master"))
        return result

    monkeypatch.setattr(module, "resolve", resolve)
    steps = """\
    - phase: night 1
      expect: {rejected: [{player: Босс, card: pistol, reason: price_unpaid}]}
    """
    assert run(write(scenario_text(steps)))[0] == 0
    wrong = steps.replace("price_unpaid", "self_target")
    code, out, _err = run(write(scenario_text(wrong)))
    assert code == 1 and '"reason": "price_unpaid"' in out


def test_abilities_and_day_steps_go_through_the_same_path(write):
    """Ability lines become ``abilities`` entries of the player's one order; the engine decides (it refuses them
    until abilities are ordered on the site), and day steps follow nights."""
    steps = """\
    - phase: night 1
      orders:
        - {player: Гена, ability: assassin, target: Вася}
      expect: {rejected: [{player: Гена, ability: assassin}], next_phase: day 1}
    - phase: day 1
      orders:
        - {player: Гена, card: accusation, from: hand, target: Босс, named_card: pistol}
      expect: {rejected: [], next_phase: night 2, public_log_contains: ["Гена accuses Босс", "pistol"]}
    """
    code, out, err = run(write(scenario_text(steps)))
    assert code == 0, out + err  # "pistol" only in the entry's data: the English text says "Pistol"


def test_steps_after_the_end_of_the_game_are_invalid(write):
    players = """\
players:
  - {name: A, secret_role: sheriff, hand: [pistol]}
  - {name: B, secret_role: mafia_boss, hand: [pistol], alive: false}
"""
    steps = """\
    - phase: night 1
      expect: {winner: law, next_phase: none}
    """
    code, out, err = run(write(scenario_text(steps, players=players)))
    assert code == 0, out + err  # FM-10.1: the only Mafia member is dead, a Law member lives
    code, out, err = run(write(scenario_text(steps + "- phase: day 1\n", players=players)))
    assert code == 2, out + err
    assert "step 2, key phase: the open phase is none (the game is over), not day 1" in err


# -- the master setup override ----------------------------------------------------------------------------------


@pytest.fixture
def fm_draft(master):
    return services.game_create(master=master, module="forum_mafia", title="Override", options={"hero": True},
                                rng_seed=99)


def _players(users):
    return [
        {"user": users[0], "name": "Joker", "public_role": "paranoid", "secret_role": "joker",
         "colours": ["recon", "damage"], "hand": ["pistol", "tail"], "deck": ["coffee", "advice"]},
        {"user": users[1], "name": "Boss", "public_role": {"custom": "Лесник"}, "secret_role": "mafia_boss",
         "hand": ["pistol"], "sleeve": ["bunker", {"card": "dummy", "from_role": True}]},
        {"user": users[2], "name": "Killer", "secret_role": "mafia_killer", "hand": [], "alive": False},
        {"user": users[3], "name": "Doc", "public_role": "lucky", "secret_role": "doctor", "hand": ["advice"]},
    ]


def test_setup_override_seats_cards_groups_state_and_phase(fm_draft, master, players):
    phase = game_setup_override(game=fm_draft, actor=master, players=_players(players), start_kind="day",
                                start_number=2)
    game = Game.objects.get(pk=fm_draft.pk)
    assert (phase.kind, phase.number, phase.ordinal) == ("day", 2, 5)
    assert phase.rng_seed == phase_rng(99, 5)  # the seed Day 2 has in a real game of seed 99
    assert game.status == Game.Status.RUNNING and game.started_at is not None
    assert game.state["hero"] is True and game.state["fm"] == {}
    assert game.state["collection_version"] and {k["slug"] for k in game.state["collection"]} >= {"ace", "pistol"}
    seats = {s.display_name: s for s in game.seats.order_by("position")}
    assert [s.position for s in seats.values()] == [0, 1, 2, 3]
    joker = seats["Joker"].data
    assert joker["secret_role"] == "joker" and joker["faction"] == "neutral" and joker["public_role"] == "paranoid"
    assert joker["joker_colours"] == ["damage", "recon"]
    assert joker["deck_list"] == [{"kind": "coffee"}, {"kind": "advice"}]
    cards = Containers.from_dict(joker["cards"])
    assert cards.hand_kinds() == ["pistol", "tail"] and [c.kind for c in cards.deck] == ["coffee", "advice"]
    # default Sleeve: the secret role's start card, then the public role's, both given by a role (FM-3.3, FM-8)
    assert [(c.kind, c.provenance) for c in cards.sleeve] == [("ace", "role"), ("bunker", "role")]
    boss = Containers.from_dict(seats["Boss"].data["cards"])
    assert [(c.kind, c.provenance) for c in boss.sleeve] == [("bunker", "deck"), ("dummy", "role")]
    assert seats["Boss"].data["public_role"] == {"custom": "Лесник"}
    assert "public_role" not in seats["Killer"].data and seats["Killer"].alive is False
    assert "lucky_redeals_left" not in seats["Doc"].data  # only on Night 1
    mafia = set(GroupMembership.objects.filter(game=game, group="faction:mafia").values_list("seat__display_name",
                                                                                            flat=True))
    assert mafia == {"Boss", "Killer"}
    audit = AuditEntry.objects.get(game=game, action="setup_override")
    assert audit.actor == master and audit.data["start"] == "day 2" and len(audit.data["seats"]) == 4


def test_setup_override_refusals(fm_draft, master, players, make_user):
    other = make_user("host2", host=True)
    with pytest.raises(ServiceError) as err:
        game_setup_override(game=fm_draft, actor=other, players=_players(players), start_kind="night", start_number=1)
    assert err.value.code == "forbidden"
    bad = _players(players)
    bad[0]["hand"] = ["pistol", "nope"]
    bad[1]["secret_role"] = "boss"
    bad[2]["colours"] = ["damage", "recon"]
    bad[3]["user"] = players[0]
    with pytest.raises(ServiceError) as err:
        game_setup_override(game=fm_draft, actor=master, players=bad, start_kind="dusk", start_number=0)
    assert set(err.value.errors) == {"start", "players.0.hand", "players.1.secret_role", "players.2.colours",
                                     "players.3.user"}
    assert not fm_draft.seats.exists() and not fm_draft.phases.exists()
    # More players than forum Mafia seats (40) is refused as a whole, naming the limit; nothing is created.
    crowd = [{"user": make_user(f"crowd{i}"), "name": f"Crowd {i}", "secret_role": "citizen", "hand": []}
             for i in range(41)]
    with pytest.raises(ServiceError) as err, translation.override("en"):
        game_setup_override(game=fm_draft, actor=master, players=crowd, start_kind="night", start_number=1)
    assert err.value.errors["players"] == ["A game of forum Mafia seats at most 40 players; this set-up has 41."]
    assert not fm_draft.seats.exists() and not fm_draft.phases.exists()
    game_setup_override(game=fm_draft, actor=master, players=_players(players), start_kind="night", start_number=1)
    assert Game.objects.get(pk=fm_draft.pk).seats.get(display_name="Doc").data["lucky_redeals_left"] == 2
    with pytest.raises(ServiceError) as err:
        game_setup_override(game=fm_draft, actor=master, players=_players(players), start_kind="night",
                            start_number=1)
    assert err.value.code == "state"


# -- every scenario file of the repository ------------------------------------------------------------------------


@pytest.mark.parametrize("path", [p for _, p in SCENARIO_FILES] or [None],
                         ids=[name for name, _ in SCENARIO_FILES] or ["none"])
def test_repository_scenario_passes(path):
    if path is None:
        pytest.skip("no scenario files under tests/scenarios/")
    code, out, err = run(path)
    assert code == 0, out + err
