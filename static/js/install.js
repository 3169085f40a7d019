// Installable and honest offline (issue 27): register the service worker for the whole site
// and tell it this page's language and look, for the offline page it may have to show; and
// when a game action gets no answer at all (the network is gone), or an error answer that is not
// the server's, say so in the live region (the text is on this script's tag, data-offline, in
// the page's language): nothing moved.
// Without a service worker (or JavaScript) the site works exactly the same, online.
(function () {
  "use strict";
  var tag = document.currentScript;
  var unanswered = tag ? tag.dataset.offline : "";
  document.addEventListener("htmx:error", function (event) {
    var error = event.detail && event.detail.error;
    var network = !navigator.onLine || /fetch|network|load failed/i.test(String(error && error.message));
    var status = document.getElementById("status");
    var ctx = event.detail && event.detail.ctx;
    var source = ctx && ctx.sourceElement;
    // a game action is kept by the board's script (static/js/instant.js), which says so
    var game = source && source.matches && source.matches('form[hx-sync^="#main"]');
    if (ctx && (ctx.keptEntry || (game && document.getElementById("board")))) return;
    if (!unanswered || !network || !status) return;
    status.textContent = unanswered;
  });
  // An error answer that is not the server's (a proxy's 502 page while the application behind it
  // is down, a gateway's timeout): it carries no status line of its own, and the move the page
  // drew is taken back (instant.js) without a word. Say that nothing moved, as for no answer.
  // The server's own refusals (429, 500, …) bring their status line and say why themselves.
  document.addEventListener("htmx:response:error", function (event) {
    var ctx = event.detail && event.detail.ctx;
    var status = document.getElementById("status");
    if (!unanswered || !ctx || !status || ctx.kept || ctx.keptEntry) return; // kept: instant.js
    if (/\bid=["']?status["'\s>]/.test(ctx.text || "")) return;
    status.textContent = unanswered;
  });
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  var root = document.documentElement;
  var look = {
    lang: root.lang,
    zen: root.dataset.zen,
    deck: root.dataset.deck,
    hand: root.dataset.hand,
    theme: root.dataset.theme,
    sound: root.dataset.sound,
  };
  navigator.serviceWorker.register("/sw.js", { scope: "/" })
    .then(function () { return navigator.serviceWorker.ready; })
    .then(function (registration) {
      if (registration.active) registration.active.postMessage({ look: look });
    })
    .catch(function () {}); // no worker: nothing is lost but the offline page
})();
