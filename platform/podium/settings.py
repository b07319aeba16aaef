"""Podium settings: one module, everything that differs between hosts read from the environment.

SQLite by default so a fresh checkout runs; PostgreSQL when DATABASE_URL is set. REDIS_URL is the
Celery broker, result backend and cache. A bad value stops the process at start, naming the variable.
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from podium.env import env_bool, env_float, env_int, env_list, env_str, env_url

PLATFORM_DIR = Path(__file__).resolve().parent.parent
BASE_DIR = PLATFORM_DIR.parent  # the repository root

DEBUG = env_bool("DEBUG", False)
PRODUCTION = env_bool("PODIUM_PRODUCTION", False)

SECRET_KEY = env_str("SECRET_KEY")
if not SECRET_KEY:
    if PRODUCTION:
        raise ImproperlyConfigured("SECRET_KEY must be set when PODIUM_PRODUCTION is true")
    # Development only: a per-checkout key so nothing secret is ever committed.
    _key_file = BASE_DIR / ".secret_key"
    if not _key_file.exists():
        import secrets

        _key_file.write_text(secrets.token_urlsafe(50))
    SECRET_KEY = _key_file.read_text().strip()

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "catalog",
    "jobs",
    "hipho_exams",
    "hanabi_games",
    "chess_positions",
    "leaderboard",
    "api",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "podium.middleware.RejectUnstorableInput",
    "podium.middleware.AdminContentSecurityPolicy",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "podium.urls"
WSGI_APPLICATION = "podium.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [PLATFORM_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "leaderboard.context.families",
            ],
        },
    },
]

DATABASE_URL = env_url(
    "DATABASE_URL",
    f"sqlite:///{BASE_DIR / 'podium.sqlite3'}",
    schemes=("sqlite", "postgres", "postgresql", "pgsql"),
)
DATABASES = {
    "default": dj_database_url.parse(
        DATABASE_URL, conn_max_age=env_int("DB_CONN_MAX_AGE", 60, minimum=0)
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several worker processes write at once; wait for the lock instead of failing.
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 30,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL;",
    }
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    # A file, not memory, so worker processes started by the tests see the test database;
    # one per test session, so two sessions on one checkout never share it.
    (BASE_DIR / "var").mkdir(exist_ok=True)
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / "var" / f"test-{os.getpid()}.sqlite3")}
else:
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    # The connection budget: every process (a thread-pool worker with hundreds of items in
    # flight, a prefork child, a gunicorn worker) draws from one bounded pool of at most
    # PODIUM_DB_POOL_SIZE connections; items give theirs back while they wait on a model. With
    # the README's topology a worker host uses at most POOL x (1 + cores) connections, which the
    # README's budget keeps under PostgreSQL's max_connections. (Pooling needs CONN_MAX_AGE 0.)
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    # (with CONN_HEALTH_CHECKS, Django has the pool check a connection on checkout, so one the
    # server dropped while it sat in the pool is replaced instead of failing the next query)
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 1,
        "max_size": env_int("PODIUM_DB_POOL_SIZE", 8, minimum=1),
        "max_idle": 60.0,
        "timeout": env_float("PODIUM_DB_POOL_TIMEOUT", 30.0, minimum=1.0),
    }
    # One test database per test session, so two sessions on one server never drop each other's.
    DATABASES["default"]["TEST"] = {"NAME": f"test_{DATABASES['default']['NAME']}_{os.getpid()}"}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env_url("REDIS_URL", "redis://127.0.0.1:6379/0", schemes=("redis", "rediss"))


def _next_db(url: str) -> str:
    """The same Redis server, the next database number: the page cache kept out of the
    broker's database (so flushing or evicting one never touches the other)."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    db = parts.path.strip("/") or "0"
    return urlunsplit(parts._replace(path=f"/{int(db) + 1 if db.isdigit() else 1}"))


# Production: point CACHE_URL at a Redis with `maxmemory` and `maxmemory-policy allkeys-lru`
# (the broker's Redis must never evict, so the two should not share an instance).
CACHE_URL = env_url("CACHE_URL", _next_db(REDIS_URL), schemes=("redis", "rediss"))
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": CACHE_URL,
        "KEY_PREFIX": env_str("PODIUM_CACHE_PREFIX", "podium"),
    }
}

# --- Celery -------------------------------------------------------------------------------
CELERY_BROKER_URL = REDIS_URL
CELERY_RESULT_BACKEND = REDIS_URL
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
# Longer than the longest task (a long Hanabi game of an LLM), so Redis never redelivers a
# message that is still being worked on. Crashed workers are recovered by the item lease instead.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 4 * 3600, minimum=60),
    "socket_keepalive": True,
    "retry_on_timeout": True,
}
CELERY_TASK_DEFAULT_QUEUE = env_str("PODIUM_QUEUE", "podium")
# How long a claimed item may go without a heartbeat before another worker takes it over.
PODIUM_ITEM_LEASE_SECONDS = env_int("PODIUM_ITEM_LEASE_SECONDS", 300, minimum=2)
PODIUM_REAPER_INTERVAL_SECONDS = env_float("PODIUM_REAPER_INTERVAL_SECONDS", 30.0, minimum=0.5)
PODIUM_MAX_ITEM_ATTEMPTS = env_int("PODIUM_MAX_ITEM_ATTEMPTS", 3, minimum=1)
# Caps on what one submission may ask for (the API, the admin, `evaluate` and `import_hipho`):
# samples per problem/configuration, and items per job (models x benchmarks x items x samples).
PODIUM_MAX_SAMPLES = env_int("PODIUM_MAX_SAMPLES", 64, minimum=1)
PODIUM_MAX_JOB_ITEMS = env_int("PODIUM_MAX_JOB_ITEMS", 100_000, minimum=1)
# Families declared outside evaluators/registry.py: modules holding FAMILY = FamilySpec(...),
# registered at start (catalog's AppConfig.ready), e.g. a test-only or private plug-in family.
PODIUM_EXTRA_FAMILIES = env_list("PODIUM_EXTRA_FAMILIES", [])
# What the pure packages read (handed to evaluators.config at start, see catalog.apps):
PODIUM_SHARED_DATA = Path(env_str("PODIUM_SHARED_DATA", str(BASE_DIR.parent / "shared" / "data")))
PODIUM_STOCKFISH = env_str("PODIUM_STOCKFISH") or None
PODIUM_CHESS_CACHE_URL = (
    env_str("PODIUM_CHESS_CACHE_URL") or env_str("REDIS_URL") or None
)  # none: in-process cache
CELERY_BEAT_SCHEDULE = {
    "reap-expired-leases": {
        "task": "jobs.reap_expired_items",
        "schedule": PODIUM_REAPER_INTERVAL_SECONDS,
    },
}

# --- Evaluation -------------------------------------------------------------------------
PODIUM_LLM_TIMEOUT_SECONDS = env_float("PODIUM_LLM_TIMEOUT_SECONDS", 600.0, minimum=1.0)
PODIUM_LLM_MAX_RETRIES = env_int("PODIUM_LLM_MAX_RETRIES", 6, minimum=0)
PODIUM_LLM_BACKOFF_BASE_SECONDS = env_float("PODIUM_LLM_BACKOFF_BASE_SECONDS", 1.0, minimum=0.0)
# The host's call service (`manage.py podium_callservice`): unix:/path/to/socket or host:port.
# Workers hand it every model call the response cache cannot answer; it sends the call, stores
# the reply and only then answers, so a worker killed mid-call loses nothing it paid for. Empty:
# the worker sends calls itself (tests of the gateway alone, `manage.py evaluate`), and a worker
# killed mid-call loses the replies it was waiting for.
PODIUM_CALL_SERVICE = env_str("PODIUM_CALL_SERVICE").strip()
if PODIUM_CALL_SERVICE:
    from evaluators.llm_service import parse_address

    try:
        parse_address(PODIUM_CALL_SERVICE)
    except ValueError as exc:
        raise ImproperlyConfigured(f"PODIUM_CALL_SERVICE: {exc}") from None

# --- Static files -------------------------------------------------------------------------
STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(BASE_DIR / "var" / "static")))
STATICFILES_FINDERS = [
    "django.contrib.staticfiles.finders.FileSystemFinder",
    "django.contrib.staticfiles.finders.AppDirectoriesFinder",
    "podium.asset_finders.InstalledAssetsFinder",  # plotly.js and MathJax from their wheels
]
# Where collectstatic has run (production, and `make demo`, which sets PODIUM_STATIC_COLLECTED):
# hashed file names cached for a year and gzip copies that WhiteNoise sends to any browser that
# accepts them (plotly.min.js: 4.8 MB -> 1.4 MB). Elsewhere (tests, runserver) files are served
# straight from the finders, so an edited stylesheet shows at once.
STATIC_COLLECTED = PRODUCTION or env_bool("PODIUM_STATIC_COLLECTED", False)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if STATIC_COLLECTED
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = not STATIC_COLLECTED
if not PRODUCTION:
    STATIC_ROOT.mkdir(parents=True, exist_ok=True)

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

LOGIN_URL = "/admin/login/"

# --- Security -----------------------------------------------------------------------------
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
SECURE_REFERRER_POLICY = "same-origin"
SESSION_COOKIE_HTTPONLY = True
# Error reports never show the process environment (where the models' API keys live).
DEFAULT_EXCEPTION_REPORTER_FILTER = "catalog.reporting.EnvironmentHidingFilter"
if PRODUCTION:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000, minimum=0)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {
        "LiteLLM": {"level": "WARNING"},
        "httpx": {"level": "WARNING"},
    },
}
