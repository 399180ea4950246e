/*
 * Odd Companion: say plainly when the connection is gone; never drop a tap silently.
 *  - A change (any htmx request but the live poll) that cannot reach the server shows
 *    "Not saved: no connection..." at the top of the screen, as an alert; nothing is
 *    queued to be sent later, so nothing arrives unexpectedly once the phone is back.
 *  - While the live poll cannot reach the server (or the phone says it is offline), a
 *    quiet status says the page shows what was last seen; it goes at the next answer.
 *  - A change the server refused with an error page (busy, a link that no longer works,
 *    a page open too long) says "Not saved:" and the page's own sentence; htmx would
 *    otherwise swap nothing and show nothing.
 * Loaded as a file (the Content-Security-Policy allows no inline script). Its sentences
 * are the page's, in the page's language: the data-* attributes of its script element
 * (templates/base.html).
 */
(function () {
  "use strict";

  var WORDS = (document.currentScript && document.currentScript.dataset) || {};
  var NOT_SAVED = WORDS.notSaved || "";
  var NOT_LOADED = WORDS.notLoaded || "";
  var OFFLINE = WORDS.offline || "";
  var NOT_SAVED_SERVER = WORDS.notSavedServer || "";
  var NOT_LOADED_SERVER = WORDS.notLoadedServer || "";
  // "Not saved: %(reason)s", the reason being the error page's own sentence.
  var NOT_SAVED_BECAUSE = WORDS.notSavedBecause || "%(reason)s";
  var box = null;
  // Whether the notice shown is the server's refusal of a change: the live poll's next
  // answer does not take it away (it would after a second or two); the next change does.
  var refusalShown = false;

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
    refusalShown = false;
  }

  function hide() {
    refusalShown = false;
    if (box) {
      box.hidden = true;
      box.textContent = "";
    }
  }

  // A live update's element says so (data-poll, see templates/_play.html).
  function isPoll(detail) {
    var elt = detail && detail.requestConfig ? detail.requestConfig.elt : detail && detail.elt;
    return Boolean(elt && elt.hasAttribute && elt.hasAttribute("data-poll"));
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

  // The sentence of the app's error page (templates/error.html), if the answer is one,
  // and whether it says itself that nothing was saved (data-not-saved).
  function pageMessage(xhr) {
    var text = xhr && xhr.responseText;
    if (!text) {
      return { text: "", notSaved: false };
    }
    var page = new DOMParser().parseFromString(text, "text/html");
    var said = page.getElementById("error-message");
    if (!said) {
      return { text: "", notSaved: false };
    }
    return { text: said.textContent.trim(), notSaved: said.hasAttribute("data-not-saved") };
  }

  // What a refused change says: the server's sentence, led by "Not saved:" unless it
  // says so itself (the busy and the expired-page sentences do).
  function notSaved(said) {
    if (!said.text) {
      return NOT_SAVED_SERVER;
    }
    if (said.notSaved) {
      return said.text;
    }
    // A function, so that a "$" in the sentence is not read as a replacement pattern.
    return NOT_SAVED_BECAUSE.replace("%(reason)s", function () {
      return said.text;
    });
  }

  function refused(event) {
    var detail = event.detail;
    if (isPoll(detail)) {
      return; // the next poll asks again
    }
    var said = pageMessage(detail.xhr);
    if (verbOf(detail) === "get") {
      show(said.text || NOT_LOADED_SERVER, true);
    } else {
      show(notSaved(said), true);
    }
    refusalShown = true;
  }

  document.addEventListener("htmx:sendError", unreachable);
  document.addEventListener("htmx:timeout", unreachable);
  document.addEventListener("htmx:responseError", refused);
  document.addEventListener("htmx:afterRequest", function (event) {
    var detail = event.detail || {};
    var xhr = detail.xhr;
    // The server answered: the connection is back. A refused change keeps its notice
    // until the next change is answered.
    var poll = isPoll(detail);
    if (xhr && xhr.status > 0 && !(detail.failed && !poll) && !(refusalShown && poll)) {
      hide();
    }
  });
  window.addEventListener("offline", function () {
    show(OFFLINE, false);
  });
  window.addEventListener("online", hide);
})();
