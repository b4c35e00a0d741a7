"""Reading a user's profile: the one helper every caller uses to get preferences.

Lives in ``accounts`` (which owns ``Profile``) so the framework's emails and services read
preferences downward, and ``accounts`` never reaches up into ``games``.
"""

from __future__ import annotations

from typing import Any

from accounts.models import Profile


def profile_for(user: Any) -> Profile:
    """The user's profile (created on the fly for users made before the signal existed)."""
    try:
        profile: Profile = user.profile
        return profile
    except Profile.DoesNotExist:
        profile, _ = Profile.objects.get_or_create(user=user)
        return profile
