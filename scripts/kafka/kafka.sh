#!/usr/bin/env bash
# Local single-node Kafka (KRaft) from the Apache jars on Maven Central, for machines without Docker.
#   kafka.sh up       resolve jars (cached), format the log dir once, start the broker, wait until it serves
#   kafka.sh down     stop the broker this script started (no error when already stopped)
#   kafka.sh status   print whether it runs; exit 0 when running, 3 when stopped
# Environment: KAFKA_PORT (9092), KAFKA_CONTROLLER_PORT (9093), KAFKA_STATE_DIR (<repo>/.kafka),
#              KAFKA_CACHE_DIR (<repo>/.cache), KAFKA_HEAP (512m), KAFKA_READY_TIMEOUT (90 seconds).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
version="$(sed -n 's:.*<kafka.version>\(.*\)</kafka.version>.*:\1:p' "$here/pom.xml")"
port="${KAFKA_PORT:-9092}"
controller_port="${KAFKA_CONTROLLER_PORT:-9093}"
state_dir="${KAFKA_STATE_DIR:-$root/.kafka}"
cache_dir="${KAFKA_CACHE_DIR:-$root/.cache}"
libs="$cache_dir/kafka-$version/libs"
pid_file="$state_dir/broker.pid"
log_file="$state_dir/broker.log"
config="$state_dir/server.properties"
dependency_plugin="org.apache.maven.plugins:maven-dependency-plugin:3.11.0"

say() { echo "kafka: $*"; }

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

running_pid() {
  [[ -f "$pid_file" ]] || return 1
  local pid
  pid="$(cat "$pid_file")"
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
  mkdir -p "$state_dir/data"
  cat >"$config" <<PROPS
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$controller_port
listeners=PLAINTEXT://127.0.0.1:$port,CONTROLLER://127.0.0.1:$controller_port
advertised.listeners=PLAINTEXT://127.0.0.1:$port
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=$state_dir/data
num.partitions=1
default.replication.factor=1
min.insync.replicas=1
offsets.topic.replication.factor=1
offsets.topic.num.partitions=10
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
auto.create.topics.enable=false
delete.topic.enable=true
PROPS
}

java_opts=(-Xms128m "-Xmx${KAFKA_HEAP:-512m}" -XX:+UseG1GC -XX:MaxGCPauseMillis=20
  "-Dlog4j2.configurationFile=$here/log4j2.properties" -cp "$libs/*")

java_run() { java "${java_opts[@]}" "$@"; }

format_once() {
  if [[ -f "$state_dir/data/meta.properties" ]]; then return 0; fi
  local cluster_id
  cluster_id="$(java_run kafka.tools.StorageTool random-uuid | tail -1)"
  java_run kafka.tools.StorageTool format -t "$cluster_id" -c "$config" >/dev/null
  say "formatted $state_dir/data (cluster $cluster_id)"
}

wait_ready() {
  local timeout="${KAFKA_READY_TIMEOUT:-90}"
  KAFKA_BROKERS="127.0.0.1:$port" READY_TIMEOUT_SECONDS="$timeout" node "$here/wait-ready.js"
}

up() {
  local pid
  if pid="$(running_pid)"; then
    say "already running (pid $pid, 127.0.0.1:$port)"
    wait_ready
    return 0
  fi
  if port_open "$port"; then
    say "127.0.0.1:$port is already served by another process; not starting a second broker"
    return 0
  fi
  local started=$SECONDS
  fetch_jars
  write_config
  format_once
  # setsid: the broker outlives the shell that started it and is not hit by its Ctrl-C.
  setsid nohup java "${java_opts[@]}" kafka.Kafka "$config" >"$log_file" 2>&1 </dev/null &
  echo $! >"$pid_file"
  if ! wait_ready; then
    say "broker did not become ready; last lines of $log_file:"
    tail -n 30 "$log_file" >&2 || true
    down
    return 1
  fi
  say "Apache Kafka $version up on 127.0.0.1:$port (pid $(cat "$pid_file"), ${SECONDS}s total, $((SECONDS - started))s this start)"
}

down() {
  local pid
  if ! pid="$(running_pid)"; then
    rm -f "$pid_file"
    say "not running"
    return 0
  fi
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 100); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.2
  done
  if kill -0 "$pid" 2>/dev/null; then
    say "broker (pid $pid) ignored SIGTERM for 20s; killing it"
    kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$pid_file"
  say "stopped (pid $pid)"
}

status() {
  local pid
  if pid="$(running_pid)"; then
    say "running (pid $pid, 127.0.0.1:$port, Apache Kafka $version)"
    return 0
  fi
  if port_open "$port"; then
    say "127.0.0.1:$port is served by a broker this script did not start"
    return 0
  fi
  say "stopped"
  return 3
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  status) status ;;
  fetch) fetch_jars ;;
  *) echo "usage: kafka.sh up|down|status|fetch" >&2; exit 2 ;;
esac
