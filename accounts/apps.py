from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"

    def ready(self) -> None:
        from accounts import signals  # noqa: F401  (creates a Profile for every new user)
        import config.proxies  # noqa: F401  (its system check: TRUSTED_PROXIES)
