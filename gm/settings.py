"""Settings, read from the environment (django-environ).

Embedded defaults need no server: a SQLite file and kombu's filesystem broker. Set ``GM_PROFILE=production``
for the hardened profile that passes ``manage.py check --deploy --fail-level WARNING``.
"""
import sys
from datetime import timedelta
from pathlib import Path

import environ
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

PROFILE = env.str("GM_PROFILE", default="development")
PRODUCTION = PROFILE == "production"

DEV_SECRET_KEY = "dev-only-insecure-key-8c1f0e7a5b2d4c6e9f3a1b7d5e2c4a6f8b0d2e4f6a8c"
#: Keys that appear in this repository or in Django's templates: never acceptable in production.
KNOWN_WEAK_SECRET_KEYS = {DEV_SECRET_KEY, "change-me", "change-me-too", "secret", "changeme"}
SECRET_KEY = env.str("SECRET_KEY", default="" if PRODUCTION else DEV_SECRET_KEY)
if PRODUCTION and (len(SECRET_KEY) < 50 or SECRET_KEY in KNOWN_WEAK_SECRET_KEYS or len(set(SECRET_KEY)) < 5
                   or SECRET_KEY.startswith("django-insecure")):
    raise environ.ImproperlyConfigured(
        "SECRET_KEY is missing or weak: the production profile needs 50 or more random characters, e.g. "
        'python3 -c "import secrets; print(secrets.token_urlsafe(50))"')
DEBUG = env.bool("DEBUG", default=not PRODUCTION)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=[] if PRODUCTION else ["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])
SITE_URL = env.str("SITE_URL", default="http://127.0.0.1:8000")
# The Sites row (SITE_ID) is set from SITE_URL at every migrate (accounts.signals.site_from_settings); its name,
# shown in allauth's e-mails, is SITE_NAME or else the domain.
SITE_NAME = env.str("SITE_NAME", default="")
# Where security researchers report a vulnerability (``/.well-known/security.txt``, RFC 9116): mailto: or https: URI.
GM_SECURITY_CONTACT = env.str("GM_SECURITY_CONTACT", default="mailto:security@localhost")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.sites",
    "django.contrib.sitemaps",
    "allauth",
    "allauth.account",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "health_check",
    "csp",
    "django_filters",
    "django_htmx",
    "django_celery_beat",
    "accounts",
    "cards",
    "gm.core",
    "gm.inbox",
    "gm.chatpush",
    "gm.community",
    "gm.balance",
    "gm.fairplay",
]
# Game modules: a module is a package with a ``module.py`` exposing ``MODULE``; Django-app modules are also
# installed so their templates, migrations and static files are found. GM_EXTRA_MODULES lets tests (and the
# developer demo) add modules that are not shipped to users.
SHIPPED_MODULES = ["gm.modules.forum_mafia", "gm.modules.onuw", "gm.modules.bloodwood", "gm.modules.blood_vengeance",
                   "gm.modules.october_night"]
# An empty GM_MODULES (``GM_MODULES=`` in an env file) would be a site without games: it means the shipped ones.
GM_MODULES = env.list("GM_MODULES", default=SHIPPED_MODULES) or SHIPPED_MODULES
GM_EXTRA_MODULES = env.list("GM_EXTRA_MODULES", default=[])
INSTALLED_APPS += [m for m in GM_MODULES + GM_EXTRA_MODULES if m not in INSTALLED_APPS]

# WhiteNoise serves collected files only; during development Django's finders serve them.
WHITENOISE_AUTOREFRESH = DEBUG
WHITENOISE_USE_FINDERS = DEBUG

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "gm.core.middleware.FriendlyErrorsMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.UserPreferencesMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "gm.core.comaster_middleware.ReadOnlyCoMasterMiddleware",
    "gm.fairplay.middleware.DeviceCookieMiddleware",
]
# Under DEBUG only these clients see Django's technical error pages; everyone else gets the site's own.
INTERNAL_IPS = env.list("INTERNAL_IPS", default=["127.0.0.1", "::1"])

ROOT_URLCONF = "gm.urls"
WSGI_APPLICATION = "gm.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.template.context_processors.tz",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "gm.core.context_processors.site",
                "gm.inbox.context_processors.inbox",
            ],
        },
    },
]

DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'gm.sqlite3'}")}
DATABASES["default"].setdefault("ATOMIC_REQUESTS", False)
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The web process, the worker and beat share one file: wait for locks instead of failing at once.
    DATABASES["default"].setdefault("OPTIONS", {}).update({"timeout": 20, "transaction_mode": "IMMEDIATE"})
else:
    # runserver serves each request in a new thread, so a persistent connection is never reused and idles until
    # CONN_MAX_AGE: connections piled up after a burst. gunicorn's workers and Celery reuse theirs.
    RUNSERVER = len(sys.argv) > 1 and sys.argv[1] == "runserver"
    DATABASES["default"]["CONN_MAX_AGE"] = 0 if RUNSERVER else env.int("CONN_MAX_AGE", default=60)
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
AUTHENTICATION_BACKENDS = [
    # Django's ModelBackend, loading the session's user with his profile, can-host and unread count in one query.
    "accounts.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
    # Sessions logged in before accounts.backends existed name Django's own: still honoured (never reached for a
    # login the first one accepts).
    "django.contrib.auth.backends.ModelBackend",
]
# Django's database sessions, each read with one statement written once per process instead of an ORM query.
SESSION_ENGINE = "accounts.sessions"
SITE_ID = 1
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "username*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = env.str("ACCOUNT_EMAIL_VERIFICATION", default="optional")
ACCOUNT_LOGOUT_ON_GET = False
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
# Failed logins (the form and /api/auth/token/) are counted per account and client IP (accounts.adapter): the
# 11th failure within a minute is refused with 429. The per-IP bound, counted after the per-account one, only
# slows down one address trying many accounts.
ACCOUNT_RATE_LIMITS = {"login_failed": env.str("LOGIN_FAILED_RATE", default="10/m/key,100/m/ip")}
# The client IP is REMOTE_ADDR, or with N trusted proxies in front (each appending to X-Forwarded-For) the N-th
# X-Forwarded-For entry from the right. Set it to exactly the number of your proxies: more lets clients forge it.
ALLAUTH_TRUSTED_PROXY_COUNT = env.int("TRUSTED_PROXY_COUNT", default=0)

# The cache holds the rate-limit counters: it must be shared by every web process in production (Redis, e.g.
# CACHE_URL=redis://redis:6379/1); the default, a per-process memory cache, suits one development server.
CACHES = {"default": env.cache("CACHE_URL", default="locmemcache://")}

# Internationalisation: Russian by default, English available; times stored in UTC, shown in the user's zone.
LANGUAGE_CODE = "ru"
LANGUAGES = [("ru", _("Russian")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
USE_TZ = True
TIME_ZONE = "UTC"
GM_DEFAULT_USER_TIME_ZONE = env.str("GM_DEFAULT_USER_TIME_ZONE", default="Europe/Moscow")

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = env.str("STATIC_ROOT", default=str(VAR_DIR / "static"))
MEDIA_URL = "media/"
MEDIA_ROOT = env.str("MEDIA_ROOT", default=str(VAR_DIR / "media"))
# Uploaded media are served by Django (accounts.views.media: nosniff, only images inline) unless a proxy serves
# MEDIA_ROOT itself, as in production; a proxy must send the same headers (see docker/compose.yaml).
GM_SERVE_MEDIA = env.bool("GM_SERVE_MEDIA", default=not PRODUCTION)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if PRODUCTION
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}
FILE_UPLOAD_MAX_MEMORY_SIZE = 2 * 1024 * 1024
AVATAR_MAX_BYTES = env.int("AVATAR_MAX_BYTES", default=1024 * 1024)

EMAIL_CONFIG = env.email_url("EMAIL_URL", default="consolemail://")
vars().update(EMAIL_CONFIG)
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="gm@localhost")

# REST API
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_PAGINATION_CLASS": "gm.core.api.pagination.Pagination",
    "PAGE_SIZE": 50,
    "EXCEPTION_HANDLER": "gm.core.api.errors.exception_handler",
    # Flood limits (429 with Retry-After); counters in CACHES. Per-seat limits on posts and orders: GM_SEAT_RATES.
    "DEFAULT_THROTTLE_CLASSES": ["gm.core.api.throttles.AnonThrottle", "gm.core.api.throttles.UserThrottle"],
    "DEFAULT_THROTTLE_RATES": {
        "anon": env.str("API_RATE_ANON", default="120/min"),
        "user": env.str("API_RATE_USER", default="600/min"),
        "auth": env.str("API_RATE_AUTH", default="30/min"),
    },
    # The client IP of the throttles: REMOTE_ADDR, or behind proxies the X-Forwarded-For entries they add.
    "NUM_PROXIES": env.int("TRUSTED_PROXY_COUNT", default=0) or None,
}
# How many times a minute one player may post in a game's thread, send a private message (FM-9.2), write in a chat
# room (FM-9.3) or change his order, per game (gm.core.flood); the game's master is exempt; 0 turns a limit off.
GM_SEAT_RATES = {
    "post": env.int("GM_RATE_POSTS", default=10),
    "private": env.int("GM_RATE_PRIVATE", default=5),
    "room": env.int("GM_RATE_ROOM_POSTS", default=20),
    "order": env.int("GM_RATE_ORDERS", default=30),
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Game-master API",
    "DESCRIPTION": "Play-by-post social deduction games: games, phases, orders, the visible log, the thread.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI and Redoc come from drf-spectacular-sidecar's static files: no third-party script or CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# Content-Security-Policy (django-csp 4), enforced on every response. Scripts only from this origin: no inline
# <script>, no on*= handlers (tests/unit/test_csp_templates.py scans every template). Inline *styles* stay
# allowed: htmx injects its indicator style, Swagger UI and a few templates use style attributes, and a style
# cannot run code. Swagger UI and Redoc draw icons from data: URIs; Redoc starts its search worker from a blob.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "worker-src": ["'self'", "blob:"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}

# Celery: kombu's filesystem transport by default (no server); Redis/RabbitMQ through CELERY_BROKER_URL.
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="filesystem://localhost//")
BROKER_DIR = Path(env.str("GM_BROKER_DIR", default=str(VAR_DIR / "broker")))
# Redis and SQS redeliver an unacknowledged message after the visibility timeout; ETA tasks must stay shorter.
CELERY_VISIBILITY_TIMEOUT = env.int("CELERY_VISIBILITY_TIMEOUT", default=3600)
if CELERY_BROKER_URL.startswith("filesystem"):
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(BROKER_DIR / "queue"),
        "data_folder_out": str(BROKER_DIR / "queue"),
        "control_folder": str(BROKER_DIR / "control"),
        "store_processed": False,
    }
else:
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": CELERY_VISIBILITY_TIMEOUT}
CELERY_TASK_DEFAULT_QUEUE = env.str("CELERY_TASK_DEFAULT_QUEUE", default="gm")
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=False)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
# The worker keeps the root logger LOGGING configures (JSON lines) instead of replacing it with Celery's own.
CELERY_WORKER_HIJACK_ROOT_LOGGER = False

# Deadlines (seconds). The sweep is the guarantee; ETA tasks only make resolution prompt.
GM_SWEEP_INTERVAL = env.float("GM_SWEEP_INTERVAL", default=5.0)
GM_RESOLVING_TIMEOUT = env.float("GM_RESOLVING_TIMEOUT", default=300.0)
GM_OVERDUE_AFTER = env.float("GM_OVERDUE_AFTER", default=60.0)
# Outage protection (gm.core.services.outage): a deadline sweep that finds the last successful one older than
# GM_OUTAGE_AFTER seconds moves every open deadline that fell in the gap by the gap plus GM_OUTAGE_GRACE seconds
# before it resolves anything. 0 turns it off.
GM_OUTAGE_AFTER = env.float("GM_OUTAGE_AFTER", default=600.0) or None
GM_OUTAGE_GRACE = env.float("GM_OUTAGE_GRACE", default=900.0)
GM_ETA_MAX = min(env.float("GM_ETA_MAX", default=1800.0), CELERY_VISIBILITY_TIMEOUT * 0.5)
GM_MAX_EXTENSION = env.float("GM_MAX_EXTENSION", default=float(timedelta(days=2).total_seconds()))
# Deadline reminders (gm.inbox): how often beat looks for players to remind, in seconds.
# Live pages (htmx polling), in seconds: the game page's phase card and the thread's "new posts" bar, and the
# header's inbox badge on every page.
GM_LIVE_POLL_SECONDS = env.int("GM_LIVE_POLL_SECONDS", default=30)
GM_INBOX_POLL_SECONDS = env.int("GM_INBOX_POLL_SECONDS", default=60)
GM_REMINDER_INTERVAL = env.float("GM_REMINDER_INTERVAL", default=60.0)
# How many phases one task of a periodic phase sweep (deadline reminders, push warnings) looks at before it hands
# the rest to a task of its own (gm.core.sweeps): a long sweep never holds a worker while deadline tasks wait.
GM_SWEEP_BATCH = env.int("GM_SWEEP_BATCH", default=100)
# Forum life (issue 23): how often beat prods quiet players and ends emergency pauses, in seconds; a player's
# emergency pause lasts at most GM_EMERGENCY_PAUSE_MAX_HOURS and he may take one every GM_EMERGENCY_PAUSE_MONTHS.
GM_ACTIVITY_INTERVAL = env.float("GM_ACTIVITY_INTERVAL", default=60.0)
GM_EMERGENCY_PAUSE_MAX_HOURS = env.int("GM_EMERGENCY_PAUSE_MAX_HOURS", default=72)
GM_EMERGENCY_PAUSE_MONTHS = env.int("GM_EMERGENCY_PAUSE_MONTHS", default=6)
# Seconds one "hour" of the activity options lasts: 3600, except in playtests whose phases last seconds
# (``gm_playtest --flaky-players``), where quiet bots must be prodded and replaced within a game.
GM_ACTIVITY_HOUR = env.float("GM_ACTIVITY_HOUR", default=3600.0)
CELERY_BEAT_SCHEDULE = {
    "gm-sweep-due-phases": {"task": "gm.core.tasks.phases_sweep_task", "schedule": GM_SWEEP_INTERVAL},
    "gm-activity-sweep": {"task": "gm.core.tasks.activity_sweep_task", "schedule": GM_ACTIVITY_INTERVAL},
    "gm-inbox-deadline-reminders": {"task": "gm.inbox.tasks.reminders_sweep_task", "schedule": GM_REMINDER_INTERVAL},
}

# Chat and push notifications (gm.chatpush, issue 24; docs/notifications.md). Attempts per message, the first retry's
# wait doubling up to the cap (seconds), failures in a row that disable a channel, seconds a push service keeps a
# message and one HTTP call may take. GM_CHATPUSH_APPRISE_SERVICES: the apprise protocols users may link;
# GM_CHATPUSH_ALLOW_LOCAL lets targets be on local addresses and push endpoints plain http (tests, development).
# Web Push needs a VAPID key pair: `manage.py gm_vapid_keys` prints one; GM_WEBPUSH_VAPID_SUBJECT is a mailto: or
# https: contact for the push services.
GM_CHATPUSH_MAX_ATTEMPTS = env.int("GM_CHATPUSH_MAX_ATTEMPTS", default=5)
GM_CHATPUSH_BACKOFF = env.float("GM_CHATPUSH_BACKOFF", default=30.0)
GM_CHATPUSH_BACKOFF_MAX = env.float("GM_CHATPUSH_BACKOFF_MAX", default=3600.0)
GM_CHATPUSH_DISABLE_AFTER = env.int("GM_CHATPUSH_DISABLE_AFTER", default=5)
GM_CHATPUSH_TTL = env.int("GM_CHATPUSH_TTL", default=86400)
GM_CHATPUSH_TIMEOUT = env.float("GM_CHATPUSH_TIMEOUT", default=10.0)
GM_CHATPUSH_APPRISE_SERVICES = env.list("GM_CHATPUSH_APPRISE_SERVICES",
                                        default=["discord", "slack", "tgram", "matrix", "matrixs"])
GM_CHATPUSH_ALLOW_LOCAL = env.bool("GM_CHATPUSH_ALLOW_LOCAL", default=False)
GM_WEBPUSH_VAPID_PRIVATE_KEY = env.str("GM_WEBPUSH_VAPID_PRIVATE_KEY", default="")
GM_WEBPUSH_VAPID_PUBLIC_KEY = env.str("GM_WEBPUSH_VAPID_PUBLIC_KEY", default="")
GM_WEBPUSH_VAPID_SUBJECT = env.str("GM_WEBPUSH_VAPID_SUBJECT", default=GM_SECURITY_CONTACT)
CELERY_BEAT_SCHEDULE["gm-chatpush-deadline-warnings"] = {"task": "gm.chatpush.tasks.deadline_sweep_task",
                                                         "schedule": GM_REMINDER_INTERVAL}
# Co-masters (issue 24 item 5): GM_SETUP_REVIEW makes signups wait for a reviewer's approval of the setup (staff or
# the "core.review_setup" permission); a running game whose master did nothing for GM_MASTER_INACTIVE_DAYS days is
# offered to its co-masters or the standby masters ("core.standby_master"), checked every GM_TAKEOVER_INTERVAL s.
GM_SETUP_REVIEW = env.bool("GM_SETUP_REVIEW", default=False)
GM_MASTER_INACTIVE_DAYS = env.float("GM_MASTER_INACTIVE_DAYS", default=3.0)
GM_TAKEOVER_INTERVAL = env.float("GM_TAKEOVER_INTERVAL", default=3600.0)
# Fair-play signals (issue 24 item 6, gm.fairplay): logins keep an HMAC of the IP and of a device cookie's id under
# GM_FAIRPLAY_SECRET (derived from SECRET_KEY when unset) for GM_FAIRPLAY_RETENTION_DAYS; the master's console flags
# seats (and spectators) that shared one in the last GM_FAIRPLAY_WINDOW_DAYS.
GM_FAIRPLAY_SECRET = env.str("GM_FAIRPLAY_SECRET", default="")
GM_FAIRPLAY_RETENTION_DAYS = env.int("GM_FAIRPLAY_RETENTION_DAYS", default=90)
GM_FAIRPLAY_WINDOW_DAYS = env.int("GM_FAIRPLAY_WINDOW_DAYS", default=30)
GM_FAIRPLAY_PURGE_INTERVAL = env.float("GM_FAIRPLAY_PURGE_INTERVAL", default=3600.0)
CELERY_BEAT_SCHEDULE.update({
    "gm-comaster-takeover-sweep": {"task": "gm.core.tasks.comaster_takeover_sweep_task",
                                   "schedule": GM_TAKEOVER_INTERVAL},
    "gm-fairplay-purge": {"task": "gm.fairplay.tasks.fairplay_purge_task", "schedule": GM_FAIRPLAY_PURGE_INTERVAL},
})
# Expired sessions are deleted every GM_SESSION_PURGE_INTERVAL s (what ``manage.py clearsessions`` does by hand).
GM_SESSION_PURGE_INTERVAL = env.float("GM_SESSION_PURGE_INTERVAL", default=86400.0)
CELERY_BEAT_SCHEDULE["gm-sessions-purge"] = {"task": "accounts.tasks.sessions_purge_task",
                                             "schedule": GM_SESSION_PURGE_INTERVAL}
# Rendered game pages (gm.core.page_cache) are kept per viewer until anything the page shows changes (the game's
# stamp, gm.core.page_stamps) and for at most GM_PAGE_CACHE_SECONDS (what the page says about the clock: deadlines,
# away badges); 0 turns the cache off. Stamp rows older than GM_PAGE_STAMP_KEEP s (but each game's newest) are
# pruned every GM_PAGE_STAMP_PRUNE_INTERVAL s.
GM_PAGE_CACHE_SECONDS = env.int("GM_PAGE_CACHE_SECONDS", default=30)
GM_PAGE_STAMP_KEEP = env.float("GM_PAGE_STAMP_KEEP", default=600.0)
GM_PAGE_STAMP_PRUNE_INTERVAL = env.float("GM_PAGE_STAMP_PRUNE_INTERVAL", default=300.0)
CELERY_BEAT_SCHEDULE["gm-page-stamps-prune"] = {"task": "gm.core.tasks.page_stamps_prune_task",
                                                "schedule": GM_PAGE_STAMP_PRUNE_INTERVAL}

# Operations: /health/ fails when a live phase is this many minutes past its deadline; the Celery ping needs a
# broker that broadcasts (not kombu's filesystem transport). /metrics answers the loopback address or a request
# with "Authorization: Bearer <GM_METRICS_TOKEN>".
GM_HEALTH_OVERDUE_MINUTES = env.float("GM_HEALTH_OVERDUE_MINUTES", default=10.0)
GM_HEALTH_CELERY_PING = env.bool("GM_HEALTH_CELERY_PING", default=not CELERY_BROKER_URL.startswith("filesystem"))
GM_METRICS_TOKEN = env.str("GM_METRICS_TOKEN", default="")

# Error tracking: only when SENTRY_DSN is set. No personal data is sent (user names and e-mails stay here).
SENTRY_DSN = env.str("SENTRY_DSN", default="")
if SENTRY_DSN:
    import sentry_sdk
    from sentry_sdk.integrations.celery import CeleryIntegration
    from sentry_sdk.integrations.django import DjangoIntegration

    sentry_sdk.init(
        dsn=SENTRY_DSN,
        environment=env.str("SENTRY_ENVIRONMENT", default=PROFILE),
        integrations=[DjangoIntegration(), CeleryIntegration()],
        traces_sample_rate=env.float("SENTRY_TRACES_SAMPLE_RATE", default=0.0),
        send_default_pii=False,
    )

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "json": {"()": "pythonjsonlogger.json.JsonFormatter", "fmt": "%(asctime)s %(levelname)s %(name)s %(message)s"},
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "json"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    "loggers": {"django.db.backends": {"level": "WARNING"}},
}

if PRODUCTION:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    X_FRAME_OPTIONS = "DENY"

# Community (issue 24): warning points expire after this many days unless staff choose otherwise.
GM_WARNING_DAYS = env.int("GM_WARNING_DAYS", default=90)
