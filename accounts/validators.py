"""Uploaded images: the one check and the one clean-up every upload (API, forms, profile, admin) goes through.

:func:`validate_avatar` decides on the file's content, never its name or declared type: an image Pillow recognises
as JPEG, PNG, GIF or WebP (SVG and everything else refused), within ``settings.AVATAR_MAX_BYTES`` bytes,
:data:`MAX_SIDE` pixels a side and :data:`MAX_TOTAL_PIXELS` pixels over all frames. :func:`sanitise_image`
re-encodes an accepted file from its pixels alone (dropping EXIF, ICC profiles, comments and any bytes after the
image, such as an HTML or script tail of a polyglot) under a server-chosen name ``<32 hex digits>.<ext>`` whose
extension is that of the detected format. :class:`SanitisedImageField` runs it on every new file before it
reaches storage, so no path can store an upload as the client sent it.
"""
from __future__ import annotations

import io
import uuid

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.db import models
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext_lazy as _
from PIL import Image, ImageOps, ImageSequence, UnidentifiedImageError

#: Pillow format name → the extension a stored file gets.
EXTENSIONS = {"JPEG": "jpg", "PNG": "png", "GIF": "gif", "WEBP": "webp"}
ALLOWED_FORMATS = set(EXTENSIONS)
MAX_SIDE = 4096
#: width × height × frames: bounds the work of decoding an animation before it is re-encoded.
MAX_TOTAL_PIXELS = 40_000_000
#: image metadata kept when re-encoding: only what drawing the pixels needs.
_KEPT_INFO = ("transparency", "duration", "loop", "background", "disposal")

_NOT_IMAGE = _("The avatar must be an image (JPEG, PNG, GIF or WebP).")
_IMAGE_ERRORS = (UnidentifiedImageError, Image.DecompressionBombError, OSError, ValueError, SyntaxError, EOFError)


def _inspect(file) -> str:
    """Check ``file`` (see :func:`validate_avatar`) and return its Pillow format name."""
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
            frames = getattr(image, "n_frames", 1) if fmt in ALLOWED_FORMATS else 1
            image.verify()
    except _IMAGE_ERRORS:
        raise ValidationError(_NOT_IMAGE, code="not_image") from None
    finally:
        file.seek(0)
    if fmt not in ALLOWED_FORMATS:
        raise ValidationError(
            _("Images of type %(type)s are not accepted; use JPEG, PNG, GIF or WebP."),
            code="bad_type", params={"type": fmt},
        )
    if width > MAX_SIDE or height > MAX_SIDE or width * height * frames > MAX_TOTAL_PIXELS:
        raise ValidationError(
            _("The avatar is %(w)s×%(h)s pixels; at most %(max)s per side."),
            code="too_big", params={"w": width, "h": height, "max": MAX_SIDE},
        )
    return fmt


def validate_avatar(file) -> None:
    """Raise ``ValidationError`` (codes ``too_large``, ``not_image``, ``bad_type``, ``too_big``) unless ``file`` (a
    seekable file object with an optional ``size``) is a JPEG/PNG/GIF/WebP image of at most
    ``settings.AVATAR_MAX_BYTES`` bytes, ``MAX_SIDE`` pixels a side and ``MAX_TOTAL_PIXELS`` pixels in all its
    frames. Decided on the content, never the name or the declared content type."""
    _inspect(file)


def _clean_frame(frame: Image.Image) -> Image.Image:
    clean = frame.copy()
    clean.info = {key: frame.info[key] for key in _KEPT_INFO if key in frame.info}
    return clean


def sanitise_image(file) -> ContentFile:
    """Check ``file`` with :func:`validate_avatar` (its ``ValidationError`` propagates) and return a new
    ``ContentFile`` named ``<uuid hex>.<jpg|png|gif|webp>``: the same format re-encoded from the pixels (every
    frame of an animation), the JPEG orientation applied, and nothing else of the original kept."""
    fmt = _inspect(file)
    out = io.BytesIO()
    try:
        with Image.open(file) as image:
            frames = [_clean_frame(frame) for frame in ImageSequence.Iterator(image)]
    except _IMAGE_ERRORS:
        raise ValidationError(_NOT_IMAGE, code="not_image") from None
    finally:
        file.seek(0)
    if fmt == "JPEG":
        frames = [ImageOps.exif_transpose(frames[0])]
        frames[0].info = {}
    first, rest = frames[0], frames[1:]
    options: dict = {}
    if rest:
        options = {"save_all": True, "append_images": rest,
                   "duration": [f.info.get("duration", 100) for f in frames], "loop": first.info.get("loop", 0)}
    if fmt == "JPEG":
        options["quality"] = 90
        if first.mode not in ("RGB", "L", "CMYK"):
            first = first.convert("RGB")
    elif fmt == "GIF" and "transparency" in first.info:
        options["transparency"] = first.info["transparency"]
    first.save(out, format=fmt, **options)
    return ContentFile(out.getvalue(), name=f"{uuid.uuid4().hex}.{EXTENSIONS[fmt]}")


class SanitisedImageField(models.ImageField):
    """An ``ImageField`` that stores every new file through :func:`sanitise_image` (a server-chosen name with the
    detected format's extension, re-encoded, metadata gone). Views and services still validate first with
    :func:`validate_avatar` so the user sees a field error; a file that reaches ``save()`` unchecked and is not an
    accepted image raises ``ValidationError`` instead of being stored.

    It migrates as a plain ``ImageField`` (the sanitising changes nothing in the database)."""

    def pre_save(self, model_instance, add):
        file = getattr(model_instance, self.attname)
        if file and not file._committed:
            clean = sanitise_image(file.file)
            file.save(clean.name, clean, save=False)
        return getattr(model_instance, self.attname)

    def deconstruct(self):
        name, _path, args, kwargs = super().deconstruct()
        return name, "django.db.models.ImageField", args, kwargs
