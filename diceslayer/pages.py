"""What the Dice Slayer play page and its htmx fragments show, built from the engine's
``player_view`` (and, for the replay, from positions rebuilt by ``replay_steps``) plus the
seat's own diary rows — never from raw state (docs/design.md "Hidden information"). Dice Slayer
hides nothing, but the board still goes through the one door.

The hint (the bot's move and its reason) and the "scoring picks" list are computed by the
engine from the same position and passed as plain dicts.
"""

from __future__ import annotations

from typing import Any, Mapping
from urllib.parse import urlencode

from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from accounts.names import shown_name
from diceslayer import engine
from diceslayer.engine.describe import PATTERNS
from diceslayer.engine.state import VARIANT_LABELS as _ENGINE_VARIANT_LABELS
from diceslayer.models import Challenge, DailyAttempt
from games import selectors as game_selectors
from games.lib import htmlcache
from games.lib import pages as game_pages
from games.lib.text import outcome_text
from games.lib.text import say as say_text
from games.models import Match, Seat

RECENT_EVENTS = 14
SHARE_URL_NAME = "diceslayer:daily"
KEYBOARD_HELP = gettext_lazy(
    "Keyboard: press 1–6 to pick a die of that face; H asks for a hint; S shows the picks that "
    "score — while the focus is on the board (Tab to a die).")
KEYBOARD_HELP_VERSUS = gettext_lazy(
    "Keyboard: press 1–6 to pick a die of that face from your field (Shift+1–6 from your "
    "opponent's); H asks for a hint; S shows the picks that score — while the focus is on the "
    "board (Tab to a die).")


def names_by_seat(match: Match) -> dict[int, str]:
    seats = Seat.objects.filter(match=match, number__isnull=False).select_related("user")
    return {s.number: (shown_name(s.user.get_username()) if s.user_id else _("The bot"))
            for s in seats}


def _dice_row(faces: list[int], highlight: set[int], keyed: bool,
              hinted: int | None = None) -> list[dict[str, Any]]:
    """Dice of a plate or field with the data the buttons need: the first die of each face
    carries the keyboard key (1–6 pick that face); ``hinted`` marks the bot's pick."""
    out, seen = [], set()
    for face in faces:
        first = face not in seen
        out.append({"face": face, "key": keyed and first, "hot": face in highlight,
                    "hinted": first and face == hinted})
        seen.add(face)
    return out


def _player_panel(p: dict[str, Any], *, name: str, mine: bool, limit: int,
                  highlight: set[int], hinted: int | None = None) -> dict[str, Any]:
    stock = list(p["stock"])
    return {
        "seat": p["seat"], "name": name, "mine": mine, "score": p["score"],
        "dice": _dice_row(p["plate"], highlight, keyed=True, hinted=hinted),
        "count": len(p["plate"]),
        "stock": stock, "stock_slots": stock + [None] * (3 - len(stock)),
        "wild": p["wild"], "grace": p["grace"], "next_roll_in": p["next_roll_in"],
        "limit": limit, "danger": len(p["plate"]) >= limit - 2,
    }


def named_lines(lines: Any, names: dict[int, str], viewer: int | None) -> list[str]:
    """Diary sentences as text (the framework already named the players: the engine's
    ``describe(..., names=)``); :func:`named` for lines written without names."""
    return [named(line.text, names, viewer) for line in lines]


def named(text: str, names: Mapping[int, str], viewer: int | None) -> str:
    """A sentence not from ``describe`` (the outcome's summary) with "Player N" turned into
    usernames (``viewer`` becomes "You")."""
    for seat, name in names.items():
        text = text.replace(f"Player {seat + 1}", _("You") if seat == viewer else name)
    return text


def outcome_sentence(outcome: Mapping[str, Any] | None, view: Mapping[str, Any],
                     names: Mapping[int, str], viewer: int | None) -> str:
    """The result in the reader's language, from the outcome's winners and scores and the
    view's end reason (the stored summary is the engine's English)."""
    if not outcome:
        return ""
    scores = {int(k): v for k, v in (outcome.get("scores") or {}).items()}
    if not scores or outcome.get("ended_by_director"):
        return outcome_text(outcome)
    if view.get("variant") in ("solo", "solo_wild"):
        return _("Final score %(score)s.") % {"score": scores.get(0, 0)}
    a, b = scores.get(0, 0), scores.get(1, 0)
    winners = outcome.get("winners") or []
    if not winners:
        return _("Draw at %(a)s–%(b)s.") % {"a": a, "b": b}
    w = winners[0]
    if w == viewer:
        text = {"overflow": _("You won by overflow (%(a)s–%(b)s)."),
                "target": _("You won by reaching the target score (%(a)s–%(b)s)."),
                "exhausted": _("You won on points (%(a)s–%(b)s).")}.get(
            view.get("end_reason"), _("You won (%(a)s–%(b)s)."))
        return _with_why(text % {"a": a, "b": b}, view)
    text = {"overflow": _("%(who)s won by overflow (%(a)s–%(b)s)."),
            "target": _("%(who)s won by reaching the target score (%(a)s–%(b)s)."),
            "exhausted": _("%(who)s won on points (%(a)s–%(b)s).")}.get(
        view.get("end_reason"), _("%(who)s won (%(a)s–%(b)s)."))
    return _with_why(text % {"who": names.get(w, _("Player %(number)s") % {"number": w + 1}),
                             "a": a, "b": b}, view)


def _with_why(result: str, view: Mapping[str, Any]) -> str:
    """The result and why it was decided (an overflow loses whatever the scores, which is
    why a higher score can lose)."""
    why = {"overflow": _("Ending a turn with 10 or more dice on the field loses, whatever "
                         "the scores."),
           "exhausted": _("No die was left to take, so the higher score won."),
           "target": _("The first to reach the target score wins.")}.get(view.get("end_reason"))
    return f"{result} {why}" if why else result


def share_text(attempt: DailyAttempt, view: dict[str, Any], url: str) -> str:
    """The short result a player pastes into a chat."""
    score = view["players"][0]["score"]
    rounds = attempt.rounds if attempt.rounds is not None else view["turn"]
    return _("Dice Slayer daily %(day)s: %(score)s points in %(rounds)s rounds. Same dice for "
             "everyone — beat me: %(url)s") % {"day": attempt.day.isoformat(), "score": score,
                                               "rounds": rounds, "url": url}


VARIANT_LABELS = {v.value: label for v, label in _ENGINE_VARIANT_LABELS.items()}
#: the engine's variant labels (the view's ``variant_label``), for the catalogue
_VARIANT_LABELS_MARKED = (gettext_lazy("Solo"), gettext_lazy("Solo with wild dice"),
                          gettext_lazy("Versus, prototype 1 — most games end 0–0 (grace zones)"),
                          gettext_lazy("Versus, prototype 2 (attacks and the bomb)"))


def challenge_context(match: Match, user: Any) -> dict[str, Any]:
    """What the play page says about a challenge: who challenged whom, its state and, for
    the challenged player, the accept and decline buttons while it is open."""
    if not match.is_private or match.config.get("variant") not in ("versus1", "versus2"):
        return {"challenge": None}  # only a private versus game can be a challenge
    challenge = Challenge.objects.select_related("challenger", "opponent").filter(
        match_id=match.pk).first()
    if challenge is None:
        return {"challenge": None}
    uid = getattr(user, "pk", None)
    return {
        "challenge": challenge,
        "challenge_for_me": challenge.is_pending and uid == challenge.opponent_id,
        "challenge_mine": uid == challenge.challenger_id,
        "variant_label": _(VARIANT_LABELS[match.config.get("variant")])
        if match.config.get("variant") in VARIANT_LABELS else "",
        "turn_hours": (match.schedule or {}).get("hours"),
    }


def rematch_context(match: Match, seat: Any) -> dict[str, Any]:
    """The rematch button under a finished versus game, for its players; it says so when
    the opponent already offered one (pressing it then accepts theirs)."""
    if (match.status != Match.Status.FINISHED or seat is None
            or match.config.get("variant") not in ("versus1", "versus2")):
        return {"can_rematch": False}
    offered = (Challenge.objects.filter(rematch_of=match, status=Challenge.Status.PENDING)
               .select_related("challenger").first())
    return {"can_rematch": True, "rematch_url": reverse("diceslayer:rematch", args=[match.pk]),
            "rematch_offer": offered,
            "rematch_from_them": offered is not None and offered.challenger_id != seat.user_id}


BOARD_TEMPLATES = ["diceslayer/fragments/board.html"]


def kept_board(request: HttpRequest, match: Match, *, hint: bool = False,
               patterns: bool = False) -> dict[str, Any]:
    """The board (``board_html``) read from the HTML cache when it holds it, else rendered
    from :func:`board_context` and kept (games/lib/htmlcache.py). Its key holds what it
    shows: the match's public version and roster, the reader (a seat with its own version,
    or the spectators' view), the open phase and its deadline, the status, the hint and
    scoring-picks switches, the daily attempt's score and, after the game, the rematch
    offer; the language and time zone. Also the page keys, so the press panel is kept
    under the same reader. Refusals (an error) are never kept: the caller renders
    :func:`board_context` for them."""
    rows = game_pages.seat_rows(match)
    game_pages.remember_seat(match, request.user, rows)  # seat_of from these rows
    seat = game_pages.seat_of(match, request.user)
    seated = seat if seat is not None and seat.number is not None else None
    keys = htmlcache.page_keys(match, seated, False, rows)
    live = match.status in game_pages.LIVE_STATUSES
    phase = game_selectors.current_phase(match) if live else None
    attempt = DailyAttempt.objects.filter(match=match).first()
    rematch = rematch_context(match, seat)
    offer = rematch.get("rematch_offer")
    key = htmlcache.fragment_key(keys["reader"], "ds-board", [
        int(hint), int(patterns), match.status, phase.pk if phase else "-",
        phase.deadline_at.timestamp() if phase and phase.deadline_at else "-",
        (attempt.pk, attempt.score) if attempt is not None else "-", int(rematch["can_rematch"]),
        (offer.pk, offer.challenger_id) if offer is not None else "-",
        request.scheme, request.get_host()])  # the share text's address
    board, = htmlcache.kept_html(request, key, BOARD_TEMPLATES, lambda: board_context(
        request, match, hint=hint, patterns=patterns,
        known={"phase": phase, "attempt": attempt, "rematch": rematch,
               "names": {r.number: (shown_name(r.username) if r.user_id else _("The bot"))
                         for r in rows if r.number is not None}}))
    return {"board_html": board, "seat": seat, htmlcache.KEYS_NAME: keys, "seats": rows}


def scoring_text(e: Mapping[str, Any], *, solo: bool) -> str:
    """One scoring pick as a whole sentence in the active language ("Pick a 3: a run,
    removes 2-3-4 for +9 (clears the plate)."): the catalogue orders the words."""
    face = e["face"]
    if e["from"] == "wild":
        move = _("Wild die as a %(face)s") % {"face": face}
    elif e["from"] == "opponent":
        move = _("Take their %(face)s") % {"face": face}
    else:
        move = _("Pick a %(face)s") % {"face": face}
    values = {"move": move, "pattern": say_text(PATTERNS.get(e["pattern"], e["pattern"])),
              "removes": "-".join(str(f) for f in e.get("removes") or []),
              "points": e["points"]}
    if not e.get("clears"):
        return _("%(move)s: %(pattern)s, removes %(removes)s for +%(points)s.") % values
    if solo:
        return _("%(move)s: %(pattern)s, removes %(removes)s for +%(points)s (clears the "
                 "plate).") % values
    return _("%(move)s: %(pattern)s, removes %(removes)s for +%(points)s (clears the "
             "field).") % values


def board_context(request: HttpRequest, match: Match, *, hint: bool = False,
                  patterns: bool = False, error: str | None = None,
                  known: dict[str, Any] | None = None) -> dict[str, Any]:
    """Everything ``templates/diceslayer/fragments/board.html`` shows (``known``: the
    open phase, daily attempt and rematch context :func:`kept_board` already read)."""
    known = known or {}
    seat = game_pages.seat_of(match, request.user)
    number = seat.number if seat is not None else None
    state = engine.load(match.state)
    view = engine.player_view(state, number)
    if view.get("variant_label"):
        view["variant_label"] = _(view["variant_label"])
    live = match.status in game_pages.LIVE_STATUSES
    phase = (known["phase"] if "phase" in known
             else game_selectors.current_phase(match) if live else None)
    names = known["names"] if "names" in known else names_by_seat(match)
    solo = view["variant"] in ("solo", "solo_wild")
    limit = view["limits"].get("game_over_at") or view["limits"].get("loss_at") or 0
    scoring = engine.scoring_picks(state, number) if patterns and number is not None else []
    for e in scoring:
        e["text"] = scoring_text(e, solo=view["variant"] in ("solo", "solo_wild"))
    hot_own = {e["face"] for e in scoring if e["from"] == "own"}
    hot_opp = {e["face"] for e in scoring if e["from"] == "opponent"}
    me_n = number if number is not None else 0
    can_move = bool(view["your_turn"] and match.status == Match.Status.RUNNING and phase)
    advice = engine.hint(state, number) if hint and can_move else None
    if advice and advice.get("why"):
        advice = {**advice, "why": str(say_text(advice["why"]))}  # the engine's Msg, said
    order = (advice or {}).get("order") or {}
    hint_own = order.get("pick") if order.get("from") != "opponent" else None
    hint_opp = order.get("pick") if order.get("from") == "opponent" else None
    panels = []
    for p in view["players"]:
        mine = p["seat"] == number
        panels.append(_player_panel(
            p, name=(_("You") if mine else names.get(
                p["seat"], _("Player %(number)s") % {"number": p["seat"] + 1})),
            mine=mine, limit=limit, highlight=hot_own if mine else hot_opp,
            hinted=hint_own if mine else hint_opp))
    me = panels[me_n]
    others = [pl for pl in panels if pl["seat"] != me_n]
    attempt = (known["attempt"] if "attempt" in known
               else DailyAttempt.objects.filter(match=match).first())
    outcome = match.outcome if match.status == Match.Status.FINISHED else None
    winners = [names.get(w, _("Player %(number)s") % {"number": w + 1})
               for w in (outcome or {}).get("winners", [])]
    you_won = number is not None and number in (outcome or {}).get("winners", [])
    diary = game_selectors.diary_for_seat(
        match, number, since_seq=max(0, match.diary_seq - RECENT_EVENTS),
        lang=getattr(request, "LANGUAGE_CODE", None) or "en")
    board_url = reverse("diceslayer:board", args=[match.pk])
    share = None
    if attempt is not None and view["over"] and attempt.score is not None:
        share = share_text(attempt, view, request.build_absolute_uri(reverse(SHARE_URL_NAME)))
    legal = view["legal"] or {}
    return {
        "match": match, "view": view, "seat": seat, "phase": phase, "solo": solo,
        "active": live and not view["over"],
        "ended": not live and not view["over"],  # ended by the director
        "me": me, "others": others, "names": names, "can_move": can_move,
        "legal": legal, "wild_faces": legal.get("wild") or [], "bomb_faces": legal.get("bomb") or [],
        "bomb": view["bomb"], "bomb_owner": (None if view["bomb"] in (None, "neutral")
                                             else names.get(view["bomb"], "")),
        "hint": advice, "hint_asked": hint, "patterns": patterns, "scoring": scoring,
        "error": error, "attempt": attempt, "outcome": outcome, "winners": winners,
        "outcome_summary": outcome_sentence(outcome, view, names, number),
        "you_won": you_won, "diary": named_lines(diary, names, number),
        "share_text": share,
        "to_move_name": names.get(view["to_move"], ""),
        "keyboard_help": KEYBOARD_HELP if solo else KEYBOARD_HELP_VERSUS,
        "board_url": board_url,
        "hint_url": board_url + "?" + urlencode({"hint": 1, "patterns": int(patterns)}),
        "patterns_url": board_url + "?" + urlencode({"patterns": 0 if patterns else 1,
                                                     "hint": int(hint)}),
        "poll_url": board_url + "?" + urlencode(
            {"v": match.version, "s": seat.version if seat is not None else 0}),
        "poll": (not solo) and live,
        "pick_url": reverse("diceslayer:pick", args=[match.pk]),
        "replay_url": reverse("diceslayer:replay", args=[match.pk]),
        "variant_solo": solo,
        **(known["rematch"] if "rematch" in known else rematch_context(match, seat)),
    }


#: the phase kinds' labels (games_tags.phase_label), for the catalogue
PHASE_LABELS = (pgettext_lazy("phase", "Turn"),)
