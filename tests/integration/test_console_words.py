"""The master's console in words (issue 17 item 17): every card, role, faction, container, flag, group, audit action
and trace line is named in the reader's language, never by its slug or as raw JSON, in Russian and English; a seat
is edited through a real form (a picker of card names per card, jail as a number, handcuffs as a choice of night)
whose bad input is a field error that writes nothing; an edit that changes a public fact (forum Mafia's Hand count,
FM-5.1) is announced publicly, one that changes only secrets is not; a private message's author rereads it (FM-9.2)
while third parties still see nothing of it; a result that discards two cards names both (FM-5.3)."""
from __future__ import annotations

import html
import re

import pytest

from gm.core import interventions, services
from gm.core.models import AUDIT_ACTIONS, AuditEntry, LogEntry, Phase
from gm.modules.forum_mafia.engine.roles import FACTION_NAMES, SECRET_ROLES
from gm.modules.forum_mafia.engine.state import game_collection
from tests.helpers import api, client_for
from tests.integration.console_table import NAMES, build_table, seat, shoot_boris, snapshot

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def table(frozen, master, make_user, card_collection):
    return build_table(master, make_user)


def visible_text(page: str) -> str:
    """What a reader sees of an HTML fragment: the text between tags (attribute values and option values are
    markup, not text), entities decoded."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", "\n", page))


def played_table(table, master):
    """Night 1 resolved on Alice's pistol (Boris dies) and Clara's two discards; Eva jailed and handcuffed by the
    master; in Day 1 the master kills Dmitri and extends the deadline; Alice's Day 1 order is pending."""
    game, users = table
    night = shoot_boris(game, users)
    clara = seat(game, "Clara")
    services.order_submit(phase=night, user=users["Clara"], payload={
        "discard": [c["uid"] for c in clara.data["cards"]["hand"]]})
    interventions.seat_edit(game=game, actor=master, seat_id=seat(game, "Eva").pk,
                            changes={"jail": 2, "handcuffs": 2}, reason="судья")
    services.phase_resolve_now(game=game, actor=master, reason="пора")
    game.refresh_from_db()
    interventions.seat_set_alive(game=game, actor=master, seat_id=seat(game, "Clara").pk, alive=False,
                                 reason="ушёл")
    services.phase_extend(game=game, actor=master, minutes=30, reason="ждём")
    game.refresh_from_db()
    return game, users


def test_console_names_everything_in_words_never_slugs_or_json_in_ru_and_en(table, master):
    game, users = played_table(table, master)
    state = game.state
    slugs = (set(game_collection(state).kinds) | set(SECRET_ROLES) | set(FACTION_NAMES) | set(AUDIT_ACTIONS)
             | set(game.game_module.audit_actions) | {"faction:mafia", "hand", "sleeve", "deck", "discard", "jail",
                                                      "handcuffs", "hand_count", "public_role", "custom"}
             | set(LogEntry.objects.filter(game=game).values_list("kind", flat=True)))
    assert {"tail", "pistol", "mafia_boss", "seat_edit", "fm.t_discard_two", "law"} <= slugs
    names = set(NAMES) | {n.lower() for n in NAMES} | {f"R{n}" for n in NAMES} | {"master"}
    eva = seat(game, "Eva")
    for language in ("ru", "en"):
        client = client_for(master, language=language)
        parts = {
            "console": client.get(f"/games/{game.pk}/console/", **HTMX).content.decode(),
            "edit form": client.get(f"/games/{game.pk}/console/seat/{eva.pk}/edit/", **HTMX).content.decode(),
            "preview": client.get(f"/games/{game.pk}/console/preview/", **HTMX).content.decode(),
        }
        console = visible_text(parts["console"])
        # The console really shows the facts that could leak as slugs: cards, roles, flags, trace, audit.
        expected = {"ru": ("Пистолет", "Слежка", "Босс мафии", "Тюрьма", "Наручники", "Ночь 2", "Рука",
                           "сбрасывает две карты", "изменены карты и отметки", "персонаж убит",
                           "на свободе → 2 фазы", "без наручников → Ночь 2"),
                    "en": ("Pistol", "Tail", "Mafia boss", "Jail", "Handcuffs", "Night 2", "Hand (front first)",
                           "discards two cards", "cards and flags edited", "character killed",
                           "not in jail → 2 phases", "not handcuffed → Night 2")}[language]
        for text in expected:
            assert text in console, (language, text)
        for part, page in parts.items():
            text = visible_text(page)
            assert not re.search(r"[{}]|\":", text), (language, part, re.findall(r".{0,40}[{}].{0,40}", text))
            words = set(re.findall(r"[\w.:]+", text))
            leaked = {w for w in words if w in slugs or w.rstrip(".:") in slugs}
            if language == "en":  # English words may coincide with a slug; a slug is lower case, a name is not
                leaked = {w for w in leaked if "_" in w or "." in w.rstrip(".") or ":" in w.rstrip(":")
                          or w.rstrip(".:") in game_collection(state).kinds}
            assert not leaked, (language, part, leaked)
            if language == "ru":  # nothing Latin but the people's names and logins, version numbers and rule IDs
                without_rule_ids = re.sub(r"\b(?:FM|ON|BW|BV|OC)-[0-9][0-9A-Z.]*", "", text)
                latin = set(re.findall(r"[A-Za-z][A-Za-z_]*(?:[.:][a-z_]+)*", without_rule_ids)) - names
                assert latin <= {"v", "UTC"}, (part, latin)


def edit_data(seat_obj, **values):
    """The edit form's POST for ``seat_obj`` as drawn now (every picker, jail, handcuffs), with ``values`` over it."""
    cards = seat_obj.data["cards"]
    data = {"seat": seat_obj.pk, "version": seat_obj.version, "reason": "misdeal"}
    for key in ("hand", "sleeve", "deck", "discard"):
        for i, card in enumerate(cards.get(key) or []):
            data[f"{key}-{i}"] = card["kind"]
    data.update({"jail": "0", "handcuffs": "", "public_role": "custom"})  # the table's roles are custom (FM-2.3)
    data.update(values)
    return data


def test_seat_edit_form_offers_card_names_and_refuses_an_unknown_card_with_a_field_error(table, master):
    game, _users = table
    alice = seat(game, "Alice")
    client = client_for(master)
    form = client.get(f"/games/{game.pk}/console/seat/{alice.pk}/edit/").content.decode()
    assert '<select name="hand-0"' in form and '<option value="pistol" selected>Pistol</option>' in form
    assert 'name="jail"' in form and 'type="number"' in form and '<select name="handcuffs"' in form
    assert "<textarea" not in form
    before = snapshot(game)
    for extra in ({}, HTMX):
        response = client.post(f"/games/{game.pk}/console/seat/edit/",
                               edit_data(alice, **{"hand-1": "bazooka"}), **extra)
        body = response.content.decode()
        assert response.status_code == (200 if extra else 400)
        errors = re.search(r'id="edit-\d+-hand-1-errors">(.*?)</ul>', body, re.S)
        assert errors and "no card “bazooka”" in errors.group(1)
        assert 'id="console"' not in body
        # A jail out of range and a night that is not offered are field errors too.
        body = client.post(f"/games/{game.pk}/console/seat/edit/",
                           edit_data(alice, jail="-1", handcuffs="99"), **extra).content.decode()
        assert re.search(r'id="edit-\d+-jail-errors">', body) and re.search(r'id="edit-\d+-handcuffs-errors">', body)
    assert snapshot(game) == before


def test_seat_edit_form_changes_cards_in_order_and_flags_and_answers_with_the_console(table, master):
    game, _users = table
    alice = seat(game, "Alice")
    client = client_for(master)
    data = edit_data(alice, **{"hand-0": "tail", "hand-1": "", "hand-2": "pistol", "sleeve-0": "coffee",
                               "jail": "1", "handcuffs": "2"})
    response = client.post(f"/games/{game.pk}/console/seat/edit/", data, **HTMX)
    assert response.status_code == 200 and response["HX-Retarget"] == "#console"
    assert "Alice&#x27;s seat was changed" in response.content.decode()
    alice = seat(game, "Alice")
    assert [c["kind"] for c in alice.data["cards"]["hand"]] == ["tail", "pistol"]
    assert [c["kind"] for c in alice.data["cards"]["sleeve"]] == ["coffee"]
    game.refresh_from_db()
    assert game.state["fm"]["jail"][str(alice.pk)] == 1 and game.state["fm"]["handcuffs"][str(alice.pk)] == 2
    audit = AuditEntry.objects.get(game=game, action="seat_edit")
    assert set(audit.data["after"]) == {"hand", "sleeve", "jail", "handcuffs"}  # only what changed
    # The same form again: drawn from an older version of the seat, it is refused and redrawn as it is now.
    stale = client.post(f"/games/{game.pk}/console/seat/edit/", {**data, "hand-0": "coffee"}, **HTMX)
    body = stale.content.decode()
    assert "changed since you opened the form" in body and f'value="{alice.version}"' in body
    assert [c["kind"] for c in seat(game, "Alice").data["cards"]["hand"]] == ["tail", "pistol"]
    # Without JavaScript: a redirect to the console with the notice.
    alice = seat(game, "Alice")
    response = client.post(f"/games/{game.pk}/console/seat/edit/", edit_data(alice, **{"sleeve-0": ""}))
    assert response.status_code == 302 and response["Location"].endswith("#console")
    assert seat(game, "Alice").data["cards"]["sleeve"] == []


def test_master_edit_of_a_public_fact_is_announced_and_of_a_secret_one_is_not(table, master, spectator):
    game, users = table
    alice = seat(game, "Alice")
    public = LogEntry.objects.filter(game=game, visibility="public", kind="core.seat_public_changed")
    # Secret only: the Hand's order, the deck, jail and handcuffs (the Hand count stays 3).
    interventions.seat_edit(game=game, actor=master, seat_id=alice.pk, reason="order",
                            changes={"hand": ["tail", "tail", "pistol"], "deck": ["coffee"], "handcuffs": 1})
    assert not public.exists()
    # The Hand count (public, FM-5.1) goes from 3 to 2: announced with the new count, no card named.
    interventions.seat_edit(game=game, actor=master, seat_id=alice.pk, reason="misdeal",
                            changes={"hand": ["tail", "pistol"]})
    entry = public.get()
    assert entry.data == {"player": "Alice", "public": {"hand_count": 2}}
    for language, line in (("en", "The master corrected Alice's seat. Now: Cards in Hand: 2."),
                           ("ru", "Мастер исправил данные персонажа Alice. Теперь: Карт в Руке: 2.")):
        page = visible_text(client_for(spectator, language=language).get(game.get_absolute_url()).content.decode())
        assert line in page
        assert ("Pistol" if language == "en" else "Пистолет") not in page  # the secret cards stay secret
    # Through the API the same.
    status, _data = api(client_for(master), "post", f"/api/games/{game.pk}/console/seats/{alice.pk}/edit/",
                        {"changes": {"hand": ["tail", "pistol", "coffee"]}, "reason": "one more"})
    assert status == 200 and public.count() == 2 and public.last().data["public"] == {"hand_count": 3}
    # The claimed public role (FM-2) through the form: announced by its name.
    response = client_for(master).post(f"/games/{game.pk}/console/seat/edit/",
                                       edit_data(seat(game, "Alice"), public_role="geek"), **HTMX)
    assert response.status_code == 200 and response["HX-Retarget"] == "#console"
    assert public.count() == 3 and public.last().data["public"] == {"public_role": "geek"}
    for language, line in (("en", "The master corrected Alice's seat. Now: Public role: Geek."),
                           ("ru", "Мастер исправил данные персонажа Alice. Теперь: Явная роль: Гик.")):
        assert line in visible_text(client_for(spectator, language=language).get(
            game.get_absolute_url()).content.decode())
    # A role that is not one of FM-8 is a field error, and nothing is written.
    before = snapshot(game)
    body = client_for(master).post(f"/games/{game.pk}/console/seat/edit/",
                                   edit_data(seat(game, "Alice"), public_role="emperor"), **HTMX).content.decode()
    assert re.search(r'id="edit-\d+-public_role-errors">', body) and snapshot(game) == before


def day_with_private(table, master):
    """Night 1 resolved (Boris dead); in Day 1 Clara writes a private message to her living neighbour Dmitri."""
    game, users = table
    shoot_boris(game, users)
    services.phase_resolve_now(game=game, actor=master, reason="go")
    game.refresh_from_db()
    post = services.post_create(game=game, user=users["Clara"],
                                body='Good day.[private="Dmitri"]Meet me at the mill[/private]')
    return game, users, post


def test_private_message_author_rereads_it_and_third_parties_do_not(table, master, spectator):
    game, users, post = day_with_private(table, master)
    secret = "Meet me at the mill"
    for user, sees in ((users["Clara"], True), (users["Dmitri"], True), (master, True), (users["Alice"], False),
                       (users["Eva"], False), (spectator, False), (None, False)):
        client = client_for(user)
        page = client.get(game.get_absolute_url()).content.decode()
        assert (secret in page) is sees, user
        status, data = api(client, "get", f"/api/games/{game.pk}/posts/")
        assert status == 200
        mine = next(p for p in data["results"] if p["id"] == post.pk)
        assert (mine["private"]["text"] == secret) is sees, user
        assert (secret in str(data)) is sees


def test_a_result_that_discards_two_cards_names_both(table, master):
    """FM-5.3: the player who discards two Hand cards instead of playing is told both, and the master's trace
    names both."""
    game, users = table
    night = Phase.objects.get(game=game, status=Phase.Status.OPEN)
    clara = seat(game, "Clara")  # Hand: Tail, Coffee
    services.order_submit(phase=night, user=users["Clara"], payload={
        "discard": [c["uid"] for c in clara.data["cards"]["hand"]]})
    services.phase_resolve_now(game=game, actor=master, reason="go")
    told = LogEntry.objects.get(game=game, kind="fm.discarded_two", visibility="seat", seat=clara)
    assert told.data["cards"] == ["tail", "coffee"]
    for language, line in (("en", "You discarded two cards instead of playing: Tail, Coffee."),
                           ("ru", "Вы сбросили две карты вместо розыгрыша: Слежка, Кофе.")):
        assert line in visible_text(client_for(users["Clara"], language=language).get(
            game.get_absolute_url()).content.decode())
        console = visible_text(client_for(master, language=language).get(f"/games/{game.pk}/console/",
                                                                         **HTMX).content.decode())
        both = "Tail, Coffee" if language == "en" else "Слежка, Кофе"
        assert line in console and console.count(both) >= 3  # told, the order line and the discard in the trace

