# Shared by scripts/test and scripts/run: make .venv and install the project into it.
# Sourced, not run. Installs only when pyproject.toml changed since the last install.

_python() {
  for candidate in python3.11 python3.12 python3.13 python3; do
    if command -v "$candidate" >/dev/null 2>&1 &&
      "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
      echo "$candidate"
      return
    fi
  done
  echo "Python 3.11 or newer is needed (apt-get install python3)" >&2
  exit 1
}

ensure_venv() {  # ensure_venv EXTRAS   e.g. ensure_venv test
  local extras=$1 stamp=.venv/.installed-$1
  if [ ! -x .venv/bin/python ]; then
    local python
    python=$(_python)
    if ! "$python" -m venv .venv; then
      # Debian splits venv out of its Python; install it when we may (root, apt).
      rm -rf .venv
      if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
        apt-get update -qq && apt-get install -y -qq python3-venv
        "$python" -m venv .venv
      else
        echo "python3 -m venv failed: install python3-venv (apt-get install python3-venv)" >&2
        exit 1
      fi
    fi
  fi
  if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
    .venv/bin/python -m pip install --quiet --upgrade pip
    .venv/bin/python -m pip install --quiet -e ".[$extras]"
    touch "$stamp"
  fi
}

_apt_install() {  # _apt_install PACKAGE...  (as root, or through sudo when it needs no password)
  local run=()
  if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
      run=(sudo -n)
    else
      echo "missing $*: install them (apt-get install $*) or run this as root" >&2
      exit 1
    fi
  fi
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "missing $*: this machine has no apt-get; install them with its package manager" >&2
    exit 1
  fi
  echo "== installing $* from the system packages"
  "${run[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${run[@]}" apt-get install -y -qq --no-install-recommends "$@"
}

ensure_system_tools() {  # Chromium for tests/browser; fc-solve; redis-server and redis-cli (the Redis store
  # tests start single servers and a three-primary cluster: redis-cli --cluster create);
  # prometheus and promtool; node
  local missing=()
  if [ -z "${SOLITAIRE_CHROMIUM:-}" ] && ! command -v chromium >/dev/null 2>&1; then
    missing+=(chromium fonts-dejavu-core)
  fi
  command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
  command -v redis-cli >/dev/null 2>&1 || missing+=(redis-tools)  # Debian's redis-cli
  # fc-solve (Debian's freecell-solver): tests cross-check Seahaven verdicts against it
  command -v fc-solve >/dev/null 2>&1 || missing+=(freecell-solver-bin)
  # prometheus and promtool (Debian's prometheus): tests/system/test_metrics.py checks the
  # alert rules and starts a Prometheus that scrapes a running instance
  if ! command -v prometheus >/dev/null 2>&1 || ! command -v promtool >/dev/null 2>&1; then
    missing+=(prometheus)
  fi
  # node (Debian's nodejs): tests/static/test_client_state.py runs the page client's pure
  # steps under Node's own test runner (node --test)
  command -v node >/dev/null 2>&1 || missing+=(nodejs)
  if [ ${#missing[@]} -gt 0 ]; then
    _apt_install "${missing[@]}"
  fi
  # Debian enables and starts a system redis (and prometheus, on :9090) on install; the tests
  # start their own servers on free ports and never use them.
}
