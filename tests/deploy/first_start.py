"""Start several workers at once on each of some fresh databases, as gunicorn does.

For each database URL given, forks ``--workers`` processes from this one (which has
imported the app's code once, so that a worker's boot costs what making the app costs
and the test stays short; with gunicorn each worker imports it itself), releases them
together, and each makes the app (``create_app()``, default ``AUTO_MIGRATE``): what every
gunicorn worker does when it boots. Prints one line per database: ``ok`` or the first
failing worker's error. Used by ``tests/deploy/test_first_start.py``; a plain script so
that forking happens in a process without threads.

    python -m tests.deploy.first_start --workers 4 sqlite:////tmp/a.sqlite ...
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import traceback

from companion import create_app
from companion.extensions import db

SECRET = "first-start"
WORKER_SECONDS = 120  # a worker that has not booted by then counts as failed


def boot(url: str, instance: str) -> None:
    """What a gunicorn worker does on boot: make the app (migrating when needed)."""
    app = create_app({"DATABASE_URL": url, "SECRET_KEY": SECRET, "INSTANCE_PATH": instance})
    with app.app_context():
        db.engine.dispose()


def warm_up() -> None:
    """Import everything making the app imports, on a database in memory, before forking."""
    with tempfile.TemporaryDirectory(prefix="first-start-") as instance:
        boot("sqlite://", instance)


def _worker(url: str, instance: str, gate: int, report: int) -> None:
    """A forked worker: wait for the gate to open, boot, exit 0 (or 1 with a report)."""
    os.read(gate, 1)  # returns when the parent closes the gate's other end: all at once
    try:
        boot(url, instance)
    except BaseException as error:
        message = traceback.format_exception_only(error)[0].strip()[:300]
        os.write(report, f"{url}\t{message}\n".encode())
        os._exit(1)
    os._exit(0)


def start_together(urls: list[str], workers: int) -> list[str]:
    """Fork ``workers`` processes per database, all booting at the same moment; per
    database, ``ok`` or what failed. (The tests give one database at a time: side by
    side, ten databases' forty workers were no faster on two cores, only heavier.)"""
    gate_read, gate_write = os.pipe()
    report_read, report_write = os.pipe()
    children: dict[int, str] = {}
    instances = []
    for url in urls:
        instance = tempfile.mkdtemp(prefix="first-start-")
        instances.append(instance)
        for _ in range(workers):
            pid = os.fork()
            if pid == 0:
                os.close(gate_write)
                os.close(report_read)
                _worker(url, instance, gate_read, report_write)
            children[pid] = url
    os.close(gate_read)
    os.close(report_write)
    os.close(gate_write)  # go
    failed = dict.fromkeys(urls, 0)
    for pid, url in children.items():
        _, status = os.waitpid(pid, 0)
        failed[url] += os.waitstatus_to_exitcode(status) != 0
    for instance in instances:
        shutil.rmtree(instance, ignore_errors=True)
    reports = b""
    while chunk := os.read(report_read, 4096):
        reports += chunk
    os.close(report_read)
    first: dict[str, str] = {}
    for line in reports.decode(errors="replace").splitlines():
        url, _, message = line.partition("\t")
        first.setdefault(url, message)
    return [
        f"{failed[url]} of {workers} workers failed: {first.get(url, '?')}"
        if failed[url]
        else "ok"
        for url in urls
    ]


def main(arguments: list[str]) -> None:
    """Boot the workers on each database in turn and print the outcomes."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("urls", nargs="+")
    options = parser.parse_args(arguments)
    warm_up()
    for url in options.urls:
        print(start_together([url], options.workers)[0], flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
