"""django-csp's middleware with the settings' policy header built once, not per answer.

``csp.middleware.CSPMiddleware`` rebuilds the header string from the settings on every
response (a copy of the directives, ``dataclasses.asdict``, the join, twice with the
report-only header): ~0.06 ms of CPU on each of the hundreds of htmx polls a second
(``bench_capacity``). An answer whose policy is the settings' own — no per-view
``@csp_update``/``@csp_replace``/``@csp`` config and no nonce drawn — gets the string built
the first time; the header is set under django-csp's own conditions (not already set, not
exempt, not an excluded prefix). Anything else goes to django-csp unchanged. The memo is
dropped when a CSP setting changes (tests' ``override_settings``)."""

from __future__ import annotations

from typing import Any

from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.middleware import CheckableLazyObject, CSPMiddleware
from csp.utils import build_policy
from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver

# what a view sets on its response to change its policy (csp.decorators)
_PER_VIEW = ("_csp_config", "_csp_update", "_csp_replace",
             "_csp_config_ro", "_csp_update_ro", "_csp_replace_ro")
# report_only -> (header, exempt attribute, setting)
_KINDS = {False: (HEADER, "_csp_exempt", "CONTENT_SECURITY_POLICY"),
          True: (HEADER_REPORT_ONLY, "_csp_exempt_ro", "CONTENT_SECURITY_POLICY_REPORT_ONLY")}
_built: dict[bool, str] = {}  # report_only -> the settings' policy, built


@receiver(setting_changed)
def _forget(setting: str, **kwargs: Any) -> None:
    if setting.startswith("CONTENT_SECURITY_POLICY") or setting == "DEBUG":
        _built.clear()


def _settings_policy(report_only: bool) -> str:
    found = _built.get(report_only)
    if found is None:
        found = _built[report_only] = build_policy(report_only=report_only)
    return found


class CachedCSPMiddleware(CSPMiddleware):
    def process_response(self, request, response):  # noqa: ANN001, ANN201 - Django's
        if (settings.DEBUG or getattr(request, "_csp_nonce", None) is not None
                or any(hasattr(response, name) for name in _PER_VIEW)):
            return super().process_response(request, response)
        for report_only, (header, exempt, setting) in _KINDS.items():
            policy = _settings_policy(report_only)
            if not policy or header in response or getattr(response, exempt, False):
                continue
            prefixes = (getattr(settings, setting, None) or {}).get("EXCLUDE_URL_PREFIXES") or ()
            if not request.path_info.startswith(tuple(prefixes)):
                response[header] = policy
        # as django-csp: a nonce asked for after the header was written is an error
        request.csp_nonce = CheckableLazyObject(self._csp_nonce_post_response)
        return response
