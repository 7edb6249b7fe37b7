import { Admin, Kafka } from 'kafkajs';

/** An admin client connected on first use (again after a connection that failed); `close()` ends it if it was made. */
export class LazyAdmin {
  private connection?: Promise<Admin>;

  constructor(private readonly kafka: Kafka) {}

  get(): Promise<Admin> {
    this.connection ??= (async () => {
      const admin = this.kafka.admin();
      try {
        await admin.connect();
        return admin;
      } catch (error) {
        this.connection = undefined;
        throw error;
      }
    })();
    return this.connection;
  }

  async close(): Promise<void> {
    const admin = await this.connection?.catch(() => undefined);
    this.connection = undefined;
    await admin?.disconnect();
  }
}
