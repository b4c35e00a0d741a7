/* Accessible htmx updates (WCAG 4.1.3, 2.4.3):
   - one persistent polite live region (#sr-live, never swapped) announces, once each,
     the messages an action answers with, refusals, and polled changes of any element
     marked data-announce (check-in counts, the phase, whose turn it is);
   - focus returns to the control that acted, or to the refusal that answers it, instead
     of falling back to the top of the page when htmx replaces the fragment it was in;
   - a poll that replaces the fragment holding the focus gives it back to the same control
     (a keyboard player on the board keeps their place when another player moves). */
(function () {
  "use strict";
  if (window.a11yInit) return;
  window.a11yInit = true;
  var last = {};        // data-announce key -> text last announced
  var pending = null;   // what had focus when a request started
  var kept = null;      // what had focus when a poll's answer was swapped in
  var queue = [], timer = null;

  function live() { return document.getElementById("sr-live"); }
  function say(text) {
    text = (text || "").replace(/\s+/g, " ").trim();
    if (!text || queue.indexOf(text) >= 0) return;
    queue.push(text);
    clearTimeout(timer);
    timer = setTimeout(function () {
      var region = live();
      if (region) { region.textContent = ""; region.textContent = queue.join(". "); }
      queue = [];
    }, 150);
  }
  function snapshot(root) {
    (root || document).querySelectorAll("[data-announce]").forEach(function (el) {
      last[el.getAttribute("data-announce")] = el.textContent.replace(/\s+/g, " ").trim();
    });
  }
  function announceChanges() {
    document.querySelectorAll("[data-announce]").forEach(function (el) {
      var key = el.getAttribute("data-announce");
      var text = el.textContent.replace(/\s+/g, " ").trim();
      if (last[key] !== undefined && last[key] !== text) say(text);
      last[key] = text;
    });
  }
  function describe(el) {
    if (!el || el === document.body) return null;
    var form = el.form || (el.closest && el.closest("form"));
    return {id: el.id, name: el.getAttribute("name"), value: el.getAttribute("value"),
            tag: el.tagName, formId: form && form.id,
            action: form && (form.getAttribute("hx-post") || form.getAttribute("action"))};
  }
  function find(d) {
    if (!d) return null;
    var el = d.id && document.getElementById(d.id);
    if (el) return el;
    var forms = [];
    if (d.formId && document.getElementById(d.formId)) forms.push(document.getElementById(d.formId));
    if (d.action) document.querySelectorAll("form").forEach(function (f) {
      if ((f.getAttribute("hx-post") || f.getAttribute("action")) === d.action) forms.push(f);
    });
    for (var i = 0; i < forms.length; i++) {
      var f = forms[i], hit = null;
      if (d.name) f.querySelectorAll("[name]").forEach(function (c) {
        if (!hit && c.getAttribute("name") === d.name &&
            (d.value === null || c.getAttribute("value") === d.value)) hit = c;
      });
      hit = hit || f.querySelector("button:not([disabled]), input:not([type=hidden]):not([disabled]), select, textarea");
      if (hit) return hit;
    }
    return null;
  }
  function visible(el) { return !!(el && (el.offsetWidth || el.offsetHeight || el.getClientRects().length)); }
  function refusal() {
    var el = document.querySelector("#action-error, #checkin-error, #answer-error, [data-refusal], [data-reveal][role=alert], .kg-error[role=alert], form [role=alert]");
    return visible(el) ? el : null;
  }

  document.addEventListener("DOMContentLoaded", function () { snapshot(document); });
  document.addEventListener("htmx:beforeRequest", function (e) {
    var trigger = e.detail && e.detail.elt;
    if (trigger && trigger.id === "poller") return;   // a poll is not the user acting
    if (trigger && trigger.getAttribute && (trigger.getAttribute("hx-trigger") || "").indexOf("every") === 0) return;
    pending = describe(document.activeElement) || describe(trigger);
  });
  document.addEventListener("htmx:beforeSwap", function () {
    if (!pending) kept = describe(document.activeElement);
  });
  document.addEventListener("htmx:afterSettle", function () {
    var msgs = document.getElementById("messages");
    if (msgs && msgs.dataset.said !== msgs.textContent) {
      msgs.dataset.said = msgs.textContent;
      say(msgs.textContent);
    }
    announceChanges();
    if (!pending) {   // a poll: only give back a focus the swap took away
      var gone = !document.activeElement || document.activeElement === document.body;
      var back = kept && gone ? find(kept) : null;
      kept = null;
      if (back && visible(back)) back.focus({preventScroll: true});
      return;
    }
    var target = refusal();
    if (target) {
      if (!target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
      say(target.textContent);
    } else {
      target = find(pending);
    }
    pending = null;
    if (target && target !== document.activeElement && visible(target)) {
      target.focus({preventScroll: false});
      if (target.scrollIntoView) target.scrollIntoView({block: "nearest"});
    }
  });
  document.addEventListener("htmx:oobAfterSwap", announceChanges);
})();
