#!/usr/bin/env bash
# Local Kafka (KRaft) from the Apache jars on Maven Central, for machines without Docker: one broker by default, or a
# cluster of KAFKA_NODES brokers (each also a KRaft controller) from the same jars.
#   kafka.sh up          resolve jars (cached), format the log dirs once, start the broker(s), wait until they serve
#   kafka.sh down        stop the broker(s) this script started (no error when already stopped)
#   kafka.sh status      print whether they run; exit 0 when all run, 3 when none runs, 4 when some do (cluster)
#   kafka.sh stop N      cluster mode: stop node N (SIGTERM, controlled shutdown); `kill N` kills it (SIGKILL)
#   kafka.sh start N     cluster mode: start node N again and wait until it serves
# Single broker: KAFKA_PORT (9092), KAFKA_CONTROLLER_PORT (9093), KAFKA_STATE_DIR (<repo>/.kafka).
# Cluster (KAFKA_NODES > 1): brokers on KAFKA_CLUSTER_PORT (19092) and the next ports, controllers on
#   KAFKA_CLUSTER_CONTROLLER_PORT (19192) and the next ports, state in KAFKA_CLUSTER_STATE_DIR (<repo>/.kafka-cluster),
#   default.replication.factor = min(3, nodes), min.insync.replicas = that minus one. It never reads or writes the
#   single broker's state dir, pid file or ports.
# Secure (KAFKA_SECURE=1, one broker): a SASL_SSL listener on KAFKA_SECURE_PORT (9094), controller on
#   KAFKA_SECURE_CONTROLLER_PORT (9095), state in KAFKA_SECURE_STATE_DIR (<repo>/.kafka-secure). Certificates are made
#   with openssl at the first start (tls/: ca.pem, the broker's, a client certificate per app), SCRAM-SHA-256 and -512
#   users are created at format time (admin and one principal per app, passwords in credentials.env, mode 600), PLAIN
#   accepts the same users, StandardAuthorizer denies what no ACL allows, and the ACLs of each app are applied with
#   the admin principal (`npm run kafka:acls`). It never reads or writes the plaintext broker's state, pid or ports.
# Both: KAFKA_CACHE_DIR (<repo>/.cache), KAFKA_HEAP (512m per broker), KAFKA_READY_TIMEOUT (90 seconds).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
version="$(sed -n 's:.*<kafka.version>\(.*\)</kafka.version>.*:\1:p' "$here/pom.xml")"
cache_dir="${KAFKA_CACHE_DIR:-$root/.cache}"
libs="$cache_dir/kafka-$version/libs"
dependency_plugin="org.apache.maven.plugins:maven-dependency-plugin:3.11.0"
nodes="${KAFKA_NODES:-1}"
secure="${KAFKA_SECURE:-0}"
# The principals of the secure broker: the administrator (topics, ACLs) and one per program, as docs/operations.md
# lists their ACLs.
principals=(admin hookrail-admin hookrail-relay hookrail-consumers hookrail-cli)

say() { echo "kafka: $*"; }
fail() {
  echo "kafka: $*" >&2
  exit 2
}

[[ "$nodes" =~ ^[1-9]$ ]] || fail "KAFKA_NODES must be a number of brokers from 1 to 9 (got \"$nodes\")"

if [[ "$secure" == 1 ]]; then
  ((nodes == 1)) || fail "KAFKA_SECURE=1 starts one broker; unset KAFKA_NODES"
  state_dir="${KAFKA_SECURE_STATE_DIR:-$root/.kafka-secure}"
  first_port="${KAFKA_SECURE_PORT:-9094}"
  first_controller_port="${KAFKA_SECURE_CONTROLLER_PORT:-9095}"
  replication=1
elif ((nodes == 1)); then
  state_dir="${KAFKA_STATE_DIR:-$root/.kafka}"
  first_port="${KAFKA_PORT:-9092}"
  first_controller_port="${KAFKA_CONTROLLER_PORT:-9093}"
  replication=1
else
  state_dir="${KAFKA_CLUSTER_STATE_DIR:-$root/.kafka-cluster}"
  first_port="${KAFKA_CLUSTER_PORT:-19092}"
  first_controller_port="${KAFKA_CLUSTER_CONTROLLER_PORT:-19192}"
  replication=$((nodes < 3 ? nodes : 3))
  single_dir="$(realpath -m "${KAFKA_STATE_DIR:-$root/.kafka}")"
  [[ "$(realpath -m "$state_dir")" != "$single_dir" ]] ||
    fail "KAFKA_CLUSTER_STATE_DIR is the single broker's state dir ($single_dir); give the cluster its own"
fi
min_isr=$((replication > 1 ? replication - 1 : 1))

port_of() { echo $((first_port + $1 - 1)); }
controller_port_of() { echo $((first_controller_port + $1 - 1)); }
# The single broker keeps its historical layout (.kafka/broker.pid, .kafka/data); cluster nodes get node-N/.
node_dir() { if ((nodes == 1)); then echo "$state_dir"; else echo "$state_dir/node-$1"; fi; }
pid_file() { echo "$(node_dir "$1")/broker.pid"; }
log_file() { echo "$(node_dir "$1")/broker.log"; }
config_file() { echo "$(node_dir "$1")/server.properties"; }
broker_list() {
  local list="" node
  for node in $(seq 1 "$nodes"); do list+="${list:+,}127.0.0.1:$(port_of "$node")"; done
  echo "$list"
}

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

running_pid() {
  local file
  file="$(pid_file "$1")"
  [[ -f "$file" ]] || return 1
  local pid
  pid="$(cat "$file")"
  kill -0 "$pid" 2>/dev/null && echo "$pid"
}

fetch_jars() {
  if [[ -f "$libs/.complete" ]]; then return 0; fi
  say "resolving Apache Kafka $version from Maven Central into $libs"
  local started=$SECONDS
  rm -rf "$libs" && mkdir -p "$libs"
  (cd "$here" && mvn -B -q -Dstyle.color=never "$dependency_plugin:copy-dependencies" -DincludeScope=runtime -DoutputDirectory="$libs")
  touch "$libs/.complete"
  say "resolved $(ls "$libs" | wc -l) jars in $((SECONDS - started))s"
}

write_config() {
  local node="$1" dir voters="" voter
  dir="$(node_dir "$node")"
  for voter in $(seq 1 "$nodes"); do voters+="${voters:+,}$voter@127.0.0.1:$(controller_port_of "$voter")"; done
  mkdir -p "$dir/data"
  if [[ "$secure" == 1 ]]; then listener_props "$node" >"$(config_file "$node")"; else
    cat >"$(config_file "$node")" <<PROPS
listeners=PLAINTEXT://127.0.0.1:$(port_of "$node"),CONTROLLER://127.0.0.1:$(controller_port_of "$node")
advertised.listeners=PLAINTEXT://127.0.0.1:$(port_of "$node")
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
PROPS
  fi
  cat >>"$(config_file "$node")" <<PROPS
process.roles=broker,controller
node.id=$node
controller.quorum.voters=$voters
controller.listener.names=CONTROLLER
log.dirs=$dir/data
num.partitions=1
default.replication.factor=$replication
min.insync.replicas=$min_isr
offsets.topic.replication.factor=$replication
offsets.topic.num.partitions=10
transaction.state.log.replication.factor=$replication
transaction.state.log.min.isr=$min_isr
share.coordinator.state.topic.replication.factor=$replication
share.coordinator.state.topic.min.isr=$min_isr
unclean.leader.election.enable=false
group.initial.rebalance.delay.ms=0
auto.create.topics.enable=false
delete.topic.enable=true
PROPS
}

# Secure mode: the broker's certificates and its users' passwords, made once and kept in the state dir.
tls_dir() { echo "$state_dir/tls"; }
credentials_file() { echo "$state_dir/credentials.env"; }
password_var() { local name="${1^^}"; echo "${name//-/_}_PASSWORD"; }
password_of() { sed -n "s/^$(password_var "$1")=//p" "$(credentials_file)"; }

make_secrets() {
  mkdir -p "$state_dir"
  DEV_CERT_CLIENTS="${principals[*]}" bash "$root/scripts/tls/dev-certs.sh" "$(tls_dir)"
  local file principal
  file="$(credentials_file)"
  if [[ ! -s "$file" ]]; then
    (
      umask 077
      for principal in "${principals[@]}"; do echo "$(password_var "$principal")=$(head -c 18 /dev/urandom | od -An -tx1 | tr -d ' \n')"; done >"$file"
    )
  fi
}

# The SASL_SSL listener: TLS with the development CA (a client certificate is verified when one is presented), SCRAM
# and PLAIN logins, the broker's own connections as the admin principal, and no access without an ACL.
listener_props() {
  local node="$1" tls plain_users="" principal
  tls="$(tls_dir)"
  for principal in "${principals[@]}"; do plain_users+=" user_$principal=\"$(password_of "$principal")\""; done
  cat <<PROPS
listeners=SASL_SSL://127.0.0.1:$(port_of "$node"),CONTROLLER://127.0.0.1:$(controller_port_of "$node")
advertised.listeners=SASL_SSL://127.0.0.1:$(port_of "$node")
inter.broker.listener.name=SASL_SSL
listener.security.protocol.map=CONTROLLER:PLAINTEXT,SASL_SSL:SASL_SSL
sasl.enabled.mechanisms=SCRAM-SHA-256,SCRAM-SHA-512,PLAIN
sasl.mechanism.inter.broker.protocol=SCRAM-SHA-512
listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="admin" password="$(password_of admin)";
listener.name.sasl_ssl.scram-sha-256.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;
listener.name.sasl_ssl.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="admin" password="$(password_of admin)"$plain_users;
ssl.keystore.type=PEM
ssl.keystore.location=$tls/server-keystore.pem
ssl.truststore.type=PEM
ssl.truststore.location=$tls/ca.pem
ssl.client.auth=requested
authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer
allow.everyone.if.no.acl.found=false
# The controller listener is plaintext on loopback; the broker's own requests to it come as ANONYMOUS.
super.users=User:admin;User:ANONYMOUS
PROPS
}

# The SCRAM users, written into the metadata log when it is formatted.
scram_args() {
  local principal mechanism args=()
  for principal in "${principals[@]}"; do
    for mechanism in SCRAM-SHA-256 SCRAM-SHA-512; do
      args+=(--add-scram "$mechanism=[name=$principal,password=$(password_of "$principal")]")
    done
  done
  printf '%s\n' "${args[@]}"
}

# What a client of the secure broker sets to log in as the administrator (wait_ready, kafka:acls).
admin_env() {
  echo "KAFKA_TLS=true KAFKA_TLS_CA_FILE=$(tls_dir)/ca.pem KAFKA_SASL_MECHANISM=scram-sha-512 KAFKA_SASL_USERNAME=admin"
}

java_opts=(-Xms128m "-Xmx${KAFKA_HEAP:-512m}" -XX:+UseG1GC -XX:MaxGCPauseMillis=20
  "-Dlog4j2.configurationFile=$here/log4j2.properties" -cp "$libs/*")

java_run() { java "${java_opts[@]}" "$@"; }

# Every node of a cluster is formatted with the same cluster id, made once and kept beside the nodes: 16 random
# bytes in URL-safe base64, as `kafka-storage random-uuid` prints them (without starting a JVM for it).
cluster_id() {
  local file="$state_dir/cluster.id" id
  if [[ ! -s "$file" ]]; then
    mkdir -p "$state_dir"
    id="-"
    while [[ "$id" == -* ]]; do id="$(head -c 16 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=')"; done
    echo "$id" >"$file"
  fi
  cat "$file"
}

format_once() {
  local node="$1" dir id
  dir="$(node_dir "$node")"
  if [[ -f "$dir/data/meta.properties" ]]; then return 0; fi
  id="$(cluster_id)"
  local extra=()
  if [[ "$secure" == 1 ]]; then mapfile -t extra < <(scram_args); fi
  java_run kafka.tools.StorageTool format -t "$id" -c "$(config_file "$node")" "${extra[@]}" >/dev/null
  say "formatted $dir/data (cluster $id)"
}

# Waits until the brokers answer a kafkajs admin call: all of them (READY_BROKER_COUNT), or node N through its own
# port (READY_NODE_ID).
wait_ready() {
  local brokers="$1" count="$2" node="${3:-}"
  local secure_env=()
  if [[ "$secure" == 1 ]]; then
    read -ra secure_env <<<"$(admin_env)"
    secure_env+=("KAFKA_SASL_PASSWORD=$(password_of admin)")
  fi
  env "${secure_env[@]}" KAFKA_BROKERS="$brokers" READY_TIMEOUT_SECONDS="${KAFKA_READY_TIMEOUT:-90}" READY_BROKER_COUNT="$count" \
    READY_NODE_ID="$node" node "$here/wait-ready.js"
}

launch() {
  local node="$1"
  if [[ "$secure" == 1 ]]; then make_secrets; fi
  write_config "$node"
  format_once "$node"
  # setsid: the broker outlives the shell that started it and is not hit by its Ctrl-C.
  setsid nohup java "${java_opts[@]}" kafka.Kafka "$(config_file "$node")" >"$(log_file "$node")" 2>&1 </dev/null &
  echo $! >"$(pid_file "$node")"
}

# Stops one node and prints its pid; a node that outlives the grace period (seconds) is killed.
stop_node() {
  local node="$1" signal="${2:-TERM}" grace="${3:-20}" pid
  if ! pid="$(running_pid "$node")"; then
    rm -f "$(pid_file "$node")"
    return 1
  fi
  kill "-$signal" "$pid" 2>/dev/null || true
  for _ in $(seq 1 $((grace * 5))); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.2
  done
  if kill -0 "$pid" 2>/dev/null; then
    say "broker (pid $pid) ignored SIGTERM for ${grace}s; killing it" >&2
    kill -KILL "$pid" 2>/dev/null || true
    while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
  fi
  rm -f "$(pid_file "$node")"
  echo "$pid"
}

up_single() {
  local pid port
  port="$(port_of 1)"
  if pid="$(running_pid 1)"; then
    say "already running (pid $pid, 127.0.0.1:$port)"
    wait_ready "127.0.0.1:$port" 1
    return 0
  fi
  if port_open "$port"; then
    say "127.0.0.1:$port is already served by another process; not starting a second broker"
    return 0
  fi
  local started=$SECONDS
  fetch_jars
  launch 1
  if ! wait_ready "127.0.0.1:$port" 1; then
    say "broker did not become ready; last lines of $(log_file 1):"
    tail -n 30 "$(log_file 1)" >&2 || true
    down
    return 1
  fi
  if [[ "$secure" == 1 ]]; then
    apply_acls || { down; return 1; }
    say "Apache Kafka $version up with SASL_SSL on 127.0.0.1:$port (pid $(cat "$(pid_file 1)"), ${SECONDS}s total," \
      "$((SECONDS - started))s this start); CA $(tls_dir)/ca.pem, passwords in $(credentials_file)"
    return 0
  fi
  say "Apache Kafka $version up on 127.0.0.1:$port (pid $(cat "$(pid_file 1)"), ${SECONDS}s total, $((SECONDS - started))s this start)"
}

# Each app's ACLs, as `npm run kafka:acls` applies them with the admin principal.
apply_acls() {
  local admin_vars=()
  read -ra admin_vars <<<"$(admin_env)"
  env "${admin_vars[@]}" KAFKA_SASL_PASSWORD="$(password_of admin)" KAFKA_BROKERS="127.0.0.1:$(port_of 1)" \
    node "$root/scripts/run-built.js" libs/kafka/src/cli/kafka-acls.command.ts --apply
}

up_cluster() {
  local started=$SECONDS node pid port launched=0 to_start=()
  fetch_jars
  for node in $(seq 1 "$nodes"); do
    port="$(port_of "$node")"
    if pid="$(running_pid "$node")"; then
      say "node $node already running (pid $pid, 127.0.0.1:$port)"
      continue
    fi
    for port in "$port" "$(controller_port_of "$node")"; do
      if port_open "$port"; then
        say "127.0.0.1:$port (node $node) is served by a process this script did not start; not starting the cluster"
        return 1
      fi
    done
    to_start+=("$node")
  done
  # Formatting starts a JVM per node: all at once.
  cluster_id >/dev/null
  local formats=()
  for node in "${to_start[@]}"; do
    write_config "$node"
    format_once "$node" &
    formats+=($!)
  done
  for pid in "${formats[@]}"; do wait "$pid" || { say "formatting a node's log dir failed"; return 1; }; done
  for node in "${to_start[@]}"; do
    launch "$node"
    launched=$((launched + 1))
  done
  # The nodes are started together: a KRaft quorum elects its controller once a majority of them runs.
  if ! wait_ready "$(broker_list)" "$nodes"; then
    say "the cluster did not become ready; last lines of each node's log:"
    for node in $(seq 1 "$nodes"); do tail -n 15 "$(log_file "$node")" >&2 || true; done
    down
    return 1
  fi
  say "Apache Kafka $version cluster up: $nodes brokers on $(broker_list), replication factor $replication," \
    "min.insync.replicas $min_isr ($launched started, ${SECONDS}s, $((SECONDS - started))s this start)"
}

up() { if ((nodes == 1)); then up_single; else up_cluster; fi; }

down() {
  local node pid pids=() waited=0
  for node in $(seq 1 "$nodes"); do
    if pid="$(running_pid "$node")"; then
      pids[node]=$pid
      kill -TERM "$pid" 2>/dev/null || true
    fi
    rm -f "$(pid_file "$node")"
  done
  if ((${#pids[@]} == 0)); then
    say "not running"
    return 0
  fi
  # All nodes at once. Once a cluster's quorum has gone, the last nodes' controlled shutdown can only wait for it:
  # after a short grace they are killed, which costs a log recovery at the next start and nothing else.
  local grace=$((nodes == 1 ? 20 : 8))
  for node in "${!pids[@]}"; do
    pid=${pids[node]}
    while kill -0 "$pid" 2>/dev/null && ((waited < grace * 5)); do
      sleep 0.2
      waited=$((waited + 1))
    done
    if kill -0 "$pid" 2>/dev/null; then
      say "broker (pid $pid) ignored SIGTERM for ${grace}s; killing it"
      kill -KILL "$pid" 2>/dev/null || true
      while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
    fi
    if ((nodes == 1)); then say "stopped (pid $pid)"; else say "node $node stopped (pid $pid)"; fi
  done
}

# The KRaft quorum's leader (the active controller): the highest epoch among the running nodes' quorum-state files.
quorum_leader() {
  local node file epoch leader best_epoch=-1 best_leader=-1
  for node in $(seq 1 "$nodes"); do
    running_pid "$node" >/dev/null || continue
    file="$(node_dir "$node")/data/__cluster_metadata-0/quorum-state"
    [[ -f "$file" ]] || continue
    epoch="$(sed -n 's/.*"leaderEpoch":\([0-9]*\).*/\1/p' "$file")"
    leader="$(sed -n 's/.*"leaderId":\(-\{0,1\}[0-9]*\).*/\1/p' "$file")"
    if [[ -n "$epoch" && -n "$leader" ]] && ((epoch > best_epoch)); then
      best_epoch=$epoch
      best_leader=$leader
    fi
  done
  ((best_leader > 0)) && echo "$best_leader $best_epoch"
}

status() {
  local pid
  if ((nodes == 1)); then
    if pid="$(running_pid 1)"; then
      say "running (pid $pid, 127.0.0.1:$(port_of 1), Apache Kafka $version)"
      return 0
    fi
    if port_open "$(port_of 1)"; then
      say "127.0.0.1:$(port_of 1) is served by a broker this script did not start"
      return 0
    fi
    say "stopped"
    return 3
  fi
  local node running=0 leader
  for node in $(seq 1 "$nodes"); do
    if pid="$(running_pid "$node")"; then
      say "node $node running (pid $pid, 127.0.0.1:$(port_of "$node"), controller port $(controller_port_of "$node"))"
      running=$((running + 1))
    else
      say "node $node stopped (127.0.0.1:$(port_of "$node"))"
    fi
  done
  if leader="$(quorum_leader)"; then
    say "controller: node ${leader% *} (quorum leader, epoch ${leader#* })"
  fi
  say "$running of $nodes nodes running (Apache Kafka $version, brokers $(broker_list))"
  if ((running == nodes)); then return 0; fi
  if ((running == 0)); then return 3; fi
  return 4
}

node_arg() {
  ((nodes > 1)) || fail "$1 works on one node of a cluster: set KAFKA_NODES (e.g. 3)"
  [[ "${2:-}" =~ ^[0-9]+$ ]] && (($2 >= 1 && $2 <= nodes)) || fail "usage: kafka.sh $1 <node 1..$nodes>"
}

stop_one() {
  local node="$2" signal="TERM" pid
  [[ "$1" == kill ]] && signal=KILL
  if pid="$(stop_node "$node" "$signal")"; then
    say "node $node $([[ $signal == KILL ]] && echo killed || echo stopped) (pid $pid)"
  else
    say "node $node not running"
  fi
}

start_one() {
  local node="$1" pid port
  port="$(port_of "$node")"
  if pid="$(running_pid "$node")"; then
    say "node $node already running (pid $pid, 127.0.0.1:$port)"
  else
    port_open "$port" && fail "127.0.0.1:$port (node $node) is served by a process this script did not start"
    fetch_jars
    launch "$node"
  fi
  if ! wait_ready "127.0.0.1:$port" 1 "$node"; then
    say "node $node did not become ready; last lines of $(log_file "$node"):"
    tail -n 30 "$(log_file "$node")" >&2 || true
    return 1
  fi
  say "node $node up on 127.0.0.1:$port (pid $(cat "$(pid_file "$node")"))"
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  status) status ;;
  fetch) fetch_jars ;;
  stop | kill)
    node_arg "$1" "${2:-}"
    stop_one "$1" "$2"
    ;;
  start)
    node_arg "$1" "${2:-}"
    start_one "$2"
    ;;
  *)
    echo "usage: kafka.sh up|down|status|fetch, or with KAFKA_NODES > 1 also stop|kill|start <node>" >&2
    exit 2
    ;;
esac
