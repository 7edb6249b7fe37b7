package dev.hookrail.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.debezium.embedded.Connect;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.ChangeEvent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * The relay's peer for bench:relay: an embedded Debezium engine (PostgreSQL connector, pgoutput, outbox event router)
 * whose change consumer sends each routed record with an idempotent, acks=all KafkaProducer and counts the acks.
 * It streams only (snapshot.mode=no_data): prints "streaming" once the task runs. The change consumer holds its first
 * batch until a line "go" arrives on stdin, so rows written before that wait in the WAL as a backlog; it exits after
 * EXPECTED acks with one JSON line: events/s from first to last ack and the JVM's peak RSS (VmHWM).
 *
 * Environment: PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE, KAFKA_BROKERS, EXPECTED, SLOT (slot and publication
 * name), TIMEOUT_SECONDS.
 */
public final class DebeziumOutboxBench {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static String env(String name, String fallback) {
    String value = System.getenv(name);
    return value == null || value.isEmpty() ? fallback : value;
  }

  public static void main(String[] args) throws Exception {
    long expected = Long.parseLong(env("EXPECTED", "200000"));
    long timeoutSeconds = Long.parseLong(env("TIMEOUT_SECONDS", "900"));
    String slot = env("SLOT", "hookrail_bench_debezium");

    Properties producerProps = new Properties();
    producerProps.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, env("KAFKA_BROKERS", "127.0.0.1:9092"));
    producerProps.put(ProducerConfig.CLIENT_ID_CONFIG, "hookrail-bench-debezium");
    producerProps.put(ProducerConfig.ACKS_CONFIG, "all");
    producerProps.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
    producerProps.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    producerProps.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerProps);

    AtomicLong acked = new AtomicLong();
    AtomicLong firstAck = new AtomicLong();
    AtomicLong lastAck = new AtomicLong();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    CountDownLatch done = new CountDownLatch(1);
    CountDownLatch go = new CountDownLatch(1);
    Thread stdin = new Thread(() -> {
      try (java.io.BufferedReader reader = new java.io.BufferedReader(new java.io.InputStreamReader(System.in, StandardCharsets.UTF_8))) {
        for (String line; (line = reader.readLine()) != null; ) {
          if ("go".equals(line.trim())) break;
        }
      } catch (java.io.IOException ignored) {
        // stdin closed: go
      }
      go.countDown();
    }, "stdin-go");
    stdin.setDaemon(true);
    stdin.start();

    Properties props = new Properties();
    props.setProperty("name", "hookrail-bench-debezium");
    props.setProperty("connector.class", "io.debezium.connector.postgresql.PostgresConnector");
    props.setProperty("offset.storage", "org.apache.kafka.connect.storage.MemoryOffsetBackingStore");
    props.setProperty("offset.flush.interval.ms", "60000");
    props.setProperty("database.hostname", env("PGHOST", "127.0.0.1"));
    props.setProperty("database.port", env("PGPORT", "5432"));
    props.setProperty("database.user", env("PGUSER", "postgres"));
    props.setProperty("database.password", env("PGPASSWORD", ""));
    props.setProperty("database.dbname", env("PGDATABASE", "hookrail_bench_relay"));
    props.setProperty("topic.prefix", "hookrail_bench");
    props.setProperty("plugin.name", "pgoutput");
    props.setProperty("slot.name", slot);
    props.setProperty("slot.drop.on.stop", "true");
    props.setProperty("publication.name", slot);
    props.setProperty("publication.autocreate.mode", "filtered");
    props.setProperty("table.include.list", "public.outbox");
    props.setProperty("snapshot.mode", "no_data");
    props.setProperty("transforms", "outbox");
    props.setProperty("transforms.outbox.type", "io.debezium.transforms.outbox.EventRouter");
    props.setProperty("transforms.outbox.table.field.event.id", "event_id");
    props.setProperty("transforms.outbox.table.field.event.key", "key");
    props.setProperty("transforms.outbox.table.field.event.payload", "value");
    props.setProperty("transforms.outbox.route.by.field", "topic");
    props.setProperty("transforms.outbox.route.topic.replacement", "${routedByValue}");
    props.setProperty("transforms.outbox.table.fields.additional.placement", "headers:header:headers");

    DebeziumEngine<ChangeEvent<SourceRecord, SourceRecord>> engine = DebeziumEngine.create(Connect.class)
        .using(props)
        .using(new DebeziumEngine.ConnectorCallback() {
          @Override
          public void taskStarted() {
            System.out.println("streaming");
            System.out.flush();
          }
        })
        .using((success, message, error) -> {
          if (!success) {
            failure.compareAndSet(null, error != null ? error : new IllegalStateException(message));
            done.countDown();
          }
        })
        .notifying((List<ChangeEvent<SourceRecord, SourceRecord>> records, DebeziumEngine.RecordCommitter<ChangeEvent<SourceRecord, SourceRecord>> committer) -> {
          go.await();
          List<Future<RecordMetadata>> sends = new ArrayList<>(records.size());
          for (ChangeEvent<SourceRecord, SourceRecord> event : records) {
            SourceRecord record = event.value();
            if (record.value() == null) continue;
            ProducerRecord<byte[], byte[]> message = new ProducerRecord<>(record.topic(), bytes(record.key()), bytes(record.value()));
            copyHeaders(record, message.headers());
            sends.add(producer.send(message, (metadata, error) -> {
              if (error != null) {
                failure.compareAndSet(null, error);
                done.countDown();
                return;
              }
              long now = System.nanoTime();
              firstAck.compareAndSet(0, now);
              lastAck.set(now);
              if (acked.incrementAndGet() == expected) done.countDown();
            }));
          }
          try {
            for (Future<RecordMetadata> send : sends) send.get();
          } catch (Exception error) {
            throw new InterruptedException("send failed: " + error);
          }
          for (ChangeEvent<SourceRecord, SourceRecord> event : records) committer.markProcessed(event);
          committer.markBatchFinished();
        })
        .build();

    ExecutorService executor = Executors.newSingleThreadExecutor();
    executor.execute(engine);
    int code = 0;
    try {
      if (!done.await(timeoutSeconds, TimeUnit.SECONDS)) throw new IllegalStateException("timed out after " + acked.get() + " of " + expected + " acks");
      if (failure.get() != null) throw new IllegalStateException("failed after " + acked.get() + " acks", failure.get());
      double seconds = (lastAck.get() - firstAck.get()) / 1e9;
      System.out.println(String.format(
          "{\"events\":%d,\"seconds\":%.2f,\"eventsPerSecond\":%d,\"peakRssMb\":%d}",
          acked.get(), seconds, Math.round(acked.get() / seconds), Math.round(peakRssKb() / 1024.0)));
    } catch (Exception error) {
      System.err.println("bench:debezium: " + error);
      if (error.getCause() != null) error.getCause().printStackTrace();
      code = 1;
    } finally {
      try {
        engine.close();
      } catch (Exception alreadyStopped) {
        // the engine stopped on its own (failure above)
      }
      executor.shutdown();
      executor.awaitTermination(30, TimeUnit.SECONDS);
      producer.close();
    }
    System.exit(code);
  }

  private static byte[] bytes(Object value) {
    if (value == null) return null;
    if (value instanceof byte[]) return (byte[]) value;
    return value.toString().getBytes(StandardCharsets.UTF_8);
  }

  /**
   * The outbox row's headers column (a JSON object) as one Kafka header per field, as the relay sends them. The
   * router's own headers (the event id, already in ce_id, and the __debezium.context.* ones) are left out, so the
   * messages are the relay's.
   */
  private static void copyHeaders(SourceRecord record, Headers target) {
    for (Header header : record.headers()) {
      if (!"headers".equals(header.key()) || header.value() == null) continue;
      try {
        JsonNode object = JSON.readTree(header.value().toString());
        for (Iterator<Map.Entry<String, JsonNode>> fields = object.fields(); fields.hasNext(); ) {
          Map.Entry<String, JsonNode> field = fields.next();
          target.add(field.getKey(), field.getValue().asText().getBytes(StandardCharsets.UTF_8));
        }
      } catch (Exception error) {
        throw new IllegalStateException("headers column is not a JSON object", error);
      }
    }
  }

  private static long peakRssKb() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("VmHWM:")) return Long.parseLong(line.replaceAll("[^0-9]", ""));
      }
    } catch (Exception ignored) {
      // not Linux: no figure
    }
    return -1;
  }
}
