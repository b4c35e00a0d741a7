"""The match state and the snapshots compressed with lz4 on PostgreSQL (where the server
has it; PostgreSQL 14+): a Kill Game state is some 9 KB of JSON, compressed on every close
(``UPDATE`` of the match; the snapshot copies the compressed value as it is), and pglz
took a third of the database's CPU for a close; lz4 does it in a fraction for about the
same size. Values written before keep their compression until rewritten."""

from django.db import migrations

COLUMNS = (("games_match", "state"), ("games_snapshot", "state"))


def _has_lz4(schema_editor) -> bool:
    connection = schema_editor.connection
    if connection.vendor != "postgresql":
        return False
    with connection.cursor() as cursor:
        cursor.execute("SELECT enumvals FROM pg_settings "
                       "WHERE name = 'default_toast_compression'")
        row = cursor.fetchone()
    return bool(row and row[0] and "lz4" in row[0])


def _set(method: str):
    def run(apps, schema_editor) -> None:
        if not _has_lz4(schema_editor):
            return
        for table, column in COLUMNS:
            schema_editor.execute(f'ALTER TABLE "{table}" ALTER COLUMN "{column}" '
                                  f"SET COMPRESSION {method}")
    return run


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0009_phase_open_indexes_by_id"),
    ]

    operations = [
        migrations.RunPython(_set("lz4"), _set("pglz")),
    ]
