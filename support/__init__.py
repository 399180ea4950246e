"""What the tests, the benchmarks and the scripts share, so that none imports another's
modules (a test module never imports another test module).

- ``app``: an app for a test (the process's compiled templates and URL rules), the
  databases tests run on.
- ``client`` and ``phones``: a phone's flows through the test client (create a table,
  start a play, edit), and a phone that holds a play's page and takes each answer as
  htmx does; ``links``: a page's links and sections; ``queries``: the SQL a block runs.
- ``odd_world``, ``owl_about``, ``oddland``, ``oddville``, ``luckys``: each game through
  its pages, and a hypothesis strategy of its states; ``every_game``: a starter and a
  strategy for every registered game; ``routes``: every route with its path filled in;
  ``transfer``: a table holding every kind of stored thing; ``groups``: groups.
- ``scenes``, ``budget``, ``heavy``: the plays and loads the byte and time budgets are
  measured on; ``rules_queries``: the rules search's query and question sets.
- ``browser``, ``polls``, ``axe``, ``glances``, ``entry``: the browser tests' phone,
  live updates asked for, accessibility scan, each game's main control, entry scenes.
- ``postgres``: a throwaway PostgreSQL cluster on 127.0.0.1; ``servers``: gunicorn with
  the project's settings on 127.0.0.1, and a phone talking to it over HTTP.
- ``load`` and ``locustfile``: the load and crash run (live tables of four phones).
"""
