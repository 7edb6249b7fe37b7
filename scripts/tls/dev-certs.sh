#!/usr/bin/env bash
# Development certificates for the secure local broker and database, made on this machine (never committed):
#   dev-certs.sh <dir>   a CA (ca.pem), a server certificate for 127.0.0.1, localhost and the host names in
#                        DEV_CERT_SERVER_NAMES (server.crt, server.key,
#                        server-keystore.pem: PKCS#8 key and certificate, as Kafka's PEM keystore reads them) and a
#                        client certificate per name in DEV_CERT_CLIENTS (client-<name>.crt, client-<name>.key), and a
#                        second, unrelated CA (other-ca.pem) for tests of an untrusted certificate.
# Idempotent: an existing CA is kept, so certificates already handed to clients stay valid.
set -euo pipefail
dir="${1:?usage: dev-certs.sh <dir>}"
mkdir -p "$dir"
cd "$dir"
days=825
quiet() { "$@" >/dev/null 2>&1 || { echo "dev-certs: $* failed" >&2; "$@" >&2; exit 1; }; }

if [[ ! -s ca.pem || ! -s ca.key ]]; then
  quiet openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days "$days" -subj "/CN=hookrail development CA"
  rm -f server.crt
fi
if [[ ! -s other-ca.pem ]]; then
  quiet openssl req -x509 -newkey rsa:2048 -nodes -keyout other-ca.key -out other-ca.pem -days "$days" \
    -subj "/CN=another CA hookrail does not trust"
fi

sign() {
  local name="$1" subject="$2" ext="$3"
  quiet openssl req -newkey rsa:2048 -nodes -keyout "$name.key.tmp" -out "$name.csr" -subj "$subject"
  printf '%s\n' "$ext" >"$name.ext"
  quiet openssl x509 -req -in "$name.csr" -CA ca.pem -CAkey ca.key -CAcreateserial -out "$name.crt" -days "$days" \
    -extfile "$name.ext"
  quiet openssl pkcs8 -topk8 -nocrypt -in "$name.key.tmp" -out "$name.key"
  chmod 600 "$name.key"
  rm -f "$name.key.tmp" "$name.csr" "$name.ext"
}

if [[ ! -s server.crt ]]; then
  names="IP:127.0.0.1,DNS:localhost"
  for name in ${DEV_CERT_SERVER_NAMES:-}; do names+=",DNS:$name"; done
  sign server "/CN=127.0.0.1" "subjectAltName=$names
extendedKeyUsage=serverAuth,clientAuth"
  cat server.key server.crt >server-keystore.pem
  chmod 600 server-keystore.pem
fi
for client in ${DEV_CERT_CLIENTS:-}; do
  [[ -s "client-$client.crt" ]] || sign "client-$client" "/CN=$client" "extendedKeyUsage=clientAuth"
done
