"""API tokens: several per user, named, scoped, expiring, revocable, stored hashed.

Existing plain keys are hashed in place (their owners' scripts keep working until the
token expires, 90 days from this migration); 0005 drops the plain column (a separate
migration: PostgreSQL refuses ALTER TABLE after row updates in the same transaction).
"""

import hashlib
from datetime import timedelta

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models
from django.utils import timezone

import accounts.models


def hash_existing(apps, schema_editor):
    ApiToken = apps.get_model("accounts", "ApiToken")
    expires = timezone.now() + timedelta(days=90)
    for token in ApiToken.objects.all():
        token.key_hash = hashlib.sha256(token.key.encode()).hexdigest()
        token.prefix = token.key[:8]
        token.name = "Token made before hashing"
        token.expires_at = expires
        token.save(update_fields=["key_hash", "prefix", "name", "expires_at"])


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0003_notification_policy_outbox"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterField(
            model_name="apitoken", name="user",
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE,
                                    related_name="api_tokens", to=settings.AUTH_USER_MODEL)),
        migrations.AddField(model_name="apitoken", name="name",
                            field=models.CharField(default="API token", max_length=100)),
        migrations.AddField(
            model_name="apitoken", name="scope",
            field=models.CharField(choices=[("read", "Read: my matches, views and diaries"),
                                            ("play", "Play: also submit orders and check in")],
                                   default="play", max_length=8)),
        migrations.AddField(
            model_name="apitoken", name="prefix",
            field=models.CharField(default="", editable=False, max_length=16,
                                   help_text="The key's first characters, to tell tokens apart.")),
        migrations.AddField(model_name="apitoken", name="key_hash",
                            field=models.CharField(editable=False, max_length=64, null=True)),
        migrations.AddField(
            model_name="apitoken", name="expires_at",
            field=models.DateTimeField(default=accounts.models.default_token_expiry)),
        migrations.AddField(model_name="apitoken", name="revoked_at",
                            field=models.DateTimeField(blank=True, null=True)),
        migrations.RunPython(hash_existing, migrations.RunPython.noop),
    ]
