"""The live path: how a change made on one phone reaches every phone at the table.

Read it in this order (docs/development.md, "The live path", draws it):

* ``play.py``: a play's page, its panel for htmx, and the answer to a change (a tap);
* ``panels.py``: a panel rendered once per version and view, kept for every phone that
  shows the same (and the page's frame around it); ``table_pages.py`` does the same for
  the table page;
* ``pieces.py``: the panel cut into pieces with digests, so that a phone that says which
  it holds gets only those that changed;
* ``personal.py``: what differs from phone to phone in a shared rendering (the CSRF
  token, one-time form keys), put in on the way out;
* ``responses.py``: the full page or the htmx fragment of the same markup;
* ``cache.py``: the bounded caches they keep their renderings in.

The phone's side is ``static/companion.js``: it sends the digests it holds with each poll
and tap, and morphs what comes back into place.
"""

from __future__ import annotations

from flask import Flask


def register(app: Flask) -> None:
    """The live path's caches."""
    from companion.web.live import panels, table_pages

    panels.register(app)
    table_pages.register(app)
