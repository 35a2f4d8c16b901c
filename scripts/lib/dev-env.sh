# Shared by scripts/run and scripts/test: system packages, a private PostgreSQL cluster under
# .parley/, and the dev secrets. Sourced, not run.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
STATE_DIR="$ROOT/.parley"
PG_PORT="${PARLEY_DEV_PG_PORT:-5432}"
SYSTEM_PACKAGES=(pkg-config libpq-dev libcurl4-openssl-dev libvips-dev libvips-tools ffmpeg postgresql postgresql-contrib python3 python3-pip openssl)

log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

# Installs the Debian packages the build and the local database need (as root), or names them.
ensure_system_packages() {
  local missing=()
  for package in "${SYSTEM_PACKAGES[@]}" "$@"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -ne 0 ]; then
    echo "Missing system packages. Install them with:" >&2
    echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
  log "installing ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# Runs a PostgreSQL server command as the cluster's owner: initdb refuses to run as root, so
# root hands the cluster to Debian's `postgres` user.
as_pg_owner() {
  if [ "$(id -u)" -eq 0 ]; then (cd / && runuser -u postgres -- "$@"); else "$@"; fi
}

pg_bin() {
  ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1
}

# Where the cluster lives: .parley/postgres, unless the postgres user cannot reach that folder
# (a checkout under /root or a private temp dir), or the socket path would be too long for a
# unix socket; then a folder under /var/tmp named after the checkout.
pg_data_dir() {
  local preferred="$STATE_DIR/postgres"
  mkdir -p "$STATE_DIR"
  if [ "$(id -u)" -eq 0 ] && ! runuser -u postgres -- test -x "$STATE_DIR" 2>/dev/null; then
    preferred=""
  fi
  if [ -n "$preferred" ] && [ ${#preferred} -lt 80 ]; then
    echo "$preferred"
  else
    echo "/var/tmp/parley-postgres-$(printf '%s' "$ROOT" | sha1sum | cut -c1-12)"
  fi
}

# Starts the private cluster (initialising it on first use) and exports PG_SOCKET_DIR.
start_local_postgres() {
  local bin data
  bin="$(pg_bin)"
  data="$(pg_data_dir)"
  export PG_SOCKET_DIR="$data/socket"
  if [ ! -f "$data/PG_VERSION" ]; then
    log "initialising a private PostgreSQL cluster in $data"
    mkdir -p "$data"
    [ "$(id -u)" -eq 0 ] && chown postgres: "$data"
    chmod 700 "$data"
    as_pg_owner "$bin/initdb" -D "$data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
    as_pg_owner mkdir -p "$PG_SOCKET_DIR"
  fi
  if ! as_pg_owner "$bin/pg_ctl" -D "$data" status >/dev/null 2>&1; then
    log "starting PostgreSQL (socket in $PG_SOCKET_DIR)"
    as_pg_owner "$bin/pg_ctl" -D "$data" -l "$data/server.log" -w -t 60 start \
      -o "-k $PG_SOCKET_DIR -p $PG_PORT -c listen_addresses='' -c max_connections=2500 -c shared_buffers=256MB" >/dev/null
    PARLEY_STARTED_POSTGRES="$data"
  fi
}

stop_local_postgres_if_started() {
  if [ -n "${PARLEY_STARTED_POSTGRES:-}" ]; then
    as_pg_owner "$(pg_bin)/pg_ctl" -D "$PARLEY_STARTED_POSTGRES" -m fast -w stop >/dev/null || true
  fi
}

# A libpq connection string for a database of the local cluster.
local_database_url() {
  echo "host=$PG_SOCKET_DIR port=$PG_PORT user=postgres dbname=$1"
}

local_psql() {
  psql -X -q -v ON_ERROR_STOP=1 "$(local_database_url postgres)" "$@"
}

ensure_local_database() {
  if [ -z "$(local_psql -tAc "SELECT 1 FROM pg_database WHERE datname = '$1'")" ]; then
    local_psql -c "CREATE DATABASE \"$1\""
  fi
}

# Generates the dev secrets once (the API token, the file master key) and keeps them in
# .parley/dev.env; a secret added by a later version is appended to an existing file.
load_dev_secrets() {
  local file="$STATE_DIR/dev.env"
  (umask 077 && touch "$file")
  grep -q '^PARLEY_API_TOKEN=' "$file" || echo "PARLEY_API_TOKEN=dev_$(openssl rand -hex 20)" >> "$file"
  grep -q '^PARLEY_FILE_KEY=' "$file" || echo "PARLEY_FILE_KEY=$(openssl rand -base64 32)" >> "$file"
  # What the environment already sets wins.
  local line name
  while IFS= read -r line; do
    name="${line%%=*}"
    [ -n "${!name:-}" ] || export "$name=${line#*=}"
  done < "$file"
}
