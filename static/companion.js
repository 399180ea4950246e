/*
 * Odd Companion: live updates replace parts of the page every few seconds (htmx polling).
 * This keeps what the person at this phone is doing while that happens:
 *  - a poll is skipped while they are typing or choosing in a field of the live region;
 *  - panels (<details>) they opened stay open after the region is replaced.
 * Loaded as a file (the Content-Security-Policy allows no inline script).
 */
(function () {
  "use strict";

  var FIELDS = "input, select, textarea";
  var opened = [];

  function isPoll(detail) {
    var elt = detail && detail.requestConfig ? detail.requestConfig.elt : detail && detail.elt;
    var trigger = elt && elt.getAttribute && elt.getAttribute("hx-trigger");
    return Boolean(trigger && trigger.indexOf("every ") === 0);
  }

  function keyOf(details) {
    if (details.id) {
      return "#" + details.id;
    }
    var summary = details.querySelector("summary");
    return summary ? summary.textContent.replace(/\s+/g, " ").trim() : "";
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    if (!isPoll(event.detail)) {
      return;
    }
    var active = document.activeElement;
    var target = event.detail.target;
    if (active && target && target.contains(active) && active.matches(FIELDS)) {
      event.preventDefault(); // try again at the next tick, once the field is left
    }
  });

  document.addEventListener("htmx:beforeSwap", function (event) {
    opened = [];
    if (!isPoll(event.detail) || !event.detail.target) {
      return;
    }
    event.detail.target.querySelectorAll("details[open]").forEach(function (details) {
      opened.push(keyOf(details));
    });
  });

  document.addEventListener("htmx:afterSettle", function () {
    if (opened.length === 0) {
      return;
    }
    document.querySelectorAll("details:not([open])").forEach(function (details) {
      if (opened.indexOf(keyOf(details)) !== -1) {
        details.open = true;
      }
    });
    opened = [];
  });
})();
