"""The OpenAPI description of reach's JSON URLs (push, webhooks, calendar), added to
``games.api_schema`` like every app's own paths, so ``/api/schema/`` names them."""

from __future__ import annotations

from typing import Any


def document() -> None:
    from games.api_schema import BOOL, DT, INT, STR, nullable, obj, ok_body, op, register

    tag = "Notifications"
    endpoint_body = obj({"endpoint": STR}, required=())
    subscription = obj({"endpoint": STR,
                        "keys": obj({"p256dh": STR, "auth": STR}, required=()),
                        "expirationTime": nullable(INT)}, required=())
    webhook = obj({"id": INT, "url": STR, "kind": {"enum": ["json", "discord", "slack"]},
                   "match": nullable(INT), "secret": STR, "created_at": DT,
                   "disabled": BOOL, "note": STR, "failures": INT})
    webhook_id = {"name": "webhook_id", "in": "path", "required": True, "schema": STR,
                  "description": "A webhook's id (one of mine)."}
    push_key = op("The server's VAPID public key, for PushManager.subscribe()", tag=tag,
                  ok_schema=ok_body(key=STR))
    push_key["responses"]["503"] = {"$ref": "#/components/responses/E503"}
    paths: dict[str, dict[str, Any]] = {
        "/api/push/key": {"get": push_key},
        "/api/push/badge": {"get": op("How many matches wait for my move (the app badge)",
                                      tag=tag, ok_schema=ok_body(count=INT))},
        "/api/push/subscriptions/": {
            "get": op("My push subscriptions", tag=tag, ok_schema=ok_body(
                subscriptions={"type": "array", "items": obj(
                    {"id": INT, "endpoint": STR, "created_at": DT})})),
            "post": op("Receive pushes in this browser (PushSubscription.toJSON())", tag=tag,
                       method="post", status="201", body=subscription,
                       ok_schema=ok_body(subscription=obj({"id": INT, "endpoint": STR}))),
            "delete": op("Remove one subscription (by endpoint) or, without a body, all",
                         tag=tag, method="delete", body=endpoint_body,
                         ok_schema=ok_body(removed=INT))},
        "/api/webhooks/": {
            "get": op("My webhooks", tag=tag, ok_schema=ok_body(
                webhooks={"type": "array", "items": webhook})),
            "post": op("Add a webhook: mine (match null) or a match's (director or creator)",
                       tag=tag, method="post", status="201",
                       body=obj({"url": STR, "kind": {"enum": ["json", "discord", "slack"]},
                                 "match": nullable(INT)}, required=("url",)),
                       ok_schema=ok_body(webhook=webhook)),
            "delete": op("Remove one of my webhooks by id", tag=tag, method="delete",
                         body=obj({"id": INT}, required=()), ok_schema=ok_body())},
        "/api/webhooks/{webhook_id}/": {
            "parameters": [webhook_id],
            "delete": op("Remove one of my webhooks", tag=tag, method="delete",
                         ok_schema=ok_body())},
        "/api/webhooks/{webhook_id}/test/": {
            "parameters": [webhook_id],
            "post": op("Fire a test delivery now", tag=tag, method="post",
                       ok_schema=ok_body(delivered=BOOL, detail=STR))},
        "/api/calendar/": {
            "get": op("My private calendar feed's address (iCalendar)", tag=tag,
                      ok_schema=ok_body(url=STR)),
            "delete": op("Revoke my calendar address (the next GET makes a new one)",
                         tag=tag, method="delete", ok_schema=ok_body())},
    }
    register(paths)
