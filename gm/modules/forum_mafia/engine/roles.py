"""Forum Mafia roles as data (FM-3, FM-8). Pure: no Django import; names are msgids marked with a no-op ``_`` so
``makemessages`` finds them, and the shell translates them with gettext when it shows them."""
from __future__ import annotations

from dataclasses import dataclass, field

from cards.deckrules import SECRET_ROLE_COLOURS


def _(s: str) -> str:
    return s


MAFIA, LAW, NEUTRAL = "mafia", "law", "neutral"
MAFIA_ROLES = ("mafia_boss", "mafia_advisor", "mafia_killer")
#: FM-3.2: each Law player draws one of these, independently (duplicates allowed).
LAW_ROLES = ("sheriff", "commissioner", "doctor", "agent", "judge", "vigilante", "policeman", "detective")
NEUTRAL_ROLES = ("maniac", "joker", "traitor", "hero")
#: Faction display names (msgids).
FACTION_NAMES = {MAFIA: _("Mafia"), LAW: _("Law"), NEUTRAL: _("Neutrals")}


@dataclass(frozen=True)
class SecretRole:
    """A secret role (FM-3): ``faction`` (mafia | law | neutral; the hero wins with Law, the traitor with the
    Mafia), its colours (FM-4.1; the joker chooses his) and ``start_sleeve`` cards (FM-3.3)."""

    slug: str
    name: str
    faction: str
    start_sleeve: tuple[str, ...] = ()

    @property
    def colours(self) -> tuple[str, ...]:
        return SECRET_ROLE_COLOURS[self.slug]


SECRET_ROLES: dict[str, SecretRole] = {r.slug: r for r in [
    SecretRole("mafia_boss", _("Mafia boss"), MAFIA),
    SecretRole("mafia_advisor", _("Mafia advisor"), MAFIA),
    SecretRole("mafia_killer", _("Mafia killer"), MAFIA),
    SecretRole("sheriff", _("Sheriff"), LAW),
    SecretRole("commissioner", _("Commissioner"), LAW),
    SecretRole("doctor", _("Doctor"), LAW),
    SecretRole("agent", _("Agent"), LAW),
    SecretRole("judge", _("Judge"), LAW),
    SecretRole("vigilante", _("Vigilante"), LAW),
    SecretRole("policeman", _("Policeman"), LAW),
    SecretRole("detective", _("Detective"), LAW),
    SecretRole("maniac", _("Maniac"), NEUTRAL),
    SecretRole("joker", _("Joker"), NEUTRAL, start_sleeve=("ace",)),
    SecretRole("traitor", _("Traitor"), NEUTRAL),
    SecretRole("hero", _("Hero"), NEUTRAL, start_sleeve=("oracle",)),
]}


@dataclass(frozen=True)
class PublicRole:
    """A public role of FM-8: ``start_sleeve`` cards it puts into the Sleeve at the start (role cards: they can't
    pay a price nor ground an ``accusation``, except ``dummy``)."""

    slug: str
    name_ru: str
    name_en: str
    start_sleeve: tuple[str, ...] = field(default=())


#: FM-8 in the rulebook's order — which is also the hanging priority of FM-7.4.
PUBLIC_ROLES: tuple[PublicRole, ...] = (
    PublicRole("strongman", "Здоровяк", "Strongman"),
    PublicRole("geek", "Гик", "Geek"),
    PublicRole("cultist", "Культист", "Cultist"),
    PublicRole("engineer", "Инженер", "Engineer"),
    PublicRole("prosecutor", "Прокурор", "Prosecutor"),
    PublicRole("authority", "Авторитет", "Authority"),
    PublicRole("manager", "Менеджер", "Manager"),
    PublicRole("conspirator", "Заговорщик", "Conspirator"),
    PublicRole("gossip", "Сплетник", "Gossip", ("unlimited_plan",)),
    PublicRole("patrolman", "Патрульный", "Patrolman", ("witness",)),
    PublicRole("rich_man", "Богач", "Rich man", ("dummy",)),
    PublicRole("looter", "Мародер", "Looter"),
    PublicRole("highlander", "Горец", "Highlander"),
    PublicRole("paranoid", "Параноик", "Paranoid", ("bunker",)),
    PublicRole("secretary", "Секретарша", "Secretary", ("coffee",)),
    PublicRole("guard", "Охранник", "Guard", ("surveillance_camera",)),
    PublicRole("jock", "Качок", "Jock", ("last_stand",)),
    PublicRole("cardsharp", "Шулер", "Cardsharp"),
    PublicRole("spendthrift", "Мот", "Spendthrift"),
    PublicRole("lucky", "Везунчик", "Lucky"),
    PublicRole("warrior", "Воин", "Warrior"),
    PublicRole("croupier", "Крупье", "Croupier"),
    PublicRole("fortune_teller", "Гадалка", "Fortune teller", ("oracle",)),
    PublicRole("postman", "Почтальон", "Postman"),
    PublicRole("magician", "Фокусник", "Magician"),
    PublicRole("alien", "Пришелец", "Alien", ("superhero",)),
    PublicRole("idler", "Лентяй", "Idler"),
    PublicRole("scientist", "Учёный", "Scientist"),
    PublicRole("operator", "Оператор", "Operator", ("letter",)),
    PublicRole("banker", "Банкир", "Banker"),
    PublicRole("genius", "Гений", "Genius"),
    PublicRole("psychic", "Экстрасенс", "Psychic"),
    PublicRole("monk", "Монах", "Monk"),
    PublicRole("assassin", "Убийца", "Assassin"),
    PublicRole("undertaker", "Гробовщик", "Undertaker", ("autopsy",)),
    PublicRole("jedi", "Джедай", "Jedi", ("breach",)),
    PublicRole("fighter", "Боец", "Fighter", ("martial_art",)),
    PublicRole("addict", "Наркоман", "Addict", ("stimulant_shot",)),
    PublicRole("politician", "Политик", "Politician"),
    PublicRole("sociopath", "Социопат", "Sociopath"),
    PublicRole("avenger", "Мститель", "Avenger"),
)
PUBLIC_ROLE_BY_SLUG: dict[str, PublicRole] = {r.slug: r for r in PUBLIC_ROLES}
CUSTOM = "custom"


def public_role_key(public_role: str | dict) -> str:
    """The uniqueness key of a claim (FM-2.2, FM-2.3): the slug, or ``custom:<casefolded name>``."""
    if isinstance(public_role, dict):
        return f"{CUSTOM}:{' '.join(str(public_role.get(CUSTOM, '')).split()).casefold()}"
    return public_role


def listed_role_for_name(name: str) -> PublicRole | None:
    """The FM-8 role whose slug or Russian/English name equals ``name`` (case- and space-insensitive), if any:
    a custom role may not take a listed role's name (FM-2.3)."""
    wanted = " ".join(name.split()).casefold()
    for role in PUBLIC_ROLES:
        if wanted in (role.slug.casefold(), role.name_ru.casefold(), role.name_en.casefold(),
                      role.name_ru.replace("ё", "е").casefold()):
            return role
    return None
