/* Table helpers (the page works without them): ticking a hand card highlights the options
   that use it and their legal targets; re-applied after every htmx swap. */
(function () {
  "use strict";
  function refresh() {
    var form = document.getElementById("ask-form");
    if (!form) return;
    var picked = Array.prototype.map.call(form.querySelectorAll("input[name=cards]:checked"),
      function (el) { return el.value; });
    var legal = {};
    form.querySelectorAll("button[data-card]").forEach(function (b) {
      var on = picked.indexOf(b.getAttribute("data-card")) >= 0;
      b.classList.toggle("hl", on);
      if (on && b.getAttribute("data-targets")) {
        b.getAttribute("data-targets").split(",").forEach(function (t) { legal[t] = true; });
      }
    });
    if (picked.length) {
      form.querySelectorAll(".sgs-seat[data-seat]").forEach(function (el) {
        el.classList.toggle("legal", !!legal[el.getAttribute("data-seat")]);
      });
    }
  }
  document.addEventListener("change", function (e) {
    if (e.target && e.target.name === "cards") refresh();
  });
  document.addEventListener("htmx:afterSwap", refresh);
})();

/* A poll that swaps the table while the same ask is open keeps what the player ticked. */
(function () {
  "use strict";
  var kept = null;
  document.addEventListener("htmx:beforeSwap", function (e) {
    var form = document.getElementById("ask-form");
    if (!form || !e.detail.target || e.detail.target.id !== "table") return;
    if (e.detail.requestConfig && e.detail.requestConfig.verb !== "get") { kept = null; return; }
    var ask = form.querySelector("input[name=ask]");
    kept = {ask: ask ? ask.value : null, boxes: [], selects: {}};
    form.querySelectorAll("input[type=checkbox]:checked").forEach(function (el) {
      kept.boxes.push(el.name + "=" + el.value);
    });
    form.querySelectorAll("select").forEach(function (el) { kept.selects[el.name] = el.value; });
  });
  document.addEventListener("htmx:afterSwap", function () {
    var form = document.getElementById("ask-form");
    if (!form || !kept) return;
    var ask = form.querySelector("input[name=ask]");
    if (ask && ask.value === kept.ask) {
      form.querySelectorAll("input[type=checkbox]").forEach(function (el) {
        if (kept.boxes.indexOf(el.name + "=" + el.value) >= 0) el.checked = true;
      });
      form.querySelectorAll("select").forEach(function (el) {
        if (kept.selects[el.name] !== undefined) el.value = kept.selects[el.name];
      });
      form.dispatchEvent(new Event("change", {bubbles: true}));
    }
    kept = null;
  });
})();

/* After an answer (a POST that swapped the table) the keyboard focus goes to what comes next:
   the next ask addressed to this player, else the turn banner, else the ask's heading; never
   back to the page's top (it was ~11 Tabs to the next answer). A poll never moves focus. */
(function () {
  "use strict";
  document.addEventListener("htmx:afterSwap", function (e) {
    var cfg = e.detail.requestConfig;
    if (!cfg || cfg.verb === "get") return;
    var table = document.getElementById("table");
    if (!table) return;
    var error = document.getElementById("answer-error");
    var ask = table.querySelector("#ask.your-move #ask-h");
    var target = error ? null : (ask || document.getElementById("turn-banner") ||
                                 document.getElementById("ask-h"));
    if (error) {
      error.setAttribute("tabindex", "-1");
      target = error;
    }
    if (target) target.focus();
  });
})();
