"""A play's page, and how a change made on one phone reaches every phone at the table.

* ``actions.py``: load a play through a table's link and run an action on it (the routes
  of the shared pages and of each game's blueprint go through it);
* ``panel.py``: render the play and answer: the page, its panel for htmx (rendered once
  per version and view, kept for every phone that shows the same), the answer to a change.

The phone's side is ``static/companion.js``: every tap and live update brings the panel
whole, which htmx morphs into place. docs/development.md, "The live path", draws it.
"""
