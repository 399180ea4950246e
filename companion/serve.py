"""What ``./run`` starts: the app under waitress, for the phones at the table.

``python -m companion.serve`` listens on every interface of this machine (``--local``: on
127.0.0.1 only), and once it answers prints the addresses the other phones open, with a
QR code of the first one drawn in the terminal.

Why waitress: a table at home has no reverse proxy in front of the app, and phones on a
home Wi-Fi are slow and come and go. waitress reads each request whole in its main loop
before a thread runs the app for it, and closes connections that stay silent for
``CHANNEL_TIMEOUT`` seconds, so neither a slow phone nor a pile of idle sockets ever holds
a thread (``tests/deploy/test_home_server.py`` measures it). It is one process, so the
migrations run once, when the app is made, before the server listens.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterable
from typing import Any, TextIO

import segno
import waitress
from flask import Flask

from companion import create_app, hosts
from companion.web import uploads

DEFAULT_PORT = 5000
#: Threads running the app's code; requests reach them whole (the app itself runs one
#: request at a time anyway, see companion/web/gate.py).
THREADS = 6
#: Open connections at once: every phone keeps one or two; idle and slow ones cost a
#: socket each, not a thread. (waitress's default, 100, is what a few guests' phones and
#: a flaky network use up.)
CONNECTION_LIMIT = 1000
#: Seconds a connection may stay silent before waitress closes it.
CHANNEL_TIMEOUT = 60
#: Request headers larger than this get 431; bodies are limited by MAX_CONTENT_LENGTH.
MAX_HEADER_BYTES = 16 * 1024
#: How long to wait for the server's first answer before announcing it anyway.
READY_SECONDS = 30.0
LOOPBACK = "127.0.0.1"


def server_settings(local: bool, port: int, max_body: int) -> dict[str, Any]:
    """waitress's settings for ``./run`` (``local``: this machine only).

    >>> server_settings(True, 5000, 1024)["listen"]
    '127.0.0.1:5000'
    """
    return {
        "listen": f"{LOOPBACK if local else '0.0.0.0'}:{port}",
        "threads": THREADS,
        "connection_limit": CONNECTION_LIMIT,
        "channel_timeout": CHANNEL_TIMEOUT,
        # poll(), not select(): select() cannot watch sockets numbered past 1023.
        "asyncore_use_poll": True,
        "max_request_header_size": MAX_HEADER_BYTES,
        "max_request_body_size": max_body,
        "ident": "Odd Companion",
    }


def raise_file_limit(wanted: int = CONNECTION_LIMIT + 100) -> None:
    """Let the process hold a socket per connection: raise the soft limit of open files
    towards ``wanted`` (many systems start at 1024), never above the hard limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


class LoopbackLinks:
    """WSGI middleware: a page opened on the laptop itself (127.0.0.1 or localhost) builds
    its links and QR codes with the laptop's address on the network, since those are for
    the other phones, to which 127.0.0.1 would mean themselves."""

    LOCAL_NAMES = ("127.0.0.1", "localhost")

    def __init__(self, wsgi_app: Callable[..., Iterable[bytes]], shared_host: str) -> None:
        self.wsgi_app = wsgi_app
        self.shared_host = shared_host

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        host = environ.get("HTTP_HOST", "").rpartition(":")[0] or environ.get("HTTP_HOST", "")
        if host in self.LOCAL_NAMES and environ.get("REMOTE_ADDR") == LOOPBACK:
            environ["HTTP_HOST"] = self.shared_host
        return self.wsgi_app(environ, start_response)


def addresses_to_open(port: int) -> list[str]:
    """The URLs the other phones can open: every shareable address, then the ``.local``
    name where the machine announces one."""
    urls = [f"http://{address}:{port}" for address in hosts.lan_addresses()]
    if hosts.announces_local_name():
        urls += [f"http://{name}:{port}" for name in hosts.host_names()[1:]]
    return urls


def announcement(urls: list[str], port: int, out: TextIO) -> None:
    """Print where the table is served, and a QR code of the first address."""
    here = f"http://{LOOPBACK}:{port}"
    if not urls:
        out.write(
            f"\nOdd Companion is running at {here} (this machine only).\n"
            "Other phones cannot join: start ./run without --local, on a machine that is\n"
            "connected to the same Wi-Fi as the phones.\n\n"
        )
        out.flush()
        return
    lines = "\n".join(f"    {url}" for url in urls)
    out.write(f"\nOdd Companion is running. Phones on the same Wi-Fi open:\n\n{lines}\n\n")
    out.write(f"or scan this code to open {urls[0]}:\n")
    segno.make(urls[0], error="m").terminal(out=out, compact=True)
    out.write(f"\nOn this machine: {here}    Stop: Ctrl+C\n\n")
    out.flush()


def wait_until_answering(port: int, seconds: float = READY_SECONDS) -> bool:
    """Whether the server answered its health check on 127.0.0.1 within ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://{LOOPBACK}:{port}/healthz", timeout=1):
                return True
        except urllib.error.HTTPError:
            return True
        except OSError:
            time.sleep(0.1)
    return False


def announce_when_ready(urls: list[str], port: int, out: TextIO) -> None:
    """Print the announcement once the server answers (from a thread beside it)."""
    if not wait_until_answering(port):
        out.write(f"Odd Companion did not answer on port {port} within {READY_SECONDS:.0f} s.\n")
    announcement(urls, port, out)


def build(local: bool, port: int) -> tuple[Flask, list[str]]:
    """The app (migrated: making it runs the migrations) and the URLs to announce."""
    app = create_app()
    urls = [] if local else addresses_to_open(port)
    shareable = hosts.lan_addresses()
    if not local and shareable:
        app.wsgi_app = LoopbackLinks(  # type: ignore[method-assign]
            app.wsgi_app, f"{shareable[0]}:{port}"
        )
    return app, urls


def parse(arguments: list[str]) -> argparse.Namespace:
    """``./run``'s options."""
    parser = argparse.ArgumentParser(
        prog="./run", description="Serve Odd Companion to the phones at the table."
    )
    parser.add_argument(
        "--local",
        action="store_true",
        help="serve this machine only (127.0.0.1); other phones cannot join",
    )
    parser.add_argument(
        "--port",
        type=int,
        default=int(os.environ.get("PORT", DEFAULT_PORT)),
        help=f"port to listen on (default: $PORT or {DEFAULT_PORT})",
    )
    return parser.parse_args(arguments)


def main(arguments: list[str] | None = None) -> None:
    """Make the app (migrations first), listen, announce the addresses, serve until ^C."""
    options = parse(sys.argv[1:] if arguments is None else arguments)
    app, urls = build(options.local, options.port)
    raise_file_limit()
    # A photo sent to a play is the largest body the app takes (web/uploads.py).
    largest = max(int(app.config["MAX_CONTENT_LENGTH"]), uploads.MAX_BODY)
    settings = server_settings(options.local, options.port, largest)
    server = waitress.create_server(app, **settings)
    threading.Thread(
        target=announce_when_ready, args=(urls, options.port, sys.stdout), daemon=True
    ).start()
    try:
        server.run()
    except KeyboardInterrupt:
        sys.stdout.write("\nStopped.\n")
    finally:
        server.close()


if __name__ == "__main__":
    main()
