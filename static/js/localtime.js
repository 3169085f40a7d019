// Moments in the player's own time (issue 35): the server writes every <time data-local> in
// UTC and says so ("2026-12-02 10:03 UTC"); here each shows in the browser's time zone, in
// the page's language ("2 Dec 2026, 11:03"), the UTC text kept as its tooltip.
(function () {
  "use strict";
  function local() {
    var lang = document.documentElement.lang || undefined;
    var format;
    try {
      format = new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" });
    } catch (error) {
      return; // no Intl: the UTC text stays, and says its zone
    }
    document.querySelectorAll("time[data-local][datetime]").forEach(function (time) {
      var when = new Date(time.getAttribute("datetime"));
      if (isNaN(when.getTime())) return;
      time.title = time.textContent;
      time.textContent = format.format(when);
      time.dataset.shown = "local";
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", local);
  else local();
})();
