"""Diary sentences for Dice Slayer events, in English and Japanese (pure, no Django).

Every event of this game is public; ``viewer`` only turns "seat 0" into "you".
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from games.rules import Event


def _who(seat: Any, viewer: int | None, lang: str,
         names: Mapping[int, str] | None = None) -> str:
    if seat is None:
        return "nobody" if lang == "en" else "なし"
    if viewer is not None and seat == viewer:
        return "You" if lang == "en" else "あなた"
    if names is not None and int(seat) in names:
        return names[int(seat)]
    return f"Player {int(seat) + 1}" if lang == "en" else f"プレイヤー{int(seat) + 1}"


def _faces(faces: Any) -> str:
    return ", ".join(str(f) for f in faces) if faces else "-"


def _obj(who: str) -> str:
    return "you" if who == "You" else who


def _dropped(d: dict[str, Any]) -> str:
    return "" if d.get("dropped") is None else f" ({d['dropped']} left the stock)"


_REASON_EN = {"roll_in": "rolled in", "start": "rolled to decide who starts",
              "attack": "received an attack of"}

EN: dict[str, Callable[[dict[str, Any], Callable[[Any], str]], str]] = {
    "rolled": lambda d, w: (f"{w(d['seat'])}: {_REASON_EN.get(d['reason'], 'rolled')} "
                            f"{_faces(d['faces'])}."),
    "start_tie": lambda d, w: f"Both start rolls totalled {d['total']}: roll again.",
    "first_player": lambda d, w: (f"{w(d['seat'])} moves first (totals "
                                  f"{d['totals'][0]} and {d['totals'][1]})."),
    "picked": lambda d, w: (f"{w(d['seat'])} picked a {d['face']}"
                            f"{' from the opponent' if d['source'] == 'opponent' else ''}"
                            f"; stock {_faces(d['stock'])}"
                            f"{_dropped(d)}."),
    "wild_used": lambda d, w: (f"{w(d['seat'])} spent a wild die as a {d['face']}; "
                               f"stock {_faces(d['stock'])}."),
    "matched": lambda d, w: (f"{w(d['seat'])} made a {d['pattern']} "
                             f"({_faces(sorted(d['stock']))}) and removed "
                             f"{len(d['removed'])} dice for {d['points']} points "
                             f"(score {d['score']})."),
    "clear_bonus": lambda d, w: (f"{w(d['seat'])} cleared the field: +{d['points']} "
                                 f"(score {d['score']})."),
    "wild_earned": lambda d, w: (f"{w(d['seat'])} earned {d['count']} wild die(s) at "
                                 f"{d['score']} points."),
    "game_over": lambda d, w: (f"Game over: {d['plate']} dice on the plate. Final score "
                               f"{d['score']}."),
    "grace_cancelled": lambda d, w: f"{w(d['seat'])} cancelled grace dice {_faces(d['faces'])}.",
    "grace_fell": lambda d, w: (f"{w(d['seat'])}: grace dice {_faces(d['faces'])} fell "
                                "onto the field."),
    "attack": lambda d, w: (f"{w(d['seat'])} attacked: {_faces(d['faces'])} into the "
                            f"{'grace zone' if d['into'] == 'grace' else 'field'} of "
                            f"{_obj(w(d['to']))}."),
    "set_transfer": lambda d, w: (f"{w(d['seat'])} sent the set {_faces(d['faces'])} to "
                                  "the opponent's field."),
    "hundred_transfer": lambda d, w: (f"{w(d['seat'])} reached {d['score']} and sent the whole "
                                      f"field ({_faces(d['faces'])}) to the opponent."),
    "bombed": lambda d, w: (f"{w(d['seat'])} used the bomb on {d['face']}s, removing "
                            f"{len(d['removed'])} dice; the bomb now belongs to "
                            f"{_obj(w(d['owner']))}."),
    "loss_check_skipped": lambda d, w: (f"{w(d['seat'])}: the bomb skips this turn's "
                                        "overflow check."),
    "passed": lambda d, w: f"{w(d['seat'])} had no die to take and passed.",
    "lost": lambda d, w: f"{w(d['seat'])} lost: {d['field']} dice on the field.",
    "won": lambda d, w: f"{w(d['seat'])} won with {d['score']} points.",
    "exhausted": lambda d, w: ("No dice are left: " + ("a draw." if d['winner'] is None
                               else f"{w(d['winner'])} won on points.")),
}

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
