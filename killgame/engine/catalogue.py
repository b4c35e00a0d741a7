"""The Kill Game catalogue (§7): item ids, categories, default weapon tables, prices, rewards.

Only data and tiny lookups live here; the per-match values come from the validated config
(``weapons``, ``prices``, ``rewards``, ``punishments``), whose defaults are these tables.
"""

from __future__ import annotations

FIREARMS: tuple[str, ...] = ("sniper_rifle", "machine_gun", "shotgun", "poison_crossbow",
                             "flamethrower")
KNIVES: tuple[str, ...] = ("small_knife", "ninja_knife", "rambo_knife")
FISTS = "fists"
EXPLOSIVES: tuple[str, ...] = ("grenade", "c4", "smoke_grenade", "gas_canister")
ITEMS: tuple[str, ...] = ("medkit", "vest", "gas_mask", "antidote", "amulet", "k_ration")
OPTIONS: tuple[str, ...] = ("reinforced_vests", "gas_launcher")
STACKABLE: tuple[str, ...] = EXPLOSIVES + ITEMS
CATALOGUE: tuple[str, ...] = FIREARMS + KNIVES + EXPLOSIVES + ITEMS + OPTIONS
WEARABLE: tuple[str, ...] = ("vest", "gas_mask", "amulet")

#: firearms whose damage a vest halves (reinforced: zeroes)
VEST_HALVES = frozenset({"sniper_rifle", "machine_gun", "shotgun"})
#: melee weapons a vest blocks
MELEE = frozenset(KNIVES + (FISTS,))
#: weapons that must reload after firing (§7.1)
RELOADING = frozenset({"machine_gun", "shotgun"})


def category(item: str) -> str:
    """The market category of ``item`` (§7.5): firearm, knife, explosive, item or option."""
    if item in FIREARMS:
        return "firearm"
    if item in KNIVES:
        return "knife"
    if item in EXPLOSIVES:
        return "explosive"
    if item in OPTIONS:
        return "option"
    return "item"


DEFAULT_WEAPONS: dict[str, dict[str, int]] = {
    "sniper_rifle": {"damage": 3, "shots": 1},
    "machine_gun": {"damage": 2, "shots": 2},
    "shotgun": {"damage": 6, "shots": 1},
    "poison_crossbow": {"damage": 2, "shots": 1},
    # flamethrower: "shots" is unused (any number of distinct targets)
    "flamethrower": {"damage": 2, "shots": 0},
    "small_knife": {"damage": 1, "shots": 1},
    "ninja_knife": {"damage": 1, "shots": 2},
    "rambo_knife": {"damage": 3, "shots": 1},
    "fists": {"damage": 1, "shots": 1},
}

DEFAULT_PRICES: dict[str, int] = {
    "sniper_rifle": 200, "machine_gun": 300, "shotgun": 300, "poison_crossbow": 250,
    "flamethrower": 350, "small_knife": 50, "ninja_knife": 100, "rambo_knife": 150,
    "grenade": 60, "c4": 80, "smoke_grenade": 40, "gas_canister": 50, "medkit": 70,
    "vest": 50, "gas_mask": 30, "antidote": 30, "amulet": 40, "k_ration": 10,
    "reinforced_vests": 150, "gas_launcher": 100,
}

#: §15.4 rewards: [label, {item: count}, weight]
DEFAULT_REWARDS: list[list[object]] = [
    ["1 gas mask", {"gas_mask": 1}, 25],
    ["2 K-rations", {"k_ration": 2}, 20],
    ["1 antidote", {"antidote": 1}, 15],
    ["1 amulet", {"amulet": 1}, 12],
    ["1 vest", {"vest": 1}, 10],
    ["1 medkit", {"medkit": 1}, 8],
    ["1 grenade", {"grenade": 1}, 6],
    ["2 medkits", {"medkit": 2}, 4],
]

#: §15.4 punishments: [energy lost, weight]
DEFAULT_PUNISHMENTS: list[list[int]] = [[1, 35], [2, 25], [3, 18], [4, 12], [5, 7], [6, 3]]

#: §6.2 default backpack (sniper rifle stands in for the retired pistol)
DEFAULT_BACKPACK: dict[str, int] = {
    "sniper_rifle": 1, "grenade": 1, "c4": 1, "smoke_grenade": 1, "gas_canister": 1,
    "medkit": 1, "vest": 1, "gas_mask": 1, "antidote": 1, "amulet": 1,
}

REGIMES: tuple[str, ...] = ("discounted", "unchanged", "raised", "crazy")
