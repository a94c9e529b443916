"""The default card collection of forum Mafia (FM-4.2, §11 of the rules reference) as plain data.

Pure data plus :func:`default_collection`: no Django import, so the deck rules, the engine and a data migration can
all load it (the migration reads :data:`CARDS`; each dict is exactly the keyword arguments of
:class:`cards.domain.CardKind`). §11 is a **[house]** table (the seed's card appendix is missing); the master may edit
the collection in the database, this file is only its starting point.

Fields: ``slug``; ``colour`` (one of :data:`cards.domain.COLOURS`, or ``"special"`` for ``mulligan``/``ace``/``dummy``
which are not offered in deck building); ``price`` (0–3, FM-5.7); ``free`` (FM-4.4); ``timing`` (``night``/``day``/
``any``); ``target`` (``none`` none/self, ``one`` one living other character, ``two`` two characters, ``dead`` one dead
character, ``one_card`` one character + a card slug, ``one_text`` one character + a message); ``name_ru``/``name_en``;
``text_ru``/``text_en`` (``text_en`` is the §11 effect text); ``effect`` — the machine-readable spec below.

Effect spec vocabulary (every key optional; absent means "no such effect"; ``{}`` means no effect at all). Unless
``self`` is true the effect applies to the (first) target:

* ``damage: int`` — damage dealt (layer L5). ``pierce: true`` — it ignores armour and immunity.
* ``delayed_damage: {"amount": int, "phases": int}`` — that much more damage at the end of each of the target's next
  ``phases`` phases.
* ``bonus_damage: {"amount": int, "if": condition}`` — extra damage when the condition holds.
* ``if: condition`` — the whole effect happens only when the condition holds. Conditions:
  ``target_plays_targeted`` (the target plays a targeted card this phase), ``target_targeted_you`` (the target played
  a card on the player this phase), ``target_played_named_card_last_night`` (``accusation``: the named kind was played
  by the target last night; role cards don't count).
* ``else_self_damage: int`` — damage the player takes when ``if`` does not hold.
* ``armour: int`` — armour (L4; never carries over). ``immune: true`` — the target takes no damage this phase.
* ``transfer_damage: "to_self"`` — all damage the target would take this phase is dealt to the player instead.
* ``keep_last_card: true`` — if the player would die at the end of the phase, he keeps the last card discarded.
* ``self: true`` — the effect applies to the player himself (targets ``none``).
* ``learn: fact`` — information for the player (L7). Facts: ``played_cards`` (cards the target played and on whom),
  ``players_targeting`` (who played cards on the target; players, not cards), ``faction`` (Law/Mafia/Neutral),
  ``secret_role``, ``damage_sources`` (who damaged the target, if it took damage), ``hand`` (the target's Hand, names
  in order, at the end of the phase), ``role_colours`` (with ``count``: that many colours of the secret role, random
  ones if it has more), ``secret_role_and_last_card`` (a dead character's secret role and the last card played on
  him). ``count: int`` — how many items of the fact.
* ``draw: int`` — cards drawn into the Hand at the end of the phase; ``after: "damage"`` — after damage is applied;
  ``when: "now"`` — immediately (L6 of this phase).
* ``delayed_discard: {"count": int, "from": container, "pick": order, "phases": int}`` — a discard due at the end of
  the player's ``phases``-th next phase.
* ``steal: int`` — cards taken from the target's ``from`` container into the player's ``to`` container.
* ``discard: int`` — cards the target discards from ``from``.
* ``move: int`` — the player moves that many of his own cards from ``from`` to ``to``; ``up_to: true`` — at most.
* ``from`` / ``to`` — containers: ``hand``, ``sleeve``, ``deck``. ``pick`` — which cards: ``random``, ``first``
  (Hand or Sleeve order), ``top`` (of the deck). ``replaced: false`` — the target does not draw a replacement.
* ``block: "messages_and_recon"`` — the target gets no messages and no recon results this phase.
* ``cancel: "all_plays"`` — every card the target plays this phase is cancelled (L2; still counts as played).
* ``forbid: "targeted_plays"`` with ``during: "next_night"`` — the target may not play targeted cards then.
* ``redirect: "first_to_second"`` — targeted cards the first target plays now target the second target (if legal).
* ``public: true`` — the play is public.
* ``publish: [fact, ...]`` — facts about the target published in the phase log: ``sleeve_count``, ``deck_count``.
* ``message: true`` — an anonymous message to the target (FM-9.4); ``returns_to_sleeve: true`` — the card goes back
  to the player's Sleeve after the play.
* ``vote_bonus: number`` — extra vote strength today.
* ``pays_price: true`` — the card may pay a price (even when a role gave it).
* ``sleeve_only: true``, ``kept_in_jail: true``, ``vanishes_with_joker: true`` — the ``ace`` restrictions.
* ``seen_as_played: true`` — no effect, but recon sees the card as played.
"""
from __future__ import annotations

import copy

from cards.domain import CardKind, Collection

CARDS: list[dict] = [
    # --- damage (Урон) -------------------------------------------------------------------------------------------
    {
        "slug": "pistol", "colour": "damage", "price": 0, "free": False, "timing": "night", "target": "one",
        "name_ru": "Пистолет", "name_en": "Pistol",
        "text_ru": "Наносит цели 2 урона.",
        "text_en": "2 damage",
        "effect": {"damage": 2},
    },
    {
        "slug": "sniper_rifle", "colour": "damage", "price": 1, "free": False, "timing": "night", "target": "one",
        "name_ru": "Снайперская винтовка", "name_en": "Sniper Rifle",
        "text_ru": "Наносит цели 3 урона.",
        "text_en": "3 damage",
        "effect": {"damage": 3},
    },
    {
        "slug": "contract", "colour": "damage", "price": 3, "free": False, "timing": "night", "target": "one",
        "name_ru": "Контракт", "name_en": "Contract",
        "text_ru": "Наносит цели 5 урона.",
        "text_en": "5 damage",
        "effect": {"damage": 5},
    },
    {
        "slug": "poison", "colour": "damage", "price": 1, "free": False, "timing": "night", "target": "one",
        "name_ru": "Яд", "name_en": "Poison",
        "text_ru": "Наносит цели 1 урон сразу и ещё по 1 урону в конце каждой из двух её следующих фаз.",
        "text_en": "1 damage now and 1 damage at the end of each of the target's next two phases",
        "effect": {"damage": 1, "delayed_damage": {"amount": 1, "phases": 2}},
    },
    {
        "slug": "ambush", "colour": "damage", "price": 0, "free": False, "timing": "night", "target": "one",
        "name_ru": "Засада", "name_en": "Ambush",
        "text_ru": "Если цель в эту фазу сыграет целевую карту, она получает 3 урона.",
        "text_en": "if the target plays a targeted card this phase, 3 damage to the target",
        "effect": {"damage": 3, "if": "target_plays_targeted"},
    },
    {
        "slug": "martial_art", "colour": "damage", "price": 0, "free": False, "timing": "night", "target": "one",
        "name_ru": "Боевое искусство", "name_en": "Martial Arts",
        "text_ru": "Наносит цели 2 урона; ещё +2 урона, если в эту фазу цель сыграла карту на вас.",
        "text_en": "2 damage; +2 if the target targeted you this phase",
        "effect": {"damage": 2, "bonus_damage": {"amount": 2, "if": "target_targeted_you"}},
    },
    # --- recon (Разведка) ----------------------------------------------------------------------------------------
    {
        "slug": "surveillance_camera", "colour": "recon", "price": 0, "free": False, "timing": "night",
        "target": "one",
        "name_ru": "Камера наблюдения", "name_en": "Surveillance Camera",
        "text_ru": "Вы узнаёте, какие карты цель сыграла в эту фазу и на кого.",
        "text_en": "learn which cards the target played this phase and on whom",
        "effect": {"learn": "played_cards"},
    },
    {
        "slug": "tail", "colour": "recon", "price": 0, "free": False, "timing": "night", "target": "one",
        "name_ru": "Слежка", "name_en": "Tail",
        "text_ru": "Вы узнаёте, кто в эту фазу играл карты на цель (только игроков, без карт).",
        "text_en": "learn who played cards on the target this phase (players, not cards)",
        "effect": {"learn": "players_targeting"},
    },
    {
        "slug": "dossier", "colour": "recon", "price": 2, "free": False, "timing": "night", "target": "one",
        "name_ru": "Досье", "name_en": "Dossier",
        "text_ru": "Вы узнаёте фракцию цели (Закон / Мафия / Нейтрал).",
        "text_en": "learn the target's faction (Law / Mafia / Neutral)",
        "effect": {"learn": "faction"},
    },
    {
        "slug": "oracle", "colour": "recon", "price": 1, "free": False, "timing": "night", "target": "one",
        "name_ru": "Оракул", "name_en": "Oracle",
        "text_ru": "Вы узнаёте Тайную роль цели.",
        "text_en": "learn the target's secret role",
        "effect": {"learn": "secret_role"},
    },
    {
        "slug": "witness", "colour": "recon", "price": 0, "free": False, "timing": "night", "target": "one",
        "name_ru": "Свидетель", "name_en": "Witness",
        "text_ru": "Если цель в эту фазу получит урон, вы узнаёте, кто его нанёс.",
        "text_en": "if the target takes damage this phase, learn who dealt it",
        "effect": {"learn": "damage_sources"},
    },
    {
        "slug": "wiretap", "colour": "recon", "price": 0, "free": False, "timing": "any", "target": "one",
        "name_ru": "Прослушка", "name_en": "Wiretap",
        "text_ru": "В конце фазы вы узнаёте Руку цели (названия карт по порядку).",
        "text_en": "learn the target's Hand (names, in order) at the end of the phase",
        "effect": {"learn": "hand"},
    },
    {
        "slug": "hr_department", "colour": "recon", "price": 1, "free": False, "timing": "night", "target": "one",
        "name_ru": "Отдел кадров", "name_en": "HR Department",
        "text_ru": "Вы узнаёте два цвета Тайной роли цели (два случайных, если цветов больше).",
        "text_en": "learn two colours of the target's secret role (random two if it has more)",
        "effect": {"learn": "role_colours", "count": 2},
    },
    {
        "slug": "autopsy", "colour": "recon", "price": 0, "free": True, "timing": "any", "target": "dead",
        "name_ru": "Аутопсия", "name_en": "Autopsy",
        "text_ru": "Цель — мёртвый персонаж. Вы узнаёте его Тайную роль и последнюю карту, сыгранную на него.",
        "text_en": "learn the dead character's secret role and the last card played on them",
        "effect": {"learn": "secret_role_and_last_card"},
    },
    # --- protection (Защита) -------------------------------------------------------------------------------------
    {
        "slug": "bunker", "colour": "protection", "price": 0, "free": False, "timing": "night", "target": "none",
        "name_ru": "Бункер", "name_en": "Bunker",
        "text_ru": "Вы получаете 2 брони.",
        "text_en": "+2 armour to yourself",
        "effect": {"armour": 2, "self": True},
    },
    {
        "slug": "body_armour", "colour": "protection", "price": 0, "free": False, "timing": "night", "target": "one",
        "name_ru": "Бронежилет", "name_en": "Body Armour",
        "text_ru": "Цель получает 3 брони.",
        "text_en": "+3 armour to the target",
        "effect": {"armour": 3},
    },
    {
        "slug": "bodyguard", "colour": "protection", "price": 1, "free": False, "timing": "night", "target": "one",
        "name_ru": "Телохранитель", "name_en": "Bodyguard",
        "text_ru": "Весь урон, который цель должна получить в эту фазу, вместо неё получаете вы.",
        "text_en": "all damage the target would take this phase is dealt to you instead",
        "effect": {"transfer_damage": "to_self"},
    },
    {
        "slug": "safe_house", "colour": "protection", "price": 2, "free": False, "timing": "night", "target": "one",
        "name_ru": "Убежище", "name_en": "Safe House",
        "text_ru": "В эту фазу цель не получает урона.",
        "text_en": "the target takes no damage this phase",
        "effect": {"immune": True},
    },
    {
        "slug": "last_stand", "colour": "protection", "price": 0, "free": True, "timing": "any", "target": "none",
        "name_ru": "Из последних сил", "name_en": "Last Stand",
        "text_ru": "Если по итогам фазы вы должны умереть, последняя сброшенная карта остаётся у вас "
                   "(в Руке остаётся 1 карта).",
        "text_en": "if you would die at the end of this phase, keep the last card discarded "
                   "(you stay with 1 Hand card)",
        "effect": {"keep_last_card": True, "self": True},
    },
    {
        "slug": "superhero", "colour": "protection", "price": 1, "free": False, "timing": "night", "target": "one",
        "name_ru": "Супергерой", "name_en": "Superhero",
        "text_ru": "Цель получает 4 брони.",
        "text_en": "+4 armour to the target",
        "effect": {"armour": 4},
    },
    # --- sabotage (Саботаж) --------------------------------------------------------------------------------------
    {
        "slug": "pickpocket", "colour": "sabotage", "price": 0, "free": False, "timing": "night", "target": "one",
        "name_ru": "Карманник", "name_en": "Pickpocket",
        "text_ru": "Вы забираете себе в Руку случайную карту из Руки цели (цель не добирает замену).",
        "text_en": "take a random card from the target's Hand into your Hand (the target does not replace it)",
        "effect": {"steal": 1, "from": "hand", "to": "hand", "pick": "random", "replaced": False},
    },
    {
        "slug": "arson", "colour": "sabotage", "price": 0, "free": False, "timing": "night", "target": "one",
        "name_ru": "Поджог", "name_en": "Arson",
        "text_ru": "Цель сбрасывает 2 карты из Рукава (первые по порядку).",
        "text_en": "the target discards 2 cards from the Sleeve (first in Sleeve order)",
        "effect": {"discard": 2, "from": "sleeve", "pick": "first"},
    },
    {
        "slug": "hack", "colour": "sabotage", "price": 0, "free": False, "timing": "any", "target": "one",
        "name_ru": "Взлом", "name_en": "Hack",
        "text_ru": "Верхние 3 карты Колоды цели уходят в сброс.",
        "text_en": "the top 3 cards of the target's deck are discarded",
        "effect": {"discard": 3, "from": "deck", "pick": "top"},
    },
    {
        "slug": "jamming", "colour": "sabotage", "price": 1, "free": False, "timing": "any", "target": "one",
        "name_ru": "Глушилка", "name_en": "Jammer",
        "text_ru": "В эту фазу цель не получает сообщений и результатов разведки.",
        "text_en": "the target gets no messages and no recon results this phase",
        "effect": {"block": "messages_and_recon"},
    },
    {
        "slug": "breach", "colour": "sabotage", "price": 0, "free": False, "timing": "night", "target": "one",
        "name_ru": "Пролом", "name_en": "Breach",
        "text_ru": "Наносит цели 2 урона, игнорируя броню и неуязвимость.",
        "text_en": "2 damage that ignores armour and immunity",
        "effect": {"damage": 2, "pierce": True},
    },
    {
        "slug": "stimulant_shot", "colour": "sabotage", "price": 0, "free": True, "timing": "any", "target": "none",
        "name_ru": "Укол стимулятора", "name_en": "Stimulant Shot",
        "text_ru": "Вы сразу тянете 2 карты в Руку; в конце вашей следующей фазы сбрасываете 1 (первую в Руке).",
        "text_en": "draw 2 cards into the Hand now (L6); at the end of your next phase discard 1 (first in Hand)",
        "effect": {"draw": 2, "when": "now", "self": True,
                   "delayed_discard": {"count": 1, "from": "hand", "pick": "first", "phases": 1}},
    },
    # --- control (Контроль) --------------------------------------------------------------------------------------
    {
        "slug": "arrest", "colour": "control", "price": 1, "free": False, "timing": "night", "target": "one",
        "name_ru": "Арест", "name_en": "Arrest",
        "text_ru": "Отменяет все карты, сыгранные целью в эту фазу.",
        "text_en": "cancel every card the target plays this phase",
        "effect": {"cancel": "all_plays"},
    },
    {
        "slug": "handcuffs", "colour": "control", "price": 0, "free": False, "timing": "day", "target": "one",
        "name_ru": "Наручники", "name_en": "Handcuffs",
        "text_ru": "Следующей ночью цель не может играть целевые карты.",
        "text_en": "the target may not play targeted cards next night",
        "effect": {"forbid": "targeted_plays", "during": "next_night"},
    },
    {
        "slug": "redirect", "colour": "control", "price": 2, "free": False, "timing": "night", "target": "two",
        "name_ru": "Перенаправление", "name_en": "Redirect",
        "text_ru": "Целевые карты, которые первая цель играет в эту фазу, уходят во вторую цель (если это "
                   "допустимо).",
        "text_en": "targeted cards the first target plays this phase now target the second target (if legal)",
        "effect": {"redirect": "first_to_second"},
    },
    {
        "slug": "accusation", "colour": "control", "price": 0, "free": False, "timing": "day", "target": "one_card",
        "name_ru": "Обвинение", "name_en": "Accusation",
        "text_ru": "Публично. Назовите цель и карту: если прошлой ночью цель сыграла такую карту (карты от Явной "
                   "роли не считаются), она получает 4 урона; иначе 2 урона получаете вы.",
        "text_en": "public: if last night the target played a card of that kind (role cards don't count), the target "
                   "takes 4 damage; otherwise you take 2",
        "effect": {"public": True, "damage": 4, "if": "target_played_named_card_last_night",
                   "else_self_damage": 2},
    },
    {
        "slug": "interrogation", "colour": "control", "price": 0, "free": False, "timing": "day", "target": "one",
        "name_ru": "Допрос", "name_en": "Interrogation",
        "text_ru": "Число карт в Рукаве и в Колоде цели публикуется в итогах фазы.",
        "text_en": "the target's Sleeve count and deck count are published in the phase log",
        "effect": {"publish": ["sleeve_count", "deck_count"]},
    },
    # --- support (Поддержка) -------------------------------------------------------------------------------------
    {
        "slug": "advice", "colour": "support", "price": 0, "free": False, "timing": "any", "target": "one",
        "name_ru": "Совет", "name_en": "Advice",
        "text_ru": "В конце фазы цель тянет 1 карту в Руку.",
        "text_en": "the target draws 1 card into the Hand at the end of the phase",
        "effect": {"draw": 1},
    },
    {
        "slug": "coffee", "colour": "support", "price": 0, "free": True, "timing": "any", "target": "none",
        "name_ru": "Кофе", "name_en": "Coffee",
        "text_ru": "В конце фазы вы тянете 2 карты в Руку.",
        "text_en": "draw 2 cards into the Hand at the end of the phase",
        "effect": {"draw": 2, "self": True},
    },
    {
        "slug": "first_aid", "colour": "support", "price": 1, "free": False, "timing": "night", "target": "one",
        "name_ru": "Аптечка", "name_en": "First Aid Kit",
        "text_ru": "После урона в эту фазу цель тянет 2 карты в Руку.",
        "text_en": "the target draws 2 cards into the Hand after damage this phase",
        "effect": {"draw": 2, "after": "damage"},
    },
    {
        "slug": "letter", "colour": "support", "price": 0, "free": True, "timing": "any", "target": "one_text",
        "name_ru": "Письмо", "name_en": "Letter",
        "text_ru": "Анонимное сообщение цели: мастер передаст его в конце фазы.",
        "text_en": "anonymous message to the target (FM-9.4)",
        "effect": {"message": True},
    },
    {
        "slug": "unlimited_plan", "colour": "support", "price": 0, "free": True, "timing": "day",
        "target": "one_text",
        "name_ru": "Безлимитный тариф", "name_en": "Unlimited Plan",
        "text_ru": "Анонимное сообщение цели; карта возвращается к вам в Рукав.",
        "text_en": "anonymous message to the target; the card returns to your Sleeve",
        "effect": {"message": True, "returns_to_sleeve": True},
    },
    {
        "slug": "negotiation", "colour": "support", "price": 0, "free": False, "timing": "day", "target": "none",
        "name_ru": "Переговоры", "name_en": "Negotiations",
        "text_ru": "Сегодня ваш голос на Вече весит на 1 больше.",
        "text_en": "+1 vote strength today",
        "effect": {"vote_bonus": 1, "self": True},
    },
    # --- neutral (Нейтральный) -----------------------------------------------------------------------------------
    {
        "slug": "stash", "colour": "neutral", "price": 0, "free": False, "timing": "any", "target": "none",
        "name_ru": "Тайник", "name_en": "Stash",
        "text_ru": "Переложите до 2 карт из Руки в Рукав (замену не добираете).",
        "text_en": "move up to 2 cards from your Hand to your Sleeve (not replaced)",
        "effect": {"move": 2, "up_to": True, "from": "hand", "to": "sleeve", "replaced": False, "self": True},
    },
    {
        "slug": "bluff", "colour": "neutral", "price": 0, "free": True, "timing": "any", "target": "one",
        "name_ru": "Блеф", "name_en": "Bluff",
        "text_ru": "Без эффекта (разведка видит её как сыгранную).",
        "text_en": "no effect (recon sees it as played)",
        "effect": {"seen_as_played": True},
    },
    {
        "slug": "reserve", "colour": "neutral", "price": 0, "free": False, "timing": "night", "target": "none",
        "name_ru": "Запас", "name_en": "Reserve",
        "text_ru": "Верхние 2 карты вашей Колоды переходят к вам в Рукав.",
        "text_en": "move the top 2 cards of your deck to your Sleeve",
        "effect": {"move": 2, "from": "deck", "to": "sleeve", "pick": "top", "self": True},
    },
    # --- special: never in a deck; they enter play through roles or rules (FM-4.2) --------------------------------
    {
        "slug": "mulligan", "colour": "special", "price": 0, "free": True, "timing": "any", "target": "none",
        "name_ru": "Маллиган", "name_en": "Mulligan",
        "text_ru": "Без эффекта; ею можно оплатить Цену.",
        "text_en": "no effect; it may pay a price",
        "effect": {"pays_price": True},
    },
    {
        "slug": "ace", "colour": "special", "price": 0, "free": True, "timing": "any", "target": "none",
        "name_ru": "Туз", "name_en": "Ace",
        "text_ru": "Играется только из Рукава: вы получаете 2 брони. Не теряется в тюрьме; исчезает, если Джокер "
                   "ошибся.",
        "text_en": "Sleeve only: +2 armour to yourself; kept in jail; vanishes when the Joker fails",
        "effect": {"armour": 2, "self": True, "sleeve_only": True, "kept_in_jail": True,
                   "vanishes_with_joker": True},
    },
    {
        "slug": "dummy", "colour": "special", "price": 0, "free": False, "timing": "any", "target": "none",
        "name_ru": "Пустышка", "name_en": "Dummy",
        "text_ru": "Без эффекта; ею можно оплатить Цену, хотя её дала роль.",
        "text_en": "no effect; may pay a price even though a role gave it",
        "effect": {"pays_price": True},
    },
]


def default_collection() -> Collection:
    """The §11 collection as a :class:`~cards.domain.Collection` (fresh objects on every call)."""
    return Collection.from_kinds(CardKind(**copy.deepcopy(card)) for card in CARDS)
