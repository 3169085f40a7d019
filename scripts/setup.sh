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
    "$(_python)" -m venv .venv
  fi
  if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
    .venv/bin/python -m pip install --quiet --upgrade pip
    .venv/bin/python -m pip install --quiet -e ".[$extras]"
    touch "$stamp"
  fi
}
