import { CustomTransportStrategy, MessageHandler, Server } from '@nestjs/microservices';
import { isObservable, lastValueFrom } from 'rxjs';
import { ConsumerRuntime, ConsumerRuntimeOptions } from '../consumer-runtime';
import { Handler, HandlerRegistration } from '../handler';

export type ConsumerServerOptions = Omit<ConsumerRuntimeOptions, 'handlers'>;

/**
 * A NestJS transport strategy for one consumer group: every `@EventPattern('<event type>', policy?)` method of the
 * group's module becomes a runtime handler, called as `(event, ctx)` (`@Payload()`, `@Ctx()`). Unlike Nest's stock
 * Kafka transport, the runtime owns the consumer: it commits an offset only after the handler's transaction
 * committed, and it decides retries and dead letters. The extras of `@EventPattern` are the handler's failure policy.
 */
export class ConsumerServer extends Server implements CustomTransportStrategy {
  private runtime?: ConsumerRuntime;

  constructor(private readonly options: ConsumerServerOptions) {
    super();
  }

  listen(callback: (error?: unknown) => void): void {
    const handlers: HandlerRegistration[] = [...this.getHandlers()].map(([type, nestHandler]) => ({
      type,
      handler: toHandler(nestHandler),
      policy: nestHandler.extras,
    }));
    this.runtime = new ConsumerRuntime({ ...this.options, handlers });
    this.runtime.start().then(
      () => callback(),
      (error: unknown) => callback(error),
    );
  }

  async close(): Promise<void> {
    await this.runtime?.stop();
  }

  on(): never {
    throw new Error('ConsumerServer has no events to listen to');
  }

  unwrap<T>(): T {
    return this.runtime as T;
  }
}

/** Nest wraps handlers with pipes, guards and filters and may answer with an Observable; the runtime awaits either. */
function toHandler(nestHandler: MessageHandler): Handler {
  return async (event, ctx) => {
    const result: unknown = await nestHandler(event, ctx);
    if (isObservable(result)) await lastValueFrom(result, { defaultValue: undefined });
  };
}
