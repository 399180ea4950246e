/*
 * Odd Companion: say plainly when the connection is gone; never drop a tap silently.
 *  - A change (any htmx request but the live poll) that cannot reach the server shows
 *    "Not saved: no connection..." at the top of the screen, as an alert; nothing is
 *    queued to be sent later, so nothing arrives unexpectedly once the phone is back.
 *  - While the live poll cannot reach the server (or the phone says it is offline), a
 *    quiet status says the page shows what was last seen; it goes at the next answer.
 * Loaded as a file (the Content-Security-Policy allows no inline script).
 */
(function () {
  "use strict";

  var NOT_SAVED = "Not saved: no connection. Tap again once you are back online.";
  var NOT_LOADED = "Could not load that: no connection. Try again once you are back online.";
  var OFFLINE = "Offline: this page shows what it last saw. Changes need a connection.";
  var box = null;

  function notice() {
    if (!box) {
      box = document.createElement("p");
      box.id = "connection";
      box.className = "connection";
      box.hidden = true;
      document.body.insertBefore(box, document.body.firstChild);
    }
    return box;
  }

  function show(text, urgent) {
    var el = notice();
    el.setAttribute("role", urgent ? "alert" : "status");
    el.classList.toggle("urgent", Boolean(urgent));
    el.textContent = text;
    el.hidden = false;
  }

  function hide() {
    if (box) {
      box.hidden = true;
      box.textContent = "";
    }
  }

  function isPoll(detail) {
    var elt = detail && detail.requestConfig ? detail.requestConfig.elt : detail && detail.elt;
    var trigger = elt && elt.getAttribute && elt.getAttribute("hx-trigger");
    return Boolean(trigger && trigger.indexOf("every ") === 0);
  }

  function verbOf(detail) {
    var config = detail && detail.requestConfig;
    return config && config.verb ? String(config.verb).toLowerCase() : "get";
  }

  function unreachable(event) {
    var detail = event.detail;
    if (isPoll(detail)) {
      show(OFFLINE, false);
    } else {
      show(verbOf(detail) === "get" ? NOT_LOADED : NOT_SAVED, true);
    }
  }

  document.addEventListener("htmx:sendError", unreachable);
  document.addEventListener("htmx:timeout", unreachable);
  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail && event.detail.xhr;
    if (xhr && xhr.status > 0) {
      hide(); // the server answered: the connection is back
    }
  });
  window.addEventListener("offline", function () {
    show(OFFLINE, false);
  });
  window.addEventListener("online", hide);
})();
