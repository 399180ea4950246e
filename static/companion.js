/*
 * Odd Companion: live updates replace parts of the page every few seconds (htmx polling),
 * and every tap answers with a fresh play panel. The templates say how each answer lands
 * (hx-swap="morph:outerHTML" in the play panel: unchanged elements stay, so the page does
 * not jump) and which requests are live updates (data-poll). This script keeps what htmx
 * cannot say:
 *  - a live update is not sent while a field of the region it replaces is in use, nor
 *    while a boosted link or form is loading another page;
 *  - a field changed since it was rendered keeps its value through any answer, unless
 *    that value is what its form just sent (then the server's answer has it);
 *  - an answer's autofocus takes the cursor as it lands, never once the phone typed on;
 *  - an answer showing an older version of the play than the page does is not swapped in;
 *  - panels (<details>) opened here stay open through live updates;
 *  - options that do not apply to what is chosen in a form are hidden (data-show-if).
 * One listener per event, each doing its parts in the order written. Loaded as a file
 * (the Content-Security-Policy allows no inline script, and no eval: the morph is only
 * ever asked for by name, never with a config object).
 */
(function () {
  "use strict";

  var FIELDS = "input, select, textarea";
  var NOT_TYPED = ["hidden", "submit", "button", "reset", "image", "file"];
  var KEY_FIELD = "submission";

  // What each field of a form held when the form's request left (until it is answered).
  var sent = new WeakMap();
  // Boosted requests loading another page.
  var leaving = [];
  // Unsaved values, from just before a swap to just after it.
  var held = [];
  // The <details> open before a live update.
  var opened = [];

  function eltOf(detail) {
    return detail && detail.requestConfig ? detail.requestConfig.elt : detail && detail.elt;
  }

  function isPoll(detail) {
    var elt = eltOf(detail);
    return Boolean(elt && elt.hasAttribute && elt.hasAttribute("data-poll"));
  }

  function formOf(detail) {
    var elt = detail && detail.elt;
    if (!elt || !elt.closest) {
      return null;
    }
    return elt.tagName === "FORM" ? elt : elt.form || elt.closest("form");
  }

  function keyOf(details) {
    if (details.id) {
      return "#" + details.id;
    }
    var summary = details.querySelector("summary");
    return summary ? summary.textContent.replace(/\s+/g, " ").trim() : "";
  }

  // --- Fields typed in but not saved --------------------------------------------------

  function isTyped(field) {
    return field.matches(FIELDS) && NOT_TYPED.indexOf(field.type) === -1 && field.name !== "";
  }

  function defaultIndex(select) {
    var index = -1;
    Array.prototype.forEach.call(select.options, function (option, i) {
      if (option.defaultSelected) {
        index = i;
      }
    });
    return index === -1 && select.options.length ? 0 : index;
  }

  /** Whether the field holds something other than what the server rendered into it. */
  function isDirty(field) {
    if (field.tagName === "SELECT") {
      if (!field.multiple) {
        return field.selectedIndex !== defaultIndex(field);
      }
      return Array.prototype.some.call(field.options, function (option) {
        return option.selected !== option.defaultSelected;
      });
    }
    if (field.type === "checkbox" || field.type === "radio") {
      return field.checked !== field.defaultChecked;
    }
    return field.value !== field.defaultValue;
  }

  function snapshot(field) {
    if (field.tagName === "SELECT") {
      return Array.prototype.filter
        .call(field.options, function (option) {
          return option.selected;
        })
        .map(function (option) {
          return option.value;
        });
    }
    if (field.type === "checkbox" || field.type === "radio") {
      return field.checked;
    }
    return field.value;
  }

  function restore(field, value) {
    if (field.tagName === "SELECT") {
      var known = Array.prototype.some.call(field.options, function (option) {
        return value.indexOf(option.value) !== -1;
      });
      if (known) {
        Array.prototype.forEach.call(field.options, function (option) {
          option.selected = value.indexOf(option.value) !== -1;
        });
      }
    } else if (field.type === "checkbox" || field.type === "radio") {
      field.checked = value;
    } else {
      field.value = value;
    }
  }

  /** The same field before and after a swap: by id, else by its form, name (and value,
   *  for a radio button) and its rank among fields alike. */
  function fieldKeys(root) {
    var keys = new Map();
    var seen = {};
    root.querySelectorAll(FIELDS).forEach(function (field) {
      if (!isTyped(field)) {
        return;
      }
      var key;
      if (field.id) {
        key = "#" + field.id;
      } else {
        var form = field.form || field.closest("form");
        key = (form ? form.getAttribute("action") : "") + " " + field.name;
        if (field.type === "radio" || field.type === "checkbox") {
          key += "=" + field.value;
        }
        seen[key] = (seen[key] || 0) + 1;
        key += " " + seen[key];
      }
      keys.set(field, key);
    });
    return keys;
  }

  /** Note the typed fields of ``form`` that its request carries (``data``, what htmx
   *  sends): a form whose buttons carry their change sends no box it does not hold, and a
   *  box left out must stay this phone's to keep. */
  function noteSent(form, data) {
    Array.prototype.forEach.call(form.elements, function (field) {
      if (isTyped(field) && (!data || !data.has || data.has(field.name))) {
        sent.set(field, JSON.stringify(snapshot(field)));
      }
    });
  }

  function forgetSent(form) {
    Array.prototype.forEach.call(form.elements, function (field) {
      sent.delete(field);
    });
  }

  /** Changed here, and not what its form's request on its way carries (typed since). */
  function isUnsaved(field) {
    return isDirty(field) && sent.get(field) !== JSON.stringify(snapshot(field));
  }

  function hold(target) {
    held = [];
    fieldKeys(target).forEach(function (key, field) {
      if (isUnsaved(field)) {
        held.push({ key: key, value: snapshot(field) });
      }
    });
  }

  function giveBack() {
    if (held.length === 0) {
      return;
    }
    var byKey = {};
    fieldKeys(document).forEach(function (key, field) {
      byKey[key] = field;
    });
    held.forEach(function (kept) {
      var field = byKey[kept.key];
      if (field) {
        restore(field, kept.value);
      }
    });
    held = [];
  }

  function inUse(target) {
    var active = document.activeElement;
    return Boolean(active && target && target.contains(active) && active.matches(FIELDS));
  }

  // --- Leaving the page ------------------------------------------------------------------
  // While a boosted link or form loads another page, a live update must not land: it would
  // replace the link or form that asked, htmx would forget that its request was boosted,
  // and the new page would show under the old page's address (a play under the table's).
  // So no poll is sent, and no poll's answer swapped in, until that request is over; the
  // next poll catches up if the page is not left after all.

  function noteLeaving(xhr) {
    leaving.push(xhr);
    // On the request, not the element: the element may be gone by the time it ends.
    xhr.addEventListener("loadend", function () {
      leaving = leaving.filter(function (other) {
        return other !== xhr;
      });
    });
  }

  // --- Answers --------------------------------------------------------------------------

  function freshKey() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return btoa(String.fromCharCode.apply(null, bytes))
      .replace(/\+/g, "-")
      .replace(/\//g, "_")
      .replace(/=+$/, "");
  }

  /** The play's address and version an answer shows, from its poll element (null when
   *  the answer holds none: the version is then unchanged). */
  function shownIn(html) {
    var tag = (html || "").match(/<div id="play-poll"[^>]*>/);
    var version = tag && tag[0].match(/data-version="(\d+)"/);
    var address = tag && tag[0].match(/hx-get="([^"?]*)/);
    return version && address ? { version: Number(version[1]), address: address[1] } : null;
  }

  /** Whether an answer shows the play this page shows at an older version: a live update
   *  read before a tap can arrive after the tap's answer (versions only grow). */
  function isOlder(detail) {
    var poll = document.getElementById("play-poll");
    var came = poll && shownIn(detail.serverResponse);
    if (!came) {
      return false;
    }
    var address = (poll.getAttribute("hx-get") || "").split("?")[0];
    return came.address === address && came.version < Number(poll.getAttribute("data-version"));
  }

  // --- The listeners -------------------------------------------------------------------

  document.addEventListener("htmx:beforeRequest", function (event) {
    var detail = event.detail;
    if (isPoll(detail)) {
      // Try again at the next tick: once the field is left, or the other page is here.
      if (leaving.length || inUse(detail.target)) {
        event.preventDefault();
      }
      return;
    }
    if (detail.boosted && detail.xhr) {
      noteLeaving(detail.xhr);
    }
    var form = formOf(detail);
    if (form) {
      noteSent(form, detail.requestConfig && detail.requestConfig.formData);
    }
  });

  document.addEventListener("htmx:beforeSwap", function (event) {
    var detail = event.detail;
    var target = detail.target;
    held = [];
    opened = [];
    if ((leaving.length && isPoll(detail)) || isOlder(detail)) {
      detail.shouldSwap = false;
    }
    if (!target || target === document.body || !detail.shouldSwap) {
      return;
    }
    hold(target);
    if (isPoll(detail)) {
      target.querySelectorAll("details[open]").forEach(function (details) {
        opened.push(keyOf(details));
      });
    }
  });

  /** Put the cursor in the answer's autofocus field now, and only now. htmx would do it
   *  when the answer settles, a moment later, when the phone may already be typing in
   *  another field: the rest of that name went into the new row. */
  function focusNow() {
    var wanted = document.querySelector("[autofocus]");
    if (!wanted) {
      return;
    }
    document.querySelectorAll("[autofocus]").forEach(function (field) {
      field.removeAttribute("autofocus");
    });
    wanted.focus();
  }

  // In the same task as the swap, before the browser paints: no flicker. A kept choice
  // then decides which options are shown.
  document.addEventListener("htmx:afterSwap", function () {
    giveBack();
    showWhatApplies(document);
    focusNow();
  });

  // A form's one-time key is spent once the server answered it; when its answer is not
  // swapped in (a repeat's 204, an answer older than the page), the form stays, so it
  // takes a new key for its next submit.
  document.addEventListener("htmx:afterRequest", function (event) {
    var detail = event.detail;
    var form = formOf(detail);
    if (!form) {
      return;
    }
    forgetSent(form);
    var xhr = detail.xhr;
    var key = form.querySelector("input[name='" + KEY_FIELD + "']");
    if (key && xhr && xhr.status !== 0 && document.body.contains(form)) {
      key.value = freshKey();
    }
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

  if (typeof Idiomorph !== "undefined") {
    // A panel keeps the state this phone gave it; a new panel comes as the server sends it.
    Idiomorph.defaults.callbacks.beforeAttributeUpdated = function (name, node) {
      return !(name === "open" && node.tagName === "DETAILS");
    };
  }

  // --- Times in the phone's own time zone ---------------------------------------------
  // The server writes UTC ("21:04:05 UTC") with the ISO time in datetime="...Z".

  var CLOCK = { hour: "2-digit", minute: "2-digit", second: "2-digit" };
  var DAY = { weekday: "short", day: "numeric", month: "short" };

  function localTimes(root) {
    if (!root || !root.querySelectorAll) {
      return;
    }
    var today = new Date().toDateString();
    root.querySelectorAll("time[datetime]").forEach(function (time) {
      var moment = new Date(time.getAttribute("datetime"));
      if (isNaN(moment.getTime())) {
        return;
      }
      var label = moment.toLocaleTimeString(undefined, CLOCK);
      if (moment.toDateString() !== today) {
        label = moment.toLocaleDateString(undefined, DAY) + " " + label;
      }
      time.textContent = label;
      time.title = moment.toString();
    });
  }

  localTimes(document);
  document.addEventListener("htmx:load", function (event) {
    localTimes(event.target);
  });

  // --- Options that apply only to some choices ----------------------------------------
  // A box marked data-show-if="game=odd-world" (values comma-separated) is shown, and its
  // fields sent, only while its form's field "game" holds one of the values. Without
  // JavaScript it stays, labelled with what it applies to, and the server refuses it
  // where it does not apply.

  function ruleOf(box) {
    var rule = box.getAttribute("data-show-if").split("=");
    var form = box.closest("form");
    var control = form ? form.elements.namedItem(rule[0]) : null;
    return control ? { control: control, values: (rule[1] || "").split(",") } : null;
  }

  function showWhatApplies(root) {
    if (!root || !root.querySelectorAll) {
      return;
    }
    root.querySelectorAll("[data-show-if]").forEach(function (box) {
      var rule = ruleOf(box);
      if (!rule) {
        return;
      }
      var applies = rule.values.indexOf(rule.control.value) !== -1;
      box.hidden = !applies;
      box.querySelectorAll(FIELDS).forEach(function (field) {
        field.disabled = !applies;
      });
    });
  }

  showWhatApplies(document);
  document.addEventListener("change", function (event) {
    var form = event.target && event.target.form;
    if (form && form.querySelector("[data-show-if]")) {
      showWhatApplies(form);
    }
  });
})();

/*
 * The rules panel: a rule link (see the rule_link macro) loads its entry into #rule-panel
 * over the page with htmx, so the play stays where it was. Focus moves into the panel and
 * back to the link when it is closed (its Close button or Escape). The service worker
 * keeps the rules pages once visited, for reading them offline.
 */
(function () {
  "use strict";

  var PANEL = "rule-panel";
  var opener = null;

  function panel() {
    return document.getElementById(PANEL);
  }

  function close() {
    var box = panel();
    if (!box || !box.firstElementChild) {
      return;
    }
    box.textContent = "";
    if (opener && document.body.contains(opener)) {
      opener.focus();
    }
    opener = null;
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail && event.detail.elt;
    if (elt && elt.getAttribute && elt.getAttribute("hx-target") === "#" + PANEL) {
      opener = elt;
    }
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    if (event.detail && event.detail.target && event.detail.target.id === PANEL) {
      var sheet = panel().querySelector("[tabindex='-1']");
      if (sheet) {
        sheet.focus({ preventScroll: true });
      }
    }
  });
  document.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest("[data-close-rule-panel]")) {
      close();
    }
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape") {
      close();
    }
  });

  if ("serviceWorker" in navigator && window.isSecureContext) {
    window.addEventListener("load", function () {
      navigator.serviceWorker.register("/sw.js").catch(function () {
        // Offline reading is a bonus: the app works the same without it.
      });
    });
  }
})();
