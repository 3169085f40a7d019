// Settings that apply at once (issue 35). Every form marked data-apply (the header's settings,
// the how-to-play's offers and its "Got it") is the same POST /settings as without JavaScript;
// this script only decides when it is sent — on each change of a switch or a choice — and sends
// it with HX-Request, to which the server answers 204 instead of the page. The page then takes
// the change itself: the look on <html>'s data-* (the CSS draws the rest), the theme colours,
// Sound's script. What only the server draws (Zen's info bar, Placement help's marks round a
// selection) comes with the page again: it is reloaded, once the choice is kept. A form the
// server refuses is posted the plain way, so its page says what went wrong. Nothing here
// touches the board's state or its requests.
(function () {
  "use strict";
  var tag = document.currentScript;
  var root = document.documentElement;
  var LOOK = ["deck", "hand", "theme"];

  function last(data, name) {
    var values = data.getAll(name);
    return values.length ? String(values[values.length - 1]) : null;
  }

  function themeColours(theme) {
    document.querySelectorAll('meta[name="theme-color"]').forEach(function (m) { m.remove(); });
    var schemes = theme === "auto" ? ["light", "dark"] : [theme];
    schemes.forEach(function (scheme) {
      var meta = document.createElement("meta");
      meta.name = "theme-color";
      meta.content = tag.dataset[scheme];
      if (theme === "auto") meta.media = "(prefers-color-scheme: " + scheme + ")";
      document.head.appendChild(meta);
    });
    var scheme = document.querySelector('meta[name="color-scheme"]');
    if (scheme) scheme.content = theme === "auto" ? "light dark" : theme;
  }

  function soundOn() {
    if (document.querySelector("script[data-win]")) return; // on the page already
    var script = document.createElement("script");
    script.src = tag.dataset.soundScript;
    script.dataset.card = tag.dataset.soundCard;
    script.dataset.refusal = tag.dataset.soundRefusal;
    script.dataset.win = tag.dataset.soundWin;
    document.head.appendChild(script);
  }

  // Every control of a switch on the page shows its value: the settings' checkbox, the
  // how-to-play's pressed button (which then offers the other value).
  function show(name, value) {
    document.querySelectorAll('input[type="checkbox"][name="' + name + '"]').forEach(function (box) {
      box.checked = value === "on";
    });
    document.querySelectorAll('button[aria-pressed][name="' + name + '"]').forEach(function (button) {
      button.setAttribute("aria-pressed", value === "on" ? "true" : "false");
      button.value = value === "on" ? "off" : "on";
    });
  }

  // What the page shows of the settings it sent; true when the page must come again.
  function apply(data) {
    var again = false;
    LOOK.forEach(function (name) {
      var value = last(data, name);
      if (value === null || root.dataset[name] === value) return;
      root.dataset[name] = value;
      document.querySelectorAll('input[type="radio"][name="' + name + '"]').forEach(function (radio) {
        radio.checked = radio.value === value;
      });
      if (name === "theme") themeColours(value);
    });
    // Winnable deals only: the New game dialog on the same page shows it too (its Deal posts it)
    var winnable = last(data, "winnable");
    if (winnable !== null) {
      document.querySelectorAll('input[type="radio"][name="winnable"]').forEach(function (radio) {
        radio.checked = radio.value === winnable;
      });
    }
    ["move_errors", "placement_help", "zen", "sound", "hints"].forEach(function (name) {
      var value = last(data, name);
      if (value !== null) show(name, value);
    });
    var sound = last(data, "sound");
    if (sound !== null && root.dataset.sound !== sound) {
      root.dataset.sound = sound;
      if (sound === "on") soundOn();
    }
    var zen = last(data, "zen");
    if (zen !== null && root.dataset.zen !== zen) again = true; // the info bar, the end box
    // Hints (issue 45): the game page draws its Hint control with the page
    var hints = last(data, "hints");
    if (hints !== null && document.getElementById("board") && (hints === "on") !== !!document.getElementById("hint-form")) again = true;
    var helping = last(data, "placement_help");
    var board = document.getElementById("board");
    if (helping !== null && board && (helping === "on") !== board.classList.contains("with-help")) {
      // its marks are drawn by the server for a selection; without one, the next answer has them
      again = again || !!board.querySelector('[aria-pressed="true"]');
    }
    return again;
  }

  function send(form, submitter) {
    var data = new FormData(form, submitter || undefined);
    form.setAttribute("aria-busy", "true");
    return fetch(form.action, {
      method: "POST",
      body: new URLSearchParams(data),
      headers: { "HX-Request": "true" },
      credentials: "same-origin",
      redirect: "manual",
    }).then(function (response) {
      form.removeAttribute("aria-busy");
      if (response.status !== 204) throw new Error("refused");
      var saved = form.querySelector(".settings-saved");
      if (saved) saved.textContent = form.dataset.saved || "";
      var closes = form.dataset.closes && document.getElementById(form.dataset.closes);
      if (closes) closes.hidden = true; // the how-to-play, dismissed for good
      form.dispatchEvent(new CustomEvent("settings:saved", { bubbles: true, detail: data }));
      if (apply(data)) location.reload();
    }).catch(function () {
      form.removeAttribute("aria-busy");
      HTMLFormElement.prototype.submit.call(form); // the plain way: its page says why
    });
  }

  document.addEventListener("change", function (event) {
    var form = event.target.form;
    if (!form || !form.matches("form[data-apply]")) return;
    send(form, null);
  });

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches("form[data-apply]") || event.defaultPrevented) return;
    event.preventDefault();
    send(form, event.submitter);
  });

  function ready() {
    document.querySelectorAll("form[data-apply]").forEach(function (form) {
      form.classList.add("applies"); // Save is not drawn: every change is saved at once
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
})();
