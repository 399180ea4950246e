"""Throughput beside a bare Flask app, measured with wrk (a benchmark, not a test).

Starts two gunicorn servers on 127.0.0.1 with the same settings (the project's
``gunicorn.conf.py``, two workers): the app, on a fresh SQLite database holding a
4-player Odd World play, and ``benchmarks/bare_app.py``, whose one route answers "ok".
Then runs wrk against each request in turn and prints requests per second and the ratio
to the bare route, measured in the same run, so the ratio holds on any machine.

wrk comes from Debian's ``wrk`` package, installed when missing (as root, or with sudo).

Run: .venv/bin/python benchmarks/wrk_compare.py [seconds per request, default 10]
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion import create_app  # noqa: E402
from support.client import create_table, start_play  # noqa: E402
from support.servers import app_env, free_port, gunicorn  # noqa: E402

SECRET = "wrk-benchmark"
THREADS = 2
CONNECTIONS = 16
#: What every request sends, as the phone that made the table would: htmx's header and,
#: once prepared, that phone's session cookie.
PHONE_HEADERS = ["HX-Request: true"]
#: The play page loaded whole, as a browser does on opening it (no htmx header).
WHOLE_PAGE = "4-player Odd World play page (whole page)"
#: The score API asked the same body again (its answer is kept), and a new body each time.
SCORE_AGAIN = "Odd World score API (the same body again)"
SCORE_FRESH = "Odd World score API (a new body each time)"
SCORE_BODY = {
    "players": [
        {"name": "Ann", "display": {"hoopoe": 5, "shoebill": 1}, "face_down": "shoebill"},
        {"name": "Ben", "display": {"cassowary": 3}, "face_down": None},
        {"name": "Cy", "display": {"hornbill": 2, "king-vulture": 1}},
        {"name": "Dee", "display": {"scarlet-ibis": 4}},
    ]
}


def ensure_wrk() -> str:
    """The path of wrk, installing Debian's package first when it is missing."""
    found = shutil.which("wrk")
    if found:
        return found
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    print("Installing wrk (apt)...", flush=True)
    subprocess.run([*sudo, "apt-get", "update", "-qq"], check=True)
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    subprocess.run([*sudo, "apt-get", "install", "-y", "-qq", "wrk"], check=True, env=env)
    return shutil.which("wrk") or "wrk"


def prepare(instance: Path) -> dict[str, str]:
    """A table with a 4-player Odd World play; the paths the benchmark asks for."""
    settings = {"INSTANCE_PATH": str(instance), "SECRET_KEY": SECRET}
    app = create_app({**settings, "SERVER_NAME": "127.0.0.1"})
    client = app.test_client()
    links = create_table(client, ["Ann", "Ben", "Cy", "Dee"])
    play = start_play(client, links.edit)
    page = client.get(f"/t/{links.edit}/plays/{play}").get_data(as_text=True)
    poll = re.search(r'hx-get="([^"]*/poll\?[^"]*)"', page)
    assert poll, "the play page has no poll"
    cookie = client.get_cookie("session", domain="127.0.0.1")
    assert cookie is not None
    PHONE_HEADERS.append(f"Cookie: session={cookie.value}")
    return {
        "poll, nothing changed (204)": poll.group(1).replace("&amp;", "&"),
        "4-player Odd World play page (htmx: the panel)": f"/t/{links.edit}/plays/{play}",
        WHOLE_PAGE: f"/t/{links.edit}/plays/{play}",
        "table page": f"/t/{links.edit}",
        SCORE_AGAIN: "/api/v1/games/odd-world/score",
        SCORE_FRESH: "/api/v1/games/odd-world/score",
    }


def requests_per_second(
    wrk: str, url: str, seconds: int, script: Path | None, *, htmx: bool = True
) -> float:
    """wrk's requests per second for one URL, asked as the phone that made the table
    (without htmx's header: as a browser loading the whole page)."""
    command = [wrk, f"-t{THREADS}", f"-c{CONNECTIONS}", f"-d{seconds}s"]
    for header in PHONE_HEADERS:
        if htmx or not header.startswith("HX-"):
            command += ["-H", header]
    if script is not None:
        command += ["-s", str(script)]
    output = subprocess.run([*command, url], capture_output=True, text=True, check=True).stdout
    found = re.search(r"Requests/sec:\s+([\d.]+)", output)
    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    if non_2xx:
        print(f"  warning: {non_2xx.group(1)} answers were errors", flush=True)
    assert found, output
    return float(found.group(1))


def post_script(folder: Path, *, fresh: bool = False) -> Path:
    """A wrk Lua script that POSTs the score request as JSON; ``fresh``: each request
    renames a player (thread number and a counter), so no answer is ever kept."""
    script = folder / ("fresh.lua" if fresh else "post.lua")
    body = json.dumps(SCORE_BODY).replace("\\", "\\\\").replace('"', '\\"')
    lua = (
        'wrk.method = "POST"\n'
        f'wrk.body = "{body}"\n'
        'wrk.headers["Content-Type"] = "application/json"\n'
    )
    if fresh:
        lua += FRESH_BODIES
    script.write_text(lua)
    return script


FRESH_BODIES = """
local made = 0
function setup(thread)
  made = made + 1
  thread:set("id", made)
end
function init(args)
  count = 0
end
function request()
  count = count + 1
  local body = string.gsub(wrk.body, '"Dee"', '"Dee' .. id .. 'x' .. count .. '"')
  return wrk.format(nil, nil, nil, body)
end
"""


def main() -> None:
    """Print requests per second of each request and its ratio to the bare route."""
    seconds = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    wrk = ensure_wrk()
    folder = Path(tempfile.mkdtemp(prefix="wrk-"))
    paths = prepare(folder)
    database = f"sqlite:///{folder / 'companion.sqlite'}"
    env = app_env(database, SECRET, RATELIMIT_ENABLED="false")
    log = folder / "gunicorn.log"
    bare_port, app_port = free_port(), free_port()
    with (
        gunicorn(bare_port, env, log, "benchmarks.bare_app:create_app()"),
        gunicorn(app_port, env, log),
    ):
        bare, app = f"http://127.0.0.1:{bare_port}", f"http://127.0.0.1:{app_port}"
        baseline = requests_per_second(wrk, bare + "/ok", seconds, None)
        print(f"bare Flask route: {baseline:.0f} requests/s (= 1.00 x)", flush=True)
        for label, path in paths.items():
            script = (
                post_script(folder, fresh=label == SCORE_FRESH)
                if path.startswith("/api/")
                else None
            )
            rate = requests_per_second(wrk, app + path, seconds, script, htmx=label != WHOLE_PAGE)
            print(f"{label}: {rate:.0f} requests/s = {rate / baseline:.2f} x", flush=True)


if __name__ == "__main__":
    main()
