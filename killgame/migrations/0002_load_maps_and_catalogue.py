"""Load both maps (killgame/engine/data/*.json, with positions from the §20 layout
sketches) and the §7 catalogue with the §7.5 base prices into the admin-editable tables."""

from __future__ import annotations

import json
from pathlib import Path

from django.db import migrations

DATA = Path(__file__).resolve().parent.parent / "engine" / "data"

#: (column, row) in the §20.1 / §20.2 layout sketches (A = column 0, row 1 = row 0)
GRID = {
    "classic": {
        "cimitero_del_vampire": (0, 0), "foresta_del_nord": (1, 0), "grotta": (2, 0),
        "ponte_ovest": (0, 1), "boschetto": (1, 1), "sentiero": (2, 1), "vecchio_granaio": (3, 1),
        "ruderi": (0, 2), "balle_di_paglia": (1, 2), "paese": (2, 2), "depositi": (3, 2),
        "sede_cubota": (0, 3), "campi": (1, 3), "strada": (2, 3), "ponte_est": (3, 3),
        "bar_pino": (4, 3), "landa_del_sud": (1, 4), "ingresso": (2, 4), "grandi_pianure": (3, 4),
    },
    "inferno": {
        "cave_nord_ovest": (0, 0), "er_cristallo": (1, 0), "ceppo": (2, 0),
        "ponte_nord_est": (3, 0), "cave_nord_est": (4, 0), "ponte_ovest": (0, 1),
        "pietra_c": (1, 1), "cerchio_cy": (2, 1), "pietra_y": (3, 1), "fallo_di_pietra": (4, 1),
        "cave_sud_ovest": (0, 2), "foresta_rossa": (1.5, 2), "ponte_sud_est": (3, 2),
        "cave_sud_est": (4, 2),
    },
}

ITEMS = [
    # slug, English, Italian, category, price
    ("sniper_rifle", "Sniper rifle (PSG)", "Fucile di precisione", "firearm", 200),
    ("machine_gun", "Machine gun", "Mitragliatrice", "firearm", 300),
    ("shotgun", "Shotgun", "Fucile a pompa", "firearm", 300),
    ("poison_crossbow", "Poisoned crossbow", "Balestra avvelenata", "firearm", 250),
    ("flamethrower", "Flamethrower", "Lanciafiamme", "firearm", 350),
    ("small_knife", "Small knife", "Coltellino", "knife", 50),
    ("ninja_knife", "Ninja knife", "Coltello ninja", "knife", 100),
    ("rambo_knife", "Rambo knife", "Coltello di Rambo", "knife", 150),
    ("grenade", "Grenade", "Granata", "explosive", 60),
    ("c4", "C4", "C4", "explosive", 80),
    ("smoke_grenade", "Smoke grenade", "Fumogeno", "explosive", 40),
    ("gas_canister", "Gas canister", "Bombola di gas", "explosive", 50),
    ("medkit", "Medkit", "Medikit", "item", 70),
    ("vest", "Protective vest", "Giubbotto", "item", 50),
    ("gas_mask", "Gas mask", "Maschera antigas", "item", 30),
    ("antidote", "Antidote", "Antidoto", "item", 30),
    ("amulet", "Amulet", "Amuleto", "item", 40),
    ("k_ration", "K-ration", "Razione K", "item", 10),
    ("reinforced_vests", "Reinforced vests (option)", "Giubbotti rinforzati", "option", 150),
    ("gas_launcher", "Gas launcher (option)", "Lanciagas", "option", 100),
]


def load(apps, schema_editor):
    GameMap = apps.get_model("killgame", "GameMap")
    Zone = apps.get_model("killgame", "Zone")
    Edge = apps.get_model("killgame", "Edge")
    Item = apps.get_model("killgame", "Item")
    for slug in ("classic", "inferno"):
        raw = json.loads((DATA / f"{slug}.json").read_text(encoding="utf-8"))
        gmap = GameMap.objects.create(slug=raw["id"], name=raw.get("name", raw["id"]))
        zones = {}
        closing = {z: i for i, z in enumerate(raw["closure_order"], start=1)}
        for zid in raw["closure_order"] + raw["never_close"]:
            info = raw["zones"][zid]
            col, row = GRID[slug][zid]
            zones[zid] = Zone.objects.create(
                game_map=gmap, slug=zid, name=info.get("name", zid), gloss=info.get("gloss", ""),
                closes_at=closing.get(zid), is_central=zid == raw["central"],
                is_default_start=zid == raw["default_start"], x=10 + col * 20, y=10 + row * 20)
        for a, b in raw["edges"]:
            Edge.objects.create(game_map=gmap, a=zones[a], b=zones[b])
    for i, (slug, name, name_it, category, price) in enumerate(ITEMS):
        Item.objects.create(slug=slug, name=name, name_it=name_it, category=category,
                            price=price, position=i)


def unload(apps, schema_editor):
    apps.get_model("killgame", "GameMap").objects.filter(slug__in=["classic", "inferno"]).delete()
    apps.get_model("killgame", "Item").objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [("killgame", "0001_maps_items")]
    operations = [migrations.RunPython(load, unload)]
