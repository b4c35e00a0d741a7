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
