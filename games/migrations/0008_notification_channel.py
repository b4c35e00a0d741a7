from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0007_notification_match_news'),
    ]

    operations = [
        migrations.AddField(
            model_name='notification',
            name='channel',
            field=models.CharField(default='email', help_text='How it leaves: email, or a channel another app plugs in (AppHooks.channels: push, webhook).', max_length=10),
        ),
        migrations.AddField(
            model_name='notification',
            name='target_id',
            field=models.PositiveBigIntegerField(blank=True, help_text="The channel's own target (a push subscription, a webhook); empty for email.", null=True),
        ),
    ]
