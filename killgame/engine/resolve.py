"""Phase resolution (§16): the Tactical close (§16.1) and the Action close (§16.2), step by
step, plus the opening of the next phase (double damage, rosters, clouds, market regime).

.. warning:: ``resolve`` assumes the stored orders were accepted by
   :func:`killgame.engine.orders.submit`; it re-validates them (step 3 / step 1) only for
   what may have changed since (items sold, dead players).
"""

from __future__ import annotations

from typing import Any

from games.rules import Resolution

from . import approval, combat, monsters
from . import catalogue as cat
from .context import Ctx
from .market import draw_regime, price_list
from .orders import revalidate
from .state import ACTION, TACTICAL, MPlayer, State, StoredOrder


def resolve(state: State, seed: str) -> Resolution:
    """Close the open phase: §16.1 for a Tactical phase, §16.2 for an Action phase.

    Draws use the match seed kept in the state since ``setup`` (§0.1 keys every stream on
    it, with the turn and phase); ``seed`` is used only for a state built without one (a
    scenario position). So the framework's per-phase seed changes nothing here.
    """
    seed = state.seed or seed
    if state.over:
        raise ValueError("The match is over: there is no phase to resolve.")
    if state.phase == TACTICAL:
        return _close_tactical(state, seed)
    return _close_action(state, seed)


def heal_amount(cfg: Any, energy: int) -> int:
    """§7.4: ``medkit_heal_pct`` of the lost energy, rounded up."""
    lost = max(0, int(cfg["max_energy"]) - energy)
    return (int(cfg["medkit_heal_pct"]) * lost + 99) // 100


def _valid_orders(ctx: Ctx) -> dict[str, list[StoredOrder]]:
    """Step 3 (Tactical) / step 1 (Action): void stored orders that became invalid."""
    out: dict[str, list[StoredOrder]] = {}
    for p in ctx.players:
        if not p.alive:
            p.orders = ()
            continue
        keep = []
        for so in p.orders:
            code = None if so.slot == "medkit" else revalidate(ctx.state, p.seat, so)
            if code is None:
                keep.append(so)
            else:
                ctx.me(p, "order_voided", {"order": dict(so.order), "code": code})
        out[p.pid] = keep
    return out


def _order(orders: dict[str, list[StoredOrder]], p: MPlayer, slot: str) -> StoredOrder | None:
    for so in orders.get(p.pid, ()):
        if so.slot == slot:
            return so
    return None


def _void(ctx: Ctx, p: MPlayer, so: StoredOrder, code: str) -> None:
    ctx.me(p, "order_voided", {"order": dict(so.order), "code": code})


# ----------------------------------------------------------------------------------------
# §16.1 Tactical close
# ----------------------------------------------------------------------------------------
def _close_tactical(state: State, seed: str) -> Resolution:
    ctx = Ctx(state, seed, "T")
    ctx.compute_occupants()
    ctx.smoked_now = frozenset()
    if state.turn == 1:
        _turn1_start(ctx)
    else:
        orders = _valid_orders(ctx)
        _antidotes(ctx, orders)
        _medkits(ctx, orders)
        _clouds(ctx, orders)
        start_zone = {p.pid: p.zone for p in ctx.players}
        _movement(ctx, orders)
        monsters.move(ctx)
        _expulsion(ctx, start_zone)
        _closed_penalty(ctx)
        ctx.compute_occupants()  # deaths are seen where the players now are
        ctx.death_check()
    return _open_action(ctx)


def _turn1_start(ctx: Ctx) -> None:
    """Step 2: carts or the default backpack, free rations, start zones, monsters."""
    cfg = ctx.cfg
    gmap = ctx.gmap
    k_on = cfg["k_rations_enabled"]
    for p in ctx.players:
        cart = next((so for so in p.orders if so.slot == "cart"), None)
        if cart is not None:
            items = dict(cart.order["items"])
            default = False
        else:
            items = dict(cat.DEFAULT_BACKPACK)
            default = True
        total = sum(int(cfg["prices"][i]) * n for i, n in items.items())
        p.coins = max(0, p.coins - total)
        for item, n in items.items():
            if item in cat.FIREARMS:
                p.firearm = item
            elif item in cat.KNIVES:
                p.knife = item
            elif item in cat.OPTIONS:
                p.options = tuple(sorted(set(p.options) | {item}))
            else:
                p.give(item, n)
        if k_on:
            p.give("k_ration", int(cfg["k_rations_free"]))
        ctx.me(p, "backpack", {"default": default, "items": items, "coins": p.coins})
        sz = next((so for so in p.orders if so.slot == "start_zone"), None)
        p.zone = sz.order["zone"] if sz is not None else gmap.default_start
        ctx.me(p, "start_zone", {"zone": p.zone, "default": sz is None})
    monsters.create_initial(ctx)


def _antidotes(ctx: Ctx, orders: dict[str, list[StoredOrder]]) -> None:
    for p in ctx.players:
        so = _order(orders, p, "antidote")
        if so is None:
            continue
        p.take("antidote")
        p.poison_until = 0
        ctx.me(p, "antidote", {})


def _medkits(ctx: Ctx, orders: dict[str, list[StoredOrder]]) -> None:
    """Step 5: by healer seat, then sequence number; heals compound (§9.2)."""
    for p in ctx.players:
        kits = sorted((so for so in orders.get(p.pid, ()) if so.slot == "medkit"),
                      key=lambda so: so.seq)
        for so in kits:
            t = so.order["target"]
            target = p if t in ("self", p.pid) else ctx.by_pid[t]
            if p.count("medkit") < 1:
                _void(ctx, p, so, "ITEM_NOT_OWNED")
                continue
            if target is not p and (not target.alive or target.zone != p.zone
                                    or p.zone in ctx.last_smoked):
                _void(ctx, p, so, "TARGET_NOT_IN_ZONE")
                continue
            heal = heal_amount(ctx.cfg, target.energy)
            if heal <= 0:
                _void(ctx, p, so, "NO_EFFECT")
                continue
            p.take("medkit")
            target.energy = min(int(ctx.cfg["max_energy"]), target.energy + heal)
            ctx.emit("healed", {"healer": p.pid, "target": target.pid, "amount": heal},
                     {p.seat, target.seat})


def _clouds(ctx: Ctx, orders: dict[str, list[StoredOrder]]) -> None:
    """Steps 6 and 7: smoke, then gas, by seat; expiry = max(current, T + duration − 1)."""
    T = ctx.turn
    for kind, item, table, dur_key in (("smoke", "smoke_grenade", ctx.smoke, "smoke_duration"),
                                       ("gas", "gas_canister", ctx.gas, "gas_duration")):
        for p in ctx.players:
            so = _order(orders, p, kind)
            if so is None:
                continue
            zone = so.order["zone"]
            p.take(item)
            table[zone] = max(table.get(zone, 0), T + int(ctx.cfg[dur_key]) - 1)
            ctx.me(p, f"{kind}_thrown", {"zone": zone, "until": table[zone]})


def _movement(ctx: Ctx, orders: dict[str, list[StoredOrder]]) -> None:
    moves = []
    for p in ctx.players:
        so = _order(orders, p, "move")
        if so is not None:
            moves.append((p, so.order["to"]))
    for p, to in moves:
        ctx.me(p, "moved", {"from": p.zone, "to": to})
        p.zone = to


def _expulsion(ctx: Ctx, start_zone: dict[str, str | None]) -> None:
    """Step 10 (§8.4): a second consecutive stay in the central zone means expulsion."""
    if not ctx.cfg["k_rations_enabled"]:
        return
    central = ctx.gmap.central
    dmg = int(ctx.cfg["central_expulsion_damage"])
    for p in ctx.players:
        if not p.alive or p.zone != central or start_zone[p.pid] != central:
            continue
        options = [z for z in ctx.gmap.adjacent[central] if z not in ctx.closed]
        if options:
            rng = ctx.rng["expel"]
            p.zone = options[rng.randrange(len(options))]
        ctx.lose(p, dmg, "expulsion")
        ctx.me(p, "expelled", {"from": central, "to": p.zone, "amount": dmg})


def _closed_penalty(ctx: Ctx) -> None:
    dmg = int(ctx.cfg["closed_zone_damage"])
    for p in ctx.players:
        if p.alive and p.zone in ctx.closed:
            ctx.lose(p, dmg, "closed_zone")
            ctx.me(p, "closed_zone_penalty", {"zone": p.zone, "amount": dmg})


def _reset_phase_fields(ctx: Ctx) -> None:
    for p in ctx.players:
        p.orders = ()
        p.checked = False
        p.bought = 0


def _cloud_events(ctx: Ctx) -> None:
    """``cloud_seen``: players in or next to a smoked/gassed zone, at each phase opening."""
    T = ctx.turn
    for kind, table in (("smoke", ctx.smoke), ("gas", ctx.gas)):
        for zone in ctx.gmap.zones:
            if table.get(zone, 0) < T:
                continue
            near = {zone, *ctx.gmap.adjacent[zone]}
            seats = [p.seat for p in ctx.players if p.alive and p.zone in near]
            if seats:
                ctx.emit("cloud_seen", {"zone": zone, "cloud": kind, "until": table[zone]},
                         seats)


def _open_action(ctx: Ctx) -> Resolution:
    """Step 13: double-damage flag, district partners (turn 1), rosters, deaths, clouds."""
    _publish_deaths(ctx, TACTICAL)
    _reset_phase_fields(ctx)
    if ctx.over:
        return Resolution(ctx.freeze(), tuple(ctx.events))
    living = ctx.living_players()
    ctx.double_damage = len(living) <= int(ctx.cfg["double_damage_threshold"])
    ctx.emit("action_opened", {"turn": ctx.turn, "double_damage": ctx.double_damage,
                               "living": len(living)}, None)
    if ctx.turn == 1 and ctx.cfg["mode"] == "districts":
        for p in ctx.players:
            partners = [q.pid for q in ctx.players if ctx.allies(p, q)]
            ctx.me(p, "partner_revealed", {"partners": partners})
    by_zone: dict[str | None, list[Any]] = {}
    for p in living:
        by_zone.setdefault(p.zone, []).append(p)
    for m in ctx.monsters:
        if m.alive:
            by_zone.setdefault(m.zone, []).append(m)
    for p in living:
        others = [e for e in by_zone[p.zone] if e is not p]
        if p.zone in ctx.smoke:
            ctx.me(p, "roster", {"zone": p.zone, "smoked": True, "presences": len(others)})
        else:
            ctx.me(p, "roster", {
                "zone": p.zone, "smoked": False,
                "players": [q.pid for q in others if isinstance(q, MPlayer)],
                "monster": any(not isinstance(q, MPlayer) for q in others)})
    _cloud_events(ctx)
    return Resolution(ctx.freeze(phase=ACTION), tuple(ctx.events))


def _publish_deaths(ctx: Ctx, phase: str) -> None:
    if ctx.died_now:
        ctx.emit("deaths", {"players": [p.pid for p in ctx.died_now], "phase": phase,
                            "turn": ctx.turn,
                            "living": len(ctx.living_players())}, None)
        ctx.died_now = []


# ----------------------------------------------------------------------------------------
# §16.2 Action close
# ----------------------------------------------------------------------------------------
def _close_action(state: State, seed: str) -> Resolution:
    ctx = Ctx(state, seed, "A")
    T = ctx.turn
    cfg = ctx.cfg
    # step 1
    orders = _valid_orders(ctx)
    # step 2
    ctx.compute_occupants()
    ctx.smoked_now = frozenset(z for z, until in ctx.smoke.items() if until >= T)
    zone_players: dict[str | None, list[MPlayer]] = {}
    for p in ctx.players:
        if p.alive:
            zone_players.setdefault(p.zone, []).append(p)
    monster_zones = {m.zone for m in ctx.monsters if m.alive}
    for p in ctx.players:
        p.poison_prev = p.poison_until
        if p.alive:
            p.has_opp = p.zone in monster_zones or any(
                q is not p and not ctx.allies(p, q) for q in zone_players[p.zone])
    # step 3: wear
    for p in ctx.players:
        so = _order(orders, p, "wear")
        if so is None:
            continue
        for item in so.order["items"]:
            if p.count(item) >= 1:
                p.take(item)
                p.worn.add(item)
        ctx.me(p, "worn", {"items": sorted(p.worn)})
    # step 4: shouts
    if T >= 2:
        approval.shouts(ctx, [p for p in ctx.players if _order(orders, p, "shout")])
    # step 5: combat
    combat_orders = {}
    bombs = []
    for p in ctx.players:
        so = _order(orders, p, "combat")
        if so is None:
            continue
        if so.order["type"] == "attack":
            combat_orders[p.pid] = dict(so.order)
        else:
            bombs.append((so.seq, p, so.order["type"], so.order["zone"]))
    gunfire: dict[str, int] = {}
    blasts: dict[str, int] = {}
    heard_monster: set[str] = set()
    combat.attacks(ctx, combat_orders, gunfire)
    combat.explosives(ctx, bombs, blasts)
    combat.gas(ctx)
    ctx.apply_pending()
    if not ctx.death_check():
        # step 6
        monsters.attack(ctx, heard_monster)
        if not ctx.death_check():
            _after_monsters(ctx)
    _hearing(ctx, gunfire, blasts, heard_monster)
    _publish_deaths(ctx, ACTION)
    if ctx.over:
        _reset_phase_fields(ctx)
        return Resolution(ctx.freeze(), tuple(ctx.events))
    return _open_tactical(ctx, cfg)


def _after_monsters(ctx: Ctx) -> None:
    """Steps 7–16."""
    T = ctx.turn
    cfg = ctx.cfg
    # step 7: poison ticks
    pdmg = int(cfg["crossbow_poison_damage"])
    for p in ctx.players:
        if p.alive and p.poison_prev >= T:
            ctx.lose(p, pdmg, "poison")
            ctx.me(p, "poison_tick", {"amount": pdmg})
    # step 8: K-rations
    if cfg["k_rations_enabled"]:
        gain = int(cfg["k_rations_central_gain"])
        starve = int(cfg["starvation_damage"])
        for p in ctx.players:
            if not p.alive:
                continue
            gained = 0
            if p.zone == ctx.gmap.central:
                p.give("k_ration", gain)
                gained = gain
            if p.count("k_ration") >= 1:
                p.take("k_ration")
                ctx.me(p, "ration", {"gained": gained, "eaten": 1, "left": p.count("k_ration")})
            else:
                ctx.lose(p, starve, "starvation")
                ctx.me(p, "starvation", {"gained": gained, "amount": starve})
    # step 9
    if ctx.death_check():
        return
    # steps 10, 11
    approval.approval(ctx)
    approval.rewards(ctx)
    if ctx.death_check():
        return
    # step 12
    approval.persuasion(ctx)
    for p in ctx.players:
        if p.alive and p.fired_reloading:
            p.reload_turn = T + 1
    # step 13: zone closure
    gmap = ctx.gmap
    if ctx.closed_count < len(gmap.closure_order):
        zone = gmap.closure_order[ctx.closed_count]
        ctx.closed_count += 1
        ctx.closed.add(zone)
        nxt = (gmap.closure_order[ctx.closed_count]
               if ctx.closed_count < len(gmap.closure_order) else None)
        ctx.emit("zone_closed", {"zone": zone, "next": nxt}, None)
    # step 14
    monsters.replace_dead(ctx)
    # step 15: expire clouds
    ctx.last_smoked = tuple(z for z in gmap.zones if ctx.smoke.get(z, 0) >= T)
    ctx.smoke = {z: t for z, t in ctx.smoke.items() if t > T}
    ctx.gas = {z: t for z, t in ctx.gas.items() if t > T}
    # step 16
    if cfg["max_turns"] and T >= cfg["max_turns"]:
        ctx.finish_match({ctx.side_key(p) for p in ctx.players if p.alive})


def _hearing(ctx: Ctx, gunfire: dict[str, int], blasts: dict[str, int],
             heard_monster: set[str]) -> None:
    """§18.3: each living player hears the zones adjacent to their own."""
    if not (gunfire or blasts or heard_monster):
        return
    for p in ctx.players:
        if not p.alive or p.zone is None:
            continue
        for z in ctx.gmap.adjacent[p.zone]:
            if gunfire.get(z):
                ctx.me(p, "heard_gunfire", {"zone": z, "shots": gunfire[z]})
            if blasts.get(z):
                ctx.me(p, "heard_explosion", {"zone": z, "count": blasts[z]})
            if z in heard_monster:
                ctx.me(p, "heard_monster", {"zone": z})


def _open_tactical(ctx: Ctx, cfg: Any) -> Resolution:
    """Step 17: open turn T+1's Tactical phase and draw its market regime."""
    _reset_phase_fields(ctx)
    ctx.double_damage = False
    nxt = ctx.turn + 1
    ctx.turn = nxt
    ctx.market = draw_regime(cfg, ctx.seed, nxt)
    living = [p.seat for p in ctx.players if p.alive]
    ctx.emit("tactical_opened", {"turn": nxt, "living": len(living)}, None)
    ctx.emit("market_opened", {"turn": nxt, "regime": ctx.market,
                               "prices": price_list(cfg, ctx.market)}, living)
    _cloud_events(ctx)
    return Resolution(ctx.freeze(turn=nxt, phase=TACTICAL), tuple(ctx.events))
