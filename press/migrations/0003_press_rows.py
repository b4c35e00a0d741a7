"""Every match gets its press settings row (the game's default), so that bumping the
press version (press/freshness.py) is one UPDATE."""

from django.db import migrations

DEFAULTS = {"killgame": "full", "sanguosha": "public", "diceslayer": "full"}


def create_rows(apps, schema_editor):
    Match = apps.get_model("games", "Match")
    MatchPress = apps.get_model("press", "MatchPress")
    rows = []
    for pk, game, config in Match.objects.filter(press__isnull=True).values_list(
            "pk", "game", "config").iterator():
        variant = str((config or {}).get("variant", "")) if isinstance(config, dict) else ""
        rules = "none" if variant.startswith("solo") else DEFAULTS.get(game, "full")
        rows.append(MatchPress(match_id=pk, rules=rules))
    MatchPress.objects.bulk_create(rows, batch_size=500, ignore_conflicts=True)


class Migration(migrations.Migration):

    dependencies = [
        ("press", "0002_press_version"),
        ("games", "0001_initial"),
    ]

    operations = [migrations.RunPython(create_rows, migrations.RunPython.noop)]
