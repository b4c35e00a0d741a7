/* Dice Slayer keyboard play and the "copy result" button.
   1–6 press the first die of that face on your plate/field, Shift+1–6 on the opponent's,
   H asks for a hint, S toggles the scoring picks; on a replay ← and → step.
   Shortcuts act only while the focus is inside the board (WCAG 2.1.4), and the board's
   "Keyboard shortcuts" switch turns them off (remembered in this browser).
   Without JavaScript every die is a plain submit button and the hint a plain link. */
(function () {
  "use strict";
  function clickFirst(selector) {
    var el = document.querySelector(selector);
    if (el) { el.click(); return true; }
    return false;
  }
  var STORE = "ds-shortcuts";
  function enabled() {
    try { return window.localStorage.getItem(STORE) !== "off"; } catch (err) { return true; }
  }
  function syncToggle() {
    document.querySelectorAll("#ds-shortcuts").forEach(function (box) {
      box.checked = enabled();
      var wrap = box.closest("[hidden]");
      if (wrap) wrap.hidden = false;   // the switch only shows where JavaScript runs
    });
  }
  document.addEventListener("change", function (e) {
    if (!e.target || e.target.id !== "ds-shortcuts") return;
    try { window.localStorage.setItem(STORE, e.target.checked ? "on" : "off"); } catch (err) { /* private mode */ }
  });
  document.addEventListener("DOMContentLoaded", syncToggle);
  document.addEventListener("htmx:afterSettle", syncToggle);
  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    var t = e.target;
    if (t && t.closest && t.closest("input, textarea, select, [contenteditable]")) return;
    // replay steps: arrow keys are not character keys, so they work anywhere on the page
    if (e.key === "ArrowRight" && clickFirst("#ds-next")) { e.preventDefault(); return; }
    if (e.key === "ArrowLeft" && clickFirst("#ds-prev")) { e.preventDefault(); return; }
    if (!enabled() || !t || !t.closest || !t.closest("#ds-board")) return;
    var m = /^Digit([1-6])$/.exec(e.code || "") || /^Numpad([1-6])$/.exec(e.code || "");
    var digit = m ? m[1] : (/^[1-6]$/.test(e.key) ? e.key : null);
    if (digit) {
      var sel = e.shiftKey ? '#ds-board button[data-key="shift-' + digit + '"]'
                           : '#ds-board button[data-key="' + digit + '"]';
      if (clickFirst(sel)) e.preventDefault();
      return;
    }
    var key = (e.key || "").toLowerCase();
    if (key === "h" && clickFirst("#ds-hint")) { e.preventDefault(); return; }
    if (key === "s" && clickFirst("#ds-patterns")) { e.preventDefault(); }
  });
  document.addEventListener("click", function (e) {
    var btn = e.target.closest && e.target.closest("[data-copy]");
    if (!btn) return;
    var src = document.querySelector(btn.getAttribute("data-copy"));
    if (!src) return;
    var done = function () {
      var note = btn.parentNode.querySelector("[data-copied]");
      if (note) note.hidden = false;
    };
    var text = src.value || src.textContent;
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, function () { src.select(); document.execCommand("copy"); done(); });
    } else { src.select(); document.execCommand("copy"); done(); }
  });
})();
