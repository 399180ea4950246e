"""A throwaway PostgreSQL cluster on 127.0.0.1 (initdb + pg_ctl), for tests and benchmarks."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from support.servers import free_port

START_SECONDS = 30


def pg_bin() -> Path | None:
    """Where PostgreSQL's programs are, if it is installed."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    if found:
        return Path(found[-1]).parent
    which = shutil.which("pg_ctl")
    return Path(which).parent if which else None


def as_postgres_user(command: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root; CI runs as root, so drop to the postgres user."""
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *command]
    return command


class PostgresCluster:
    """A throwaway cluster in a temporary folder; stopped and removed at the end."""

    def __init__(self, bin_dir: Path) -> None:
        self.bin_dir = bin_dir
        self.root = Path(tempfile.mkdtemp(prefix="companion-pg-"))
        self.data = self.root / "data"
        self.port = free_port()
        if os.geteuid() == 0:
            shutil.chown(self.root, "postgres")
        self.base_url = f"postgresql+psycopg://postgres@127.0.0.1:{self.port}"

    def _run(self, *command: str) -> None:
        subprocess.run(
            as_postgres_user([str(self.bin_dir / command[0]), *command[1:]]),
            check=True,
            capture_output=True,
            timeout=START_SECONDS,
        )

    def start(self) -> None:
        """initdb, then start on 127.0.0.1 with its socket in its own folder."""
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8")
        options = f"-h 127.0.0.1 -p {self.port} -k {self.root} -F"
        self._run(
            "pg_ctl",
            "-D",
            str(self.data),
            "-o",
            options,
            "-l",
            str(self.root / "log"),
            "-w",
            "-t",
            str(START_SECONDS),
            "start",
        )

    def stop(self) -> None:
        """Stop the server and remove its files."""
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def execute(self, sql: str) -> None:
        """Run one statement outside a transaction (CREATE/DROP DATABASE need that)."""
        import psycopg

        with psycopg.connect(
            f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres", autocommit=True
        ) as connection:
            connection.execute(sql)  # type: ignore[arg-type]
