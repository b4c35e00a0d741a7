"""Diary sentences (§18.5) in English and Italian for every event kind the engine emits.

Player ids are ``p{seat}`` in real matches; when an id belongs to the viewer the sentence says
"you". Zone ids become their display names (the rules maps' Italian names, or the names the
match's own map gives, passed as ``zones``).
"""

from __future__ import annotations

import re

from typing import Any, Callable, Mapping

from games.rules import Event, Msg, T, Tc, Tn

from .maps import MAPS

ZONE_NAMES: dict[str, str] = {z: n for m in MAPS.values() for z, n in m.names.items()}

ITEM_NAMES = {
    "en": {"sniper_rifle": "sniper rifle", "machine_gun": "machine gun", "shotgun": "shotgun",
           "poison_crossbow": "poisoned crossbow", "flamethrower": "flamethrower",
           "small_knife": "small knife", "ninja_knife": "ninja knife",
           "rambo_knife": "Rambo knife", "fists": "fists", "grenade": "grenade", "c4": "C4",
           "smoke_grenade": "smoke grenade", "gas_canister": "gas canister",
           "medkit": "medkit", "vest": "vest", "gas_mask": "gas mask", "antidote": "antidote",
           "amulet": "amulet", "k_ration": "K-ration", "reinforced_vests": "reinforced vests",
           "gas_launcher": "gas launcher"},
    "it": {"sniper_rifle": "fucile di precisione", "machine_gun": "mitragliatrice",
           "shotgun": "fucile a pompa", "poison_crossbow": "balestra avvelenata",
           "flamethrower": "lanciafiamme", "small_knife": "coltellino",
           "ninja_knife": "coltello ninja", "rambo_knife": "coltello di Rambo",
           "fists": "pugni", "grenade": "granata", "c4": "C4",
           "smoke_grenade": "fumogeno", "gas_canister": "bombola di gas",
           "medkit": "medikit", "vest": "giubbotto", "gas_mask": "maschera antigas",
           "antidote": "antidoto", "amulet": "amuleto", "k_ration": "razione K",
           "reinforced_vests": "giubbotti rinforzati", "gas_launcher": "lanciagas"},
}


def _z(zone: Any) -> str:
    return ZONE_NAMES.get(zone, str(zone)) if zone else "?"


def _is_me(pid: Any, viewer: int | None) -> bool:
    return viewer is not None and pid == f"p{viewer}"


def _who(pid: Any, viewer: int | None, lang: str, obj: bool = False) -> str:
    if _is_me(pid, viewer):
        return "you" if lang == "en" else ("te" if obj else "tu")
    if isinstance(pid, str) and pid.startswith("m"):
        return (f"monster {pid[1:]}" if lang == "en" else f"il mostro {pid[1:]}")
    return f"player {pid}" if lang == "en" else f"il giocatore {pid}"


def _item(item: Any, lang: str) -> str:
    return ITEM_NAMES[lang].get(item, str(item))


def _items(items: dict[str, int], lang: str) -> str:
    if not items:
        return "nothing" if lang == "en" else "niente"
    return ", ".join(f"{n} × {_item(i, lang)}" for i, n in items.items())


D = dict[str, Any]
Fn = Callable[[D, int | None, str], str]


def counted(count: int, one: str, many: str) -> str:
    """"1 shot", "2 shots": a count with its noun in the right number."""
    return f"{count} {one if count == 1 else many}"


def _attack(d: D, v: int | None, lang: str) -> str:
    en = lang == "en"
    if d.get("smoked"):
        if "attacker" in d:
            return (f"In the smoke in {_z(d['zone'])} your {_item(d['weapon'], lang)} hit "
                    f"{counted(d['hits'], 'presence', 'presences')}." if en else
                    f"Nel fumo a {_z(d['zone'])} il tuo {_item(d['weapon'], lang)} ha colpito "
                    f"{d['hits']} presenza/e.")
        return (f"In the smoke in {_z(d['zone'])} you were hit by an unknown source for "
                f"{d['amount']}." if en else
                f"Nel fumo a {_z(d['zone'])} sei stato colpito da una fonte sconosciuta "
                f"per {d['amount']}.")
    amount = d.get("amount")
    tail = "" if amount is None else (f" for {amount}" if en else f" per {amount}")
    if en:
        return (f"In {_z(d['zone'])} {_who(d['attacker'], v, lang)} attacked "
                f"{_who(d['victim'], v, lang)} with the {_item(d['weapon'], lang)}{tail}.")
    weapon = _item(d["weapon"], lang)
    if _is_me(d["attacker"], v):
        return (f"A {_z(d['zone'])} hai attaccato {_who(d['victim'], v, lang, True)} "
                f"con {weapon}{tail}.")
    if _is_me(d["victim"], v):
        return f"A {_z(d['zone'])} {_who(d['attacker'], v, lang)} ti ha attaccato con {weapon}{tail}."
    return (f"A {_z(d['zone'])} {_who(d['attacker'], v, lang)} ha attaccato "
            f"{_who(d['victim'], v, lang, True)} con {weapon}{tail}.")


def _healed(d: D, v: int | None, lang: str) -> str:
    healer, target, n = d["healer"], d["target"], d["amount"]
    if lang == "en":
        if healer == target:
            who = "You" if _is_me(healer, v) else _who(healer, v, lang).capitalize()
            return f"{who} used a medkit: +{n} energy."
        return f"{_who(healer, v, lang).capitalize()} healed {_who(target, v, lang)} for {n}."
    if healer == target:
        return (f"Hai usato un medikit: +{n} energia." if _is_me(healer, v) else
                f"{_who(healer, v, lang).capitalize()} ha usato un medikit: +{n} energia.")
    if _is_me(healer, v):
        return f"Hai curato {_who(target, v, lang, True)} di {n}."
    if _is_me(target, v):
        return f"{_who(healer, v, lang).capitalize()} ti ha curato di {n}."
    return f"{_who(healer, v, lang).capitalize()} ha curato {_who(target, v, lang, True)} di {n}."


def _shout(d: D, v: int | None, lang: str) -> str:
    if lang == "en":
        return f"{_who(d['player'], v, lang).capitalize()} shouted a challenge from {_z(d['zone'])}."
    if _is_me(d["player"], v):
        return f"Hai lanciato una sfida da {_z(d['zone'])}."
    return f"{_who(d['player'], v, lang).capitalize()} ha lanciato una sfida da {_z(d['zone'])}."


TEXT: dict[str, tuple[Fn, Fn]] = {
    "market": (
        lambda d, v, l: f"You {'bought' if d['action'] == 'buy' else 'sold'} a "
                        f"{_item(d['item'], l)} for {d['price']} coins ({d['coins']} left).",
        lambda d, v, l: f"Hai {'comprato' if d['action'] == 'buy' else 'venduto'} "
                        f"{_item(d['item'], l)} per {d['price']} monete (ne restano {d['coins']}).",
    ),
    "order_voided": (
        lambda d, v, l: f"Your order {d['order'].get('type')} was void ({d['code']}).",
        lambda d, v, l: f"Il tuo ordine {d['order'].get('type')} è stato annullato ({d['code']}).",
    ),
    "backpack": (
        lambda d, v, l: ("You received the default backpack: " if d["default"] else
                         "Your cart was delivered: ") + _items(d["items"], l)
                        + f"; {d['coins']} coins left.",
        lambda d, v, l: ("Hai ricevuto lo zaino predefinito: " if d["default"] else
                         "Il tuo carrello è stato consegnato: ") + _items(d["items"], l)
                        + f"; restano {d['coins']} monete.",
    ),
    "start_zone": (
        lambda d, v, l: f"You start in {_z(d['zone'])}.",
        lambda d, v, l: f"Parti da {_z(d['zone'])}.",
    ),
    "antidote": (
        lambda d, v, l: "You took an antidote: the poison is gone.",
        lambda d, v, l: "Hai preso un antidoto: il veleno è sparito.",
    ),
    "healed": (_healed, _healed),
    "smoke_thrown": (
        lambda d, v, l: f"You threw a smoke grenade into {_z(d['zone'])}.",
        lambda d, v, l: f"Hai lanciato un fumogeno su {_z(d['zone'])}.",
    ),
    "gas_thrown": (
        lambda d, v, l: f"You threw a gas canister into {_z(d['zone'])}.",
        lambda d, v, l: f"Hai lanciato una bombola di gas su {_z(d['zone'])}.",
    ),
    "moved": (
        lambda d, v, l: f"You moved from {_z(d['from'])} to {_z(d['to'])}.",
        lambda d, v, l: f"Ti sei spostato da {_z(d['from'])} a {_z(d['to'])}.",
    ),
    "expelled": (
        lambda d, v, l: f"You were expelled from {_z(d['from'])} to {_z(d['to'])} and lost "
                        f"{d['amount']}.",
        lambda d, v, l: f"Sei stato espulso da {_z(d['from'])} verso {_z(d['to'])} e hai perso "
                        f"{d['amount']}.",
    ),
    "closed_zone_penalty": (
        lambda d, v, l: f"You stayed in the closed zone {_z(d['zone'])} and lost {d['amount']}.",
        lambda d, v, l: f"Sei rimasto nella zona chiusa {_z(d['zone'])} e hai perso "
                        f"{d['amount']}.",
    ),
    "you_died": (
        lambda d, v, l: "You died.",
        lambda d, v, l: "Sei morto.",
    ),
    "player_died": (
        lambda d, v, l: f"{_who(d['player'], v, l).capitalize()} died in {_z(d['zone'])}.",
        lambda d, v, l: f"{_who(d['player'], v, l).capitalize()} è morto a {_z(d['zone'])}.",
    ),
    "monster_killed": (
        lambda d, v, l: f"The monster in {_z(d['zone'])} was killed.",
        lambda d, v, l: f"Il mostro a {_z(d['zone'])} è stato ucciso.",
    ),
    "match_over": (
        lambda d, v, l: "The match is over. Winners: " + (", ".join(d["winners"]) or "nobody")
                        + ".",
        lambda d, v, l: "La partita è finita. Vincitori: " + (", ".join(d["winners"]) or
                                                              "nessuno") + ".",
    ),
    "deaths": (
        lambda d, v, l: "Died in this phase: " + ", ".join(d["players"])
                        + f". {d['living']} players are alive.",
        lambda d, v, l: "Morti in questa fase: " + ", ".join(d["players"])
                        + f". Restano {d['living']} giocatori vivi.",
    ),
    "action_opened": (
        lambda d, v, l: f"Turn {d['turn']}: the Action phase is open; {d['living']} players "
                        f"alive" + ("; DOUBLE DAMAGE." if d["double_damage"] else "."),
        lambda d, v, l: f"Turno {d['turn']}: è aperta la fase d'azione; {d['living']} "
                        f"giocatori vivi" + ("; DANNO DOPPIO." if d["double_damage"] else "."),
    ),
    "partner_revealed": (
        lambda d, v, l: "Your district partner: " + (", ".join(d["partners"]) or "none") + ".",
        lambda d, v, l: "Il tuo compagno di distretto: " + (", ".join(d["partners"])
                                                            or "nessuno") + ".",
    ),
    "roster": (
        lambda d, v, l: (f"In {_z(d['zone'])} the smoke hides "
                         f"{counted(d['presences'], 'presence', 'presences')}."
                         if d["smoked"] else
                         f"In {_z(d['zone'])} with you: "
                         + (", ".join(d["players"]) or "no players")
                         + ("; a monster is here." if d["monster"] else ".")),
        lambda d, v, l: (f"A {_z(d['zone'])} il fumo nasconde {d['presences']} presenza/e."
                         if d["smoked"] else
                         f"A {_z(d['zone'])} con te: "
                         + (", ".join(d["players"]) or "nessun giocatore")
                         + ("; c'è un mostro." if d["monster"] else ".")),
    ),
    "cloud_seen": (
        lambda d, v, l: f"A cloud of {d['cloud']} hangs over {_z(d['zone'])}.",
        lambda d, v, l: f"Una nube di {'fumo' if d['cloud'] == 'smoke' else 'gas'} copre "
                        f"{_z(d['zone'])}.",
    ),
    "worn": (
        lambda d, v, l: "You wore: " + ", ".join(_item(i, l) for i in d["items"]) + ".",
        lambda d, v, l: "Hai indossato: " + ", ".join(_item(i, l) for i in d["items"]) + ".",
    ),
    "shout": (_shout, _shout),
    "shout_result": (
        lambda d, v, l: ("The crowd loved your shout." if d["success"] else
                         "The crowd booed your shout.") + f" Persuasion {d['persuasion']}.",
        lambda d, v, l: ("Il pubblico ha apprezzato la tua sfida." if d["success"] else
                         "Il pubblico ha fischiato la tua sfida.")
                        + f" Persuasione {d['persuasion']}.",
    ),
    "attack": (_attack, _attack),
    "explosion_result": (
        lambda d, v, l: f"Your {_item(d['type'], l)} on {_z(d['zone'])} "
                        + ("went off." if d["effective"] else "was wasted."),
        lambda d, v, l: f"La tua {_item(d['type'], l)} su {_z(d['zone'])} "
                        + ("è esplosa." if d["effective"] else "è andata sprecata."),
    ),
    "explosion": (
        lambda d, v, l: (f"In the smoke in {_z(d['zone'])} an unknown source hit you for "
                         f"{d['damage']}." if d.get("smoked") else
                         f"A {_item(d['type'], l)} exploded in {_z(d['zone'])}: "
                         f"{d['damage']} damage to everyone."),
        lambda d, v, l: (f"Nel fumo a {_z(d['zone'])} una fonte sconosciuta ti ha colpito "
                         f"per {d['damage']}." if d.get("smoked") else
                         f"Una {_item(d['type'], l)} è esplosa a {_z(d['zone'])}: "
                         f"{d['damage']} danni a tutti."),
    ),
    "gas_damage": (
        lambda d, v, l: ("Your gas mask protected you from the gas." if d["masked"] else
                         f"The gas in {_z(d['zone'])} cost you {d['amount']}."),
        lambda d, v, l: ("La maschera antigas ti ha protetto dal gas." if d["masked"] else
                         f"Il gas a {_z(d['zone'])} ti è costato {d['amount']}."),
    ),
    "monster_hit": (
        lambda d, v, l: (f"Something in the smoke hit you for {d['amount']}." if d["smoked"]
                         else f"The monster hit you for {d['amount']}."),
        lambda d, v, l: (f"Qualcosa nel fumo ti ha colpito per {d['amount']}." if d["smoked"]
                         else f"Il mostro ti ha colpito per {d['amount']}."),
    ),
    "monster_attack": (
        lambda d, v, l: f"The monster in {_z(d['zone'])} attacked "
                        + ", ".join(_who(x, v, l) for x in d["victims"]) + ".",
        lambda d, v, l: f"Il mostro a {_z(d['zone'])} ha attaccato "
                        + ", ".join(_who(x, v, l, True) for x in d["victims"]) + ".",
    ),
    "poison_tick": (
        lambda d, v, l: f"The poison cost you {d['amount']}.",
        lambda d, v, l: f"Il veleno ti è costato {d['amount']}.",
    ),
    "ration": (
        lambda d, v, l: (f"You found {d['gained']} K-rations. " if d["gained"] else "")
                        + f"You ate a K-ration ({d['left']} left).",
        lambda d, v, l: (f"Hai trovato {d['gained']} razioni K. " if d["gained"] else "")
                        + f"Hai mangiato una razione K (ne restano {d['left']}).",
    ),
    "starvation": (
        lambda d, v, l: f"You had nothing to eat and lost {d['amount']}.",
        lambda d, v, l: f"Non avevi niente da mangiare e hai perso {d['amount']}.",
    ),
    "approval": (
        lambda d, v, l: f"Audience approval {d['delta']:+d}: now {d['approval']}.",
        lambda d, v, l: f"Approvazione del pubblico {d['delta']:+d}: ora {d['approval']}.",
    ),
    "reward": (
        lambda d, v, l: f"The audience rewards you: {_items(d['items'], l)}.",
        lambda d, v, l: f"Il pubblico ti premia: {_items(d['items'], l)}.",
    ),
    "punishment": (
        lambda d, v, l: f"The audience punishes you: −{d['amount']} energy.",
        lambda d, v, l: f"Il pubblico ti punisce: −{d['amount']} energia.",
    ),
    "persuasion": (
        lambda d, v, l: f"Your persuasion is now {d['persuasion']}.",
        lambda d, v, l: f"La tua persuasione ora è {d['persuasion']}.",
    ),
    "zone_closed": (
        lambda d, v, l: f"{_z(d['zone'])} is now closed."
                        + (f" Next to close: {_z(d['next'])}." if d["next"] else ""),
        lambda d, v, l: f"{_z(d['zone'])} ora è chiusa."
                        + (f" La prossima a chiudere: {_z(d['next'])}." if d["next"] else ""),
    ),
    "heard_gunfire": (
        lambda d, v, l: (f"You heard {counted(d['shots'], 'shot', 'shots')} from "
                         f"{_z(d['zone'])}."),
        lambda d, v, l: f"Hai sentito {d['shots']} sparo/i da {_z(d['zone'])}.",
    ),
    "heard_explosion": (
        lambda d, v, l: (f"You heard {counted(d['count'], 'explosion', 'explosions')} from "
                         f"{_z(d['zone'])}."),
        lambda d, v, l: f"Hai sentito {d['count']} esplosione/i da {_z(d['zone'])}.",
    ),
    "heard_monster": (
        lambda d, v, l: f"You heard a monster attack in {_z(d['zone'])}.",
        lambda d, v, l: f"Hai sentito l'attacco di un mostro a {_z(d['zone'])}.",
    ),
    "tactical_opened": (
        lambda d, v, l: f"Turn {d['turn']}: the Tactical phase is open; {d['living']} players "
                        f"alive.",
        lambda d, v, l: f"Turno {d['turn']}: è aperta la fase tattica; {d['living']} "
                        f"giocatori vivi.",
    ),
    "market_opened": (
        lambda d, v, l: f"The market is open: prices are {d['regime']}.",
        lambda d, v, l: "Il mercato è aperto: prezzi "
                        + str({"discounted": "scontati", "unchanged": "invariati",
                               "raised": "aumentati", "crazy": "impazziti"}.get(d["regime"],
                                                                                d["regime"]))
                        + ".",
    ),
}


# --- the English sentences as games.rules.Msg ------------------------------------------------
# The app layer says them in the reader's language (ja, es, ...) from Django's catalogues;
# the Italian sentences above stay the engine's own (the rules' language).

def _w(pid: Any, viewer: int | None, start: bool = False) -> Any:
    """A player as a parameter: "you" for the viewer, "monster 2", else the id placeholder
    ("player p3", named by the app's ``with_names``)."""
    if _is_me(pid, viewer):
        return Tc("killgame subject", "You") if start else Tc("killgame object", "you")
    if isinstance(pid, str) and pid.startswith("m"):
        return (T("Monster %(number)s", number=pid[1:]) if start
                else T("monster %(number)s", number=pid[1:]))
    return f"Player {pid}" if start else f"player {pid}"


def _i(item: Any) -> Msg:
    return Msg(ITEM_NAMES["en"].get(item, str(item)), None, context="killgame item")


def _is(items: dict[str, int]) -> Any:
    if not items:
        return T("nothing")
    return [Msg("%(count)s × %(item)s", {"count": n, "item": _i(i)}) for i, n in items.items()]


def _attack_msg(d: D, v: int | None) -> Msg:
    z = _z(d["zone"])
    weapon = _i(d.get("weapon"))
    if d.get("smoked"):
        if "attacker" in d:
            return Tn("In the smoke in %(zone)s your %(weapon)s hit %(count)s presence.",
                      "In the smoke in %(zone)s your %(weapon)s hit %(count)s presences.",
                      d["hits"], zone=z, weapon=weapon, count=d["hits"])
        return T("In the smoke in %(zone)s you were hit by an unknown source for %(amount)s.",
                 zone=z, amount=d["amount"])
    p = {"zone": z, "who": _w(d["attacker"], v), "target": _w(d["victim"], v), "weapon": weapon}
    if _is_me(d["attacker"], v):
        if d.get("amount") is None:
            return T("In %(zone)s you attacked %(target)s with the %(weapon)s.", **p)
        return T("In %(zone)s you attacked %(target)s with the %(weapon)s for %(amount)s.",
                 amount=d["amount"], **p)
    if d.get("amount") is None:
        return T("In %(zone)s %(who)s attacked %(target)s with the %(weapon)s.", **p)
    return T("In %(zone)s %(who)s attacked %(target)s with the %(weapon)s for %(amount)s.",
             amount=d["amount"], **p)


def _healed_msg(d: D, v: int | None) -> Msg:
    healer, target, n = d["healer"], d["target"], d["amount"]
    if healer == target:
        if _is_me(healer, v):
            return T("You used a medkit: +%(amount)s energy.", amount=n)
        return T("%(who)s used a medkit: +%(amount)s energy.", who=_w(healer, v, True), amount=n)
    if _is_me(healer, v):
        return T("You healed %(target)s for %(amount)s.", target=_w(target, v), amount=n)
    return T("%(who)s healed %(target)s for %(amount)s.", who=_w(healer, v, True),
             target=_w(target, v), amount=n)


def _shout_msg(d: D, v: int | None) -> Msg:
    if _is_me(d["player"], v):
        return T("You shouted a challenge from %(zone)s.", zone=_z(d["zone"]))
    return T("%(who)s shouted a challenge from %(zone)s.", who=_w(d["player"], v, True),
             zone=_z(d["zone"]))


def _roster_msg(d: D, v: int | None) -> Msg:
    z = _z(d["zone"])
    if d["smoked"]:
        return Tn("In %(zone)s the smoke hides %(count)s presence.",
                  "In %(zone)s the smoke hides %(count)s presences.", d["presences"], zone=z,
                  count=d["presences"])
    if not d["players"]:
        return (T("In %(zone)s with you: no players; a monster is here.", zone=z) if d["monster"]
                else T("In %(zone)s with you: no players.", zone=z))
    return (T("In %(zone)s with you: %(players)s; a monster is here.", zone=z,
              players=list(d["players"])) if d["monster"] else
            T("In %(zone)s with you: %(players)s.", zone=z, players=list(d["players"])))


def _ration_msg(d: D, v: int | None) -> Msg:
    if d["gained"]:
        return Tn("You found %(gained)s K-ration. You ate a K-ration (%(left)s left).",
                  "You found %(gained)s K-rations. You ate a K-ration (%(left)s left).",
                  d["gained"], gained=d["gained"], left=d["left"])
    return T("You ate a K-ration (%(left)s left).", left=d["left"])


REGIME_NAMES = {"discounted": Tc("killgame market", "discounted"),
                "unchanged": Tc("killgame market", "unchanged"),
                "raised": Tc("killgame market", "raised"), "crazy": Tc("killgame market", "crazy")}
CLOUD_NAMES = {"smoke": Tc("killgame cloud", "smoke"), "gas": Tc("killgame cloud", "gas")}

MSG: dict[str, Callable[[D, int | None], Any]] = {
    "market": lambda d, v: (
        T("You bought a %(item)s for %(price)s coins (%(coins)s left).", item=_i(d["item"]),
          price=d["price"], coins=d["coins"]) if d["action"] == "buy" else
        T("You sold a %(item)s for %(price)s coins (%(coins)s left).", item=_i(d["item"]),
          price=d["price"], coins=d["coins"])),
    "order_voided": lambda d, v: T("Your order %(order)s was void (%(code)s).",
                                   order=d["order"].get("type"), code=d["code"]),
    "backpack": lambda d, v: (
        T("You received the default backpack: %(items)s; %(coins)s coins left.",
          items=_is(d["items"]), coins=d["coins"]) if d["default"] else
        T("Your cart was delivered: %(items)s; %(coins)s coins left.", items=_is(d["items"]),
          coins=d["coins"])),
    "start_zone": lambda d, v: T("You start in %(zone)s.", zone=_z(d["zone"])),
    "antidote": lambda d, v: T("You took an antidote: the poison is gone."),
    "healed": _healed_msg,
    "smoke_thrown": lambda d, v: T("You threw a smoke grenade into %(zone)s.", zone=_z(d["zone"])),
    "gas_thrown": lambda d, v: T("You threw a gas canister into %(zone)s.", zone=_z(d["zone"])),
    "moved": lambda d, v: T("You moved from %(from)s to %(to)s.", **{"from": _z(d["from"]),
                                                                     "to": _z(d["to"])}),
    "expelled": lambda d, v: T("You were expelled from %(from)s to %(to)s and lost %(amount)s.",
                               amount=d["amount"], **{"from": _z(d["from"]), "to": _z(d["to"])}),
    "closed_zone_penalty": lambda d, v: T("You stayed in the closed zone %(zone)s and lost "
                                          "%(amount)s.", zone=_z(d["zone"]), amount=d["amount"]),
    "you_died": lambda d, v: T("You died."),
    "player_died": lambda d, v: T("%(who)s died in %(zone)s.", who=_w(d["player"], v, True),
                                  zone=_z(d["zone"])),
    "monster_killed": lambda d, v: T("The monster in %(zone)s was killed.", zone=_z(d["zone"])),
    "match_over": lambda d, v: (T("The match is over. Winners: %(winners)s.",
                                  winners=list(d["winners"])) if d["winners"] else
                                T("The match is over. Winners: nobody.")),
    "deaths": lambda d, v: Tn("Died in this phase: %(players)s. %(count)s player is alive.",
                              "Died in this phase: %(players)s. %(count)s players are alive.",
                              d["living"], players=list(d["players"]), count=d["living"]),
    "action_opened": lambda d, v: (
        Tn("Turn %(turn)s: the Action phase is open; %(count)s player alive; DOUBLE DAMAGE.",
           "Turn %(turn)s: the Action phase is open; %(count)s players alive; DOUBLE DAMAGE.",
           d["living"], turn=d["turn"], count=d["living"]) if d["double_damage"] else
        Tn("Turn %(turn)s: the Action phase is open; %(count)s player alive.",
           "Turn %(turn)s: the Action phase is open; %(count)s players alive.",
           d["living"], turn=d["turn"], count=d["living"])),
    "partner_revealed": lambda d, v: (T("Your district partner: %(players)s.",
                                        players=list(d["partners"])) if d["partners"] else
                                      T("Your district partner: none.")),
    "roster": _roster_msg,
    "cloud_seen": lambda d, v: T("A cloud of %(cloud)s hangs over %(zone)s.",
                                 cloud=CLOUD_NAMES.get(d["cloud"], d["cloud"]), zone=_z(d["zone"])),
    "worn": lambda d, v: T("You wore: %(items)s.", items=[_i(i) for i in d["items"]]),
    "shout": _shout_msg,
    "shout_result": lambda d, v: (
        T("The crowd loved your shout. Persuasion %(persuasion)s.", persuasion=d["persuasion"])
        if d["success"] else
        T("The crowd booed your shout. Persuasion %(persuasion)s.", persuasion=d["persuasion"])),
    "attack": _attack_msg,
    "explosion_result": lambda d, v: (
        T("Your %(item)s on %(zone)s went off.", item=_i(d["type"]), zone=_z(d["zone"]))
        if d["effective"] else
        T("Your %(item)s on %(zone)s was wasted.", item=_i(d["type"]), zone=_z(d["zone"]))),
    "explosion": lambda d, v: (
        T("In the smoke in %(zone)s an unknown source hit you for %(damage)s.",
          zone=_z(d["zone"]), damage=d["damage"]) if d.get("smoked") else
        T("A %(item)s exploded in %(zone)s: %(damage)s damage to everyone.", item=_i(d["type"]),
          zone=_z(d["zone"]), damage=d["damage"])),
    "gas_damage": lambda d, v: (T("Your gas mask protected you from the gas.") if d["masked"]
                                else T("The gas in %(zone)s cost you %(amount)s.",
                                       zone=_z(d["zone"]), amount=d["amount"])),
    "monster_hit": lambda d, v: (T("Something in the smoke hit you for %(amount)s.",
                                   amount=d["amount"]) if d["smoked"] else
                                 T("The monster hit you for %(amount)s.", amount=d["amount"])),
    "monster_attack": lambda d, v: T("The monster in %(zone)s attacked %(players)s.",
                                     zone=_z(d["zone"]),
                                     players=[_w(x, v) for x in d["victims"]]),
    "poison_tick": lambda d, v: T("The poison cost you %(amount)s.", amount=d["amount"]),
    "ration": _ration_msg,
    "starvation": lambda d, v: T("You had nothing to eat and lost %(amount)s.",
                                 amount=d["amount"]),
    "approval": lambda d, v: T("Audience approval %(delta)s: now %(approval)s.",
                               delta=f"{d['delta']:+d}", approval=d["approval"]),
    "reward": lambda d, v: T("The audience rewards you: %(items)s.", items=_is(d["items"])),
    "punishment": lambda d, v: T("The audience punishes you: −%(amount)s energy.",
                                 amount=d["amount"]),
    "persuasion": lambda d, v: T("Your persuasion is now %(persuasion)s.",
                                 persuasion=d["persuasion"]),
    "zone_closed": lambda d, v: (
        T("%(zone)s is now closed. Next to close: %(next)s.", zone=_z(d["zone"]),
          next=_z(d["next"])) if d["next"] else
        T("%(zone)s is now closed.", zone=_z(d["zone"]))),
    "heard_gunfire": lambda d, v: Tn("You heard %(count)s shot from %(zone)s.",
                                     "You heard %(count)s shots from %(zone)s.", d["shots"],
                                     count=d["shots"], zone=_z(d["zone"])),
    "heard_explosion": lambda d, v: Tn("You heard %(count)s explosion from %(zone)s.",
                                       "You heard %(count)s explosions from %(zone)s.",
                                       d["count"], count=d["count"], zone=_z(d["zone"])),
    "heard_monster": lambda d, v: T("You heard a monster attack in %(zone)s.",
                                    zone=_z(d["zone"])),
    "tactical_opened": lambda d, v: Tn(
        "Turn %(turn)s: the Tactical phase is open; %(count)s player alive.",
        "Turn %(turn)s: the Tactical phase is open; %(count)s players alive.", d["living"],
        turn=d["turn"], count=d["living"]),
    "market_opened": lambda d, v: T("The market is open: prices are %(regime)s.",
                                    regime=REGIME_NAMES.get(d["regime"], d["regime"])),
}


#: event fields that hold a zone id
ZONE_KEYS = ("zone", "from", "to", "next")


#: a seat named by id in a sentence ("player p3", "il giocatore p3", "p3")
PLAYER_ID = re.compile(r"\b(?:[Pp]layer |il giocatore |Il giocatore )?p(\d+)\b")


def name_players(text: str, names: Mapping[int, str], viewer: int | None = None) -> str:
    """A sentence's seat ids (``player p3``) as the seat's name (``names``: seat number ->
    name), and "you" for the reader (``viewer``)."""
    def repl(m: re.Match[str]) -> str:
        seat = int(m.group(1))
        if viewer is not None and seat == viewer:
            return "You" if m.start() == 0 or text[:m.start()].rstrip().endswith((".", ":")) \
                else "you"
        return names.get(seat, m.group(0))
    return PLAYER_ID.sub(repl, text)


def _named(x: Any, names: Mapping[int, str], viewer: int | None) -> Any:
    """:func:`name_players` inside a ``Msg``'s parameters (the message id stays)."""
    if isinstance(x, Msg):
        return Msg(x.msgid, {k: _named(v, names, viewer) for k, v in x.params.items()},
                   plural=x.plural, n=x.n, context=x.context)
    if isinstance(x, list):
        return [_named(v, names, viewer) for v in x]
    if isinstance(x, str):
        return name_players(x, names, viewer)
    return x


def describe(event: Event, viewer: int | None, lang: str = "en",
             names: Mapping[int, str] | None = None,
             zones: Mapping[str, str] | None = None) -> str:
    """One plain sentence for a diary line, from ``viewer``'s point of view.

    ``names`` (seat number -> player name) names the players (:func:`name_players`);
    without it a sentence names seats by id (``player p3``).
    ``zones`` (zone id → name, from the match's map) names the zones of a map the rules do
    not know (one an admin made); without it only the two rules maps' zones have names.

    >>> describe(Event("start_zone", {"zone": "z1"}, None), 0, zones={"z1": "Old Mill"})
    'You start in Old Mill.'
    """
    lang = "it" if lang == "it" else "en"
    fns = TEXT.get(event.kind)
    if fns is None:
        return event.kind
    fn = fns[0] if lang == "en" else fns[1]
    data = dict(event.data)
    if zones:
        for key in ZONE_KEYS:
            if isinstance(data.get(key), str) and data[key] in zones:
                data[key] = zones[data[key]]
    if lang == "en" and event.kind in MSG:
        msg: str = MSG[event.kind](data, viewer)
        return _named(msg, names, viewer) if names is not None else msg
    text = fn(data, viewer, lang)
    return name_players(text, names, viewer) if names is not None else text
