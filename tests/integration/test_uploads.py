"""Uploaded images: a GIF/HTML polyglot sent as ``poly.html`` (and an SVG) through the API, the signup page's form
and the profile form is either refused or stored re-encoded under a server-chosen ``<hex>.gif`` name with no byte
of the script left; media are served with ``nosniff``, and anything that is not an image only as an attachment."""
from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from PIL import Image

from accounts.models import Profile
from accounts.validators import sanitise_image
from gm.core import services as core
from gm.modules.forum_mafia.models import Signup
from gm.modules.forum_mafia.services import signup as fm
from tests.helpers import client_for

pytestmark = pytest.mark.django_db

SCRIPT = b"<html><script>alert(document.cookie)</script></html>"
SVG = b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'
SAFE_NAME = re.compile(r"[0-9a-f]{32}\.(png|jpg|gif|webp)")


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


def image(fmt: str, size=(6, 6), **save) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB" if fmt != "GIF" else "P", size, 3).save(buf, format=fmt, **save)
    return buf.getvalue()


def polyglot(name: str = "poly.html") -> SimpleUploadedFile:
    """A valid GIF with an HTML page after its trailer, named (by default) and typed as HTML."""
    return SimpleUploadedFile(name, image("GIF") + SCRIPT, content_type="text/html")


def svg() -> SimpleUploadedFile:
    return SimpleUploadedFile("face.svg", SVG, content_type="image/svg+xml")


def assert_stored_safely(field_file) -> None:
    name = Path(field_file.name).name
    assert SAFE_NAME.fullmatch(name), field_file.name
    data = Path(field_file.path).read_bytes()
    assert b"<script" not in data and b"<html" not in data
    with Image.open(io.BytesIO(data)) as stored:
        assert stored.format == "GIF" and name.endswith(".gif")
    # only what the pixels need is left: no file of the client's naming anywhere under MEDIA_ROOT
    assert not [p for p in Path(field_file.storage.location).rglob("*") if p.suffix in (".html", ".svg")]


@pytest.fixture
def fm_game(master):
    game = core.game_create(master=master, module="forum_mafia", title="Uploads", rng_seed=1)
    core.game_open_signup(game=game, actor=master)
    return game


def test_polyglot_through_the_api_is_stored_as_a_gif_under_a_safe_name(fm_game, players):
    fm.signup_create(game=fm_game, user=players[0], public_role="paranoid", character_name="Vasya", pledges=True)
    client = client_for(players[0])
    response = client.post(f"/api/games/{fm_game.pk}/signups/character/", {"avatar": polyglot()})
    assert response.status_code == 200, response.content
    signup = Signup.objects.get(game=fm_game, user=players[0])
    assert_stored_safely(signup.avatar)
    response = client.post(f"/api/games/{fm_game.pk}/signups/character/", {"avatar": svg()})
    assert response.status_code == 400 and set(response.json()["errors"]) == {"avatar"}


def test_polyglot_through_the_api_signup_is_stored_safely(fm_game, players):
    response = client_for(players[1]).post(
        f"/api/games/{fm_game.pk}/signups/",
        {"public_role": "geek", "character_name": "Olya", "pledges": "true", "avatar": polyglot()})
    assert response.status_code == 201, response.content
    assert_stored_safely(Signup.objects.get(game=fm_game, user=players[1]).avatar)


def test_polyglot_through_the_signup_page_form_is_refused_or_stored_safely(fm_game, players, settings):
    client = client_for(players[0])
    url = reverse("forum_mafia:signup", args=[fm_game.pk])
    form = {"public_role": "paranoid", "character_name": "Vasya", "messengers": "", "pledges": "on"}
    # named .html: Django's image field refuses the extension, nothing is stored
    response = client.post(url, {**form, "avatar": polyglot()})
    assert response.status_code == 400 and "avatar" in response.context["signup_form"].errors
    assert not Signup.objects.exists() and not Path(settings.MEDIA_ROOT).exists()
    # named .gif: accepted, and stored re-encoded under a name of the server's
    response = client.post(url, {**form, "avatar": polyglot("poly.gif")})
    assert response.status_code == 302, response.content[:500]
    assert_stored_safely(Signup.objects.get(game=fm_game, user=players[0]).avatar)
    response = client.post(reverse("forum_mafia:character", args=[fm_game.pk]),
                           {"character-character_name": "Vasya", "character-messengers": "",
                            "character-avatar": svg()})
    assert response.status_code == 400
    assert_stored_safely(Signup.objects.get(game=fm_game, user=players[0]).avatar)


def test_polyglot_through_the_profile_form_is_refused_or_stored_safely(players, settings):
    client = client_for(players[0])
    form = {"display_name": "", "messengers": "", "language": "en", "time_zone": "UTC"}
    for refused in (polyglot(), svg()):
        response = client.post(reverse("profile"), {**form, "avatar": refused})
        assert response.status_code == 200 and "avatar" in response.context["form"].errors
        assert not Path(settings.MEDIA_ROOT).exists()
    response = client.post(reverse("profile"), {**form, "avatar": polyglot("poly.gif")})
    assert response.status_code == 302
    assert_stored_safely(Profile.objects.get(user=players[0]).avatar)


def test_model_save_without_a_form_still_sanitises(players):
    profile, _ = Profile.objects.get_or_create(user=players[0])
    profile.avatar = polyglot()
    profile.save()
    assert_stored_safely(profile.avatar)


@pytest.mark.parametrize("fmt,ext", [("PNG", "png"), ("JPEG", "jpg"), ("GIF", "gif"), ("WEBP", "webp")])
def test_every_accepted_format_is_re_encoded_without_metadata(fmt, ext):
    exif = Image.Exif()
    exif[0x010E] = "secret description"  # ImageDescription
    content = image(fmt, exif=exif.tobytes()) if fmt != "GIF" else image(fmt, comment=b"secret description")
    assert b"secret description" in content
    clean = sanitise_image(SimpleUploadedFile(f"x.{ext}", content))
    assert SAFE_NAME.fullmatch(clean.name) and clean.name.endswith(f".{ext}")
    data = clean.read()
    assert b"secret description" not in data
    with Image.open(io.BytesIO(data)) as stored:
        assert stored.format == fmt and stored.size == (6, 6)


def test_an_animated_gif_keeps_its_frames():
    buf = io.BytesIO()
    frames = [Image.new("RGB", (4, 4), (80 * i, 0, 0)) for i in range(3)]
    frames[0].save(buf, format="GIF", save_all=True, append_images=frames[1:], duration=50, loop=0)
    assert Image.open(io.BytesIO(buf.getvalue())).n_frames == 3
    clean = sanitise_image(SimpleUploadedFile("a.gif", buf.getvalue() + SCRIPT))
    with Image.open(clean) as stored:
        assert stored.n_frames == 3
    assert SCRIPT not in clean.read()


def test_media_are_served_with_nosniff_and_non_images_only_as_attachments(settings, players):
    profile, _ = Profile.objects.get_or_create(user=players[0])
    profile.avatar = polyglot()
    profile.save()
    # a file stored before uploads were re-encoded, under the attacker's name
    legacy = Path(settings.MEDIA_ROOT) / "avatars" / "legacy" / "poly.html"
    legacy.parent.mkdir(parents=True)
    legacy.write_bytes(image("GIF") + SCRIPT)
    client = client_for(None)
    response = client.get(profile.avatar.url)
    assert response.status_code == 200
    assert response["Content-Type"] == "image/gif"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response.get("Content-Disposition", "inline").startswith("inline")
    response = client.get("/media/avatars/legacy/poly.html")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/octet-stream"
    assert response["Content-Disposition"] == "attachment"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert client.get("/media/avatars/none.png").status_code == 404
