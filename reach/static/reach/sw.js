/* The service worker, served as /sw.js (scope: the whole site).
   - push: show the notification (title, body, the match's tag: a newer push of the same
     match replaces the older one) and refresh the app badge ("your move" count);
   - notificationclick: focus a tab already on the match, else open it;
   - offline: a page that could not load shows the offline page (cached at install). */
"use strict";
var OFFLINE_URL = "__OFFLINE_URL__";
var ICON = "__ICON__";
var BADGE_URL = "__BADGE_URL__";
var CACHE = "phases-offline-v1";

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) {
    return cache.add(new Request(OFFLINE_URL, {cache: "reload"}));
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) { return n !== CACHE; })
      .map(function (n) { return caches.delete(n); }));
  }).then(function () { return self.clients.claim(); }));
});

self.addEventListener("fetch", function (event) {
  // only page loads (GET): a form's POST goes to the network untouched
  if (event.request.mode !== "navigate" || event.request.method !== "GET") return;
  event.respondWith(fetch(event.request).catch(function () {
    return caches.match(OFFLINE_URL);
  }));
});

function refreshBadge() {
  if (!self.navigator || !("setAppBadge" in self.navigator)) return Promise.resolve();
  return fetch(BADGE_URL, {credentials: "same-origin"}).then(function (r) {
    return r.ok ? r.json() : null;
  }).then(function (data) {
    if (!data || !data.ok) return;
    return data.count ? self.navigator.setAppBadge(data.count) : self.navigator.clearAppBadge();
  }).catch(function () {});
}

self.addEventListener("push", function (event) {
  var data = {};
  try { data = event.data ? event.data.json() : {}; } catch (e) { data = {body: event.data.text()}; }
  var title = data.title || "Phases";
  var shown = self.registration.showNotification(title, {
    body: data.body || "", tag: data.tag || "site", renotify: true, icon: ICON, badge: ICON,
    data: {url: data.url || "/"}
  });
  event.waitUntil(Promise.all([shown, refreshBadge()]));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var url = new URL((event.notification.data && event.notification.data.url) || "/",
                    self.location.origin);
  event.waitUntil(self.clients.matchAll({type: "window", includeUncontrolled: true})
    .then(function (tabs) {
      for (var i = 0; i < tabs.length; i++) {
        var tab = new URL(tabs[i].url);
        if (tab.origin === url.origin && tab.pathname === url.pathname && "focus" in tabs[i]) {
          return tabs[i].focus();
        }
      }
      return self.clients.openWindow(url.href);
    }));
});
