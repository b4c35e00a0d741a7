"""API tokens: the plain key column goes; the hash becomes the unique lookup key."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [("accounts", "0004_api_token_hashed")]

    operations = [
        migrations.RemoveField(model_name="apitoken", name="key"),
        migrations.AlterField(
            model_name="apitoken", name="key_hash",
            field=models.CharField(editable=False, max_length=64, unique=True)),
        migrations.AlterModelOptions(name="apitoken", options={"ordering": ["-created_at"]}),
    ]
