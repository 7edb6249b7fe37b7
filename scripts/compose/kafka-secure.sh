#!/usr/bin/env bash
# The `secure` profile of docker-compose.yml, the broker: one KRaft node whose listeners take only SASL_SSL (SCRAM-SHA-
# 256/512 and PLAIN), the certificates and passwords that secrets.sh made, StandardAuthorizer that denies what no ACL
# allows, and the principals' SCRAM credentials written when the log dir is formatted (once). Runs in the apache/kafka
# image; the same script runs on a machine with the Kafka jars (KAFKA_LIBS), which is how the tests start it.
#   SECRETS_DIR (/run/hookrail)  KAFKA_LIBS (/opt/kafka/libs)  DATA_DIR (/var/lib/kafka/data)
#   HOST_LISTENER (0.0.0.0:9094) advertised as HOST_ADVERTISED (127.0.0.1:9094): clients on the host
#   INTERNAL_LISTENER (0.0.0.0:19094) advertised as INTERNAL_ADVERTISED (kafka-secure:19094): the apps and the broker
#   CONTROLLER_PORT (9095, loopback only)
set -euo pipefail
secrets="${SECRETS_DIR:-/run/hookrail}"
libs="${KAFKA_LIBS:-/opt/kafka/libs}"
data="${DATA_DIR:-/var/lib/kafka/data}"
host_listener="${HOST_LISTENER:-0.0.0.0:9094}"
host_advertised="${HOST_ADVERTISED:-127.0.0.1:9094}"
internal_listener="${INTERNAL_LISTENER:-0.0.0.0:19094}"
internal_advertised="${INTERNAL_ADVERTISED:-kafka-secure:19094}"
controller_port="${CONTROLLER_PORT:-9095}"
config="$data/../server.properties"
principals=(admin hookrail-admin hookrail-relay hookrail-consumers hookrail-cli)

password_of() {
  local file="$secrets/kafka/$1.password"
  [[ -s "$file" ]] || {
    echo "kafka-secure: $file is missing: run secrets.sh first" >&2
    exit 2
  }
  cat "$file"
}

mkdir -p "$data"
admin="$(password_of admin)"
plain_users=""
for principal in "${principals[@]}"; do plain_users+=" user_$principal=\"$(password_of "$principal")\""; done
{
  echo "listeners=HOST://$host_listener,INTERNAL://$internal_listener,CONTROLLER://127.0.0.1:$controller_port"
  echo "advertised.listeners=HOST://$host_advertised,INTERNAL://$internal_advertised"
  echo "listener.security.protocol.map=CONTROLLER:PLAINTEXT,HOST:SASL_SSL,INTERNAL:SASL_SSL"
  echo "inter.broker.listener.name=INTERNAL"
  echo "sasl.enabled.mechanisms=SCRAM-SHA-256,SCRAM-SHA-512,PLAIN"
  echo "sasl.mechanism.inter.broker.protocol=SCRAM-SHA-512"
  for listener in host internal; do
    echo "listener.name.$listener.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username=\"admin\" password=\"$admin\";"
    echo "listener.name.$listener.scram-sha-256.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;"
    echo "listener.name.$listener.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username=\"admin\" password=\"$admin\"$plain_users;"
  done
  cat <<PROPS
ssl.keystore.type=PEM
ssl.keystore.location=$secrets/tls/server-keystore.pem
ssl.truststore.type=PEM
ssl.truststore.location=$secrets/tls/ca.pem
authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer
allow.everyone.if.no.acl.found=false
# The controller listener is plaintext on the container's loopback; the broker's own requests to it come as ANONYMOUS.
super.users=User:admin;User:ANONYMOUS
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$controller_port
controller.listener.names=CONTROLLER
log.dirs=$data
num.partitions=1
default.replication.factor=1
min.insync.replicas=1
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
auto.create.topics.enable=false
PROPS
} >"$config"
chmod 600 "$config"

java_args=(-Xms128m "-Xmx${KAFKA_HEAP:-512m}" -cp "$libs/*")
[[ -z "${KAFKA_LOG4J:-}" ]] || java_args+=("-Dlog4j2.configurationFile=$KAFKA_LOG4J")

if [[ ! -f "$data/meta.properties" ]]; then
  scram=()
  for principal in "${principals[@]}"; do
    for mechanism in SCRAM-SHA-256 SCRAM-SHA-512; do
      scram+=(--add-scram "$mechanism=[name=$principal,password=$(password_of "$principal")]")
    done
  done
  cluster_id="$(head -c 16 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=' | sed 's/^-/A/')"
  java "${java_args[@]}" kafka.tools.StorageTool format -t "$cluster_id" -c "$config" "${scram[@]}" >/dev/null
  echo "kafka-secure: formatted $data with ${#principals[@]} SCRAM users"
fi
exec java "${java_args[@]}" kafka.Kafka "$config"
