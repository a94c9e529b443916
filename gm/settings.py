"""Settings, read from the environment (django-environ).

Embedded defaults need no server: a SQLite file and kombu's filesystem broker. Set ``GM_PROFILE=production``
for the hardened profile that passes ``manage.py check --deploy --fail-level WARNING``.
"""
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

SECRET_KEY = env.str(
    "SECRET_KEY",
    default="" if PRODUCTION else "dev-only-insecure-key-8c1f0e7a5b2d4c6e9f3a1b7d5e2c4a6f8b0d2e4f6a8c",
)
if not SECRET_KEY:
    raise environ.ImproperlyConfigured("SECRET_KEY must be set in the production profile")
DEBUG = env.bool("DEBUG", default=not PRODUCTION)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=[] if PRODUCTION else ["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])
SITE_URL = env.str("SITE_URL", default="http://127.0.0.1:8000")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.sites",
    "allauth",
    "allauth.account",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "django_filters",
    "django_htmx",
    "django_celery_beat",
    "accounts",
    "cards",
    "gm.core",
    "gm.inbox",
]
# Game modules: a module is a package with a ``module.py`` exposing ``MODULE``; Django-app modules are also
# installed so their templates, migrations and static files are found. GM_EXTRA_MODULES lets tests (and the
# developer demo) add modules that are not shipped to users.
GM_MODULES = env.list("GM_MODULES", default=["gm.modules.forum_mafia", "gm.modules.onuw"])
GM_EXTRA_MODULES = env.list("GM_EXTRA_MODULES", default=[])
INSTALLED_APPS += [m for m in GM_MODULES + GM_EXTRA_MODULES if m not in INSTALLED_APPS]

# WhiteNoise serves collected files only; during development Django's finders serve them.
WHITENOISE_AUTOREFRESH = DEBUG
WHITENOISE_USE_FINDERS = DEBUG

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.UserPreferencesMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "allauth.account.middleware.AccountMiddleware",
]

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
    DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=60)
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
SITE_ID = 1
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "username*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = env.str("ACCOUNT_EMAIL_VERIFICATION", default="optional")
ACCOUNT_LOGOUT_ON_GET = False

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
# Serve MEDIA_ROOT from Django itself: always with DEBUG; the demo (DEBUG off, no web server in front) turns it on.
GM_SERVE_MEDIA = env.bool("GM_SERVE_MEDIA", default=DEBUG)
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
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Game-master API",
    "DESCRIPTION": "Play-by-post social deduction games: games, phases, orders, the visible log, the thread.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
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

# Deadlines (seconds). The sweep is the guarantee; ETA tasks only make resolution prompt.
GM_SWEEP_INTERVAL = env.float("GM_SWEEP_INTERVAL", default=5.0)
GM_RESOLVING_TIMEOUT = env.float("GM_RESOLVING_TIMEOUT", default=300.0)
GM_OVERDUE_AFTER = env.float("GM_OVERDUE_AFTER", default=60.0)
GM_ETA_MAX = min(env.float("GM_ETA_MAX", default=1800.0), CELERY_VISIBILITY_TIMEOUT * 0.5)
GM_MAX_EXTENSION = env.float("GM_MAX_EXTENSION", default=float(timedelta(days=2).total_seconds()))
# Deadline reminders (gm.inbox): how often beat looks for players to remind, in seconds.
GM_REMINDER_INTERVAL = env.float("GM_REMINDER_INTERVAL", default=60.0)
CELERY_BEAT_SCHEDULE = {
    "gm-sweep-due-phases": {"task": "gm.core.tasks.phases_sweep_task", "schedule": GM_SWEEP_INTERVAL},
    "gm-inbox-deadline-reminders": {"task": "gm.inbox.tasks.reminders_sweep_task", "schedule": GM_REMINDER_INTERVAL},
}

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
