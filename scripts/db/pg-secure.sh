#!/usr/bin/env bash
# A second, local Postgres that accepts only TLS with a password, as a managed Postgres does (RDS, Cloud SQL, Azure):
#   pg-secure.sh up       create (once) and start the cluster `hookrail-secure` on PG_SECURE_PORT (5433), with a
#                         server certificate from the development CA and a login role `hookrail` (CREATEDB, no
#                         superuser) whose password is made once and kept in <state>/credentials.env (mode 600)
#   pg-secure.sh down     stop it (its data stays)
#   pg-secure.sh drop     stop it and remove the cluster and its state
#   pg-secure.sh status   exit 0 when it answers
#   pg-secure.sh url [db] the DATABASE_URL that reaches it: sslmode=verify-full with the development CA
# Needs Debian's postgresql-common (pg_createcluster) and root or the postgres user. Over TCP it refuses any
# connection without TLS; the administrator `postgres` logs in only through the local socket.
# PG_SECURE_STATE_DIR (default .pg-secure in the project) holds the CA, the certificates and the password.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
port="${PG_SECURE_PORT:-5433}"
state_dir="${PG_SECURE_STATE_DIR:-$root/.pg-secure}"
cluster=hookrail-secure
role=hookrail
socket_dir=/var/run/postgresql

say() { echo "pg-secure: $*"; }
die() {
  echo "pg-secure: $*" >&2
  exit 1
}

version() {
  command -v pg_createcluster >/dev/null || die "needs pg_createcluster (Debian's postgresql-common package)"
  local found
  found="$(find /usr/lib/postgresql -mindepth 1 -maxdepth 1 -printf '%f\n' 2>/dev/null | sort -n | tail -1)"
  [[ -n $found ]] || die "no Postgres server under /usr/lib/postgresql"
  echo "$found"
}
conf_dir() { echo "/etc/postgresql/$(version)/$cluster"; }
# The cluster as postgresql-common knows it (a directory left behind by a drop is not one).
exists() { [[ -f "$(conf_dir)/postgresql.conf" ]]; }
admin_psql() { psql -X -q -v ON_ERROR_STOP=1 -h "$socket_dir" -p "$port" -U postgres -d postgres "$@"; }
password() { sed -n 's/^HOOKRAIL_PASSWORD=//p' "$state_dir/credentials.env"; }
answers() { pg_isready -q -h 127.0.0.1 -p "$port" -t 1; }

create() {
  local ver conf
  ver="$(version)"
  conf="$(conf_dir)"
  say "creating cluster $cluster ($ver) on 127.0.0.1:$port"
  pg_createcluster --port "$port" "$ver" "$cluster" -- --auth-local=trust --auth-host=reject >/dev/null
  install -o postgres -g postgres -m 644 "$state_dir/tls/server.crt" "$conf/server.crt"
  install -o postgres -g postgres -m 600 "$state_dir/tls/server.key" "$conf/server.key"
  cat >"$conf/conf.d/hookrail-secure.conf" <<CONF
# 127.0.0.2: an address the server certificate does not name, for tests of a wrong host name.
listen_addresses = '127.0.0.1,127.0.0.2'
ssl = on
ssl_cert_file = '$conf/server.crt'
ssl_key_file = '$conf/server.key'
ssl_min_protocol_version = 'TLSv1.2'
password_encryption = 'scram-sha-256'
fsync = off
CONF
  cat >"$conf/pg_hba.conf" <<HBA
# The administrator on this machine's socket; over TCP, TLS and a password or nothing.
local     all all                   trust
hostnossl all all 0.0.0.0/0         reject
hostssl   all all 127.0.0.0/8       scram-sha-256
HBA
}

up() {
  mkdir -p "$state_dir"
  # Test files start it from parallel workers: one creates the cluster and its secrets, the others wait and reuse them.
  exec 9>"$state_dir/up.lock"
  flock 9
  bash "$root/scripts/tls/dev-certs.sh" "$state_dir/tls"
  if [[ ! -s "$state_dir/credentials.env" ]]; then
    (
      umask 077
      echo "HOOKRAIL_PASSWORD=$(head -c 18 /dev/urandom | od -An -tx1 | tr -d ' \n')" >"$state_dir/credentials.env"
    )
  fi
  exists || create
  # The server must not inherit the lock (it would hold it as long as it runs).
  if ! answers; then pg_ctlcluster "$(version)" "$cluster" start 9>&-; fi
  local deadline=$((SECONDS + 30))
  until answers; do
    ((SECONDS < deadline)) || die "the cluster did not answer on 127.0.0.1:$port within 30 s (see pg_lsclusters)"
    sleep 0.2
  done
  admin_psql -v role="$role" -v password="$(password)" <<'SQL'
SELECT format('CREATE ROLE %I LOGIN CREATEDB', :'role') WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = :'role')
\gexec
SELECT format('ALTER ROLE %I PASSWORD %L', :'role', :'password')
\gexec
SQL
  say "up on 127.0.0.1:$port (TLS and a password only); CA $state_dir/tls/ca.pem, password in $state_dir/credentials.env"
}

url() {
  local db="${1:-hookrail}" password
  password="$(password)"
  [[ -n $password ]] || die "not set up yet: run pg-secure.sh up"
  echo "postgres://$role:$password@127.0.0.1:$port/$db?sslmode=verify-full&sslrootcert=$state_dir/tls/ca.pem"
}

case "${1:-}" in
  up) up ;;
  down)
    if exists && answers; then pg_ctlcluster "$(version)" "$cluster" stop; fi
    say "stopped"
    ;;
  drop)
    if exists; then pg_dropcluster --stop "$(version)" "$cluster"; fi
    # pg_dropcluster leaves the files it did not make (the certificate, conf.d): without them a new up starts clean.
    rm -rf "$(conf_dir)"
    rm -rf "$state_dir"
    say "dropped"
    ;;
  status)
    if answers; then say "up on 127.0.0.1:$port"; else
      say "not running"
      exit 1
    fi
    ;;
  url) url "${2:-}" ;;
  *) die "usage: pg-secure.sh up|down|drop|status|url [database]" ;;
esac
