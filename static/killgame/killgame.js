/* Kill Game board: live cart budget and tap-a-zone on the map. Event delegation on the
   document, so the board can be swapped by htmx polling. The server validates everything. */
(function () {
  if (window.kgInit) return;
  window.kgInit = true;
  function cartTotal() {
    var cart = document.getElementById("kg-cart");
    if (!cart) return;
    var total = 0;
    cart.querySelectorAll("input.kg-qty").forEach(function (input) {
      var n = parseInt(input.value, 10);
      if (n > 0) total += n * parseInt(input.dataset.price, 10);
    });
    var budget = parseInt(cart.dataset.budget, 10);
    document.getElementById("kg-cart-total").textContent = total;
    document.getElementById("kg-cart-left").textContent = budget - total;
    cart.querySelector(".kg-budget").classList.toggle("over", total > budget);
  }
  document.addEventListener("input", function (e) {
    if (e.target.closest && e.target.closest("#kg-cart")) cartTotal();
  });
  document.addEventListener("DOMContentLoaded", cartTotal);
  document.addEventListener("htmx:afterSwap", cartTotal);
  function pick(zone) {
    var map = zone.closest(".kg-map");
    var mode = map && map.dataset.clickable;
    var select = document.getElementById(mode === "move" ? "move_to" : "start_zone");
    if (!select) return;
    select.value = zone.dataset.zone;
    document.querySelectorAll(".kg-zone.picked").forEach(function (z) { z.classList.remove("picked"); });
    zone.classList.add("picked");
    var button = document.getElementById(mode === "move" ? "btn-move" : "btn-start_zone");
    if (button && window.confirm((mode === "move" ? "Move to " : "Start in ") + zone.dataset.name + "?")) button.click();
  }
  document.addEventListener("click", function (e) {
    var zone = e.target.closest && e.target.closest(".kg-zone.z-reachable, .kg-zone.z-startable");
    if (zone) pick(zone);
  });
  document.addEventListener("keydown", function (e) {
    if (e.key !== "Enter" && e.key !== " ") return;
    var zone = e.target.closest && e.target.closest(".kg-zone.z-reachable, .kg-zone.z-startable");
    if (zone) { e.preventDefault(); pick(zone); }
  });
  // "Zoom the map": shown only with JS; the map fits its box until asked
  function zoomSetup() {
    var button = document.getElementById("kg-zoom");
    if (!button) return;
    button.hidden = false;
    var wrap = document.getElementById("kg-map-wrap");
    var on = wrap.classList.contains("kg-zoomed");
    button.setAttribute("aria-pressed", on ? "true" : "false");
  }
  document.addEventListener("click", function (e) {
    var button = e.target.closest && e.target.closest("#kg-zoom");
    if (!button) return;
    var wrap = document.getElementById("kg-map-wrap");
    var on = wrap.classList.toggle("kg-zoomed");
    window.kgZoomed = on;  // kept across the board's htmx swaps
    button.setAttribute("aria-pressed", on ? "true" : "false");
  });
  document.addEventListener("htmx:afterSwap", function () {
    var wrap = document.getElementById("kg-map-wrap");
    if (wrap && window.kgZoomed) wrap.classList.add("kg-zoomed");
    zoomSetup();
  });
  document.addEventListener("DOMContentLoaded", zoomSetup);
  zoomSetup();
  cartTotal();
})();
