# Shared set-up for ./run, ./test and .ci/run (sourced, not run).

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

apt_install() {
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "$@" >/dev/null
}

# Debian's chromium drives the browser tests; postgresql's initdb/pg_ctl the PostgreSQL run;
# redis-server the shared rate limits of the two-server test.
ensure_system_packages() {
  local missing=()
  [ -x /usr/bin/chromium ] || missing+=(chromium)
  ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 || missing+=(postgresql)
  command -v redis-server >/dev/null || missing+=(redis-server)
  if [ ${#missing[@]} -gt 0 ]; then
    echo "Installing ${missing[*]} (apt)..."
    apt_install "${missing[@]}"
  fi
}

# A virtualenv in .venv with the project installed (extras: "" or "test"); reinstalls only
# when pyproject.toml changed.
ensure_venv() {
  local extras="$1"
  if [ ! -x .venv/bin/python ]; then
    if ! python3 -m venv .venv 2>/dev/null; then
      rm -rf .venv
      echo "Installing python3-venv (apt)..."
      apt_install python3-venv
      python3 -m venv .venv
    fi
  fi
  local stamp=".venv/.installed-${extras:-app}-$(sha256sum pyproject.toml | cut -c1-16)"
  if [ ! -e "$stamp" ]; then
    .venv/bin/python -m pip install -q --upgrade pip
    if [ -n "$extras" ]; then
      .venv/bin/python -m pip install -q -e ".[$extras]"
    else
      .venv/bin/python -m pip install -q -e .
    fi
    touch "$stamp"
  fi
}
