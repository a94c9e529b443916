"""FM-9.3 chat-room proposals read from a day post's comment field (FM-8 ``conspirator``'s keyword): the pure parser
``room_comments.parse_proposal`` — what it accepts, what it ignores and what it refuses with the reason."""
from __future__ import annotations

import pytest

from gm.modules.forum_mafia.engine.room_comments import REASONS, ProposalError, has_proposal, name_key, parse_proposal

NAMES = ["Вася", "Петя", "Коля", "Алёна", "Anna Maria", "Doe, John", "Ёж"]


@pytest.mark.parametrize(("comment", "members", "conspiracy"), [
    ("комната: Вася, Петя", ["Вася", "Петя"], False),
    ("room: Вася, Петя", ["Вася", "Петя"], False),
    ("Комната: вася; ПЕТЯ.", ["Вася", "Петя"], False),
    ("ROOM : Петя, Вася!", ["Петя", "Вася"], False),
    ("за мир. комната: Вася и Петя", ["Вася", "Петя"], False),
    ("room: Вася and Петя", ["Вася", "Петя"], False),
    ("room: @Вася, «Петя», \"Коля\"", ["Вася", "Петя", "Коля"], False),
    ("room: Алена, ёж", ["Алёна", "Ёж"], False),  # ё and е are one letter here
    ("room:  anna   maria ,Вася,", ["Anna Maria", "Вася"], False),  # spaces collapsed, a trailing comma ignored
    ("room: Doe, John, Вася", ["Doe, John", "Вася"], False),  # a name holding a comma is recognised whole
    ("room: Вася, Вася, Петя", ["Вася", "Петя"], False),  # each once
    ("заговор: Вася, Петя, Коля, Алёна", ["Вася", "Петя", "Коля", "Алёна"], True),
    ("conspiracy: Коля", ["Коля"], True),
    ("room: Вася", ["Вася"], False),  # the size is the engine's business (a manager's room of two)
])
def test_FM_9_3_a_comment_proposes_a_room_with_the_named_characters(comment, members, conspiracy):
    assert has_proposal(comment)
    assert parse_proposal(comment, NAMES) == (members, conspiracy)


@pytest.mark.parametrize("comment", [
    "", "голосую за Васю", "комната Вася, Петя",  # no colon
    "комнатах: Вася", "roommate: Петя", "bedroom: Вася",  # not the keyword
    "у меня своя комната", "room",
])
def test_FM_9_3_a_comment_without_the_keyword_and_colon_proposes_nothing(comment):
    assert not has_proposal(comment)
    assert parse_proposal(comment, NAMES) is None


@pytest.mark.parametrize(("comment", "code", "params"), [
    ("room: Вася, Федя", "room_unknown", {"name": "Федя"}),
    ("комната: «Незнакомец».", "room_unknown", {"name": "Незнакомец"}),
    ("room:", "room_names", {}),
    ("room: , ;", "room_names", {}),
    ("room: Вася, Петя; room: Коля", "room_twice", {}),
    ("комната: Вася заговор: Петя", "room_twice", {}),
])
def test_FM_9_3_an_unreadable_proposal_is_refused_with_the_reason(comment, code, params):
    with pytest.raises(ProposalError) as err:
        parse_proposal(comment, NAMES)
    assert (err.value.code, err.value.params) == (code, params)
    rule, _message = REASONS[code]
    assert rule == "FM-9.3" and err.value.rule_error().rule == "FM-9.3"
    assert err.value.rule_error().field == "comment"


def test_names_are_compared_without_case_spaces_quotes_and_final_stops():
    assert name_key("  «Anna   Maria»! ") == name_key("anna maria") == "anna maria"
    assert name_key("Doe ,  John") == name_key("doe,john")
    assert name_key("@Алёна.") == "алена"
