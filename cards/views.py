"""Card pages: the deck builder (htmx, works without JavaScript) and the player's Hand/Sleeve panel."""
from __future__ import annotations

from collections import Counter

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from gm.core import visibility
from gm.core.models import Game, Phase, Seat
from gm.core.services import ServiceError

from . import deckrules, selectors, services
from .domain import COLOURS, TIMINGS

MAX_INPUT_COPIES = 9
TIMING_NAMES = {"night": gettext_lazy("night"), "day": gettext_lazy("day"), "any": gettext_lazy("any phase")}


def _game(request, pk) -> Game:
    return visibility.game_or_404(request.user, pk, uses_cards=True)


def own_seat(request, game) -> Seat:
    """The viewer's seat in ``game``, or 404 (the deck builder and the forum Mafia rebuild page)."""
    seat = Seat.objects.filter(game=game, user=request.user).first()
    if seat is None:
        raise Http404(_("You have no seat in this game."))
    return seat


def _entries_from_post(post, collection) -> tuple[list[dict], list[str]]:
    """Deck entries from the builder's ``n_<slug>`` count inputs and ``nf_<slug>`` (count as non-free) boxes."""
    entries, problems = [], []
    language = translation.get_language() or "ru"
    for kind in collection.buildable():
        raw = post.get(f"n_{kind.slug}", "0").strip() or "0"
        # ASCII digits only and few of them: "²" passes isdigit() but not int(), and int() refuses > 4300 digits.
        if not (raw.isascii() and raw.isdigit()) or len(raw) > 3 or int(raw) > MAX_INPUT_COPIES:
            problems.append(_("“%(card)s”: give a number of copies from 0 to %(max)s.")
                            % {"card": kind.name(language), "max": MAX_INPUT_COPIES})
            continue
        # The spendthrift's box counts every copy of that kind as non-free (FM-4.3).
        extra = {"count_as": deckrules.NON_FREE} if post.get(f"nf_{kind.slug}") == "on" else {}
        entries.extend({"kind": kind.slug, **extra} for _copy in range(int(raw)))
    return entries, problems


def _summary(entries, collection, rules) -> dict:
    """Counters the builder shows: cards per colour, free and non-free (as FM-4.3 counts them)."""
    colours: Counter[str] = Counter()
    free = non_free = 0
    for entry in entries:
        kind = collection.kinds.get(entry["kind"])
        if kind is None or kind.special:
            continue
        colours[kind.colour] += 1
        if rules is not None and rules.counts_as_free(kind, entry.get("count_as")):
            free += 1
        else:
            non_free += 1
    return {"colours": [(c, _(deckrules.COLOUR_NAMES[c]), colours[c]) for c in COLOURS],
            "free": free, "non_free": non_free, "total": len(entries)}


@login_required
def deck_builder(request, pk: int):
    """Build and submit a deck during the deck-building stage (FM-4.3, FM-4.5). Every change is checked live
    (htmx posts the form); the submit button is there only while the stage is open."""
    game = _game(request, pk)
    seat = own_seat(request, game)
    collection = services.collection_for_game(game)
    phase = game.phases.exclude(status=Phase.Status.RESOLVED).first()
    stage_open = phase is not None and phase.kind == services.DECKBUILDING and phase.status == Phase.Status.OPEN
    entries, problems = builder_entries(request, seat, collection)
    status = 200
    rules = builder_rules(seat, problems)
    if request.method == "POST" and request.POST.get("action") == "submit" and not problems:
        try:
            services.deck_submit(game=game, user=request.user, entries=entries)
        except ServiceError as exc:
            problems += [m for msgs in exc.errors.values() for m in msgs]
            status = 400
        else:
            messages.success(request, _("Your deck is saved. You can change it until the deck-building deadline."))
            return HttpResponseRedirect(reverse("cards:deck", args=[game.pk]))
    context = builder_context(request, game=game, seat=seat, collection=collection, entries=entries,
                              problems=problems, rules=rules, can_submit=stage_open)
    return render_builder(request, context, status=status)


def builder_entries(request, seat: Seat, collection) -> tuple[list[dict], list[str]]:
    """The deck the builder shows: the POSTed counts (with problems reading them), else ``seat``'s stored list."""
    if request.method == "POST":
        return _entries_from_post(request.POST, collection)
    return deckrules.normalise_deck(seat.data.get("deck_list") or []), []


def builder_rules(seat: Seat, problems: list[str]):
    """``seat``'s FM-4.3 rules, or ``None`` (the reason appended to ``problems``) if they can't be known yet."""
    try:
        return services.deck_rules_for(seat)
    except ServiceError as exc:
        problems += [m for msgs in exc.errors.values() for m in msgs]
        return None


def builder_context(request, *, game: Game, seat: Seat, collection, entries: list[dict], problems: list[str], rules,
                    can_submit: bool, form_action: str = "", submit_label: str = "", closed_text: str = "",
                    title: str = "", intro: str = "") -> dict:
    """The context of ``cards/deck_builder.html`` / ``cards/_deck_form.html`` for ``entries``: the collection rows
    with filters, the live FM-4.3 check, the counters. A module reuses the builder for another use of a deck list
    (e.g. forum Mafia's rebuild of an exhausted deck, FM-4.7) by giving the form's ``form_action`` (default: this
    page), ``submit_label``, the text shown when it can't submit (``closed_text``), a page ``title`` and ``intro``."""
    params = request.POST if request.method == "POST" else request.GET
    errors = services.render_deck_errors(
        services.deck_check(game=game, seat=seat, entries=entries), collection) if rules is not None else []
    counts = Counter(e["kind"] for e in entries)
    non_free_marked = {e["kind"] for e in entries if e.get("count_as")}
    colour, timing, price = params.get("colour", ""), params.get("timing", ""), params.get("price", "")
    rows = []
    language = request.LANGUAGE_CODE
    for kind in sorted(collection.buildable(), key=lambda k: (COLOURS.index(k.colour), k.name(language))):
        shown = ((not colour or kind.colour == colour) and (not timing or kind.timing == timing)
                 and (not price or str(kind.price) == price))
        rows.append({"kind": kind, "name": kind.name(request.LANGUAGE_CODE), "text": kind.text(request.LANGUAGE_CODE),
                     "colour_name": _(deckrules.COLOUR_NAMES[kind.colour]),
                     "timing_name": TIMING_NAMES[kind.timing],
                     "count": counts.get(kind.slug, 0), "shown": shown, "non_free": kind.slug in non_free_marked,
                     "may_count_non_free": bool(rules and rules.can_count_as_non_free(kind))})
    return {
        "game": game, "seat": seat, "rows": rows, "errors": errors, "problems": problems, "stage_open": can_submit,
        "summary": _summary(entries, collection, rules),
        "rules": rules,
        "colours": [(c, _(deckrules.COLOUR_NAMES[c])) for c in COLOURS],
        "role_colours": [_(deckrules.COLOUR_NAMES[c]) for c in (rules.role_colours if rules else ())],
        "timings": [(t, TIMING_NAMES[t]) for t in TIMINGS],
        "filters": {"colour": colour, "timing": timing, "price": price},
        "saved": seat.data.get("deck_list"),
        "form_action": form_action or reverse("cards:deck", args=[game.pk]),
        "submit_label": submit_label or _("Submit deck"),
        "closed_text": closed_text or _("Decks can be submitted only during the deck-building stage."),
        "title": title or _("Deck builder"),
        "intro": intro,
    }


def render_builder(request, context: dict, *, status: int = 200):
    """The builder page, or its form alone for htmx (the live check swaps it in)."""
    template = "cards/_deck_form.html" if request.htmx else "cards/deck_builder.html"
    return render(request, template, context, status=status)


@login_required
def my_cards(request, pk: int):
    """The player's Hand (ordered, with move buttons), Sleeve, deck count and discard pile; the master sees every
    seat. Others' cards are not shown here (only the published Hand counts on the game page)."""
    game = _game(request, pk)
    viewer = visibility.viewer_for(request.user, game)
    collection = services.collection_for_game(game)
    if viewer.sees_everything:
        views = selectors.game_cards(viewer, collection)
    elif viewer.seat is not None:
        views = [selectors.seat_cards(viewer, viewer.seat, collection)]
    else:
        raise Http404(_("You have no seat in this game."))
    template = "cards/_hand_panel.html" if request.htmx else "cards/my_cards.html"
    # A move made from the game page's panel comes back as that panel (its heading, its "next" field).
    embedded = request.method == "POST" and request.POST.get("next") == "game"
    return render(request, template, {"game": game, "views": views, "viewer": viewer, "embedded": embedded})


@require_POST
@login_required
def hand_move(request, pk: int):
    """Move one Hand card up or down (``uid``, ``direction`` = up|down, ``version``) — drag-free reordering."""
    game = _game(request, pk)
    seat = own_seat(request, game)
    hand = [c["uid"] for c in (seat.data.get("cards") or {}).get("hand", [])]
    try:
        uid, version = int(request.POST.get("uid", "")), int(request.POST.get("version", ""))
    except ValueError:
        messages.error(request, _("That card move was not understood; reload the page."))
        return _back(request, game)
    if uid in hand:
        i = hand.index(uid)
        j = i - 1 if request.POST.get("direction") == "up" else i + 1
        if 0 <= j < len(hand):
            hand[i], hand[j] = hand[j], hand[i]
    else:
        hand = [*hand, uid]  # the service refuses it with a clear message
    try:
        services.hand_reorder(game=game, user=request.user, uids=hand, version=version)
    except ServiceError as exc:
        for msgs in exc.errors.values():
            for msg in msgs:
                messages.error(request, msg)
    return _back(request, game)


def _back(request, game):
    """After a Hand move: the panel again (htmx), else the page the move was made on (``next=game``: the game
    page's cards panel; otherwise the cards page)."""
    if request.htmx:
        return my_cards(request, game.pk)
    if request.POST.get("next") == "game":
        return HttpResponseRedirect(game.get_absolute_url() + "#hand-panel")
    return HttpResponseRedirect(reverse("cards:my_cards", args=[game.pk]))
