"""The words of chat and push messages, in the active language (the fan-out renders them inside the recipient's
``translation.override`` and ``timezone.override``). Every function takes what is already visible to the recipient
and returns ``(title, body)``; none of them reads game data itself."""
from __future__ import annotations

import re
from datetime import datetime

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

#: At most this many public log lines are copied into a "results published" message; the rest is behind the link.
MAX_LINES = 5
#: A mention's snippet of the public post, in characters.
SNIPPET = 200

_BBCODE = re.compile(r"\[/?[a-zA-Z*]+(?:=[^\]]*)?\]")


def when(value: datetime) -> str:
    """``value`` in the active time zone and language's date-and-time format."""
    return date_format(timezone.localtime(value), "DATETIME_FORMAT")


def results(*, game: str, phase: str, public_lines: list[str], private: int) -> tuple[str, str]:
    """A resolved phase: its public lines (at most :data:`MAX_LINES`) and how many lines only the recipient may read
    (their text stays on the site)."""
    title = _("%(game)s: %(phase)s is over") % {"game": game, "phase": phase}
    lines = public_lines[:MAX_LINES]
    if len(public_lines) > MAX_LINES:
        lines.append(_("… and %(count)s more on the site.") % {"count": len(public_lines) - MAX_LINES})
    if private:
        lines.append(ngettext("%(count)s line of the log is for your eyes only: read it on the site.",
                              "%(count)s lines of the log are for your eyes only: read them on the site.",
                              private) % {"count": private})
    return title, "\n".join(lines) or _("See the public log of the game.")


def phase_opened(*, game: str, phase: str, deadline: datetime) -> tuple[str, str]:
    """A phase opened, with its deadline."""
    return (_("%(game)s: %(phase)s has begun") % {"game": game, "phase": phase},
            _("Deadline: %(deadline)s.") % {"deadline": when(deadline)})


def your_move(*, game: str, phase: str, deadline: datetime) -> tuple[str, str]:
    """The recipient's seat has something to do in the phase that opened."""
    return (_("%(game)s: %(phase)s — your move") % {"game": game, "phase": phase},
            _("Give your order before %(deadline)s.") % {"deadline": when(deadline)})


def deadline(*, game: str, phase: str, deadline: datetime, moved: bool) -> tuple[str, str]:
    """The deadline warning; ``moved``: it replaces an earlier warning of this phase whose deadline changed."""
    body = _("You have not given your order yet. Deadline: %(deadline)s.") % {"deadline": when(deadline)}
    if moved:
        body = _("The deadline has moved; this warning replaces the previous one.") + "\n" + body
    return _("%(game)s: %(phase)s ends soon") % {"game": game, "phase": phase}, body


def prod(*, game: str, hours) -> tuple[str, str]:
    """The player has been quiet for ``hours`` hours."""
    return (_("%(game)s: we miss you") % {"game": game},
            _("You have not posted or given an order for %(hours)s hours. Please check in, or ask the master to be "
              "replaced.") % {"hours": hours})


def private_message(*, game: str, sender: str) -> tuple[str, str]:
    """A private message arrived; its text is not copied."""
    return (_("%(game)s: a private message from %(sender)s") % {"game": game, "sender": sender},
            _("Open the game to read it."))


def told(*, game: str) -> tuple[str, str]:
    """The master told the recipient's seat something (its text stays on the site)."""
    return _("%(game)s: news for you") % {"game": game}, _("The master has a line for your eyes only.")


def mention(*, game: str, author: str, text: str) -> tuple[str, str]:
    """``author`` named the recipient in a public post; ``text`` is the post's public BBCode (a snippet is kept)."""
    plain = " ".join(_BBCODE.sub(" ", text).split())
    if len(plain) > SNIPPET:
        plain = plain[:SNIPPET - 1].rstrip() + "…"
    return _("%(game)s: %(author)s mentioned you") % {"game": game, "author": author}, plain


def channel_disabled(*, label: str, failures: int) -> str:
    """Why a channel was disabled (stored on the channel, shown on the profile)."""
    return ngettext("Disabled after %(count)s failed delivery in a row.",
                    "Disabled after %(count)s failed deliveries in a row.", failures) % {"count": failures}
