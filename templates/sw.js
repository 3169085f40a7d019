// The service worker (issue 27), served at /sw.js so its scope is the whole site. Made by
// app/web/pages/install.py: VERSION names everything cached here, so a deployment that changes any
// static file (or the offline page) installs a new cache and deletes the old ones.
//  - static files (content-hashed, immutable): from the cache, else the network;
//  - a navigation: the network, always; only when it gives no answer at all, a game's page as
//    the network last gave it (marked data-offline-copy: the page draws its board from what it
//    kept, static/js/kept.js, and its kept moves go on), else the offline page in the player's
//    language, with the player's look;
//  - anything else, above all a game action (POST) and htmx's answers: never touched here.
"use strict";

var VERSION = {{ version|tojson }};
var ASSETS = {{ assets|tojson }};
var OFFLINE = {{ offline|tojson }};
var LANGUAGES = {{ languages|tojson }};
// every page's security headers (the CSP first): the offline page made here gets them too
var HEADERS = {{ headers|tojson }};
var PREFIX = "patience-";
var CACHE = PREFIX + VERSION;
var LOOK_CACHE = PREFIX + "look";
// a game's page (/{game}/{code}) as the network last gave it: a reload without the network
// goes on with the game (issue 32); the newest MAX_GAME_PAGES only
var GAMES = {{ games|tojson }};
// versioned like the static files: a page of an older deployment names static files that
// activation deletes, so its copies go with them
var GAME_CACHE = PREFIX + "games-" + VERSION;
var MAX_GAME_PAGES = 8;
var LOOK_URL = "/__look__";
var LOOK = {
  zen: ["off", "on"],
  deck: ["classic", "four-colour"],
  hand: ["right", "left"],
  theme: ["auto", "light", "dark"],
  sound: ["off", "on"],
};

self.addEventListener("install", function (event) {
  var urls = ASSETS.concat(Object.keys(OFFLINE).map(function (lang) { return OFFLINE[lang]; }));
  var steps = [caches.open(CACHE).then(function (cache) { return cache.addAll(urls); })];
  if (event.addRoutes) {
    // Chromium's static routing: a POST (every game action) goes straight to the network,
    // without even waking this worker
    steps.push(
      event.addRoutes([{ condition: { requestMethod: "POST" }, source: "network" }])
        .catch(function () {})
    );
  }
  event.waitUntil(Promise.all(steps).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys()
      .then(function (names) {
        return Promise.all(names.filter(function (name) {
          return name.indexOf(PREFIX) === 0 && name !== CACHE && name !== LOOK_CACHE &&
            name !== GAME_CACHE;
        }).map(function (name) { return caches.delete(name); }));
      })
      .then(function () {
        if (self.registration.navigationPreload) return self.registration.navigationPreload.enable();
      })
      .then(function () { return self.clients.claim(); })
  );
});

// A page tells its language and look (its <html>): the offline page shows them. A page that
// says so may not be controlled yet (it loaded past the worker: a hard reload, or its
// navigation was under way while activation claimed the pages): it is claimed now.
self.addEventListener("message", function (event) {
  var data = event.data && event.data.look;
  if (!data || typeof data !== "object") return;
  var look = { lang: LANGUAGES.indexOf(data.lang) >= 0 ? data.lang : LANGUAGES[0] };
  Object.keys(LOOK).forEach(function (name) {
    look[name] = LOOK[name].indexOf(data[name]) >= 0 ? data[name] : LOOK[name][0];
  });
  event.waitUntil(Promise.all([
    caches.open(LOOK_CACHE).then(function (cache) {
      return cache.put(LOOK_URL, new Response(JSON.stringify(look)));
    }),
    self.clients.claim().catch(function () {}),
  ]));
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return; // a game action: the network's, never a cache's
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(navigate(event));
  } else if (ASSETS.indexOf(url.pathname) >= 0) {
    event.respondWith(caches.open(CACHE).then(function (cache) {
      return cache.match(request).then(function (hit) { return hit || fetch(request); });
    }));
  }
});

function isGamePage(url) {
  var parts = url.pathname.split("/");
  return parts.length === 3 && GAMES.indexOf(parts[1]) >= 0 && parts[2] !== "";
}

function navigate(event) {
  var url = new URL(event.request.url);
  var game = isGamePage(url);
  return Promise.resolve(event.preloadResponse)
    .then(function (preloaded) { return preloaded || fetch(event.request); })
    .then(function (response) {
      if (game && response.status === 200) event.waitUntil(keepGamePage(url, response.clone()));
      return response;
    })
    .catch(function () { // no answer at all (an error page from the server is an answer)
      return (game ? keptGamePage(url) : Promise.resolve(null)).then(function (page) {
        return page || offline();
      });
    });
}

function keepGamePage(url, response) {
  var key = url.origin + url.pathname;
  return caches.open(GAME_CACHE).then(function (cache) {
    return cache.delete(key).then(function () { return cache.put(key, response); })
      .then(function () { return cache.keys(); })
      .then(function (keys) { // insertion order: the oldest first
        var old = keys.slice(0, Math.max(0, keys.length - MAX_GAME_PAGES));
        return Promise.all(old.map(function (request) { return cache.delete(request); }));
      });
  }).catch(function () {});
}

function keptGamePage(url) {
  return caches.open(GAME_CACHE)
    .then(function (cache) { return cache.match(url.origin + url.pathname); })
    .then(function (hit) {
      if (!hit) return null;
      return hit.text().then(function (html) {
        var headers = new Headers(hit.headers);
        headers.set("Cache-Control", "no-store");
        return new Response(html.replace("<html ", "<html data-offline-copy "), {
          status: 200,
          headers: headers,
        });
      });
    })
    .catch(function () { return null; });
}

function offline() {
  return caches.open(LOOK_CACHE)
    .then(function (cache) { return cache.match(LOOK_URL); })
    .then(function (hit) { return hit ? hit.json() : {}; })
    .catch(function () { return {}; })
    .then(function (look) {
      var lang = OFFLINE[look.lang] ? look.lang : guess();
      return caches.open(CACHE)
        .then(function (cache) { return cache.match(OFFLINE[lang]); })
        .then(function (page) {
          if (!page) return Response.error();
          return page.text().then(function (html) {
            var headers = new Headers(HEADERS);
            headers.set("Content-Type", "text/html; charset=utf-8");
            headers.set("Cache-Control", "no-store");
            return new Response(dressed(html, look), {
              status: 503,
              statusText: "Offline",
              headers: headers,
            });
          });
        });
    });
}

function guess() {
  var wanted = (self.navigator.languages || []).map(function (tag) {
    return tag.slice(0, 2).toLowerCase();
  });
  for (var i = 0; i < wanted.length; i++) if (OFFLINE[wanted[i]]) return wanted[i];
  return LANGUAGES[0];
}

// The cached page has the default look: the player's goes on its <html> (values checked above).
function dressed(html, look) {
  Object.keys(LOOK).forEach(function (name) {
    if (!look[name]) return;
    html = html.replace(
      " data-" + name + '="' + LOOK[name][0] + '"',
      " data-" + name + '="' + look[name] + '"'
    );
  });
  if (look.theme === "light" || look.theme === "dark") {
    html = html.replace('name="color-scheme" content="light dark"',
      'name="color-scheme" content="' + look.theme + '"');
    // the browser's bar: the chosen theme's colour alone, not one per system scheme
    html = html.replace(
      /<meta name="theme-color" media="\(prefers-color-scheme: (light|dark)\)" content="([^"]*)">\n?/g,
      function (tag, scheme, colour) {
        return scheme === look.theme ? '<meta name="theme-color" content="' + colour + '">\n' : "";
      }
    );
  }
  return html;
}
