"""URLs of the reach app; the manifest and the service worker sit at the site root."""

from __future__ import annotations

from django.urls import path

from reach import api_doc, views

api_doc.document()

app_name = "reach"

urlpatterns = [
    path("manifest.webmanifest", views.manifest, name="manifest"),
    path("sw.js", views.service_worker, name="service-worker"),
    path("offline/", views.offline, name="offline"),
    path("calendar/<str:token>.ics", views.calendar_feed, name="calendar-feed"),
    path("api/push/key", views.api_push_key, name="api-push-key"),
    path("api/push/badge", views.api_push_badge, name="api-push-badge"),
    path("api/push/subscriptions/", views.api_push_subscriptions, name="api-push-subscriptions"),
    path("api/webhooks/", views.api_webhooks, name="api-webhooks"),
    path("api/webhooks/<str:webhook_id>/", views.api_webhook, name="api-webhook"),
    path("api/webhooks/<str:webhook_id>/test/", views.api_webhook_test, name="api-webhook-test"),
    path("api/calendar/", views.api_calendar, name="api-calendar"),
    path("reach/prefs/", views.prefs_save, name="prefs"),
    path("reach/webhooks/add/", views.webhook_add, name="webhook-add"),
    path("reach/webhooks/<int:webhook_id>/remove/", views.webhook_remove, name="webhook-remove"),
    path("reach/webhooks/<int:webhook_id>/test/", views.webhook_test, name="webhook-test"),
    path("reach/calendar/reset/", views.calendar_reset, name="calendar-reset"),
]
