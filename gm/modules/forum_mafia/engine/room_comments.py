"""Chat-room proposals written in the comment field of a day post (FM-9.3, FM-8 ``conspirator``), pure.

FM-9.3: three living characters create a room if all three "write it publicly in the comment field of a game post".
The site reads that comment with :func:`parse_proposal`:

* ``комната: Вася, Петя`` / ``room: Вася, Петя`` — a room with the writer and the named characters;
* ``заговор: Вася, Петя, Коля`` / ``conspiracy: …`` — the ``conspirator``'s room (FM-8, once per game, any size).

The keyword (any case) may stand anywhere in the comment, after a space or at its start, and is followed by a colon;
everything after the colon is the list of names, separated by commas, semicolons, ``и`` or ``and``. Names are the
characters' display names, matched ignoring case, repeated spaces, ``ё``/``е``, surrounding quotes, a leading ``@``
and a final full stop or exclamation mark; a name holding a comma is recognised whole. The writer may name himself
or not (he is a member anyway). One proposal per comment: a player who wants several writes several posts.

The shell (``services.rooms``) turns the names into seat ids, lets the engine check the proposal
(:func:`.rooms.check_rooms`: by day, living members, three or a manager's 2/4, the conspirator's once) and records
the proposals of all his posts of the day as the ``rooms`` part of his day order. Nothing here imports Django; the
messages are msgids marked with a no-op ``_`` (the shell translates them).
"""
from __future__ import annotations

import re
from collections.abc import Iterable

from gm.core.engine import RuleError


def _(s: str) -> str:
    return s


#: keyword → whether it proposes the conspirator's room (FM-8).
KEYWORDS: dict[str, bool] = {"комната": False, "room": False, "заговор": True, "conspiracy": True}

_KEYWORD = re.compile(r"(?<!\w)(" + "|".join(KEYWORDS) + r")\s*:", re.IGNORECASE)
_SEPARATOR = re.compile(r"(\s*[,;]\s*|\s+(?:и|and)\s+)", re.IGNORECASE)
_QUOTES = "\"'«»“”„‘’`"

#: code → (rule ID, message) of a comment the parser refuses.
REASONS: dict[str, tuple[str, str]] = {
    "room_names": ("FM-9.3", _("Name the other members after the colon, e.g. “room: Name, Name”.")),
    "room_unknown": ("FM-9.3", _("Nobody in this game is called “%(name)s”.")),
    "room_twice": ("FM-9.3", _("A comment proposes one room; write another post for another room.")),
}


class ProposalError(ValueError):
    """A comment that proposes a room but can't be read: ``code`` (a key of :data:`REASONS`) and its ``params``."""

    def __init__(self, code: str, **params: str):
        self.code = code
        self.params = params
        rule, message = REASONS[code]
        super().__init__(message % params if params else message)

    def rule_error(self) -> RuleError:
        rule, message = REASONS[self.code]
        return RuleError(message, field="comment", rule=rule, params=dict(self.params))


def name_key(name: str) -> str:
    """How a name is compared: spaces collapsed, case folded, ``ё`` as ``е``, without surrounding quotes, a leading
    ``@`` and final ``.``/``!``; spaces around commas inside the name dropped."""
    return re.sub(r"\s*,\s*", ",", _bare(name)).casefold().replace("ё", "е")


def _bare(name: str) -> str:
    """``name`` with spaces collapsed, without surrounding quotes, a leading ``@`` and final ``.``/``!``."""
    return " ".join(str(name).split()).strip(_QUOTES + " ").lstrip("@").rstrip(".! ").strip(_QUOTES + " ")


def has_proposal(text: str) -> bool:
    """Whether ``text`` (a comment) contains a room keyword followed by a colon."""
    return bool(_KEYWORD.search(text or ""))


def parse_proposal(text: str, names: Iterable[str]) -> tuple[list[str], bool] | None:
    """The chat room a post's comment ``text`` proposes: ``(members, conspiracy)`` — ``members`` the named
    characters' names as given in ``names`` (the game's character names), in the order written, each once;
    ``conspiracy`` whether it is the conspirator's room — or ``None`` when the comment proposes no room.

    Raises :class:`ProposalError` for a comment with two keywords (``room_twice``), no name after the colon
    (``room_names``) or a name that is not one of ``names`` (``room_unknown``, naming the first unknown one)."""
    text = text or ""
    found = list(_KEYWORD.finditer(text))
    if not found:
        return None
    if len(found) > 1:
        raise ProposalError("room_twice")
    match = found[0]
    conspiracy = KEYWORDS[match.group(1).casefold()]
    known: dict[str, str] = {}
    for name in names:
        known.setdefault(name_key(name), name)
    parts = _SEPARATOR.split(text[match.end():].strip())
    pieces, separators = parts[0::2], parts[1::2]
    members: list[str] = []
    i = 0
    while i < len(pieces):
        if not name_key(pieces[i]):
            i += 1
            continue
        for j in range(len(pieces), i, -1):  # the longest run of pieces that is a name (a name may hold a comma)
            candidate = "".join(p + (separators[k] if k < j - 1 else "") for k, p in enumerate(pieces[i:j], start=i))
            found_name = known.get(name_key(candidate))
            if found_name is not None:
                if found_name not in members:
                    members.append(found_name)
                i = j
                break
        else:
            raise ProposalError("room_unknown", name=_bare(pieces[i]))
    if not members:
        raise ProposalError("room_names")
    return members, conspiracy
