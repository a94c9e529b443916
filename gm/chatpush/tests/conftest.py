"""Fixtures of the chat and push tests: a real HTTP server on 127.0.0.1 that records every request (no mock of
apprise or pywebpush: they really connect, post and, for Web Push, encrypt), the settings that let targets be
local, the site's VAPID keys, and a browser-side push subscription whose private key the test keeps so it can
decrypt what arrives."""
from __future__ import annotations

import base64
import os
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from gm.chatpush.services.vapid import generate_keys


@dataclass
class Recorded:
    """One request the fake endpoint received."""

    method: str
    path: str
    headers: dict[str, str]
    body: bytes
    received: float = 0.0  # time.monotonic() on arrival


@dataclass
class FakeEndpoint:
    """The server's state: ``requests`` received (in order); ``fail_next`` requests get ``fail_status`` (then
    ``ok_status`` again); ``fail_always`` answers every request with ``fail_status``."""

    port: int = 0
    requests: list[Recorded] = field(default_factory=list)
    ok_status: int = 200
    fail_status: int = 500
    fail_next: int = 0
    fail_always: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock)

    def url(self, path: str = "/hook", scheme: str = "http") -> str:
        return f"{scheme}://127.0.0.1:{self.port}{path}"

    def to(self, path: str) -> list[Recorded]:
        return [r for r in self.requests if r.path.split("?")[0] == path]


def _handler(state: FakeEndpoint):
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802 - http.server's name
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length)
            with state.lock:
                state.requests.append(Recorded("POST", self.path, {k.lower(): v for k, v in self.headers.items()},
                                               body, time.monotonic()))
                if state.fail_always or state.fail_next > 0:
                    state.fail_next = max(0, state.fail_next - 1)
                    status = state.fail_status
                else:
                    status = state.ok_status
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"{}")

        def log_message(self, *args):  # keep the test output clean
            pass

    return Handler


@pytest.fixture
def endpoint(monkeypatch):
    """A real HTTP server in a thread on a free port of 127.0.0.1, recording requests; stopped after the test."""
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.setenv("no_proxy", "127.0.0.1,localhost")
    state = FakeEndpoint()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(state))
    state.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(autouse=True)
def chatpush_settings(settings):
    """Local targets allowed (the fake endpoint), apprise's generic ``json://`` allowed (it posts to the fake
    endpoint), a VAPID key pair, a fixed site address for the links."""
    keys = generate_keys()
    settings.GM_CHATPUSH_ALLOW_LOCAL = True
    settings.GM_CHATPUSH_APPRISE_SERVICES = [*settings.GM_CHATPUSH_APPRISE_SERVICES, "json"]
    settings.GM_WEBPUSH_VAPID_PRIVATE_KEY = keys["private"]
    settings.GM_WEBPUSH_VAPID_PUBLIC_KEY = keys["public"]
    settings.GM_WEBPUSH_VAPID_SUBJECT = "mailto:admin@example.com"
    settings.SITE_URL = "https://gm.example"
    settings.GM_CHATPUSH_DISABLE_AFTER = 5
    settings.GM_CHATPUSH_MAX_ATTEMPTS = 5
    return settings


@dataclass
class Browser:
    """A browser's side of a push subscription: its key pair and auth secret, to decrypt what arrives."""

    private_key: object
    auth: bytes
    p256dh: str

    def subscription(self, endpoint: str) -> dict:
        return {"endpoint": endpoint, "expirationTime": None,
                "keys": {"p256dh": self.p256dh, "auth": base64.urlsafe_b64encode(self.auth).rstrip(b"=").decode()}}

    def decrypt(self, body: bytes) -> bytes:
        import http_ece

        return http_ece.decrypt(body, private_key=self.private_key, auth_secret=self.auth, version="aes128gcm")


@pytest.fixture
def browser() -> Browser:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return Browser(private_key=key, auth=os.urandom(16),
                   p256dh=base64.urlsafe_b64encode(public).rstrip(b"=").decode())
