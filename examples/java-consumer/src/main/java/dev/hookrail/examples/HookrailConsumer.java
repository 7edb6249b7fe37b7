package dev.hookrail.examples;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * A hookrail consumer group in plain Java with kafka-clients. A hookrail message is a CloudEvent in the Kafka
 * binary binding: the value is the event data (JSON), the attributes are {@code ce_*} headers, the key is the
 * aggregate id. This consumer
 *
 * <ul>
 *   <li>reads the CloudEvents headers and the key;
 *   <li>skips an event whose {@code ce_hookrailid} (hookrail's own event id; {@code ce_id} on a message from before
 *       it) it has applied before (delivery is at least once). {@code ce_id} alone is the producer's id, unique only
 *       with {@code ce_source};
 *   <li>sends a message it cannot use to {@code <group>.dlt}, with hookrail's dead-letter headers, before committing
 *       past it;
 *   <li>commits offsets only after the message was handled.
 * </ul>
 *
 * <p>Environment: KAFKA_BROKERS (default 127.0.0.1:9092), GROUP (the consumer group, also the dead-letter topic's
 * prefix), TOPICS (comma-separated), MAX_MESSAGES (stop after this many, for tests; default: run forever). Each
 * handled event is printed as one JSON line.
 */
public final class HookrailConsumer {
  private static final List<String> REQUIRED = List.of("ce_specversion", "ce_id", "ce_source", "ce_type");

  private final String group;
  private final KafkaProducer<byte[], byte[]> deadLetters;
  /** Event ids already applied. A real service keeps them in its database, in the transaction of its effect. */
  private final Set<String> applied = new HashSet<>();

  private HookrailConsumer(String group, KafkaProducer<byte[], byte[]> deadLetters) {
    this.group = group;
    this.deadLetters = deadLetters;
  }

  public static void main(String[] args) throws Exception {
    String brokers = System.getenv().getOrDefault("KAFKA_BROKERS", "127.0.0.1:9092");
    String group = required("GROUP");
    List<String> topics = List.of(required("TOPICS").split(","));
    long maxMessages = Long.parseLong(System.getenv().getOrDefault("MAX_MESSAGES", "0"));

    Properties consumerProps = new Properties();
    consumerProps.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, brokers);
    consumerProps.put(ConsumerConfig.GROUP_ID_CONFIG, group);
    consumerProps.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    consumerProps.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    consumerProps.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    consumerProps.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    Properties producerProps = new Properties();
    producerProps.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, brokers);
    producerProps.put(ProducerConfig.ACKS_CONFIG, "all");
    producerProps.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
    producerProps.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    producerProps.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());

    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerProps);
        KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerProps)) {
      HookrailConsumer app = new HookrailConsumer(group, producer);
      consumer.subscribe(topics);
      long seen = 0;
      while (maxMessages == 0 || seen < maxMessages) {
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
          app.handle(record);
          seen++;
        }
        consumer.commitSync(); // after the records were handled (or dead-lettered): at least once
      }
    }
  }

  private void handle(ConsumerRecord<byte[], byte[]> record) throws Exception {
    Map<String, String> headers = new LinkedHashMap<>();
    for (Header header : record.headers()) headers.put(header.key(), new String(header.value(), StandardCharsets.UTF_8));
    for (String name : REQUIRED) {
      if (!headers.containsKey(name)) {
        deadLetter(record, "MalformedRecordError", "missing header " + name);
        return;
      }
    }
    // hookrail's id, unique across all sources; ce_id is the producer's (unique with ce_source), the same on
    // events hookrail made itself.
    String eventId = headers.getOrDefault("ce_hookrailid", headers.get("ce_id"));
    if (!applied.add(eventId)) {
      System.out.println("{\"duplicate\":" + json(eventId) + "}");
      return;
    }
    // The effect of your service goes here, keyed by the event id; then print what was consumed.
    String key = record.key() == null ? null : new String(record.key(), StandardCharsets.UTF_8);
    String value = record.value() == null ? null : new String(record.value(), StandardCharsets.UTF_8);
    StringBuilder line = new StringBuilder("{\"event\":{");
    line.append("\"topic\":").append(json(record.topic()));
    line.append(",\"partition\":").append(record.partition());
    line.append(",\"offset\":").append(record.offset());
    line.append(",\"key\":").append(json(key));
    line.append(",\"headers\":{");
    String separator = "";
    for (Map.Entry<String, String> header : headers.entrySet()) {
      line.append(separator).append(json(header.getKey())).append(':').append(json(header.getValue()));
      separator = ",";
    }
    line.append("},\"value\":").append(json(value)).append("}}");
    System.out.println(line);
  }

  /** hookrail's convention: the original key, value and headers on {@code <group>.dlt}, plus where and why. */
  private void deadLetter(ConsumerRecord<byte[], byte[]> record, String errorClass, String message) throws Exception {
    String now = Instant.now().toString();
    ProducerRecord<byte[], byte[]> letter =
        new ProducerRecord<>(group + ".dlt", null, record.key(), record.value(), record.headers());
    letter.headers().add("hookrail_dlt_original_topic", bytes(record.topic()));
    letter.headers().add("hookrail_dlt_original_partition", bytes(String.valueOf(record.partition())));
    letter.headers().add("hookrail_dlt_original_offset", bytes(String.valueOf(record.offset())));
    letter.headers().add("hookrail_dlt_group", bytes(group));
    letter.headers().add("hookrail_dlt_event_id", bytes(""));
    letter.headers().add("hookrail_dlt_error_class", bytes(errorClass));
    letter.headers().add("hookrail_dlt_error_message", bytes(message));
    letter.headers().add("hookrail_dlt_attempts", bytes("1"));
    letter.headers().add("hookrail_dlt_first_failure_at", bytes(now));
    letter.headers().add("hookrail_dlt_last_failure_at", bytes(now));
    deadLetters.send(letter).get(); // acknowledged before the offset moves past the message
    System.out.println("{\"deadLettered\":{\"offset\":" + record.offset() + ",\"error\":" + json(message) + "}}");
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static String required(String name) {
    String value = System.getenv(name);
    if (value == null || value.isBlank()) {
      System.err.println("hookrail-java-consumer: " + name + " is required");
      System.exit(1);
    }
    return value;
  }

  private static String json(String text) {
    if (text == null) return "null";
    StringBuilder out = new StringBuilder("\"");
    for (char c : text.toCharArray()) {
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
          else out.append(c);
        }
      }
    }
    return out.append('"').toString();
  }
}
