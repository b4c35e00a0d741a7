"""A player's profile: display time zone, language and email preferences."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

#: the profile's "no language chosen": the pages follow the browser (Accept-Language)
BROWSER_LANGUAGE = ""


class Profile(models.Model):
    class EmailMode(models.TextChoices):
        MY_MOVE = "my_move", "When it's my move"
        PER_PHASE = "per_phase", "Every phase"
        DIGEST = "digest", "Daily digest"
        OFF = "off", "Off"

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="profile")
    timezone = models.CharField(max_length=64, default="UTC")
    language = models.CharField(
        max_length=8, blank=True, default=BROWSER_LANGUAGE,
        choices=[(BROWSER_LANGUAGE, _("My browser's language")), *settings.LANGUAGES],
        help_text=_("Until you choose one, pages follow your browser's language, and emails "
                    "the one it asked for when you last logged in."))
    browser_language = models.CharField(
        max_length=8, blank=True, default="", editable=False,
        help_text="The language the browser asked for at the last login (emails, push and "
                  "the calendar use it while no language is chosen).")
    email_mode = models.CharField(max_length=10, choices=EmailMode.choices,
                                  default=EmailMode.MY_MOVE)
    reminder_hours = models.PositiveSmallIntegerField(
        default=3, help_text="Remind me this many hours before a deadline I have not checked "
                             "in for (0 = never).")
    email_match_events = models.BooleanField(default=True,
                                             help_text="Email me when my matches start and end.")
    email_messages = models.BooleanField(
        default=True, help_text="Email me messages other players send me (set apart from "
                                "phase emails).")
    digest_last_sent_at = models.DateTimeField(null=True, blank=True)
    email_verified_at = models.DateTimeField(
        null=True, blank=True, help_text="When the address was confirmed through the emailed "
                                         "link (needed to join matches when "
                                         "ACCOUNT_EMAIL_VERIFICATION is on).")

    is_bot = models.BooleanField(
        default=False, help_text="A program plays this account (set by the director): shown "
                                 "next to its name, rated apart, and a lobby filter hides "
                                 "or shows its tables.")

    def __str__(self) -> str:
        return f"profile of {self.user}"

    def reading_language(self) -> str:
        """The language of what reaches the player outside a page (emails, push, webhooks,
        the calendar): the chosen one, else the browser's at the last login, else the
        site's."""
        return self.language or self.browser_language or settings.LANGUAGE_CODE


API_KEY_PREFIX = "pbw_"
API_TOKEN_DEFAULT_DAYS = 90


def new_api_key() -> str:
    """A fresh raw key: ``pbw_`` and 40 random URL-safe characters (240 bits)."""
    import secrets

    return API_KEY_PREFIX + secrets.token_urlsafe(30)


def hash_api_key(raw: str) -> str:
    """What is stored and looked up: SHA-256 of the raw key (the key has 240 random bits,
    so a fast hash is enough; nobody can guess a preimage)."""
    import hashlib

    return hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest()


def default_token_expiry():
    from datetime import timedelta

    from django.utils.timezone import now

    return now() + timedelta(days=API_TOKEN_DEFAULT_DAYS)


class ApiToken(models.Model):
    """A key for scripts: ``Authorization: Token <key>`` on the JSON API.

    Stored hashed (``key_hash``): the raw key exists only on the instance that made it
    (``token.key``), shown once on the profile page. A user may have several, each named,
    scoped, expiring and revocable. Every scope reads; ``play`` also submits orders and
    checks in, ``press`` also posts messages, ``lobby`` plays and also creates, joins,
    leaves and starts matches (and declares away periods), ``director`` does the
    director's actions (for staff accounts only), ``all`` does everything: a bot that
    plays cannot write to other players unless it was given that too.
    """

    class Scope(models.TextChoices):
        READ = "read", "Read: my matches, views, diaries and messages"
        PLAY = "play", "Play: also submit orders and check in"
        PRESS = "press", "Press: also post messages"
        LOBBY = "lobby", "Lobby: play, and also create, join, leave and start matches"
        DIRECTOR = "director", "Director: the director's actions (staff only)"
        ALL = "all", "Everything"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="api_tokens")
    name = models.CharField(max_length=100, default="API token")
    scope = models.CharField(max_length=8, choices=Scope.choices, default=Scope.PLAY)
    prefix = models.CharField(max_length=16, editable=False, default="",
                              help_text="The key's first characters, to tell tokens apart.")
    key_hash = models.CharField(max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(default=default_token_expiry)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    key: str | None = None  # the raw key, only on the instance that made it

    class Meta:
        ordering = ["-created_at"]

    def save(self, *args, **kwargs) -> None:
        if not self.key_hash:
            self.key = new_api_key()
            self.key_hash = hash_api_key(self.key)
            self.prefix = self.key[:len(API_KEY_PREFIX) + 4]
        super().save(*args, **kwargs)

    def is_usable(self, now) -> bool:
        return self.revoked_at is None and self.expires_at > now

    #: what each scope may do beyond reading
    GRANTS = {"read": frozenset(), "play": frozenset({"play"}),
              "press": frozenset({"press"}), "lobby": frozenset({"play", "lobby"}),
              "director": frozenset({"director"}),
              "all": frozenset({"play", "press", "lobby", "director"})}

    def allows(self, method: str, need: str = "play") -> bool:
        """Every token reads (GET/HEAD/OPTIONS); anything else needs its scope to grant
        ``need`` ("play": orders and check-ins; "press": messages; "lobby": matches
        created, joined, left, started; "director": the director's actions)."""
        return method in ("GET", "HEAD", "OPTIONS") or need in self.GRANTS.get(self.scope, ())

    def __str__(self) -> str:
        return f"API token {self.name!r} of {self.user} ({self.prefix}…)"


def new_unsubscribe_token() -> str:
    import secrets

    return secrets.token_urlsafe(24)


class UnsubscribeToken(models.Model):
    """The opaque key of a one-click unsubscribe link (``games.lib.unsubscribe``): random,
    stored, one per user and email category, reused by every email of that category, and
    never expiring (an old email's link must keep working). It says nothing about whom it
    belongs to; only this table does."""

    token = models.CharField(max_length=64, unique=True, default=new_unsubscribe_token)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="unsubscribe_tokens")
    category = models.CharField(max_length=20)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "category"],
                                               name="one_unsubscribe_token_per_category")]

    def __str__(self) -> str:
        return f"unsubscribe {self.category} for {self.user}"


class UserSession(models.Model):
    """A logged-in session, listed on the player's sessions page (``accounts.sessions``):
    made at login, renamed when Django cycles the key, marked ended at logout or when the
    player ends it. ``cache_cleared`` False: its cached copy could not be deleted when it
    was ended (the cache was down), so every process refuses that key until a sweep has
    deleted it (fail closed)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="login_sessions")
    session_key = models.CharField(max_length=40, unique=True)
    created_at = models.DateTimeField()
    ip = models.CharField(max_length=64, blank=True)
    user_agent = models.CharField(max_length=200, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    cache_cleared = models.BooleanField(default=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["user", "ended_at"], name="usersession_user_live"),
                   models.Index(fields=["session_key"], name="usersession_uncleared",
                                condition=models.Q(cache_cleared=False))]

    def __str__(self) -> str:
        return f"session of {self.user} from {self.created_at:%Y-%m-%d %H:%M}"
