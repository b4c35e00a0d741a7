"""All settings, read from the environment (docs/style.md §13). Defaults run embedded:
SQLite, no Redis (Celery tasks run inline, the ``run`` command sweeps deadlines), console
email. Production sets DATABASE_URL, REDIS_URL, EMAIL_URL, SECRET_KEY, ALLOWED_HOSTS.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import environ
from django.core.exceptions import ImproperlyConfigured

from config.devkey import dev_secret_key


class Env(environ.FileAwareEnv):
    """django-environ's reader: ``NAME``, or the contents of the file ``NAME_FILE`` names
    (Docker secrets); ``console://`` and ``locmem://`` are kept as short email URLs."""

    EMAIL_SCHEMES = {**environ.Env.EMAIL_SCHEMES,
                     "console": "django.core.mail.backends.console.EmailBackend",
                     "locmem": "django.core.mail.backends.locmem.EmailBackend"}


env = Env()
env_str, env_bool, env_int = env.str, env.bool, env.int

BASE_DIR = Path(__file__).resolve().parents[2]
VAR_DIR = Path(env_str("VAR_DIR", str(BASE_DIR / "var")))

DEBUG = env_bool("DEBUG", False)
# No built-in key: SECRET_KEY (or SECRET_KEY_FILE) from the environment, else the random key
# the embedded server (`manage.py run`, which sets PBW_EMBEDDED) keeps in var/secret_key.
# Anything else without a key fails closed: Django refuses to sign with an empty one.
EMBEDDED = env_bool("PBW_EMBEDDED", False)
SECRET_KEY = env_str("SECRET_KEY", "") or dev_secret_key(VAR_DIR / "secret_key",
                                                            create=EMBEDDED)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", cast=str.strip,
                         default=["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", cast=str.strip, default=[])
SITE_URL = env_str("SITE_URL", "http://localhost:8000").rstrip("/")
SITE_NAME = env_str("SITE_NAME", "Phases")

INSTALLED_APPS = [
    "config.admin_site.SiteAdminConfig",  # django.contrib.admin, lazy app list
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "axes",
    "django_otp",
    "django_otp.plugins.otp_totp",
    "accounts",
    "games",
    "players",
    "press",
    "reach",
    "bench",  # the benches' management commands only: no models, URLs or templates
]
# The game apps, the one list of games: each registers its engine with games.registry in
# AppConfig.ready(); urls, import contracts, type checks and periodic jobs are derived from
# it (docs/adding-a-game.md). GAME_APPS in the environment (comma-separated) replaces it.
GAME_APPS = env.list("GAME_APPS", cast=str.strip,
                     default=["killgame", "diceslayer", "sanguosha"])
INSTALLED_APPS += GAME_APPS

MIDDLEWARE = [
    # first: X-Forwarded-* only from TRUSTED_PROXIES (config/proxies.py)
    "config.proxies.ForwardedHeadersMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # NUL and control characters in the address, query or form: a 400 page, not a 500
    "config.badinput.BadInputMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "config.health.HealthzMiddleware",  # before sessions: the probe ignores cookies
    "config.outage.DatabaseOutageMiddleware",  # database down: 503 + Retry-After
    # the headers of every answer, the poll's early 204 included
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "config.csp.CachedCSPMiddleware",  # django-csp's, the header built once (config/csp.py)
    "config.headers.PermissionsPolicyMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # an unchanged htmx poll answers 204 here: one query, nothing below runs
    "games.middleware.FastPollMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django_otp.middleware.OTPMiddleware",
    "accounts.twofactor.OtpRequiredMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "games.middleware.PresenceMiddleware",
    "accounts.middleware.UserTimezoneMiddleware",
    "axes.middleware.AxesMiddleware",  # last: turns a locked-out login into the 429 page
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [{
    "BACKEND": "django.template.backends.django.DjangoTemplates",
    "DIRS": [BASE_DIR / "templates"],
    "APP_DIRS": True,
    "OPTIONS": {"context_processors": [
        "django.template.context_processors.request",
        "django.contrib.auth.context_processors.auth",
        "django.contrib.messages.context_processors.messages",
        "django.template.context_processors.i18n",
        "config.context_processors.site",
        "games.context_processors.your_move",
    ]},
}]


def database(url: str) -> dict:
    """``DATABASE_URL`` read by django-environ (``postgres://user:pass@host:5432/name``,
    ``sqlite:////absolute/path``), with this project's defaults: PostgreSQL connections
    kept a minute and health-checked, a database that does not answer fails a request in
    seconds (503) not minutes; SQLite waits for its write lock and takes it up front."""
    config = environ.Env.db_url_config(url)
    if config["ENGINE"] == "django.db.backends.postgresql":
        config.setdefault("CONN_MAX_AGE", 60)
        config.setdefault("CONN_HEALTH_CHECKS", True)
        config.setdefault("OPTIONS", {}).setdefault("connect_timeout", 5)
    elif config["ENGINE"] == "django.db.backends.sqlite3":
        config.setdefault("OPTIONS", {}).update({"timeout": 20, "transaction_mode": "IMMEDIATE"})
    return config


DATABASES = {"default": database(env_str("DATABASE_URL", f"sqlite:///{VAR_DIR / 'db.sqlite3'}"))}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env_str("REDIS_URL", "")
# Every key this site writes to Redis starts with this (cache, beat lock, liveness marks).
REDIS_KEY_PREFIX = env_str("REDIS_KEY_PREFIX", "pbw")
# Two caches (docs/operations.md "Redis"): "default" holds what must not be evicted behind
# anyone's back (sessions, throttle counters, presence, unread counts, locks) and lives in
# the Redis of the broker (noeviction); "html" holds rendered HTML (match-page fragments,
# diary sentences), rebuilt on any miss: give it a Redis of its own with a memory limit
# and LRU eviction (CACHE_REDIS_URL; docker-compose.yml does), else it shares REDIS_URL.
CACHE_REDIS_URL = env_str("CACHE_REDIS_URL", "")
HTML_CACHE_ENTRIES = env_int("HTML_CACHE_ENTRIES", 2000)  # the in-process fallback's bound
CACHES: dict[str, dict[str, Any]]
if REDIS_URL:
    # a client per pool; an unreachable Redis is a miss, not an error (config/cache.py)
    CACHES = {"default": {"BACKEND": "config.cache.RedisCache",
                          "LOCATION": REDIS_URL, "KEY_PREFIX": REDIS_KEY_PREFIX,
                          "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 2}},
              "html": {"BACKEND": "config.cache.RedisCache",
                       "LOCATION": CACHE_REDIS_URL or REDIS_URL,
                       "KEY_PREFIX": f"{REDIS_KEY_PREFIX}:html",
                       "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 2}}}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
              "html": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                       "LOCATION": "html", "OPTIONS": {"MAX_ENTRIES": HTML_CACHE_ENTRIES}}}

# After a failed cache call, Redis is not tried again for this long (pages meanwhile read
# the database: docs/operations.md "Outages").
CACHE_RETRY_SECONDS = env_int("CACHE_RETRY_SECONDS", 5)

# New passwords (sign up, change, reset): at least 12 characters, Django's checks, and the
# local lists of accounts/passwords.py (PASSWORD_BLOCKLIST_FILE adds the operator's own,
# e.g. a breach corpus's SHA-1 digests). Existing passwords keep working (the demo's too).
PASSWORD_MIN_LENGTH = env_int("PASSWORD_MIN_LENGTH", 12)
PASSWORD_BLOCKLIST_FILE = env_str("PASSWORD_BLOCKLIST_FILE", "")
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
     "OPTIONS": {"min_length": PASSWORD_MIN_LENGTH}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
    {"NAME": "accounts.passwords.BlocklistValidator"},
]
# Only players who confirmed their address may join matches (accounts/verification.py).
# Off by default so the embedded demo's logins keep working; on in production.
ACCOUNT_EMAIL_VERIFICATION = env_bool("ACCOUNT_EMAIL_VERIFICATION", False)
# Directors: a TOTP second factor (accounts/twofactor.py), required in production, optional
# in the embedded demo (admin/admin on loopback); staff sessions end sooner.
OTP_REQUIRED_FOR_STAFF = env_bool("OTP_REQUIRED_FOR_STAFF", False)
OTP_TOTP_ISSUER = SITE_NAME
OTP_ADMIN_HIDE_SENSITIVE_DATA = True  # the admin never shows a device's secret or QR code
STAFF_SESSION_SECONDS = env_int("STAFF_SESSION_SECONDS", 4 * 3600)
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend",
                           "django.contrib.auth.backends.ModelBackend"]
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "games:lobby"
LOGOUT_REDIRECT_URL = "games:lobby"

LANGUAGE_CODE = "en"
# The languages the games are played in; the catalogues live in locale/ (docs/languages.md).
LANGUAGES = [("en", "English"), ("it", "Italiano"), ("ja", "日本語"), ("es", "Español")]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
USE_TZ = True
TIME_ZONE = "UTC"
DEFAULT_MATCH_TIMEZONE = env_str("DEFAULT_MATCH_TIMEZONE", "Europe/Rome")

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": env_str(
        "STATICFILES_BACKEND", "whitenoise.storage.CompressedManifestStaticFilesStorage")},
}

# Email: EMAIL_URL=console:// (default), smtp://host:1025, smtp+tls://user:pw@host:587
# (STARTTLS), smtp+ssl://user:pw@host:465 (django-environ's email URLs)
# an empty EMAIL_URL (a blank line in .env) is the default, never a parse error
_email = env.email_url_config(env_str("EMAIL_URL", "") or "console://")
if _email.get("OPTIONS"):  # e.g. the old "?tls=1": refused rather than silently ignored
    raise ImproperlyConfigured("EMAIL_URL takes no query; use smtp+tls:// or smtp+ssl://")
EMAIL_BACKEND = _email["EMAIL_BACKEND"]
EMAIL_HOST = _email.get("EMAIL_HOST") or "localhost"
EMAIL_PORT = _email.get("EMAIL_PORT") or 25
EMAIL_HOST_USER = _email.get("EMAIL_HOST_USER") or ""
EMAIL_HOST_PASSWORD = _email.get("EMAIL_HOST_PASSWORD") or ""
EMAIL_USE_TLS = bool(_email.get("EMAIL_USE_TLS"))
EMAIL_USE_SSL = bool(_email.get("EMAIL_USE_SSL"))
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 10)  # a hanging server never holds a sender long
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Phases <noreply@localhost>")
ADMINS = [("Director", a) for a in env.list("ADMIN_EMAILS", cast=str.strip, default=[])]

# Celery: with REDIS_URL a real broker; without, tasks run inline and `manage.py run`
# sweeps deadlines in a thread (the embedded default).
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL", REDIS_URL or "memory://")
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", not REDIS_URL)
CELERY_TASK_EAGER_PROPAGATES = False
CELERY_TIMEZONE = "UTC"
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True  # a killed pool process's task is queued again
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# The garbage collector's thresholds in each worker pool process (config/celery.py):
# young collections every 20,000 allocations instead of 700 ("0,0,0": Python's defaults).
WORKER_GC_THRESHOLD = tuple(int(n) for n in env_str("WORKER_GC_THRESHOLD",
                                                     "20000,20,20").split(",") if int(n)) or None
# Three queues, each with its own workers (docker-compose.yml, docs/operations.md): the
# clock (sweep, phase closes) never waits behind email; everything else is "default".
CELERY_TASK_DEFAULT_QUEUE = "default"
CELERY_TASK_ROUTES = {
    "games.tasks.phases_close_due": {"queue": "clock"},
    "games.tasks.phase_close": {"queue": "clock"},
    "games.tasks.matches_start_due": {"queue": "clock"},
    "games.tasks.notification*": {"queue": "mail"},
    "games.tasks.digests_send": {"queue": "mail"},
}
# Every task has a soft and a hard time limit (these defaults; the clock's tasks set
# shorter ones in games/tasks.py). An unacknowledged message comes back after the
# visibility timeout, sized above the longest hard limit: minutes, not an hour.
CELERY_TASK_SOFT_TIME_LIMIT = 110
CELERY_TASK_TIME_LIMIT = 120
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 300, "socket_connect_timeout": 3}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None  # a long Redis outage never ends a worker
CELERY_BEAT_SWEEP_SECONDS = env_int("CELERY_BEAT_SWEEP_SECONDS", 5)
# One beat sends at a time: celery-redbeat's Redis lock with this time to live, extended
# (or, by a standby, tried) every CELERY_BEAT_MAX_LOOP_INTERVAL seconds (config/beat.py):
# a dead holder is replaced within the sum of the two.
CELERY_BEAT_SCHEDULER = "config.beat:Scheduler"
BEAT_LOCK_TTL_SECONDS = env_int("BEAT_LOCK_TTL_SECONDS", 20)
CELERY_BEAT_MAX_LOOP_INTERVAL = env_int("BEAT_MAX_LOOP_SECONDS", 2)
CELERY_REDBEAT_REDIS_URL = REDIS_URL or CELERY_BROKER_URL
CELERY_REDBEAT_KEY_PREFIX = f"{REDIS_KEY_PREFIX}:beat:"
CELERY_REDBEAT_LOCK_KEY = f"{REDIS_KEY_PREFIX}:beat:lock"
CELERY_REDBEAT_LOCK_TIMEOUT = BEAT_LOCK_TTL_SECONDS
CELERY_REDBEAT_REDIS_OPTIONS = {"socket_timeout": 5, "socket_connect_timeout": 3}
# /healthz: the sweep counts as stopped when its last run is older than this.
HEALTH_SWEEP_MAX_AGE_SECONDS = env_int("HEALTH_SWEEP_MAX_AGE_SECONDS", 60)
# A database outage answers 503 pages with this Retry-After (config/outage.py).
OUTAGE_RETRY_AFTER_SECONDS = env_int("OUTAGE_RETRY_AFTER_SECONDS", 30)

# /metrics for Prometheus (config/metrics.py): a bearer token; without one, only the
# embedded server answers, and only to loopback.
METRICS_TOKEN = env_str("METRICS_TOKEN", "")  # or METRICS_TOKEN_FILE (FileAwareEnv)

# Retention (games/services/retention.py): pruned daily after these many days (0 = keep).
RETENTION_OUTBOX_DAYS = env_int("RETENTION_OUTBOX_DAYS", 30)  # sent / failed emails
RETENTION_SESSION_DAYS = env_int("RETENTION_SESSION_DAYS", 0)  # expired sessions: at once
RETENTION_THROTTLE_DAYS = env_int("RETENTION_THROTTLE_DAYS", 30)  # axes' login records

# The framework's knobs (issue #2).
PHASE_CLOSE_MAX_FAILURES = env_int("PHASE_CLOSE_MAX_FAILURES", 3)
PHASE_CLOSE_RETRY_SECONDS = env_int("PHASE_CLOSE_RETRY_SECONDS", 60)
SWEEP_BATCH_SIZE = env_int("SWEEP_BATCH_SIZE", 200)
# A sweep that finds more due phases than one batch asks this many more sweeps at once
# (games/tasks.py): at least the clock processes less one (docs/operations.md).
SWEEP_HELPERS = env_int("SWEEP_HELPERS", 3)
DEAD_MAN_SWITCH_MINUTES = env_int("DEAD_MAN_SWITCH_MINUTES", 10)
MAX_EXTEND_HOURS = env_int("MAX_EXTEND_HOURS", 48)
DEFAULT_REMINDER_HOURS = env_int("DEFAULT_REMINDER_HOURS", 3)
# Ratings and absence (players app)
RATING_PROVISIONAL_GAMES = env_int("RATING_PROVISIONAL_GAMES", 5)
RATING_SOLO_PAR = env_int("RATING_SOLO_PAR", 80)
AWAY_MAX_DAYS = env_int("AWAY_MAX_DAYS", 14)
AWAY_WINDOW_DAYS = env_int("AWAY_WINDOW_DAYS", 90)
EMERGENCY_PAUSES_PER_MATCH = env_int("EMERGENCY_PAUSES_PER_MATCH", 1)
EMERGENCY_PAUSE_HOURS = env_int("EMERGENCY_PAUSE_HOURS", 24)
# The email outbox (games/services/outbox.py, docs/notifications.md).
# A batch is one claim, one SMTP connection and one render of what its readers share
# (the close's tasks carry this many ids, games/lib/oncommit.py); its lease scales with it
# (0.6 s a message: a relay 50 ms away, four round trips each, uses a third of it).
EMAIL_BATCH_SIZE = env_int("EMAIL_BATCH_SIZE", 100)
EMAIL_CLAIM_SECONDS = env_int("EMAIL_CLAIM_SECONDS", max(60, EMAIL_BATCH_SIZE * 3 // 5))
EMAIL_RETRY_HOURS = env_int("EMAIL_RETRY_HOURS", 24)
EMAIL_DRAIN_TASKS = env_int("EMAIL_DRAIN_TASKS", 4)
EMAIL_QUIET_MINUTES = env_int("EMAIL_QUIET_MINUTES", 10)
EMAIL_ON_PAGE_SECONDS = env_int("EMAIL_ON_PAGE_SECONDS", 120)

# Push, webhooks, calendar (reach/, docs/notifications.md). The VAPID key pair signs web
# pushes: VAPID_PRIVATE_KEY (or VAPID_PRIVATE_KEY_FILE), a PEM or a base64url key; the
# embedded server makes one in var/vapid_private.pem, production never does (no key: no
# push). NOTIFY_ALLOW_LOOPBACK lets push endpoints and webhooks be on this machine (the
# embedded server and tests); never in production (config/settings/production.py).
from reach.vapid import dev_vapid_key  # noqa: E402

VAPID_PRIVATE_KEY = env_str("VAPID_PRIVATE_KEY", "") or dev_vapid_key(
    VAR_DIR / "vapid_private.pem", create=EMBEDDED)
VAPID_SUBJECT = env_str("VAPID_SUBJECT", "")  # mailto:… ; default: DEFAULT_FROM_EMAIL's address
NOTIFY_ALLOW_LOOPBACK = env_bool("NOTIFY_ALLOW_LOOPBACK", EMBEDDED)
NOTIFY_TIMEOUT_SECONDS = env_int("NOTIFY_TIMEOUT_SECONDS", 5)
NOTIFY_CONCURRENCY = env_int("NOTIFY_CONCURRENCY", 8)  # posts in flight per sending process
NOTIFY_DNS_CACHE_SECONDS = env_int("NOTIFY_DNS_CACHE_SECONDS", 30)  # a host's checked answer, kept
WEBHOOK_MAX_FAILURES = env_int("WEBHOOK_MAX_FAILURES", 5)
MAX_PUSH_SUBSCRIPTIONS = env_int("MAX_PUSH_SUBSCRIPTIONS", 10)  # per user
MAX_WEBHOOKS = env_int("MAX_WEBHOOKS", 10)  # per user

# Security: safe defaults, tightened further in production by environment.
# Sessions read from the cache (Redis when configured) and written through to the
# database: a page costs no session query while the cache holds it.
SESSION_ENGINE = env_str("SESSION_ENGINE", "config.sessions")  # cached_db, outage-tolerant
# A session ended while the cache was down is refused by every process (accounts/sessions.py);
# each process re-reads the list of such sessions at most this often.
SESSION_END_CHECK_SECONDS = env_int("SESSION_END_CHECK_SECONDS", 5)
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False  # htmx reads the token from the cookie-free meta tag instead
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
# The reverse proxies in front of the web processes (addresses or networks, comma-separated;
# empty: none). X-Forwarded-* headers count only on connections from them
# (config/proxies.py): the client's address for every throttle, the HTTPS flag.
TRUSTED_PROXIES = env.list("TRUSTED_PROXIES", default=[])
BEHIND_PROXY = env_bool("BEHIND_PROXY", False)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if BEHIND_PROXY else None
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^metrics$"]  # probes and scrapers speak plain HTTP
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", False)
CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES", False)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)

# Throttling (accounts/throttle.py, docs/security.md). Logins, site and admin: django-axes
# over the cache, per IP and per account; a lockout lasts the cool-off and is not extended
# by more failures, so nobody is locked out for good. The rest: django-ratelimit windows.
AXES_HANDLER = "accounts.throttle.AxesHandler"  # fails closed while the cache is down
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 10)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("LOGIN_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = ["ip_address", "username"]
AXES_RESET_ON_SUCCESS = True
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_LOCKOUT_CALLABLE = "accounts.throttle.axes_lockout"
AXES_CLIENT_IP_CALLABLE = "config.proxies.client_ip"
AXES_VERBOSE = False
THROTTLE_RATES = {
    "password_reset_email": "3/h",   # emails to one address
    "password_reset_ip": "20/h",     # reset requests from one address
    "signup_ip": "10/h",             # accounts made from one address
    "api_bad_token_ip": "20/10m",    # wrong API tokens from one address
    "password_confirm": "10/h",      # wrong passwords to delete an account or change its email
}
RATELIMIT_IP_META_KEY = "config.proxies.client_ip"
# Without REDIS_URL the cache is per process: right for the embedded server (one process,
# many threads), not for several web workers (set REDIS_URL there).
SILENCED_SYSTEM_CHECKS = [] if REDIS_URL else ["axes.W001"]

# Headers (docs/security.md): scripts only from our own origin, none inline (templates load
# static/*.js; htmx's indicator <style> is off in base.html's htmx-config); inline styles
# stay allowed (a few templates use style attributes and <style> blocks).
CONTENT_SECURITY_POLICY = {"DIRECTIVES": {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:"],
    "connect-src": ["'self'"],
    "font-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
}}
SECURE_REFERRER_POLICY = "same-origin"  # tokens in our URLs never leave for other sites
PERMISSIONS_POLICY = ("accelerometer=(), camera=(), geolocation=(), gyroscope=(), "
                      "magnetometer=(), microphone=(), payment=(), usb=(), "
                      "interest-cohort=()")

# Error reports (config/errorreports.py): every ERROR record (a 500, a failed task) goes to
# ADMIN_EMAILS grouped by distinct error, at most one per error per interval, sent by a
# thread off the request; or to Sentry when SENTRY_DSN is set. Django's own mail_admins
# handler (one mail per failing request, inside it) is taken off the "django" logger.
ERROR_REPORT_INTERVAL_SECONDS = env_int("ERROR_REPORT_INTERVAL_SECONDS", 600)
SENTRY_DSN = env_str("SENTRY_DSN", "")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"},
                 "error_reports": {"class": "config.errorreports.ThrottledAdminEmailHandler",
                                   "level": "ERROR"}},
    "root": {"handlers": ["console", "error_reports"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {"django": {"handlers": [], "level": "INFO"},  # no mail_admins: see above
                "django.db.backends": {"level": "WARNING"},
                "axes": {"level": "WARNING"}},  # not every login at INFO
}
if SENTRY_DSN:
    from config.errorreports import sentry_init

    sentry_init(SENTRY_DSN, environment=env_str("SENTRY_ENVIRONMENT", "production"),
                release=env_str("SENTRY_RELEASE", "") or None,
                traces_sample_rate=float(env_str("SENTRY_TRACES_SAMPLE_RATE", "0") or 0))
