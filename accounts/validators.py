"""Avatar validation: real image content of an allowed type, within the size limit."""
from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext_lazy as _
from PIL import Image, UnidentifiedImageError

ALLOWED_FORMATS = {"JPEG", "PNG", "GIF", "WEBP"}
MAX_SIDE = 4096


def validate_avatar(file) -> None:
    """Raise ``ValidationError`` unless ``file`` is a JPEG/PNG/GIF/WebP image of at most
    ``settings.AVATAR_MAX_BYTES`` bytes and ``MAX_SIDE`` pixels a side (checked on content, not the name)."""
    size = getattr(file, "size", 0) or 0
    if size > settings.AVATAR_MAX_BYTES:
        raise ValidationError(
            _("The avatar is %(size)s; at most %(max)s is allowed."),
            code="too_large",
            params={"size": filesizeformat(size), "max": filesizeformat(settings.AVATAR_MAX_BYTES)},
        )
    try:
        file.seek(0)
        with Image.open(file) as image:
            fmt = image.format
            width, height = image.size
            image.verify()
    except (UnidentifiedImageError, Image.DecompressionBombError, OSError, ValueError, SyntaxError):
        raise ValidationError(
            _("The avatar must be an image (JPEG, PNG, GIF or WebP)."), code="not_image"
        ) from None
    finally:
        file.seek(0)
    if fmt not in ALLOWED_FORMATS:
        raise ValidationError(
            _("Images of type %(type)s are not accepted; use JPEG, PNG, GIF or WebP."),
            code="bad_type", params={"type": fmt},
        )
    if width > MAX_SIDE or height > MAX_SIDE:
        raise ValidationError(
            _("The avatar is %(w)s×%(h)s pixels; at most %(max)s per side."),
            code="too_big", params={"w": width, "h": height, "max": MAX_SIDE},
        )
