"""Diary sentences (§18.5) in English and Italian for every event kind the engine emits.

Player ids are ``p{seat}`` in real matches; when an id belongs to the viewer the sentence says
"you". Zone ids become their display names (the rules maps' Italian names, or the names the
match's own map gives, passed as ``zones``).
"""

from __future__ import annotations

import re

from typing import Any, Callable, Mapping

from games.rules import Event

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


def _attack(d: D, v: int | None, lang: str) -> str:
    en = lang == "en"
    if d.get("smoked"):
        if "attacker" in d:
            return (f"In the smoke in {_z(d['zone'])} your {_item(d['weapon'], lang)} hit "
                    f"{d['hits']} presence(s)." if en else
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
        lambda d, v, l: (f"In {_z(d['zone'])} the smoke hides {d['presences']} presence(s)."
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
        lambda d, v, l: f"You heard {d['shots']} shot(s) from {_z(d['zone'])}.",
        lambda d, v, l: f"Hai sentito {d['shots']} sparo/i da {_z(d['zone'])}.",
    ),
    "heard_explosion": (
        lambda d, v, l: f"You heard {d['count']} explosion(s) from {_z(d['zone'])}.",
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
    text = fn(data, viewer, lang)
    return name_players(text, names, viewer) if names is not None else text
