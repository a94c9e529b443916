"""FM-9.4: card and Mafia messages may not contain links, direct or indirect — a table of accepted and refused
texts, checked by the detector and through the order check of a ``letter``."""
from __future__ import annotations

import pytest

from gm.modules.forum_mafia.engine.state import find_link

from .fm_table import STATE, S, check, refused, table

ACCEPTED = [
    "Я думаю, Вася — мафия.",
    "Встречаемся ночью, в 3 часа.",
    "Ставлю 2 голоса на Петю. Не верь Боссу!",
    "p.s. завтра голосуем за мир",
    "Счёт 2:1, броня 3.5 не спасёт",
    "Пиши мне в личку в игре, не здесь.",
    "ru en com — просто слова",
    "Это так. Ну и что?",
]
REFUSED = [
    ("http://mafia.example/thread/5", "http://"),
    ("смотри https://forum.example.com/t/1", "https://"),
    ("www.mafia.ru", "www."),
    ("заходи на mafia.ru вечером", "mafia.ru"),
    ("пиши на vasya@mail.ru", "vasya@mail.ru"),
    ("t.me/vasya", "t.me/"),
    ("см. страницу 5 модуля", "страницу 5"),
    ("на странице 12 всё написано", "странице 12"),
    ("ответ на стр. 3", "стр. 3"),
    ("see page 4 of the module", "page 4"),
    ("[url]mafia[/url]", "[url"),
    ("как на страницы 7", "страницы 7"),
]


@pytest.mark.parametrize("text", ACCEPTED)
def test_FM_9_4_accepted_message_texts(text):
    assert find_link(text) is None
    seats = table(S("A", hand="letter"), S("B", "mafia_boss", hand="tail"))
    clean = check(STATE(), seats, "A", {"plays": [{"card": "letter", "target": "B", "text": text}]})
    assert clean["plays"][0]["text"] == text


@pytest.mark.parametrize("text, found", REFUSED)
def test_FM_9_4_refused_message_texts_name_what_was_found(text, found):
    assert find_link(text) == found
    seats = table(S("A", hand="letter"), S("B", "mafia_boss", hand="tail"))
    problems = refused(STATE(), seats, "A", {"plays": [{"card": "letter", "target": "B", "text": text}]})
    assert problems and problems[0][0] == "FM-9.4"
