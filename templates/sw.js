/*
 * Odd Companion's service worker: keeps the rules pages and the referee tools (and the
 * static files they need) once visited, so a table without a network can still settle a
 * rule. Only /rules and /help pages, the tools, /offline and /static files are ever stored; table
 * and group pages (their links are keys) never are. A page that needs the server and
 * cannot reach it gets the kept /offline page instead of the browser's error, in the
 * language of the last page the phone showed (its Content-Language), or else the best
 * match of the phone's own languages: the worker keeps it in every language the app speaks.
 * Served from /sw.js so that its scope is the whole site; it is a file, not inline code,
 * so the Content-Security-Policy allows it. A Jinja template (companion/web/rules.py):
 * the list of tools is every registered game's, filled in by the server.
 */
"use strict";

var CACHE = "odd-companion-v3";
var OFFLINE = "/offline";
/* The languages the app speaks (the first is its default), each with its offline page. */
var LANGUAGES = {{ languages|list|tojson }};
/* The language of the offline page kept under OFFLINE (null: not known yet). */
var offlineLanguage = null;
/* Referee tools that need no table (every game's GameTool): kept like the rules once
   visited. */
var TOOLS = {{ tools|tojson }};

/* The offline page in one language, and the static files it names. */
function keepOfflinePageIn(cache, language) {
  var address = OFFLINE + "?lang=" + language;
  return fetch(address, { credentials: "omit" }).then(function (answer) {
    if (!answer.ok) {
      return null;
    }
    return answer.clone().text().then(function (html) {
      var assets = html.match(/\/static\/[^"?]+\?v=[0-9a-f]+/g) || [];
      return Promise.all(
        [cache.put(address, answer)].concat(
          assets.map(function (asset) {
            return cache.add(asset.replace(/&amp;/g, "&"));
          })
        )
      );
    });
  });
}

/* The first of the phone's own languages the app speaks (by its main part: "de-AT" is
   German), else the app's default. */
function phoneLanguage() {
  var wanted = (self.navigator && self.navigator.languages) || [];
  for (var n = 0; n < wanted.length; n++) {
    var main = String(wanted[n]).split("-")[0].toLowerCase();
    if (LANGUAGES.indexOf(main) !== -1) {
      return main;
    }
  }
  return LANGUAGES[0];
}

/* Show the offline page in ``language`` from now on (its copy kept at install). */
function offlineIn(language) {
  if (language === offlineLanguage || LANGUAGES.indexOf(language) === -1) {
    return Promise.resolve(null);
  }
  offlineLanguage = language;
  return caches.open(CACHE).then(function (cache) {
    return cache.match(OFFLINE + "?lang=" + language).then(function (page) {
      return page ? cache.put(OFFLINE, page) : null;
    });
  });
}

/* A page the phone showed says its language: the offline page follows it. */
function noteLanguage(response) {
  var said = (response.headers.get("Content-Language") || "").split(",")[0].trim();
  if (said) {
    offlineIn(said).catch(function () {});
  }
  return response;
}

/* The offline page in every language, and the phone's own under OFFLINE, kept at once. */
function keepOfflinePage() {
  return caches.open(CACHE).then(function (cache) {
    return Promise.all(
      LANGUAGES.map(function (language) {
        return keepOfflinePageIn(cache, language);
      })
    ).then(function () {
      return offlineIn(phoneLanguage());
    });
  });
}

self.addEventListener("install", function (event) {
  self.skipWaiting();
  event.waitUntil(keepOfflinePage().catch(function () {}));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(
        names
          .filter(function (name) {
            return name.indexOf("odd-companion-") === 0 && name !== CACHE;
          })
          .map(function (name) {
            return caches.delete(name);
          })
      ).then(function () {
        return self.clients.claim();
      });
    })
  );
});

function isRulesPage(url) {
  return (
    url.pathname === "/rules" ||
    url.pathname.indexOf("/rules/") === 0 ||
    url.pathname === "/help" ||
    url.pathname.indexOf("/help/") === 0 ||
    TOOLS.indexOf(url.pathname) !== -1
  );
}

function isStatic(url) {
  return url.pathname.indexOf("/static/") === 0;
}

/* The key a page is kept under: its address without the place on the page. */
function keyOf(url) {
  var key = new URL(url.href);
  key.hash = "";
  return key.href;
}

/* A rules page opened from a table's page links back to it, and a table's address is
   its key: what is kept is fetched again without the referrer, so it has no such link. */
function fromTable(request) {
  if (!request.referrer) {
    return false;
  }
  var from = new URL(request.referrer);
  return from.origin === self.location.origin && !isRulesPage(from) && !isStatic(from);
}

function keep(key, response) {
  return caches.open(CACHE).then(function (cache) {
    return cache.put(key, response);
  });
}

/* Keep the page as it is without a referrer (no way back to a table), unless a copy is
   kept already: rules change only with a new version of the app. */
function keepPlain(request, key) {
  caches.match(key).then(function (kept) {
    if (kept) {
      return null;
    }
    var headers = new Headers();
    if (request.headers.get("HX-Request")) {
      headers.set("HX-Request", request.headers.get("HX-Request"));
    }
    var plain = { headers: headers, referrerPolicy: "no-referrer", credentials: "omit" };
    return fetch(request.url, plain).then(function (answer) {
      return answer.ok ? keep(key, answer) : null;
    });
  }).catch(function () {
    // Offline again already: a later visit keeps it.
  });
}

function fromNetwork(request, key) {
  return fetch(request).then(function (response) {
    if (request.mode === "navigate") {
      noteLanguage(response);
    }
    if (response.ok && isStatic(new URL(request.url))) {
      keep(key, response.clone());
    } else if (response.ok && !fromTable(request)) {
      keep(key, response.clone());
    } else if (response.ok) {
      keepPlain(request, key);
    }
    return response;
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") {
    return;
  }
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) {
    return;
  }
  if (!(isRulesPage(url) || isStatic(url))) {
    if (request.mode === "navigate") {
      // Never kept; when the server cannot be reached, say so plainly.
      event.respondWith(
        fetch(request).then(noteLanguage, function () {
          return caches.match(OFFLINE).then(function (page) {
            return page || Response.error();
          });
        })
      );
    }
    return;
  }
  var key = keyOf(url);
  // htmx asks for fragments of the same address: keep them apart from whole pages.
  if (request.headers.get("HX-Request") && !request.headers.get("HX-Boosted")) {
    key += (key.indexOf("?") === -1 ? "?" : "&") + "_fragment=1";
  }
  // The network first (rules and styles stay fresh), the kept copy when it fails.
  event.respondWith(
    fromNetwork(request, key).catch(function () {
      return caches.match(key).then(function (kept) {
        return kept || Response.error();
      });
    })
  );
});
