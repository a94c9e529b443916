"""Anonymous games and secret ballots (issue 23, item 10).

With ``GameLife.anonymous`` each seat is known by an alias from the chosen list (``alias_list``, one of
:data:`ALIAS_LISTS`) instead of the name its player chose: the alias *is* the seat's ``display_name`` from the moment
he sits down (:func:`seat_join` hook, and :func:`assign` at the start for seats made otherwise), so the thread,
votes, log, feeds, API, notifications and e-mails — which all name seats by ``display_name`` — show only aliases.
The name he chose is kept in :class:`~gm.core.models.SeatAlias` (``real_name``); the master sees it with the
account name on his console, everyone sees the mapping once the game is over (:func:`reveal`). Account names of
seated players are never shown to other viewers (the anonymity leak audit, ``tests/integration/test_anonymity.py``).

``GameLife.secret_ballot``: while a phase is open, a vote (an order of a kind the module declares public, e.g.
ONUW's day, or forum Mafia's Veche) is shown to others only as a tally without voters (:func:`ballot_tally`); who
voted for whom is shown once the phase is resolved.
"""
from __future__ import annotations

import random
from collections import Counter

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..models import Game, GameLife, Phase, Seat, SeatAlias, life_of
from .base import Clock, ServiceError, audit_write, latest_orders, require_master

#: The alias lists a master chooses from: slug → (name, aliases). Each list has more aliases than any module seats.
ALIAS_LISTS: dict[str, tuple] = {
    "colours": (gettext_lazy("Colours"), [
        "Amber", "Azure", "Beige", "Bronze", "Cerise", "Cobalt", "Coral", "Crimson", "Cyan", "Ebony", "Emerald",
        "Fuchsia", "Gold", "Indigo", "Ivory", "Jade", "Lavender", "Lilac", "Magenta", "Maroon", "Mauve", "Ochre",
        "Olive", "Pearl", "Ruby", "Saffron", "Sapphire", "Scarlet", "Sepia", "Silver", "Teal", "Umber", "Violet"]),
    "greek": (gettext_lazy("Greek letters"), [
        "Alpha", "Beta", "Gamma", "Delta", "Epsilon", "Zeta", "Eta", "Theta", "Iota", "Kappa", "Lambda", "Mu", "Nu",
        "Xi", "Omicron", "Pi", "Rho", "Sigma", "Tau", "Upsilon", "Phi", "Chi", "Psi", "Omega", "Digamma", "Koppa",
        "Sampi", "Heta", "San", "Stigma", "Sho", "Yot"]),
    "birds": (gettext_lazy("Birds"), [
        "Albatross", "Bittern", "Bullfinch", "Buzzard", "Chaffinch", "Cormorant", "Crane", "Cuckoo", "Curlew",
        "Dipper", "Dunlin", "Egret", "Falcon", "Goldcrest", "Grebe", "Heron", "Hoopoe", "Jackdaw", "Kestrel",
        "Kingfisher", "Lapwing", "Linnet", "Magpie", "Merlin", "Nightjar", "Oriole", "Osprey", "Plover", "Raven",
        "Redstart", "Siskin", "Starling", "Swift", "Waxwing", "Wren"]),
}
DEFAULT_LIST = "colours"


def _aliases(game: Game, life: GameLife) -> list[str]:
    names = list(ALIAS_LISTS.get(life.alias_list or DEFAULT_LIST, ALIAS_LISTS[DEFAULT_LIST])[1])
    random.Random(game.rng_seed).shuffle(names)  # the game's own seed: which seat gets which alias is no clue
    return names


def _give(game: Game, life: GameLife, seat: Seat, taken: set[str]) -> None:
    alias = next((a for a in _aliases(game, life) if a.casefold() not in taken), None)
    if alias is None:  # pragma: no cover - every list is longer than any module's seat limit
        alias = f"{_('Player')} {seat.position + 1}"
    SeatAlias.objects.create(seat=seat, alias=alias, real_name=seat.display_name)
    seat.display_name = alias
    seat.save(update_fields=["display_name"])
    taken.add(alias.casefold())


def assign(game: Game) -> None:
    """Give every seat of an anonymous ``game`` without an alias one (idempotent; call under the game's lock)."""
    life = life_of(game)
    if not life.anonymous:
        return
    seats = list(Seat.objects.filter(game=game).order_by("position"))
    have = set(SeatAlias.objects.filter(seat__game=game).values_list("seat_id", flat=True))
    taken = {s.display_name.casefold() for s in seats}  # aliases given, and names chosen (unique per game)
    for seat in seats:
        if seat.pk not in have:
            _give(game, life, seat, taken)


def reveal(game: Game, viewer) -> list[dict]:
    """The alias → player mapping for ``viewer`` (a ``visibility.Viewer``): every seat's ``{"alias", "real_name",
    "account"}`` for the master always and for everyone once the game is over; ``[]`` otherwise or when the game is
    not anonymous."""
    if not life_of(game).anonymous or not (viewer.is_master or viewer.revealed):  # not "the dead see everything"
        return []
    rows = SeatAlias.objects.filter(seat__game=game).select_related("seat__user__profile").order_by("seat__position")
    out = []
    for row in rows:
        user = row.seat.user
        profile = getattr(user, "profile", None)
        account = (getattr(profile, "name", "") or user.get_username()) if user is not None else ""
        out.append({"alias": row.alias, "real_name": row.real_name, "account": account})
    return out


def anonymity_set(*, game: Game, actor, anonymous: bool, alias_list: str = "", secret_ballot: bool = False,
                  reason: str = "", clock: Clock = timezone.now) -> GameLife:
    """Set the anonymity options (master only; audited as ``anonymity``). ``anonymous`` can change only before the
    game starts (turned on in signups, the seats already taken get their aliases at once); ``alias_list``: a key of
    :data:`ALIAS_LISTS` ("" = the default); ``secret_ballot`` any time before the end. Raises
    :class:`ServiceError` ``forbidden``, ``state`` (over, or anonymity changed after the start), field error
    ``alias_list``."""
    require_master(game, actor)
    if alias_list and alias_list not in ALIAS_LISTS:
        raise ServiceError({"alias_list": [_("Choose one of the alias lists.")]})
    with transaction.atomic():
        Phase.objects.select_for_update().filter(game_id=game.pk).exclude(status=Phase.Status.RESOLVED).first()
        game = Game.objects.select_for_update().get(pk=game.pk)
        if game.is_over:
            raise ServiceError(_("The game is over."), code="state")
        life, _created = GameLife.objects.get_or_create(game=game)
        started = game.status not in (Game.Status.DRAFT, Game.Status.SIGNUP)
        if started and (bool(anonymous) != life.anonymous or (alias_list or "") != (life.alias_list or "")):
            raise ServiceError(_("Anonymity is chosen before the game starts."), code="state")
        life.anonymous, life.alias_list, life.secret_ballot = bool(anonymous), alias_list or "", bool(secret_ballot)
        life.save(update_fields=["anonymous", "alias_list", "secret_ballot"])
        game._life_cache = life
        if life.anonymous:
            assign(game)
        audit_write(game=game, actor=actor, action="anonymity", reason=reason,
                    data={"anonymous": life.anonymous, "alias_list": life.alias_list,
                          "secret_ballot": life.secret_ballot}, now=clock())
    return life


def ballot_hidden(game: Game, phase: Phase | None, viewer) -> bool:
    """Whether who voted for whom in ``phase`` is hidden from ``viewer`` now: a secret ballot, a phase not resolved
    yet, and a viewer who is not the master (the game not over)."""
    return (phase is not None and phase.status != Phase.Status.RESOLVED and not viewer.sees_everything
            and life_of(game).secret_ballot)


def ballot_tally(phase: Phase) -> list[dict]:
    """The open ``phase``'s current votes counted without voters: ``[{"lines": [text], "count": n}]``, most first
    (each seat's latest order in words, by the module's ``order_lines``)."""
    from ..spectator import order_lines

    game = phase.game
    seats = list(Seat.objects.filter(game=game).order_by("position"))
    names = {s.pk: s.display_name for s in seats}
    by_id = {s.pk: s for s in seats}
    counts: Counter = Counter()
    for seat_id, payload in latest_orders(phase, seats).items():
        counts[tuple(order_lines(game.game_module, payload, by_id[seat_id].data, names))] += 1
    return [{"lines": list(k), "count": n} for k, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))]
