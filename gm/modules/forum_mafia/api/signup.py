"""Forum Mafia signups REST API (FM-2), under ``/api/games/<id>/signups/``:

- ``GET``: the public signup list (character names, public roles, avatars); the master also gets each
  player's messengers and username.
- ``POST``: sign up (JSON, or multipart with an ``avatar`` file); ``pledges`` must be ``true`` (FM-2.4).
- ``POST withdraw/``: withdraw my signup before the start.
- ``POST character/``: change my character's name, messengers or avatar (FM-2.1; also after the start).
- ``POST <signup_id>/reject/``: the master rejects a signup with a reason (FM-2.5).

Errors have the API's shape ``{"errors": {field: [...]}, "code": slug}`` (see ``gm.core.api.errors``).
"""
from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import parsers, permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from gm.core.services import ServiceError
from gm.core.web import game_or_404

from ..services import signup as services

PARSERS = [parsers.JSONParser, parsers.MultiPartParser, parsers.FormParser]


@extend_schema_field(OpenApiTypes.BINARY)
class AvatarField(serializers.FileField):
    """An uploaded image file (multipart); checked by ``accounts.validators.validate_avatar`` in the service."""


class SignupSerializer(serializers.Serializer):
    """A signup as the viewer may see it (``messengers`` and ``username`` for the master only)."""

    id = serializers.IntegerField()
    character_name = serializers.CharField()
    public_role = serializers.CharField(help_text=gettext_lazy("An FM-8 public role slug, or “custom”."))
    public_role_name = serializers.CharField(help_text=gettext_lazy("In the request's language; the custom name "
                                                                    "for a custom role."))
    custom = serializers.BooleanField()
    avatar_url = serializers.CharField(allow_blank=True)
    messengers = serializers.CharField(required=False, allow_blank=True)
    username = serializers.CharField(required=False)


class OwnSignupSerializer(SignupSerializer):
    """A signup as its own player (or the master) sees it."""

    status = serializers.ChoiceField(choices=["active", "withdrawn", "rejected"])
    messengers = serializers.CharField(allow_blank=True)
    reject_reason = serializers.CharField(allow_blank=True)


class SignupCreateSerializer(serializers.Serializer):
    public_role = serializers.CharField(allow_blank=True,
                                        help_text=gettext_lazy("An FM-8 public role slug, or “custom”."))
    custom_role = serializers.CharField(required=False, allow_blank=True, default="",
                                        help_text=gettext_lazy("The role's name when public_role is “custom”."))
    character_name = serializers.CharField(required=False, allow_blank=True, default="", help_text=gettext_lazy(
        "Optional (FM-2.1): empty or absent means the player's display name (numbered if a seat holds it)."))
    messengers = serializers.CharField(required=False, allow_blank=True, default="",
                                       help_text=gettext_lazy("Messenger identifiers («Appearance», FM-2.1)."))
    avatar = AvatarField(required=False, allow_null=True, default=None,
                                   help_text=gettext_lazy("The character's avatar (multipart only)."))
    pledges = serializers.BooleanField(help_text=gettext_lazy("Must be true: the three pledges accepted (FM-2.4)."))


class CharacterSerializer(serializers.Serializer):
    character_name = serializers.CharField(required=False, allow_blank=True)
    messengers = serializers.CharField(required=False, allow_blank=True)
    avatar = AvatarField(required=False, allow_null=True,
                                   help_text=gettext_lazy("A new avatar (multipart); null removes it."))


class RejectSerializer(serializers.Serializer):
    reason = serializers.CharField(allow_blank=True, help_text=gettext_lazy("Shown to the player; required."))



class SignupListView(APIView):
    """The signups of a forum Mafia game (GET) and signing up (POST)."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    parser_classes = PARSERS

    @extend_schema(operation_id="fm_signups_list", responses=SignupSerializer(many=True),
                   description="The active signups in ring order: character names, public roles (FM-2.2) and "
                               "avatars; for the master also messengers and usernames.")
    def get(self, request, pk):
        game = game_or_404(request.user, pk, module=services.MODULE)
        return Response(SignupSerializer(services.signups_for_viewer(game, request.user), many=True).data)

    @extend_schema(operation_id="fm_signups_create",
                   description="Sign up (FM-2.1–FM-2.4): a public role nobody holds (or custom with a new name), "
                               "optionally a character name, messengers, optionally an avatar (multipart), "
                               "pledges true.",
                   request={"application/json": SignupCreateSerializer,
                            "multipart/form-data": SignupCreateSerializer},
                   responses={201: OwnSignupSerializer})
    def post(self, request, pk):
        game = game_or_404(request.user, pk, module=services.MODULE)
        data = SignupCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        signup = services.signup_create(game=game, user=request.user, **data.validated_data)
        return Response(OwnSignupSerializer(services.signup_detail(signup)).data, status=status.HTTP_201_CREATED)


class SignupWithdrawView(APIView):
    """Withdraw my signup before the game starts."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="fm_signups_withdraw", request=None, responses=OwnSignupSerializer)
    def post(self, request, pk):
        signup = services.signup_withdraw(game=game_or_404(request.user, pk, module=services.MODULE), user=request.user)
        return Response(OwnSignupSerializer(services.signup_detail(signup)).data)


class CharacterView(APIView):
    """Change my character (FM-2.1): any of ``character_name``, ``messengers``, ``avatar``; also after the start."""

    permission_classes = [permissions.IsAuthenticated]
    parser_classes = PARSERS

    @extend_schema(operation_id="fm_signups_character",
                   request={"application/json": CharacterSerializer, "multipart/form-data": CharacterSerializer},
                   responses=OwnSignupSerializer)
    def post(self, request, pk):
        game = game_or_404(request.user, pk, module=services.MODULE)
        data = CharacterSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        if "avatar" in values and values["avatar"] is None:
            values["avatar"] = False  # null removes the avatar
        signup = services.character_update(game=game, user=request.user, **values)
        return Response(OwnSignupSerializer(services.signup_detail(signup)).data)


class SignupRejectView(APIView):
    """FM-2.5: the master rejects a signup with a reason (shown to the player)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="fm_signups_reject", request=RejectSerializer, responses=OwnSignupSerializer)
    def post(self, request, pk, signup_id):
        game = game_or_404(request.user, pk, module=services.MODULE)
        if not services.is_master(game, request.user):  # before the body: anyone else gets 403, not 400
            raise ServiceError(_("Only the game's master may do this."), code="forbidden")
        data = RejectSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        signup = services.signup_reject(game=game, actor=request.user, signup_id=signup_id,
                                        reason=data.validated_data["reason"])
        return Response(OwnSignupSerializer(services.signup_detail(signup)).data)
