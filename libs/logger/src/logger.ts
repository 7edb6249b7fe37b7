import pino, { Logger } from 'pino';

export type { Logger } from 'pino';

/** `auto`: readable lines when stdout is a terminal, JSON otherwise; `json` and `pretty` force one or the other. */
export const LOG_FORMATS = ['auto', 'json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export interface LoggerOptions {
  /**
   * False for a logger whose lines carry only fields known to hold no secret (the ingress's one line per request):
   * redacting by wildcard paths costs about as much as writing the line.
   */
  redact?: boolean;
}

/**
 * The one structured logger of an app: JSON lines on stdout, one `app` field, secrets redacted by path. On a terminal
 * (or with LOG_FORMAT=pretty) the same lines go through pino-pretty's transport: one readable line each, UTC times.
 * Lines about a message carry eventId, topic, partition, offset and group as fields, not inside the text.
 */
export function createLogger(
  app: string,
  level: string,
  format: LogFormat = 'auto',
  loggerOptions: LoggerOptions = {},
): Logger {
  const pretty = format === 'pretty' || (format === 'auto' && process.stdout.isTTY === true);
  const options: pino.LoggerOptions = {
    level,
    base: { app },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    redact:
      loggerOptions.redact === false
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
  };
  if (!pretty) return pino(options);
  return pino(
    options,
    pino.transport({
      target: require.resolve('pino-pretty'),
      options: { singleLine: true, ignore: 'pid,hostname,app', translateTime: "UTC:yyyy-mm-dd HH:MM:ss.l'Z'" },
    }),
  );
}
