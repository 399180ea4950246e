"""gunicorn settings for production: ``gunicorn -c gunicorn.conf.py 'companion:create_app()'``.

gunicorn also reads this file by itself when started from the project folder. Options on
the command line win over it (``-b 0.0.0.0:8000``, ``-w 4``), and so does
``GUNICORN_CMD_ARGS``.

Why threads: with gunicorn's default *sync* workers one connection occupies a whole worker
process until its request has arrived. A client sending a byte a second (a phone on a bad
network, or someone doing it on purpose) therefore freezes a worker for up to ``timeout``
seconds; two of them froze ``-w 2`` and 100 polling phones waited 22.5 s (p50). A
*gthread* worker reads and answers each connection in one of its threads while its main
loop keeps accepting, so a slow client holds one thread, not the process.
``tests/deploy/test_slow_clients.py`` checks this.

What threads cannot do: gunicorn puts no read timeout on a connection, so a dribbling
client keeps its thread for as long as it dribbles. A few are harmless; ``workers *
threads`` of them (24 on two cores) stall the server again. Stopping those is the reverse
proxy's job (see docs/deploy.md): nginx reads the whole request, with its own timeouts, before
passing it on, and takes the whole answer before trickling it back, so gunicorn only ever
talks to a fast local peer.
"""

from __future__ import annotations

import os

# Behind the reverse proxy on the same machine; pass -b to listen elsewhere, but never
# with COMPANION_TRUSTED_PROXIES set: the app then believes X-Forwarded-For, which anyone
# reaching gunicorn directly could forge to escape the rate limits (docs/deploy.md).
bind = "127.0.0.1:8000"

# Threaded workers: a slow client blocks one thread, not a process (see above).
worker_class = "gthread"
# Processes: one per core, at least 2 and at most 4 unless $WEB_CONCURRENCY says otherwise
# (each holds up to 15 PostgreSQL connections; the server allows 100 by default).
workers = int(os.environ.get("WEB_CONCURRENCY", min(4, max(2, os.cpu_count() or 1))))
# Threads per process. They are there for the network: each reads its request and sends
# its answer at the client's pace, while the app's own code runs for one request of the
# process at a time (COMPANION_REQUESTS_AT_ONCE, see companion/web/gate.py: a dozen at once
# made every request as slow as all of them together). 12 leave room for slow clients and
# stay under SQLAlchemy's default pool (5 + 10 connections per process), so no thread ever
# waits for a database connection.
threads = 12
# A gthread process hands every connection it accepts to its thread pool at once, and by
# default keeps accepting (up to 1000) while all its threads are busy: new connections then
# queue behind the slow ones although the other process is free (12 dribbling clients stall
# half the polls). Accepting only as many connections as it has threads makes a busy
# process leave new connections to the others, so it takes workers * threads slow clients
# to stall the server instead of a handful.
worker_connections = threads
# ...which leaves no room for idle keep-alive connections: answer and close. The proxy
# keeps the phones' connections alive; its connections to gunicorn are local and cheap.
keepalive = 0

# A process whose main loop has not reported for this long is killed and replaced. With
# gthread the main loop keeps running while threads work, so this only catches a truly
# stuck process; it does not cut slow clients off (nothing in gunicorn does).
timeout = 30
# On restart (SIGHUP, deploys) requests in flight get this long to finish.
graceful_timeout = 20

# Request size limits: the app's URLs are short and its headers few. Oversized request
# lines and headers are refused (400) before the app sees them.
limit_request_line = 4094
limit_request_fields = 50
limit_request_field_size = 8190

# X-Forwarded-Proto is trusted from the local proxy only (gunicorn's default); the app
# itself trusts X-Forwarded-For/-Host per COMPANION_TRUSTED_PROXIES.
forwarded_allow_ips = "127.0.0.1,::1"

# Errors go to stderr (gunicorn's default). No access log here: table URLs carry the
# capability tokens, and the proxy's log already records requests (mask them there too).
accesslog = None


def on_starting(server: object) -> None:
    """Refuse several workers when the rate limits would count in each one's memory."""
    from companion.web.limits import storage_problem

    problem = storage_problem(server.cfg.workers, configured_storage())  # type: ignore[attr-defined]
    if problem is not None:
        raise SystemExit(f"Not starting: {problem}")


def configured_storage() -> str:
    """The rate-limit storage the app will be configured with (read in gunicorn's master
    process, before any worker builds the app)."""
    from flask import Flask

    from companion import PROJECT_ROOT, config

    settings = Flask("companion", instance_path=str(PROJECT_ROOT / "instance"))
    config.load(settings, None)
    return str(settings.config["RATELIMIT_STORAGE_URI"])
