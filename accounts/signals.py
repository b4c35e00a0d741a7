"""Every user has a Profile from the moment it exists; a saved profile drops its cached
display preferences."""

from __future__ import annotations

from django.conf import settings
from django.core.cache import cache
from django.contrib.auth.signals import user_logged_in
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from accounts.models import Profile


@receiver(post_save, sender=settings.AUTH_USER_MODEL)
def profile_for_new_user(sender, instance, created, **kwargs):
    if created:
        Profile.objects.get_or_create(user=instance)


@receiver([post_save, post_delete], sender=Profile)
def profile_prefs_forget(sender, instance, **kwargs):
    """A changed time zone or language shows on the next request (the middleware's cache)."""
    from accounts.middleware import prefs_key

    try:
        cache.delete(prefs_key(instance.user_id))
    except Exception:  # noqa: BLE001 - the cache is an accelerator
        pass


@receiver(user_logged_in)
def browser_language_remembered(sender, request, user, **kwargs):
    """The language the browser asks for, kept at each login: what reaches the player
    outside a page (emails, push) is in it while they have chosen none
    (``Profile.reading_language``). One write, only when it changed."""
    from django.utils import translation

    from accounts.profiles import profile_for

    if request is None or not hasattr(request, "META"):
        return
    asked = translation.get_language_from_request(request)
    profile = profile_for(user)
    if asked and profile.browser_language != asked:
        Profile.objects.filter(pk=profile.pk).update(browser_language=asked)
        profile.browser_language = asked


@receiver(user_logged_in)
def staff_sessions_are_short(sender, request, user, **kwargs):
    """A director's session ends after ``STAFF_SESSION_SECONDS`` (players keep the usual
    two weeks): a forgotten admin tab is a smaller risk."""
    if user.is_staff and request is not None and hasattr(request, "session"):
        request.session.set_expiry(settings.STAFF_SESSION_SECONDS)


@receiver(user_logged_in)
def session_listed(sender, request, user, **kwargs):
    """The new session shows on the player's sessions page (``accounts.sessions``)."""
    if request is not None:
        from accounts.sessions import record_login

        record_login(request, user)


@receiver(user_logged_in)
def second_factor_asked(sender, request, user, **kwargs):
    """A player with two-step login on proves a code before anything else
    (``accounts.twofactor``): read once here, not on every request."""
    if request is not None:
        from accounts.twofactor import mark_login

        mark_login(request, user)
