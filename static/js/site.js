/* Live countdowns for <time data-countdown datetime="ISO">: without JavaScript the
   plain local time stays on the page. Re-applied after every htmx swap. */
(function () {
  "use strict";
  var words = {left: "left", closing: "closing…"};
  function fmt(ms) {
    if (ms <= 0) return words.closing;
    var s = Math.floor(ms / 1000), d = Math.floor(s / 86400), h = Math.floor(s % 86400 / 3600),
        m = Math.floor(s % 3600 / 60), sec = s % 60;
    if (d > 0) return d + "d " + h + "h " + m + "m " + words.left;
    if (h > 0) return h + "h " + m + "m " + words.left;
    return m + "m " + (sec < 10 ? "0" : "") + sec + "s " + words.left;
  }
  function tick() {
    var now = Date.now();
    document.querySelectorAll("time[data-countdown]").forEach(function (el) {
      var t = Date.parse(el.getAttribute("datetime"));
      if (isNaN(t)) return;
      var out = el.parentNode.querySelector(".countdown[data-for='" + el.id + "']");
      if (!out) {
        out = document.createElement("span");
        out.className = "countdown";
        out.setAttribute("data-for", el.id);
        el.insertAdjacentText("afterend", " ");
        el.parentNode.insertBefore(out, el.nextSibling.nextSibling);
      }
      out.textContent = "(" + fmt(t - now) + ")";
    });
  }
  document.addEventListener("DOMContentLoaded", function () {
    var b = document.body.dataset;  // translated words from base.html
    words.left = b.i18nLeft || words.left;
    words.closing = b.i18nClosing || words.closing;
    tick();
    setInterval(tick, 1000);
    document.body.addEventListener("htmx:afterSwap", tick);
    document.body.addEventListener("htmx:oobAfterSwap", tick);
  });
})();

/* <select data-autosubmit> / <input data-autosubmit>: submit the form on change (the
   CSP allows no inline on*= handlers). */
document.addEventListener("change", function (event) {
  "use strict";
  var el = event.target;
  if (el && el.form && el.hasAttribute && el.hasAttribute("data-autosubmit")) el.form.submit();
});


/* A refusal (an element marked data-reveal: the message next to the control that was
   pressed) is scrolled into view and focused after a page load or an htmx swap, so on a
   phone it is not 1,400 px away from the button. */
(function () {
  "use strict";
  function reveal() {
    var el = document.querySelector("[data-reveal]");
    if (!el) return;
    el.removeAttribute("data-reveal");
    el.setAttribute("tabindex", "-1");
    el.scrollIntoView({block: "center"});
    if (el.focus) el.focus({preventScroll: true});
  }
  document.addEventListener("DOMContentLoaded", function () {
    reveal();
    var later = function () { setTimeout(reveal, 0); };
    document.body.addEventListener("htmx:afterSettle", later);
    document.body.addEventListener("htmx:oobAfterSwap", later);
  });
})();

/* A fresh form's time-zone select (data-browser-tz) starts on the browser's own zone when the
   list has it; without JS, or for an unknown zone, the server's default stays selected. */
(function () {
  "use strict";
  function pick() {
    var zone = "";
    try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { return; }
    document.querySelectorAll("select[data-browser-tz]").forEach(function (select) {
      select.removeAttribute("data-browser-tz");
      for (var i = 0; i < select.options.length; i++) {
        if (select.options[i].value === zone) { select.value = zone; return; }
      }
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", pick);
  else pick();
})();
