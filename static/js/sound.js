// Sounds (issue 27). This script is on the page only when the player turned Sound on (it is
// off by default; under prefers-reduced-motion too nothing plays until then). The server's
// answer says what happened on #status's data-sound: "card" (a removal, a card home),
// "refusal" or "win"; each answer's live region is played once. The files (made by
// scripts/make_sounds.sh) are named on this script's tag: data-card, data-refusal, data-win.
(function () {
  "use strict";
  var tag = document.currentScript;
  if (!tag || document.documentElement.dataset.sound !== "on") return;
  var files = { card: tag.dataset.card, refusal: tag.dataset.refusal, win: tag.dataset.win };
  var players = {};
  var played = new WeakSet();

  function play(name) {
    if (document.documentElement.dataset.sound !== "on") return; // turned off since (settings.js)
    var url = files[name];
    if (!url) return;
    var audio = players[name] || (players[name] = new Audio(url));
    audio.volume = 0.7;
    audio.currentTime = 0;
    var started = audio.play();
    if (started && started.catch) started.catch(function () {}); // no sound device: silence
    document.documentElement.dataset.soundPlayed = name; // for tests: what played last
  }

  document.addEventListener("htmx:after:swap", function () {
    var status = document.getElementById("status");
    if (!status || played.has(status)) return;
    played.add(status);
    if (status.dataset.sound) play(status.dataset.sound);
  });
})();
