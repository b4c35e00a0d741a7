"""Dice Slayer on the framework: starting solo games, the daily challenge and versus
matches, joining an open versus game, and playing a move that resolves at once.

Every game is a ``games.Match`` (docs/design.md: "solo: one move = one step, no deadline;
versus: one phase per turn, the active player awaited"). The services here only compose
the framework's services (``match_create``, ``match_join``, ``match_start``,
``order_submit``, ``phase_close``) and keep the daily-challenge rows in step; the rules
stay in ``diceslayer.engine``.

Instant play: a pick is an order that completes the phase (the engine's ``submit`` says
``done``), so the framework checks the seat in and queues the close on commit. We then
call ``phase_close`` ourselves, synchronously: it is idempotent (a worker that got there
first makes our call a no-op), and it means a solo round resolves inside the request even
when no Celery worker runs. The same goes for a bot seat's turn that opens right after.
"""

from __future__ import annotations

import logging
from datetime import date, datetime, timedelta
from typing import Any, Mapping

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils.crypto import salted_hmac
from django.utils.timezone import now as timezone_now
from django.utils.translation import gettext, gettext_noop

from diceslayer import engine
from diceslayer.emails import challenge_notify
from diceslayer.models import Challenge, DailyAttempt
from games.exceptions import ApplicationError
from games.lib.text import to_json
from games.models import Match, Notification, Phase, Seat
from games.rules import Msg, T, Tn
from games.services.matches import match_create, match_join, match_start
from games.services.orders import order_submit
from games.services.phases import PhaseCloseFailed, phase_close
from games.services.seats import phase_all_checked_in

log = logging.getLogger(__name__)

GAME = engine.SLUG
SOLO_VARIANTS = ("solo", "solo_wild")
VERSUS_VARIANTS = ("versus2", "versus1")
DAILY_VARIANT = "solo"
TURN_HOURS_CHOICES = (1, 4, 12, 24, 48, 72)
DEFAULT_TURN_HOURS = 24

ALREADY_PLAYED_TODAY = gettext_noop(
    "You already started today's challenge: one attempt per player per day.")
NOT_A_SOLO_VARIANT = gettext_noop("Choose solo or solo with wild dice.")
NOT_A_VERSUS_VARIANT = gettext_noop("Choose versus prototype 2 or prototype 1.")
CHALLENGE_YOURSELF = gettext_noop("You cannot challenge yourself.")
NO_SUCH_USER = gettext_noop("There is no player called %(name)s.")
BAD_TURN_HOURS = gettext_noop("The time per turn is one of %(choices)s hours.")
NOT_DICESLAYER = gettext_noop("This is not a Dice Slayer match.")
NOT_OPEN = gettext_noop("This game is no longer open to join.")
CHALLENGE_HOURS = 48
NO_CHALLENGE = gettext_noop("This game has no challenge to answer.")
NOT_YOUR_CHALLENGE = gettext_noop(
    "This challenge is for another player: only they can accept or decline it.")
CHALLENGE_ANSWERED = gettext_noop("This challenge is no longer open (%(status)s).")
CHALLENGE_EXPIRED = gettext_noop(
    "This challenge expired: it was not answered within %(hours)s hours.")
NO_REMATCH = gettext_noop("A rematch is offered to the players of a finished versus game.")


def _declined_summary(name: str) -> Msg:
    return T("%(name)s declined the challenge.", name=name)


def _withdrawn_summary(name: str) -> Msg:
    return T("%(name)s withdrew the challenge.", name=name)


def _expired_summary(hours: int) -> Msg:
    return Tn("The challenge expired unanswered after %(hours)s hour.",
              "The challenge expired unanswered after %(hours)s hours.", hours, hours=hours)


def versus_schedule(hours: float) -> dict[str, Any]:
    """A per-turn deadline of ``hours``: the engine names its versus timing ``normal``, so
    the duration class and the plain duration agree (an admin edits either)."""
    return {"mode": "duration", "hours": hours, "durations": {"normal": int(hours * 3600)}}


def default_schedule(config: Mapping[str, Any]) -> dict[str, Any]:
    """Registry hook: 24 h per versus turn by default (rules §5); solo never has a deadline
    (its phases have timing ``none``)."""
    return versus_schedule(DEFAULT_TURN_HOURS)


def daily_match_seed(day: date) -> str:
    """The seed of ``day``'s challenge matches: the engine's ``daily_seed(day)`` keyed with
    this server's secret. The same for every player here, but not computable from the
    public source code: whoever could compute the seed could predict every roll-in.

    >>> daily_match_seed(date(2026, 11, 30)) == daily_match_seed(date(2026, 11, 30))
    True
    """
    return salted_hmac("diceslayer.daily", engine.daily_seed(day.isoformat()),
                       algorithm="sha256").hexdigest()[:48]


def today(now: datetime | None = None) -> date:
    """The daily challenge's calendar day: the UTC date, the same for everyone."""
    return (now or timezone_now()).date()


# --- solo and the daily challenge ------------------------------------------------------

def solo_start(*, user, variant: str = "solo", now: datetime | None = None) -> Match:
    """A private one-seat match of ``variant``, started: the first roll-in is on the plate."""
    if variant not in SOLO_VARIANTS:
        raise ApplicationError(NOT_A_SOLO_VARIANT, code="INVALID", status=400, field="variant")
    with transaction.atomic():
        match = match_create(game=GAME, name=f"Solo · {user.get_username()}", created_by=user,
                             config={"variant": variant}, min_players=1, max_players=1,
                             is_private=True)
        match_join(match=match, user=user, invite_code=match.invite_code)
        match_start(match=match, now=now)
        _drop_start_mail(match)
    return match


def _drop_start_mail(match: Match) -> None:
    """A solo game needs no "match started" email: the player is looking at it. The rows
    were made in this transaction and their sending is queued on commit; a sender that
    finds no row does nothing."""
    Notification.objects.filter(match=match, kind=Notification.Kind.MATCH_STARTED).delete()


def daily_start(*, user, now: datetime | None = None) -> tuple[DailyAttempt, bool]:
    """Today's attempt of ``user``: ``(attempt, True)`` when this call started it,
    ``(existing, False)`` when the player already had one (it is not started again).

    1. The match is seeded with :func:`daily_match_seed` (``engine.daily_seed(day)``
       keyed with the server secret): everyone gets the same
       roll-ins for the same choices (phase seeds derive from the match seed and the phase
       number, docs/style.md §6).
    2. The ``DailyAttempt`` row is created in the same transaction; the unique
       ``(user, day)`` constraint turns a concurrent second start into a refusal and rolls
       the second match back.
    """
    now = now or timezone_now()
    day = today(now)
    existing = DailyAttempt.objects.filter(user=user, day=day).select_related("match").first()
    if existing is not None:
        return existing, False
    try:
        with transaction.atomic():
            match = match_create(game=GAME, name=f"Daily {day.isoformat()} · {user.get_username()}",
                                 created_by=user, config={"variant": DAILY_VARIANT},
                                 min_players=1, max_players=1, is_private=True)
            seed = daily_match_seed(day)
            Match.objects.filter(pk=match.pk).update(seed=seed)
            match.seed = seed
            attempt = DailyAttempt.objects.create(user=user, day=day, match=match)
            match_join(match=match, user=user, invite_code=match.invite_code)
            match_start(match=match, now=now)
            _drop_start_mail(match)
    except IntegrityError:
        raise ApplicationError(ALREADY_PLAYED_TODAY, code="DAILY_TAKEN", status=409) from None
    attempt.match = match
    return attempt, True


def daily_attempt_sync(*, match: Match, now: datetime | None = None) -> DailyAttempt | None:
    """Copy a finished daily match's final score onto its attempt (idempotent)."""
    if match.status != Match.Status.FINISHED:
        return None
    scores = (match.outcome or {}).get("scores") or {}
    if "0" not in scores:
        return None
    rounds = Phase.objects.filter(match=match, closed_at__isnull=False).count()
    DailyAttempt.objects.filter(match=match, score__isnull=True).update(
        score=int(scores["0"]), rounds=rounds, finished_at=match.finished_at or now
        or timezone_now())
    return DailyAttempt.objects.filter(match=match).first()


# --- versus ------------------------------------------------------------------------------

def user_by_username(name: str):
    """The active user called ``name`` (case-insensitive) or an ApplicationError."""
    name = (name or "").strip()
    user = get_user_model().objects.filter(username__iexact=name, is_active=True).first()
    if user is None:
        raise ApplicationError(gettext(NO_SUCH_USER) % {"name": repr(name)}, code="NO_SUCH_USER", status=400,
                               field="opponent")
    return user


def versus_create(*, challenger, variant: str = "versus2", opponent=None, against_bot: bool = False,
                  turn_hours: float = DEFAULT_TURN_HOURS, target_score: int = 0,
                  bots_enabled: bool = False, rematch_of: Match | None = None,
                  now: datetime | None = None) -> Match:
    """A two-player match.

    - ``opponent`` given: a private challenge (:class:`Challenge`): the challenger is
      seated and the match waits until the opponent accepts (:func:`challenge_accept`,
      it starts then), declines, or lets it expire after ``CHALLENGE_HOURS``.
    - ``against_bot``: the second seat is the game's bot; it starts at once.
    - neither: a public game that waits in the list until someone joins
      (:func:`versus_join` starts it).

    ``turn_hours`` is the per-turn deadline; ``bots_enabled`` lets the bot play a turn
    whose player let the deadline pass (otherwise the rules' stated default is played).
    """
    if variant not in VERSUS_VARIANTS:
        raise ApplicationError(NOT_A_VERSUS_VARIANT, code="INVALID", status=400, field="variant")
    if turn_hours not in TURN_HOURS_CHOICES:
        raise ApplicationError(gettext(BAD_TURN_HOURS) % {
            "choices": ", ".join(map(str, TURN_HOURS_CHOICES))}, code="INVALID", status=400,
            field="turn_hours")
    if opponent is not None and opponent.pk == challenger.pk:
        raise ApplicationError(CHALLENGE_YOURSELF, code="INVALID", status=400, field="opponent")
    config = {"variant": variant, "target_score": target_score if variant == "versus2" else 0}
    who = (opponent.get_username() if opponent is not None else "the bot" if against_bot
           else "anyone")
    now = now or timezone_now()
    with transaction.atomic():
        match = match_create(game=GAME, name=f"{challenger.get_username()} vs {who}",
                             created_by=challenger, config=config, min_players=2, max_players=2,
                             is_private=opponent is not None or against_bot,
                             schedule=versus_schedule(turn_hours), bots_enabled=bots_enabled)
        match_join(match=match, user=challenger, invite_code=match.invite_code)
        if opponent is not None:
            challenge = Challenge.objects.create(
                match=match, challenger=challenger, opponent=opponent, created_at=now,
                rematch_of=rematch_of, expires_at=now + timedelta(hours=CHALLENGE_HOURS))
            challenge_notify(challenge)
        elif against_bot:
            Seat.objects.create(match=match, user=None, is_bot=True)
            match_start(match=match, actor=challenger, now=now)
    _close_ready(match, now=now)
    match.refresh_from_db()
    return match


def versus_join(*, match: Match, user, now: datetime | None = None) -> Match:
    """Join an open versus game; the second player starts it."""
    if match.game != GAME:
        raise ApplicationError(NOT_DICESLAYER, code="INVALID", status=400)
    if match.status != Match.Status.FORMING or match.is_private:
        raise ApplicationError(NOT_OPEN, code="NOT_FORMING", status=409)
    with transaction.atomic():
        match_join(match=match, user=user)
        if match.seats.count() >= match.max_players:
            match_start(match=match, now=now)
    _close_ready(match, now=now)
    match.refresh_from_db()
    return match


# --- challenges: accept, decline, expire, rematch ---------------------------------------

def _cancel_forming(match_id: int, summary: Msg, now: datetime) -> None:
    """Cancel a challenge's match that never started (nobody won, nothing was played)."""
    match = Match.objects.select_for_update().get(pk=match_id)
    if match.status != Match.Status.FORMING:
        return
    match.status = Match.Status.CANCELLED
    match.finished_at = now
    # the summary said again in each reader's language (games.lib.text.outcome_text)
    match.outcome = {"winners": [], "summary": str(summary), "summary_msg": to_json(summary)}
    match.version += 1
    match.save(update_fields=["status", "finished_at", "outcome", "version"])


def _locked_challenge(match: Match) -> Challenge:
    challenge = (Challenge.objects.select_for_update().select_related("challenger", "opponent")
                 .filter(match_id=match.pk).first())
    if challenge is None:
        raise ApplicationError(NO_CHALLENGE, code="NO_CHALLENGE", status=404)
    return challenge


def _expire(challenge: Challenge, now: datetime) -> None:
    challenge.status = Challenge.Status.EXPIRED
    challenge.answered_at = now
    challenge.save(update_fields=["status", "answered_at"])
    _cancel_forming(challenge.match_id, _expired_summary(CHALLENGE_HOURS), now)


def challenge_accept(*, match: Match, user, now: datetime | None = None) -> Match:
    """The challenged player accepts: they take the second seat and the match starts.

    Refused (nothing changes) for anyone but the challenged player (403), for a challenge
    already answered (409), and for one past its expiry (409; it is expired on the spot,
    as the sweep would)."""
    now = now or timezone_now()
    expired = False
    with transaction.atomic():
        challenge = _locked_challenge(match)
        if challenge.opponent_id != getattr(user, "pk", None):
            raise ApplicationError(NOT_YOUR_CHALLENGE, code="NOT_YOUR_CHALLENGE", status=403)
        if not challenge.is_pending:
            raise ApplicationError(gettext(CHALLENGE_ANSWERED) % {
                "status": str(challenge.get_status_display()).lower()}, code="ANSWERED", status=409)
        if challenge.expires_at <= now:
            _expire(challenge, now)
            expired = True
        else:
            match_join(match=match, user=user, invite_code=match.invite_code)
            match_start(match=match, actor=user, now=now)
            challenge.status = Challenge.Status.ACCEPTED
            challenge.answered_at = now
            challenge.save(update_fields=["status", "answered_at"])
    if expired:
        raise ApplicationError(gettext(CHALLENGE_EXPIRED) % {"hours": CHALLENGE_HOURS}, code="EXPIRED",
                               status=409)
    _close_ready(match, now=now)
    match.refresh_from_db()
    return match


def challenge_decline(*, match: Match, user, now: datetime | None = None) -> Match:
    """The challenged player declines (or the challenger withdraws): the match is cancelled.
    Anyone else is refused (403) and nothing changes."""
    now = now or timezone_now()
    with transaction.atomic():
        challenge = _locked_challenge(match)
        uid = getattr(user, "pk", None)
        if uid not in (challenge.opponent_id, challenge.challenger_id):
            raise ApplicationError(NOT_YOUR_CHALLENGE, code="NOT_YOUR_CHALLENGE", status=403)
        if not challenge.is_pending:
            raise ApplicationError(gettext(CHALLENGE_ANSWERED) % {
                "status": str(challenge.get_status_display()).lower()}, code="ANSWERED", status=409)
        declined = uid == challenge.opponent_id
        challenge.status = Challenge.Status.DECLINED if declined else Challenge.Status.WITHDRAWN
        challenge.answered_at = now
        challenge.save(update_fields=["status", "answered_at"])
        summary = (_declined_summary if declined else _withdrawn_summary)(user.get_username())
        _cancel_forming(match.pk, summary, now)
    match.refresh_from_db()
    return match


def challenges_expire(*, now: datetime | None = None, batch: int = 100) -> int:
    """The sweep (beat): every pending challenge past ``expires_at`` expires and its match
    is cancelled. Returns how many expired; safe to run anywhere, any number of times."""
    now = now or timezone_now()
    done = 0
    while True:
        with transaction.atomic():
            due = list(Challenge.objects.select_for_update(skip_locked=True)
                       .filter(status=Challenge.Status.PENDING, expires_at__lte=now)
                       .order_by("expires_at")[:batch])
            for challenge in due:
                _expire(challenge, now)
        done += len(due)
        if len(due) < batch:
            return done


def versus_rematch(*, match: Match, user, now: datetime | None = None) -> Match:
    """A new game with the same rules against the same opponent, from a finished one.

    Against the bot it starts at once. Against a person it is a challenge they accept or
    decline — unless they already offered the rematch: then pressing it accepts theirs.
    Pressing it twice returns the challenge already sent."""
    if match.game != GAME or match.status != Match.Status.FINISHED:
        raise ApplicationError(NO_REMATCH, code="NO_REMATCH", status=409)
    seats = list(match.seats.filter(number__isnull=False).select_related("user"))
    mine = next((s for s in seats if s.user_id == getattr(user, "pk", None)), None)
    if mine is None or len(seats) != 2 or match.config.get("variant") not in VERSUS_VARIANTS:
        raise ApplicationError(NO_REMATCH, code="NO_REMATCH", status=409)
    other = next(s for s in seats if s is not mine)
    offered = (Challenge.objects.filter(rematch_of=match, status=Challenge.Status.PENDING)
               .select_related("match").first())
    if offered is not None:
        if offered.opponent_id == user.pk:
            return challenge_accept(match=offered.match, user=user, now=now)
        return offered.match
    hours = (match.schedule or {}).get("hours", DEFAULT_TURN_HOURS)
    return versus_create(
        challenger=user, variant=match.config["variant"],
        opponent=other.user if not other.is_bot else None, against_bot=other.is_bot,
        turn_hours=hours if hours in TURN_HOURS_CHOICES else DEFAULT_TURN_HOURS,
        target_score=int(match.config.get("target_score") or 0),
        bots_enabled=match.bots_enabled, rematch_of=match, now=now)


# --- playing -----------------------------------------------------------------------------

def _close_ready(match: Match, *, now: datetime | None = None, limit: int = 4) -> None:
    """Close the open phase while it is complete (every awaited seat checked in: the mover
    just moved, or the mover is the bot). Bounded: a bot never answers a bot here."""
    for _ in range(limit):
        phase = Phase.objects.filter(match=match, closed_at__isnull=True).order_by("-number").first()
        if phase is None or not phase.close_when_all_checked_in or not phase_all_checked_in(phase):
            return
        try:
            if not phase_close(phase_id=phase.pk, now=now):
                return
        except PhaseCloseFailed:
            # Recorded and retried by the sweep; the accepted move is kept.
            log.exception("closing match %s phase %s after a move failed", match.pk, phase.pk)
            return


def move_play(*, match: Match, seat: Seat, payload: Any, phase_id: int | None = None,
              version: int | None = None, now: datetime | None = None) -> Match:
    """Play one move and resolve it at once.

    1. ``order_submit`` (the engine validates: a bad pick is an ApplicationError and
       nothing changes; a stale ``phase_id``/``version`` is refused);
    2. close the phase now (and a bot's turn right after), see the module docstring;
    3. a finished daily game copies its score onto the attempt.
    """
    if match.game != GAME:
        raise ApplicationError(NOT_DICESLAYER, code="INVALID", status=400)
    order_submit(match=match, seat=seat, payload=payload, phase_id=phase_id, version=version,
                 now=now)
    _close_ready(match, now=now)
    match.refresh_from_db()
    daily_attempt_sync(match=match, now=now)
    return match
