/* On every page: register the service worker (/sw.js) and keep the app badge at the
   "your move" count of the nav. On the profile page: the push toggle, which asks the
   browser's permission only when pressed. */
(function () {
  "use strict";
  function csrf() {
    try { return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"]; }
    catch (e) { return ""; }
  }
  function b64ToBytes(s) {
    s = s.replace(/-/g, "+").replace(/_/g, "/");
    while (s.length % 4) s += "=";
    var raw = atob(s), out = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
    return out;
  }
  function api(method, url, body) {
    return fetch(url, {method: method, credentials: "same-origin",
      headers: {"Content-Type": "application/json", "X-CSRFToken": csrf()},
      body: body ? JSON.stringify(body) : undefined}).then(function (r) { return r.json(); });
  }
  function badge() {
    if (!("setAppBadge" in navigator) || !document.body.hasAttribute("data-user")) return;
    var el = document.getElementById("your-move-count");
    var n = el ? parseInt(el.textContent, 10) : 0;
    (n ? navigator.setAppBadge(n) : navigator.clearAppBadge()).catch(function () {});
  }
  function setupToggle(reg) {
    var box = document.getElementById("push-toggle");
    if (!box) return;
    var button = box.querySelector("button"), status = box.querySelector(".push-status");
    var say = function (key) { status.textContent = box.getAttribute("data-" + key) || ""; };
    if (!reg || !("PushManager" in window) || !("Notification" in window)) {
      say("unsupported"); button.disabled = true; return;
    }
    var on = false;
    function show(sub) {
      on = !!sub;
      button.textContent = box.getAttribute(on ? "data-off-label" : "data-on-label");
      say(on ? "on" : (Notification.permission === "denied" ? "denied" : "off"));
    }
    reg.pushManager.getSubscription().then(show);
    button.addEventListener("click", function () {
      button.disabled = true;
      var done = function () { button.disabled = false; };
      if (on) {
        reg.pushManager.getSubscription().then(function (sub) {
          if (!sub) return show(null);
          return api("DELETE", box.getAttribute("data-subscriptions"), {endpoint: sub.endpoint})
            .then(function () { return sub.unsubscribe(); }).then(function () { show(null); });
        }).catch(function () { say("error"); }).then(done);
        return;
      }
      Notification.requestPermission().then(function (perm) {
        if (perm !== "granted") { show(null); return; }
        return api("GET", box.getAttribute("data-key")).then(function (k) {
          if (!k.ok) { say("error"); return; }
          return reg.pushManager.subscribe({userVisibleOnly: true,
            applicationServerKey: b64ToBytes(k.key)}).then(function (sub) {
            return api("POST", box.getAttribute("data-subscriptions"), sub.toJSON())
              .then(function (r) { if (r.ok) { show(sub); } else { say("error"); } });
          });
        });
      }).catch(function () { say("error"); }).then(done);
    });
  }
  document.addEventListener("DOMContentLoaded", function () {
    badge();
    if (!("serviceWorker" in navigator)) { setupToggle(null); return; }
    var url = document.body.getAttribute("data-sw");
    if (!url) return;
    navigator.serviceWorker.register(url, {scope: "/"}).then(function () {
      return navigator.serviceWorker.ready;
    }).then(setupToggle).catch(function () { setupToggle(null); });
  });
})();
