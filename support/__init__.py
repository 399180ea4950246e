"""What the tests and the benchmarks share, so that neither imports the other.

- ``app``: an app for a test, with the process's compiled templates.
- ``client``: a phone's flows through the test client (create a table, start a play, edit).
- ``groups``: the same for groups.
- ``phones`` and ``scenes``: a phone that holds a play's page and takes each answer as
  htmx does, and the scenes the byte budgets are measured on.
- ``postgres``: a throwaway PostgreSQL cluster on 127.0.0.1.
- ``servers``: gunicorn with the project's settings on 127.0.0.1.
- ``load`` and ``locustfile``: the load and crash run (live tables of four phones).
"""
