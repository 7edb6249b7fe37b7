import pino, { Logger } from 'pino';

export type { Logger } from 'pino';

/**
 * The one structured logger of an app: JSON lines on stdout, one `app` field, secrets redacted by path.
 * Lines about a message carry eventId, topic, partition, offset and group as fields, not inside the text.
 */
export function createLogger(app: string, level: string): Logger {
  return pino({
    level,
    base: { app },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    redact: {
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
