/*
 * Copy and Share buttons for a table's links. Without JavaScript they stay hidden (the
 * links are still there to select); with it, Share uses the phone's share sheet (Web Share
 * API) and Copy the clipboard API where the browser offers them.
 *
 * A table at home is served over plain http on the Wi-Fi, where browsers offer neither
 * (they need https). Then Copy selects the link and copies it the old way, and Share does
 * the same and says to paste it into a message; where even that is refused, the link stays
 * selected and the note says to copy it from the phone's menu. Nothing here throws.
 * Loaded as a file (the Content-Security-Policy allows no inline script). Its sentences
 * are the page's, in the page's language: the data-* attributes of its script element
 * (templates/base.html).
 */
(function () {
  "use strict";

  var NOTE_SECONDS = 4;
  var WORDS = (document.currentScript && document.currentScript.dataset) || {};

  function reveal() {
    document.querySelectorAll(".share[hidden]").forEach(function (row) {
      row.hidden = false;
    });
  }

  function fieldOf(button) {
    var id = button.getAttribute("data-copy") || button.getAttribute("data-share");
    return document.getElementById(id);
  }

  /* The sentence next to the buttons (a live region, so a screen reader says it too). */
  function say(button, text) {
    var row = button.closest(".share");
    if (!row) {
      return;
    }
    var note = row.querySelector(".share-note");
    if (!note) {
      note = document.createElement("span");
      note.className = "hint share-note";
      note.setAttribute("role", "status");
      row.appendChild(note);
    }
    note.textContent = " " + text;
    window.clearTimeout(note.timer);
    note.timer = window.setTimeout(function () {
      note.textContent = "";
    }, NOTE_SECONDS * 1000);
  }

  /* Select the link and copy it without the clipboard API; whether that worked. */
  function copySelected(field) {
    try {
      field.focus();
      field.select();
      field.setSelectionRange(0, field.value.length);
      return document.execCommand("copy");
    } catch (error) {
      return false;
    }
  }

  function copyOldWay(button, field, copiedText) {
    if (copySelected(field)) {
      say(button, copiedText);
    } else {
      say(button, WORDS.selected || "");
    }
  }

  /* Copy the link: the clipboard API where there is one, else the old way. */
  function copy(button, field, copiedText) {
    var clipboard = window.isSecureContext && navigator.clipboard;
    if (!clipboard || !clipboard.writeText) {
      copyOldWay(button, field, copiedText);
      return;
    }
    try {
      clipboard.writeText(field.value).then(
        function () {
          say(button, copiedText);
        },
        function () {
          copyOldWay(button, field, copiedText);
        }
      );
    } catch (error) {
      copyOldWay(button, field, copiedText);
    }
  }

  function share(button, field) {
    var pasteText = WORDS.pasted || "";
    if (!navigator.share) {
      copy(button, field, pasteText);
      return;
    }
    try {
      navigator
        .share({ title: button.getAttribute("data-title"), url: field.value })
        .catch(function (error) {
          // Closing the share sheet is an AbortError; anything else: copy instead.
          if (!error || error.name !== "AbortError") {
            copy(button, field, pasteText);
          }
        });
    } catch (error) {
      copy(button, field, pasteText);
    }
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-copy], [data-share]");
    if (!button) {
      return;
    }
    var field = fieldOf(button);
    if (!field) {
      return;
    }
    if (button.hasAttribute("data-copy")) {
      copy(button, field, WORDS.copied || "");
    } else {
      share(button, field);
    }
  });

  document.addEventListener("DOMContentLoaded", reveal);
  document.addEventListener("htmx:afterSettle", reveal);
})();
