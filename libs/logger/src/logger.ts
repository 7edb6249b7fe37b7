import pino, { Logger } from 'pino';

export type { Logger } from 'pino';

export interface LoggerOptions {
  /**
   * False for a logger whose lines carry only fields known to hold no secret (the ingress's one line per request):
   * redacting by wildcard paths costs about as much as writing the line.
   */
  redact?: boolean;
}

/**
 * The one structured logger of an app: JSON lines on stdout, one `app` field, secrets redacted by path.
 * Lines about a message carry eventId, topic, partition, offset and group as fields, not inside the text.
 */
export function createLogger(app: string, level: string, options: LoggerOptions = {}): Logger {
  return pino({
    level,
    base: { app },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    redact:
      options.redact === false
        ? undefined
        : {
            paths: [
              'secret',
              'secrets',
              '*.secret',
              '*.secrets',
              'token',
              '*.token',
              'authorization',
              '*.authorization',
              'apiKey',
              '*.apiKey',
            ],
            censor: '[redacted]',
          },
  });
}
