#!/usr/bin/env bash
# The `secure` profile of docker-compose.yml, step one: certificates and passwords, made once into <dir> (a volume).
#   secrets.sh <dir>
# tls/        the development CA and a server certificate for kafka-secure, postgres-secure, 127.0.0.1 and localhost
# kafka/      one password file per principal (admin and one per program), as the apps read KAFKA_SASL_PASSWORD_FILE
# postgres/   the database password, the server's key and certificate and its pg_hba.conf (TLS with a password only),
#             owned by the image's postgres user (uid 999)
# database-url  what the apps read as DATABASE_URL_FILE: sslmode=verify-full against the CA above
# admin-token   the ingress's ADMIN_TOKEN_FILE
# Files the apps and the broker read belong to uid 1000 (the node and kafka images' user), mode 600.
set -euo pipefail
dir="${1:?usage: secrets.sh <dir>}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
principals=(admin hookrail-admin hookrail-relay hookrail-consumers hookrail-cli)
app_uid="${SECRETS_APP_UID:-1000}"
postgres_uid="${SECRETS_POSTGRES_UID:-999}"

random() { head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n'; }
# Writes a secret file once, readable by its owner only.
secret() {
  local file="$1" owner="$2" value="$3"
  [[ -s "$file" ]] || (umask 077 && printf '%s' "$value" >"$file")
  chown "$owner:$owner" "$file" 2>/dev/null || true
  chmod 600 "$file"
}

mkdir -p "$dir/tls" "$dir/kafka" "$dir/postgres"
DEV_CERT_SERVER_NAMES="kafka-secure postgres-secure" bash "$here/../tls/dev-certs.sh" "$dir/tls" >/dev/null
chmod 644 "$dir/tls/ca.pem" "$dir/tls/server.crt"
chown "$app_uid:$app_uid" "$dir/tls/server-keystore.pem" 2>/dev/null || true

for principal in "${principals[@]}"; do secret "$dir/kafka/$principal.password" "$app_uid" "$(random)"; done

secret "$dir/postgres/password" "$postgres_uid" "$(random)"
cp "$dir/tls/server.crt" "$dir/postgres/server.crt"
secret "$dir/postgres/server.key" "$postgres_uid" "$(cat "$dir/tls/server.key")"
cat >"$dir/postgres/pg_hba.conf" <<HBA
# Inside the container (initdb, healthcheck) by socket; from the network only TLS with a password.
local   all all               trust
hostssl all all 0.0.0.0/0     scram-sha-256
hostssl all all ::/0          scram-sha-256
host    all all 0.0.0.0/0     reject
host    all all ::/0          reject
HBA
chown -R "$postgres_uid:$postgres_uid" "$dir/postgres" 2>/dev/null || true

secret "$dir/database-url" "$app_uid" \
  "postgres://hookrail:$(cat "$dir/postgres/password")@postgres-secure:5432/hookrail?sslmode=verify-full&sslrootcert=/run/hookrail/tls/ca.pem"
secret "$dir/admin-token" "$app_uid" "$(random)$(random)"
echo "secrets: ready in $dir (CA tls/ca.pem, ${#principals[@]} Kafka principals, the database's password)"
