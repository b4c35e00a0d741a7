from django.apps import AppConfig


class ReachConfig(AppConfig):
    """Reaching players besides email: web push, the installable site, webhooks and the
    calendar feed. Plugs its two channels into the outbox and its send-time checks in
    through ``games.registry.register_app``."""

    name = "reach"
    verbose_name = "Reach: push, webhooks, calendar"

    def ready(self) -> None:
        from games.registry import AppHooks, register_app
        from reach.policy import send_veto
        from reach.push import PushChannel
        from reach.webhooks import WebhookChannel

        register_app(AppHooks(label="reach", send_veto=send_veto,
                              channels=(PushChannel(), WebhookChannel())))
