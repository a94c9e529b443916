"""The forum Mafia signup page (FM-2): the game's rules text and start date, the public signup list, and
- for a logged-in player: the signup form, or his signup with "withdraw" and "edit character" forms (and the
  master's reason if his signup was rejected);
- for the master: every signup with its messengers and a reject form, and the open/close signups buttons.

Plain HTML forms (no JavaScript needed). Views parse input, call one service and redirect back to the page with a
message (PRG); a refused signup or character edit re-renders the page with the errors on the form (status 400).
"""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from gm.core import services as core
from gm.core.forms import ConfirmForm
from gm.core.models import Game
from gm.core.services import ServiceError
from gm.core.web import flash_errors, form_errors, game_or_404, post_action

from ..engine.roles import CUSTOM
from ..forms.signup import PLEDGES, CharacterForm, RejectForm, SignupForm
from ..models import Signup
from ..services import signup as services
from ..services.overrides import stalemate_extend as stalemate_extend_service
from ..texts import public_role_name
from ..texts.roles import CUSTOM_ROLE_TEXT, PUBLIC_ROLE_TEXTS


def _page_url(game: Game) -> str:
    return reverse("forum_mafia:signup", args=[game.pk])


def _character_form(signup: Signup, data=None, files=None) -> CharacterForm:
    initial = {"character_name": signup.character_name, "messengers": signup.messengers, "avatar": signup.avatar}
    return CharacterForm(data, files, initial=initial)


def _render(request, game: Game, *, signup_form=None, character_form=None, status: int = 200):
    user = request.user
    is_master = services.is_master(game, user)
    mine = services.own_signup(game, user) if not is_master else None
    active = mine if mine is not None and mine.status == Signup.Status.ACTIVE else None
    can_sign_up = (user.is_authenticated and not is_master and active is None
                   and game.status == Game.Status.SIGNUP and not game.signups_closed)
    roles = services.role_choices(game)
    if can_sign_up and signup_form is None:
        signup_form = SignupForm(roles=roles)
    if active is not None and character_form is None and not game.is_over:
        character_form = _character_form(active)
    context = {
        "game": game,
        "is_master": is_master,
        "signups": services.signups_for_viewer(game, user),
        "mine": mine,
        "mine_role": public_role_name(mine.public_role_value) if mine else "",
        "can_sign_up": can_sign_up,
        "signup_form": signup_form if can_sign_up else None,
        "character_form": character_form if active is not None else None,
        "can_withdraw": active is not None and game.status == Game.Status.SIGNUP,
        "pledges": PLEDGES,
        "free_roles": [r for r in roles if not r["holder"]],
        "role_texts": [{**r, "text": _(PUBLIC_ROLE_TEXTS.get(r["slug"], ""))} for r in roles]
        + [{"slug": CUSTOM, "name": _("Other"), "holder": "", "text": _(CUSTOM_ROLE_TEXT)}],
        "in_signup": game.status == Game.Status.SIGNUP,
    }
    return render(request, "forum_mafia/signup.html", context, status=status)


def _form_post(request, game: Game, form, save, *, success: str, form_key: str, flash_whole: bool = False):
    """The end of a POST that saves a form of the signup page: a valid ``form`` goes to ``save(cleaned_data)`` (one
    service call); saved, ``success`` is shown back on the page (PRG). Refused, each field error goes next to its
    field and the page is shown again with the form as ``form_key`` (status 400) — or, with ``flash_whole``, a
    refusal of the whole request that is not ``invalid`` (closed, duplicate…: nothing in the form to fix) is shown
    on the page it redirects back to."""
    if form.is_valid():
        try:
            save(form.cleaned_data)
        except ServiceError as exc:
            if flash_whole and set(exc.errors) == {"__all__"} and exc.code != "invalid":
                flash_errors(request, exc)
                return HttpResponseRedirect(_page_url(game))
            form_errors(form, exc)
        else:
            messages.success(request, success)
            return HttpResponseRedirect(_page_url(game))
    return _render(request, game, **{form_key: form}, status=400)


@require_http_methods(["GET", "POST"])
def signup(request, pk: int):
    """GET: the signup page. POST (logged in): sign up (FM-2.1–FM-2.4)."""
    game = game_or_404(request.user, pk, module=services.MODULE)
    if request.method == "GET":
        return _render(request, game)
    if not request.user.is_authenticated:
        return HttpResponseRedirect(f"{reverse('account_login')}?next={_page_url(game)}")
    return _form_post(
        request, game, SignupForm(request.POST, request.FILES, roles=services.role_choices(game)),
        lambda data: services.signup_create(
            game=game, user=request.user, public_role=data["public_role"], custom_role=data["custom_role"],
            character_name=data["character_name"], messengers=data["messengers"], avatar=data["avatar"] or None,
            pledges=data["pledges"]),
        success=_("You have signed up. You can change your character until the game ends."),
        form_key="signup_form", flash_whole=True)


@require_POST
@login_required
def withdraw(request, pk: int):
    """FM-2: withdraw one's signup, once the box ``confirm`` is ticked (unticked, nothing changes)."""
    game = game_or_404(request.user, pk, module=services.MODULE)
    return post_action(request, lambda: services.signup_withdraw(game=game, user=request.user),
                       redirect_to=_page_url(game), success=_("Your signup was withdrawn."),
                       form=ConfirmForm(request.POST))


@require_POST
@login_required
def character(request, pk: int):
    """FM-2.1: change the character's name, avatar and messengers (also after the start)."""
    game = game_or_404(request.user, pk, module=services.MODULE)
    signup = Signup.objects.filter(game=game, user=request.user, status=Signup.Status.ACTIVE).first()
    if signup is None:
        messages.error(request, _("You have not signed up for this game."))
        return HttpResponseRedirect(_page_url(game))
    return _form_post(
        request, game, _character_form(signup, request.POST, request.FILES),
        lambda data: services.character_update(
            game=game, user=request.user, character_name=data["character_name"], messengers=data["messengers"],
            avatar=False if data["avatar"] is False else (data["avatar"] or None)),
        success=_("Your character was saved."), form_key="character_form")


@require_POST
@login_required
def reject(request, pk: int, signup_id: int):
    """FM-2.5: the master rejects a signup, with a reason."""
    game = game_or_404(request.user, pk, module=services.MODULE)
    form = RejectForm(request.POST)

    def reject_signup():
        if not form.is_valid():  # shown like the service's refusals: the message alone
            raise ServiceError({k: list(v) for k, v in form.errors.items()})
        services.signup_reject(game=game, actor=request.user, signup_id=signup_id,
                               reason=form.cleaned_data["reason"])

    return post_action(request, reject_signup, redirect_to=_page_url(game),
                       success=_("The signup was rejected; the player sees your reason."))


SIGNUP_ACTIONS = {
    "open": (lambda game, user: core.game_open_signup(game=game, actor=user), gettext_lazy("Signups are open.")),
    "close": (lambda game, user: core.game_close_signup(game=game, actor=user, closed=True),
              gettext_lazy("Signups are closed.")),
    "reopen": (lambda game, user: core.game_close_signup(game=game, actor=user, closed=False),
               gettext_lazy("Signups are open again.")),
}


@require_POST
@login_required
def signup_status(request, pk: int):
    """FM-2.5: the master opens (``action=open``), closes (``close``) or reopens (``reopen``) signups."""
    game = game_or_404(request.user, pk, module=services.MODULE)
    action = SIGNUP_ACTIONS.get(request.POST.get("action", ""))
    if action is None:
        messages.error(request, _("Unknown action."))
        return HttpResponseRedirect(_page_url(game))
    call, success = action
    return post_action(request, lambda: call(game, request.user), redirect_to=_page_url(game), success=str(success))


@login_required
@require_POST
def stalemate_extend(request, pk: int):
    """FM-10.H1: the master extends a game heading for a stalemate draw (the quiet count starts again), with a
    reason for the audit log; back to the game page with the outcome."""
    game = game_or_404(request.user, pk, module=services.MODULE)
    try:
        count = stalemate_extend_service(game=game, actor=request.user, reason=request.POST.get("reason", ""))
    except ServiceError as exc:
        flash_errors(request, exc)
    else:
        messages.success(request, _("The stalemate count (%(count)s quiet phases) starts again from 0.")
                         % {"count": count})
    return HttpResponseRedirect(reverse("gm:game", args=[game.pk]) + "#fm-stalemate")
