/*
 * Copy and Share buttons for a table's links. Without JavaScript they stay hidden (the
 * links are still there to select); with it, Share uses the phone's share sheet (Web Share
 * API) where there is one, and Copy puts the link on the clipboard.
 * Loaded as a file (the Content-Security-Policy allows no inline script).
 */
(function () {
  "use strict";

  function reveal() {
    document.querySelectorAll(".share[hidden]").forEach(function (row) {
      row.hidden = false;
      var share = row.querySelector("[data-share]");
      if (share && !navigator.share) {
        share.hidden = true;
      }
    });
  }

  function linkOf(button, attribute) {
    var input = document.getElementById(button.getAttribute(attribute));
    return input ? input.value : "";
  }

  function copied(button) {
    var label = button.textContent;
    button.textContent = "Copied";
    window.setTimeout(function () {
      button.textContent = label;
    }, 1500);
  }

  function copy(button) {
    var link = linkOf(button, "data-copy");
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(link).then(function () {
        copied(button);
      });
      return;
    }
    // Plain http on a home network has no clipboard API: select the field and copy.
    var input = document.getElementById(button.getAttribute("data-copy"));
    input.select();
    if (document.execCommand("copy")) {
      copied(button);
    }
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-copy], [data-share]");
    if (!button) {
      return;
    }
    if (button.hasAttribute("data-copy")) {
      copy(button);
    } else if (navigator.share) {
      navigator.share({ title: button.getAttribute("data-title"), url: linkOf(button, "data-share") })
        .catch(function () {}); // the person closed the share sheet
    }
  });

  document.addEventListener("DOMContentLoaded", reveal);
  document.addEventListener("htmx:afterSettle", reveal);
})();
