// aventuriers serve: a click on the board chooses a route or a city; the bots move after a pause.
"use strict";
(function () {
  const main = document.querySelector("main.game");
  if (!main) return;
  const keep = main.dataset.auto === "off" ? "&auto=0" : "";
  function go(key, value) {
    window.location.search = "?" + key + "=" + encodeURIComponent(value) + keep;
  }
  document.querySelectorAll("svg [data-route]").forEach(function (space) {
    space.addEventListener("click", function () { go("route", space.dataset.route); });
  });
  document.querySelectorAll("svg [data-city]").forEach(function (city) {
    city.addEventListener("click", function () { go("city", city.dataset.city); });
  });
  const advance = document.getElementById("advance");
  if (advance && main.dataset.auto === "on" && main.dataset.botsToPlay === "yes") {
    window.setTimeout(function () { advance.submit(); }, 400);
  }
})();
