from django.apps import AppConfig


class ReachConfig(AppConfig):
    """Reaching players besides email: web push, the installable site, webhooks and the
    calendar feed. Plugs its two channels into the outbox (``notifications.CHANNELS``) and
    its send-time checks into ``SEND_VETOES``."""

    name = "reach"
    verbose_name = "Reach: push, webhooks, calendar"

    def ready(self) -> None:
        from games.services import notifications
        from reach.policy import send_veto
        from reach.push import PushChannel
        from reach.webhooks import WebhookChannel

        notifications.CHANNELS.setdefault("push", PushChannel())
        notifications.CHANNELS.setdefault("webhook", WebhookChannel())
        if send_veto not in notifications.SEND_VETOES:
            notifications.SEND_VETOES.append(send_veto)
