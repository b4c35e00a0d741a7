"""``Permissions-Policy`` on every answer: the site uses no camera, microphone, location,
payment or USB, so no page (nor anything injected into one) may ask for them. Django sets
``Referrer-Policy`` itself (``SECURE_REFERRER_POLICY``) and django-csp the CSP."""

from __future__ import annotations

from django.conf import settings


class PermissionsPolicyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        response.headers.setdefault("Permissions-Policy", settings.PERMISSIONS_POLICY)
        return response
