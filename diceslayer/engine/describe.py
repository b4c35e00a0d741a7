"""Diary sentences for Dice Slayer events, in English and Japanese (pure, no Django).

The English ones are ``games.rules.Msg`` (message id + parameters): the app layer says
them in the reader's language from the catalogues (games/lib/text.py).

Every event of this game is public; ``viewer`` only turns "seat 0" into "you".
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from games.rules import Event, Msg, T, Tc, Tn


def _who(seat: Any, viewer: int | None, lang: str,
         names: Mapping[int, str] | None = None) -> str:
    if seat is None:
        return T("nobody") if lang == "en" else "なし"
    if viewer is not None and seat == viewer:
        return Tc("diceslayer subject", "You") if lang == "en" else "あなた"
    if names is not None and int(seat) in names:
        return names[int(seat)]
    return f"Player {int(seat) + 1}" if lang == "en" else f"プレイヤー{int(seat) + 1}"


def _faces(faces: Any) -> str:
    return ", ".join(str(f) for f in faces) if faces else "-"


def _obj(who: Any) -> Any:
    return Tc("diceslayer object", "you") if who == "You" else who


def _dropped(d: dict[str, Any]) -> Any:
    return "" if d.get("dropped") is None else T(" (%(count)s left the stock)", count=d["dropped"])


def _reason(d: dict[str, Any], w: Callable[[Any], Any]) -> Msg:
    faces, who = _faces(d["faces"]), w(d["seat"])
    if d["reason"] == "roll_in":
        return T("%(who)s: rolled in %(faces)s.", who=who, faces=faces)
    if d["reason"] == "start":
        return T("%(who)s: rolled to decide who starts %(faces)s.", who=who, faces=faces)
    if d["reason"] == "attack":
        return T("%(who)s: received an attack of %(faces)s.", who=who, faces=faces)
    return T("%(who)s: rolled %(faces)s.", who=who, faces=faces)


def _picked(d: dict[str, Any], w: Callable[[Any], Any]) -> Msg:
    p = {"who": w(d["seat"]), "face": d["face"], "stock": _faces(d["stock"]),
         "dropped": _dropped(d)}
    if d["source"] == "opponent":
        return T("%(who)s picked a %(face)s from the opponent; stock %(stock)s%(dropped)s.", **p)
    return T("%(who)s picked a %(face)s; stock %(stock)s%(dropped)s.", **p)


EN: dict[str, Callable[[dict[str, Any], Callable[[Any], Any]], Any]] = {
    "rolled": _reason,
    "start_tie": lambda d, w: T("Both start rolls totalled %(total)s: roll again.", total=d["total"]),
    "first_player": lambda d, w: T("%(who)s moves first (totals %(a)s and %(b)s).",
                                   who=w(d["seat"]), a=d["totals"][0], b=d["totals"][1]),
    "picked": _picked,
    "wild_used": lambda d, w: T("%(who)s spent a wild die as a %(face)s; stock %(stock)s.",
                                who=w(d["seat"]), face=d["face"], stock=_faces(d["stock"])),
    "matched": lambda d, w: Tn("%(who)s made a %(pattern)s (%(faces)s) and removed %(count)s die "
                               "for %(points)s points (score %(score)s).",
                               "%(who)s made a %(pattern)s (%(faces)s) and removed %(count)s dice "
                               "for %(points)s points (score %(score)s).", len(d["removed"]),
                               who=w(d["seat"]), pattern=PATTERNS.get(d["pattern"], d["pattern"]),
                               faces=_faces(sorted(d["stock"])), count=len(d["removed"]),
                               points=d["points"], score=d["score"]),
    "clear_bonus": lambda d, w: T("%(who)s cleared the field: +%(points)s (score %(score)s).",
                                  who=w(d["seat"]), points=d["points"], score=d["score"]),
    "wild_earned": lambda d, w: Tn("%(who)s earned %(count)s wild die at %(score)s points.",
                                   "%(who)s earned %(count)s wild dice at %(score)s points.",
                                   d["count"], who=w(d["seat"]), count=d["count"],
                                   score=d["score"]),
    "game_over": lambda d, w: T("Game over: %(plate)s dice on the plate. Final score %(score)s.",
                                plate=d["plate"], score=d["score"]),
    "grace_cancelled": lambda d, w: T("%(who)s cancelled grace dice %(faces)s.", who=w(d["seat"]),
                                      faces=_faces(d["faces"])),
    "grace_fell": lambda d, w: T("%(who)s: grace dice %(faces)s fell onto the field.",
                                 who=w(d["seat"]), faces=_faces(d["faces"])),
    "attack": lambda d, w: (
        T("%(who)s attacked: %(faces)s into the grace zone of %(target)s.", who=w(d["seat"]),
          faces=_faces(d["faces"]), target=_obj(w(d["to"]))) if d["into"] == "grace" else
        T("%(who)s attacked: %(faces)s into the field of %(target)s.", who=w(d["seat"]),
          faces=_faces(d["faces"]), target=_obj(w(d["to"])))),
    "set_transfer": lambda d, w: T("%(who)s sent the set %(faces)s to the opponent's field.",
                                   who=w(d["seat"]), faces=_faces(d["faces"])),
    "hundred_transfer": lambda d, w: T("%(who)s reached %(score)s and sent the whole field "
                                       "(%(faces)s) to the opponent.", who=w(d["seat"]),
                                       score=d["score"], faces=_faces(d["faces"])),
    "bombed": lambda d, w: Tn("%(who)s used the bomb on %(face)ss, removing %(count)s die; the "
                              "bomb now belongs to %(owner)s.",
                              "%(who)s used the bomb on %(face)ss, removing %(count)s dice; the "
                              "bomb now belongs to %(owner)s.", len(d["removed"]),
                              who=w(d["seat"]), face=d["face"], count=len(d["removed"]),
                              owner=_obj(w(d["owner"]))),
    "loss_check_skipped": lambda d, w: T("%(who)s: the bomb skips this turn's overflow check.",
                                         who=w(d["seat"])),
    "passed": lambda d, w: T("%(who)s had no die to take and passed.", who=w(d["seat"])),
    "lost": lambda d, w: T("%(who)s lost: %(count)s dice on the field.", who=w(d["seat"]),
                           count=d["field"]),
    "won": lambda d, w: T("%(who)s won with %(score)s points.", who=w(d["seat"]),
                          score=d["score"]),
    "exhausted": lambda d, w: (T("No dice are left: a draw.") if d["winner"] is None else
                               T("No dice are left: %(who)s won on points.",
                                 who=w(d["winner"]))),
}
PATTERNS: dict[str, Msg] = {"set": Tc("diceslayer pattern", "set"), "run": Tc("diceslayer pattern", "run")}

_REASON_JA = {"roll_in": "ダイスを振って追加", "start": "先手決めのダイス",
              "attack": "攻撃のダイス"}

JA: dict[str, Callable[[dict[str, Any], Callable[[Any], str]], str]] = {
    "rolled": lambda d, w: f"{w(d['seat'])}:{_REASON_JA.get(d['reason'], '振った')} {_faces(d['faces'])}。",
    "start_tie": lambda d, w: f"先手決めが同数({d['total']})なので振り直し。",
    "first_player": lambda d, w: f"{w(d['seat'])}が先手。",
    "picked": lambda d, w: f"{w(d['seat'])}が{d['face']}を取った。ストック {_faces(d['stock'])}。",
    "wild_used": lambda d, w: f"{w(d['seat'])}がワイルドダイスを{d['face']}として使った。",
    "matched": lambda d, w: (f"{w(d['seat'])}が{'刻子' if d['pattern'] == 'set' else '順子'}で"
                             f"{len(d['removed'])}個消して{d['points']}点(計{d['score']}点)。"),
    "clear_bonus": lambda d, w: f"{w(d['seat'])}の全消しボーナス +{d['points']}点。",
    "wild_earned": lambda d, w: f"{w(d['seat'])}がワイルドダイスを{d['count']}個獲得。",
    "game_over": lambda d, w: f"ゲームオーバー。最終得点 {d['score']}点。",
    "grace_cancelled": lambda d, w: f"{w(d['seat'])}が猶予ゾーンの{_faces(d['faces'])}を相殺。",
    "grace_fell": lambda d, w: f"{w(d['seat'])}の猶予ゾーンのダイス{_faces(d['faces'])}が場に移動。",
    "attack": lambda d, w: f"{w(d['seat'])}の攻撃:{_faces(d['faces'])}を{w(d['to'])}に送った。",
    "set_transfer": lambda d, w: f"{w(d['seat'])}が刻子{_faces(d['faces'])}を相手の場に移した。",
    "hundred_transfer": lambda d, w: f"{w(d['seat'])}が{d['score']}点に達し、場のダイスを全て相手に送った。",
    "bombed": lambda d, w: f"{w(d['seat'])}がボムで{d['face']}を全て消した。",
    "loss_check_skipped": lambda d, w: "ボムを使ったのでこのターンの敗北判定はスキップ。",
    "passed": lambda d, w: f"{w(d['seat'])}は取れるダイスが無くパス。",
    "lost": lambda d, w: f"{w(d['seat'])}の場が{d['field']}個になり敗北。",
    "won": lambda d, w: f"{w(d['seat'])}が{d['score']}点で勝利。",
    "exhausted": lambda d, w: "ダイスが尽きた:" + ("引き分け。" if d['winner'] is None
                                                 else f"{w(d['winner'])}の得点勝ち。"),
}


def describe(event: Event, viewer: int | None, lang: str = "en",
             names: Mapping[int, str] | None = None) -> str:
    """One plain sentence for a diary line, from ``viewer``'s point of view; ``names``
    (seat number -> player name) names the other players, else "Player N".

    >>> describe(Event("clear_bonus", {"seat": 0, "points": 20, "score": 44}), 0)
    'You cleared the field: +20 (score 44).'
    >>> describe(Event("won", {"seat": 1, "score": 50}), 0, names={1: "bob"})
    'bob won with 50 points.'
    """
    table = JA if lang == "ja" else EN
    lang_key = "ja" if lang == "ja" else "en"
    fn = table.get(event.kind)
    data = dict(event.data)
    if fn is None:
        return f"{event.kind}: {data}"
    return fn(data, lambda seat: _who(seat, viewer, lang_key, names))
