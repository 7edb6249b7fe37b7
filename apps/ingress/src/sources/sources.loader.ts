import { ConfigError } from '@app/config';
import { flattenErrors } from '@app/contracts';
import { CLOUDEVENTS_SOURCE, UNKNOWN_SOURCE } from '@app/rejections';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { readFileSync } from 'node:fs';
import { SourceConfig } from './source.config';
import { DEFAULT_TOLERANCE_SECONDS, Source } from './source';

/**
 * Reads and validates the sources file. Any problem is a ConfigError whose one line names the file, the source and
 * the field, never a secret's value.
 */
export function loadSources(path: string, env: NodeJS.ProcessEnv = process.env): Source[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(
      `configuration error: HOOKRAIL_SOURCES file ${path} cannot be read (${(error as NodeJS.ErrnoException).code})`,
    );
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(
      `configuration error: HOOKRAIL_SOURCES file ${path} is not valid JSON: ${(error as Error).message}`,
    );
  }
  if (!Array.isArray(raw))
    throw new ConfigError(`configuration error: HOOKRAIL_SOURCES file ${path} must hold a JSON array of sources`);
  const seen = new Set<string>();
  return raw.map((entry, index) => {
    const where = `HOOKRAIL_SOURCES ${path}: source #${index + 1}${entry && typeof entry.name === 'string' ? ` (${entry.name})` : ''}`;
    const config = plainToInstance(SourceConfig, entry ?? {});
    const errors = validateSync(config, { forbidUnknownValues: true, whitelist: true, forbidNonWhitelisted: true });
    if (errors.length > 0) {
      const first = flattenErrors(errors)[0];
      throw new ConfigError(`configuration error: ${where}: ${first.errors.join('; ')}`);
    }
    if (seen.has(config.name)) throw new ConfigError(`configuration error: ${where}: duplicate source name`);
    if (config.name === CLOUDEVENTS_SOURCE || config.name === UNKNOWN_SOURCE)
      throw new ConfigError(
        `configuration error: ${where}: name "${config.name}" is reserved (the deliveries of POST /events and to ` +
          'unknown source names are counted and kept under cloudevents and unknown)',
      );
    seen.add(config.name);
    if (
      config.scheme === 'standard-webhooks' &&
      (config.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS) > DEFAULT_TOLERANCE_SECONDS
    ) {
      throw new ConfigError(
        `configuration error: ${where}: toleranceSeconds can be at most 300 for standard-webhooks (the scheme's fixed window)`,
      );
    }
    return {
      name: config.name,
      scheme: config.scheme,
      secrets: config.secrets.map((secret, position) => resolveSecret(secret, `${where}: secrets[${position}]`, env)),
      topic: config.topic,
      typePath: config.typePath ?? 'type',
      aggregateIdPath: config.aggregateIdPath,
      dataPath: config.dataPath ?? (config.scheme === 'standard-webhooks' ? 'data' : undefined),
      toleranceSeconds: config.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS,
    };
  });
}

function resolveSecret(secret: string, where: string, env: NodeJS.ProcessEnv): string {
  if (!secret.startsWith('env:')) return secret;
  const name = secret.slice(4);
  const value = env[name];
  if (!value)
    throw new ConfigError(`configuration error: ${where} refers to environment variable ${name}, which is not set`);
  return value;
}
