"""Anonymous games and secret ballots (issue 23, item 10; ``gm.core.services.anonymity``).

The anonymity leak audit: an anonymous ONUW game whose players' account names (and profile names, and the names
they typed when joining — the same strings) are canaries; every URL of the URLconf is fetched by every viewer at
signup, in the day and after the end (the walk and parameters of ``test_leak_audit.Audit``), and every stored
notification and e-mail is read: a seated player's account name reaches only himself and the master until the
game is over, when the mapping is revealed to everyone. Secret ballots: tallies without voters until the phase
ends, for ONUW (the core's vote history and orders) and forum Mafia (the Veche)."""
from __future__ import annotations

import secrets
from datetime import timedelta

import pytest
from django.core import mail
from django.urls import reverse

from gm.core import services
from gm.core.models import AuditEntry, Phase, SeatAlias, life_of
from gm.core.services import ServiceError, anonymity
from gm.inbox.models import Notification
from tests.helpers import api, client_for, game_page, page_part
from tests.integration import leak_audit as la
from tests.integration.test_leak_audit import Audit

pytestmark = pytest.mark.django_db

SEATED = ("olga", "lev", "nina", "gleb", "ivan")
DEAL = ["seer", "werewolf", "robber", "troublemaker", "villager", "werewolf", "drunk", "insomniac"]


def open_phase(game) -> Phase:
    return Phase.objects.get(game=game, status=Phase.Status.OPEN)


@pytest.fixture
def accounts(django_user_model, master, spectator):
    """Viewer name → user; each seated player's username and profile name is his canary."""
    from gm.inbox import services as inbox

    users = {"master": master, "spectator": spectator, "anonymous": None}
    canaries = {}
    for name in SEATED:
        secret = f"acct{name}{secrets.token_hex(6)}"
        user = django_user_model.objects.create_user(username=secret, email=f"{secret}@example.com", password="x")
        user.profile.display_name = secret
        user.profile.save()
        users[name] = user
        canaries[name.upper()] = secret
    for user in users.values():
        if user is not None:
            inbox.settings_set(user=user, email=True)
    return users, canaries


def allowed(kind: str, stage: str) -> set[str]:
    return {kind.lower(), "master"}


def test_anonymity_leak_audit_no_account_name_reaches_another_viewer(accounts, master, frozen,
                                                                     django_capture_on_commit_callbacks):
    users, canaries = accounts
    world = la.World(canaries=canaries, users=users)
    game = services.game_create(master=master, module="onuw", title="Masks", options={"deal": DEAL}, rng_seed=4)
    services.game_open_signup(game=game, actor=master)
    world.game = game
    for name in SEATED[:2]:  # two join before the option is on: they get aliases when it is set
        services.seat_join(game=game, user=users[name], display_name=users[name].username)
    response = client_for(master).post(reverse("gm:anonymity_set", args=[game.pk]), {
        "anonymous": "on", "alias_list": "birds", "reason": "masks on"}, follow=True)
    assert "The anonymity options were saved." in response.content.decode()
    for name in SEATED[2:]:
        services.seat_join(game=game, user=users[name], display_name=users[name].username)
    aliases = dict(SeatAlias.objects.values_list("real_name", "alias"))
    assert set(aliases) == set(canaries.values())
    assert set(aliases.values()) <= set(anonymity.ALIAS_LISTS["birds"][1])
    assert all(s.display_name in aliases.values() for s in game.seats.all())

    audit = Audit(world)
    leaks: list[str] = []

    def check(stage: str) -> None:
        game.refresh_from_db()
        audit.fetch_all(stage, game)
        for (st, viewer, url), kinds in audit.seen.items():
            if st == stage:
                leaks.extend(f"{stage}: {kind}'s account name reached {viewer} at {url}"
                             for kind in kinds if viewer not in allowed(kind, stage))
        for note in Notification.objects.all():
            viewer = next((v for v, u in users.items() if u is not None and u.pk == note.user_id), "?")
            text = f"{note.data} {note.entry.text() if note.entry_id else ''}"
            leaks.extend(f"{stage}: {kind}'s account name in {viewer}'s notification {note.kind}"
                         for kind in audit.canaries_in(text) if viewer not in allowed(kind, stage))
        for message in mail.outbox:
            who = {v for v, u in users.items() if u is not None and u.email in message.to}
            leaks.extend(f"{stage}: {kind}'s account name e-mailed to {who}: {message.subject}"
                         for kind in audit.canaries_in(f"{message.subject} {message.body}")
                         if not who <= allowed(kind, stage))

    check("signup")
    with django_capture_on_commit_callbacks(execute=True):
        services.game_start(game=game, actor=master)
        night = open_phase(game)
        services.post_create(game=game, user=master, body="Welcome, birds.")
    frozen.move_to(night.deadline + timedelta(seconds=1))
    with django_capture_on_commit_callbacks(execute=True):
        assert services.phases_sweep().resolved == [night.pk]
    day = open_phase(game)
    game.refresh_from_db()
    seat = {name: game.seats.get(user=users[name]) for name in SEATED}
    with django_capture_on_commit_callbacks(execute=True):
        for name in SEATED:
            services.post_create(game=game, user=users[name], body=f"I am {seat[name].display_name}, trust me.")
            services.order_submit(phase=day, user=users[name], payload={"vote": seat["lev" if name != "lev"
                                                                                      else "olga"].pk})
    check("day")
    # The master sees the mapping on the game page; a player does not.
    assert 'id="aliases"' in game_page(game, master) and 'id="aliases"' not in game_page(game, users["olga"])
    frozen.move_to(day.deadline + timedelta(seconds=1))
    with django_capture_on_commit_callbacks(execute=True):
        assert services.phases_sweep().resolved == [day.pk]
    game.refresh_from_db()
    assert game.is_over
    # No walk after the end: every viewer may then read every account name, so it could find no leak; the
    # revealed mapping is checked below.
    assert not audit.errors, "\n".join(audit.errors)
    assert not leaks, "\n".join(leaks)
    # The walk does see account names where they may be: each player's own (the page header), all of them for the
    # master (his console), so a leak could not hide from it.
    day_kinds = {v: set().union(*[k for (st, vv, _u), k in audit.seen.items() if st == "day" and vv == v])
                 for v in ("olga", "master")}
    assert "OLGA" in day_kinds["olga"] and day_kinds["master"] == set(canaries)
    # After the end everyone sees who was who.
    revealed = page_part(game_page(game, None), "aliases")
    assert all(c in revealed for c in canaries.values()) and all(a in revealed for a in aliases.values())
    # The audit looked at the pages that show names: the thread and the vote history.
    assert any(name == "gm:iso" for name in audit.names.values())


def test_anonymity_is_chosen_before_the_start_and_audited(signup_game, master, players):
    anonymity.anonymity_set(game=signup_game, actor=master, anonymous=True, alias_list="greek", reason="masks")
    assert {s.display_name for s in signup_game.seats.all()} <= set(anonymity.ALIAS_LISTS["greek"][1])
    assert sorted(SeatAlias.objects.values_list("real_name", flat=True)) == ["Seat0", "Seat1", "Seat2", "Seat3"]
    assert AuditEntry.objects.get(action="anonymity").data["anonymous"] is True
    with pytest.raises(ServiceError) as err:
        anonymity.anonymity_set(game=signup_game, actor=master, anonymous=True, alias_list="nope", reason="x")
    assert "alias_list" in err.value.errors
    with pytest.raises(ServiceError) as err:
        anonymity.anonymity_set(game=signup_game, actor=players[0], anonymous=False, reason="x")
    assert err.value.code == "forbidden"
    services.game_start(game=signup_game, actor=master)
    with pytest.raises(ServiceError) as err:
        anonymity.anonymity_set(game=signup_game, actor=master, anonymous=False, alias_list="greek", reason="x")
    assert err.value.code == "state" and life_of(type(signup_game).objects.get(pk=signup_game.pk)).anonymous
    # The secret ballot can still be switched on.
    anonymity.anonymity_set(game=signup_game, actor=master, anonymous=True, alias_list="greek",
                            secret_ballot=True, reason="x")


def test_fm_signups_get_aliases_and_the_veche_shows_them(frozen, master, make_user):
    from gm.modules.forum_mafia.services import signup as fm

    game = services.game_create(master=master, module="forum_mafia", title="Masked", rng_seed=3)
    services.game_open_signup(game=game, actor=master)
    anonymity.anonymity_set(game=game, actor=master, anonymous=True, reason="masks")
    user = make_user("realname")
    fm.signup_create(game=game, user=user, public_role="operator", character_name="Realname", pledges=True,
                     messengers="tg:@x")
    seat = game.seats.get(user=user)
    assert seat.display_name in anonymity.ALIAS_LISTS["colours"][1]
    assert SeatAlias.objects.get(seat=seat).real_name == "Realname"


def _onuw_day(master, make_user, *, secret=True):
    names = ["Alice", "Boris", "Clara", "Dmitri"]
    users = {n: make_user(n.lower()) for n in names}
    game = services.game_create(master=master, module="onuw", title="Ballot", rng_seed=9, options={
        "deal": ["seer", "werewolf", "robber", "troublemaker", "villager", "villager", "drunk"]})
    services.game_open_signup(game=game, actor=master)
    for n in names:
        services.seat_join(game=game, user=users[n], display_name=n)
    if secret:
        response = client_for(master).post(reverse("gm:anonymity_set", args=[game.pk]), {
            "alias_list": "colours", "secret_ballot": "on", "reason": "secret"}, follow=True)
        assert "The anonymity options were saved." in response.content.decode()
    services.game_start(game=game, actor=master)
    night = open_phase(game)
    assert services.phase_resolve_due(phase_id=night.pk, clock=lambda: night.deadline)
    return game, users, {s.display_name: s.pk for s in game.seats.all()}, open_phase(game)


def test_onuw_secret_ballot_tallies_without_voters_until_the_day_ends(frozen, master, make_user):
    game, users, seat, day = _onuw_day(master, make_user)
    services.order_submit(phase=day, user=users["Alice"], payload={"vote": seat["Boris"]})
    services.order_submit(phase=day, user=users["Clara"], payload={"vote": seat["Boris"]})
    services.order_submit(phase=day, user=users["Boris"], payload={"vote": seat["Alice"]})
    status, body = api(client_for(users["Dmitri"]), "get", f"/api/games/{game.pk}/votes/", {"phase": day.ordinal})
    assert status == 200 and body["hidden"] is True and body["rows"] == []
    assert body["tally"] == [{"lines": ["Vote for Boris."], "count": 2}, {"lines": ["Vote for Alice."], "count": 1}]
    status, body = api(client_for(users["Alice"]), "get", f"/api/games/{game.pk}/votes/", {"phase": day.ordinal})
    assert [r["seat"] for r in body["rows"]] == ["Alice"]  # his own vote only
    status, body = api(client_for(users["Dmitri"]), "get", f"/api/games/{game.pk}/orders/", {"limit": 100})
    assert [o for o in body["results"] if o["phase"] == day.pk and o["seat"] != seat["Dmitri"]] == []
    page = client_for(None).get(reverse("gm:votes", args=[game.pk]), {"phase": day.ordinal}).content.decode()
    assert 'id="ballot-tally"' in page and "Vote for Boris. — 2" in page and "Alice</td>" not in page
    assert 'id="secret-ballot-note"' in game_page(game, users["Dmitri"])
    status, body = api(client_for(master), "get", f"/api/games/{game.pk}/votes/", {"phase": day.ordinal})
    assert body["hidden"] is False and len(body["rows"]) == 3
    assert services.phase_resolve_due(phase_id=day.pk, clock=lambda: day.deadline)
    status, body = api(client_for(users["Dmitri"]), "get", f"/api/games/{game.pk}/votes/", {"phase": day.ordinal})
    assert body["hidden"] is False and [r["seat"] for r in body["rows"]] == ["Alice", "Clara", "Boris"]


def test_onuw_open_ballot_shows_voters(frozen, master, make_user):
    game, users, seat, day = _onuw_day(master, make_user, secret=False)
    services.order_submit(phase=day, user=users["Alice"], payload={"vote": seat["Boris"]})
    status, body = api(client_for(users["Dmitri"]), "get", f"/api/games/{game.pk}/votes/", {"phase": day.ordinal})
    assert body["hidden"] is False and [r["seat"] for r in body["rows"]] == ["Alice"] and body["tally"] == []


def test_fm_secret_ballot_hides_the_veche_voters_until_the_day_ends(frozen, master, make_user):
    from tests.integration.fm_table import build, ids, play_night

    game, users = build(master, make_user)
    anonymity.anonymity_set(game=game, actor=master, anonymous=False, secret_ballot=True, reason="secret")
    play_night(game, users, frozen)
    seat, day = ids(game), open_phase(game)
    for voter in ("Alice", "Harry"):
        status, body = api(client_for(users[voter]), "post", f"/api/games/{game.pk}/fm/veche/vote/",
                           {"phase": day.pk, "for": seat["Eva"], "punishment": "execution"})
        assert status == 200 and body["tally"]["votes"] == [] and body["history"] == []
    status, body = api(client_for(users["Jo"]), "get", f"/api/games/{game.pk}/fm/veche/")
    assert body["tally"]["candidates"] == [{"player": "Eva", "strength": 2.0, "voters": []}]
    assert body["history"] == [] and body["tally"]["votes"] == []
    page = client_for(users["Jo"]).get(reverse("forum_mafia:veche", args=[game.pk])).content.decode()
    assert 'id="fm-secret-ballot"' in page and "Alice →" not in page
    status, body = api(client_for(master), "get", f"/api/games/{game.pk}/fm/veche/")
    assert len(body["history"]) == 2
    assert services.phase_resolve_due(phase_id=day.pk, clock=lambda: day.deadline)
    status, body = api(client_for(users["Jo"]), "get", f"/api/games/{game.pk}/fm/veche/", {"day": 1})
    assert [h["voter"] for h in body["history"]] == ["Alice", "Harry"]


def test_fm_master_override_seats_get_aliases_too(master, make_user):
    from gm.modules.forum_mafia.services.overrides import game_setup_override
    from tests.integration.fm_table import NAMES, ROLES

    users = {n: make_user(n.lower()) for n in NAMES}
    game = services.game_create(master=master, module="forum_mafia", title="Masked override", options={}, rng_seed=5)
    anonymity.anonymity_set(game=game, actor=master, anonymous=True, alias_list="birds", reason="masks")
    players = [{"user": users[n], "name": n, "public_role": {"custom": f"Public{n}"}, "secret_role": ROLES[n],
                "hand": ["tail", "tail", "tail"], "sleeve": [], "deck": ["coffee"] * 4,
                **({"colours": ["damage", "recon"]} if n == "Jo" else {})} for n in NAMES]
    game_setup_override(game=game, actor=master, players=players, start_kind="night", start_number=1)
    names = set(game.seats.values_list("display_name", flat=True))
    assert names <= set(anonymity.ALIAS_LISTS["birds"][1]) and len(names) == len(NAMES)
    assert set(SeatAlias.objects.values_list("real_name", flat=True)) == set(NAMES)
    page = game_page(game, users["Alice"])
    assert not any(f">{n}<" in page for n in NAMES if n != "Alice")
