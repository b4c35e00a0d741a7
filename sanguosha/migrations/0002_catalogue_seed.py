"""Seed the card and character catalogues from the engine's data tables."""

from __future__ import annotations

from django.db import migrations


def seed(apps, schema_editor):
    from sanguosha.services import catalogue_sync

    catalogue_sync(models=(apps.get_model("sanguosha", "CardType"),
                           apps.get_model("sanguosha", "Card"),
                           apps.get_model("sanguosha", "Character"),
                           apps.get_model("sanguosha", "Skill")))


class Migration(migrations.Migration):
    dependencies = [("sanguosha", "0001_initial")]
    operations = [migrations.RunPython(seed, migrations.RunPython.noop)]
