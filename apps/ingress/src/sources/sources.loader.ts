import { ConfigError, configErrorMessage } from '@app/config';
import { flattenErrors } from '@app/contracts';
import { CLOUDEVENTS_SOURCE, UNKNOWN_SOURCE } from '@app/rejections';
import { WEBHOOK_SECRET_FORMAT, webhookSecretProblem } from '@app/webhooks';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { readFileSync } from 'node:fs';
import { SourceConfig } from './source.config';
import { DEFAULT_TOLERANCE_SECONDS, Source } from './source';

/**
 * Reads and validates the sources file. Its problems, all of them, are one ConfigError whose line names the file, each
 * source and field, never a secret's value.
 */
export function loadSources(path: string, env: NodeJS.ProcessEnv = process.env): Source[] {
  const fail = (problem: string) => new ConfigError(configErrorMessage([problem]), [problem]);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw fail(`HOOKRAIL_SOURCES file ${path} cannot be read (${(error as NodeJS.ErrnoException).code})`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw fail(`HOOKRAIL_SOURCES file ${path} is not valid JSON: ${(error as Error).message}`);
  }
  if (!Array.isArray(raw)) throw fail(`HOOKRAIL_SOURCES file ${path} must hold a JSON array of sources`);
  // Every mistake of every source, in one error: fixing a file should not take one start per mistake.
  const problems: string[] = [];
  const seen = new Set<string>();
  const sources = raw.flatMap((entry, index): Source[] => {
    const where = `HOOKRAIL_SOURCES ${path}: source #${index + 1}${entry && typeof entry.name === 'string' ? ` (${entry.name})` : ''}`;
    const before = problems.length;
    const name: unknown = entry?.name;
    if (typeof name === 'string') {
      if (seen.has(name)) problems.push(`${where}: duplicate source name`);
      if (name === CLOUDEVENTS_SOURCE || name === UNKNOWN_SOURCE)
        problems.push(
          `${where}: name "${name}" is reserved (the deliveries of POST /events and to unknown source names are ` +
            'counted and kept under cloudevents and unknown)',
        );
      seen.add(name);
    }
    const config = plainToInstance(SourceConfig, entry ?? {});
    const errors = validateSync(config, { forbidUnknownValues: true, whitelist: true, forbidNonWhitelisted: true });
    if (errors.length > 0) {
      for (const field of flattenErrors(errors)) problems.push(`${where}: ${field.errors.join('; ')}`);
      return [];
    }
    if (
      config.scheme === 'standard-webhooks' &&
      (config.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS) > DEFAULT_TOLERANCE_SECONDS
    ) {
      problems.push(`${where}: toleranceSeconds can be at most 300 for standard-webhooks (the scheme's fixed window)`);
    }
    const secrets = config.secrets.map((secret, position) => {
      const resolved = resolveSecret(secret, `${where}: secrets[${position}]`, env);
      const problem =
        typeof resolved === 'string' ? secretProblem(config, resolved, position, where) : resolved.problem;
      if (problem) problems.push(problem);
      return typeof resolved === 'string' ? resolved : '';
    });
    if (problems.length > before) return [];
    return [
      {
        name: config.name,
        scheme: config.scheme,
        secrets,
        topic: config.topic,
        typePath: config.typePath ?? 'type',
        aggregateIdPath: config.aggregateIdPath,
        customerIdPath: config.customerIdPath,
        dataPath: config.dataPath ?? (config.scheme === 'standard-webhooks' ? 'data' : undefined),
        toleranceSeconds: config.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS,
      },
    ];
  });
  if (problems.length > 0) throw new ConfigError(configErrorMessage(problems), problems);
  return sources;
}

/** A Standard Webhooks secret must be base64 (the HMAC key): which one is not, how it was given, and why. */
function secretProblem(config: SourceConfig, secret: string, position: number, where: string): string | undefined {
  const problem = config.scheme === 'standard-webhooks' ? webhookSecretProblem(secret) : undefined;
  if (!problem) return undefined;
  const given = /^(env|file):/.test(config.secrets[position]) ? ` (${config.secrets[position]})` : '';
  return `${where}: secrets[${position}]${given} is not a Standard Webhooks signing secret: ${problem}; a valid one is ${WEBHOOK_SECRET_FORMAT}`;
}

/** A secret as written, or read from `env:NAME` or `file:/path` (a mounted secret, less one trailing line break). */
function resolveSecret(secret: string, where: string, env: NodeJS.ProcessEnv): string | { problem: string } {
  if (secret.startsWith('file:')) {
    const file = secret.slice(5);
    try {
      return readFileSync(file, 'utf8').replace(/\r?\n$/, '');
    } catch (error) {
      return {
        problem: `${where} refers to file ${file}, which cannot be read (${(error as NodeJS.ErrnoException).code})`,
      };
    }
  }
  if (!secret.startsWith('env:')) return secret;
  const name = secret.slice(4);
  const value = env[name];
  if (!value) return { problem: `${where} refers to environment variable ${name}, which is not set` };
  return value;
}
