import { ConfigError, configErrorMessage } from '@app/config';
import { readFileSync } from 'node:fs';

/** What the operator plane knows of a configured webhook source: never its secrets. */
export interface SourceSummary {
  name: string;
  scheme: string;
  topic: string;
}

/**
 * The name, scheme and topic of each source in the ingress's sources file; its secrets are neither read nor resolved
 * (the ingress validates the file; this reads what it may show). No file: no configured sources.
 */
export function readSourceSummaries(file: string | undefined): SourceSummary[] {
  if (!file) return [];
  const fail = (problem: string) => new ConfigError(configErrorMessage([problem]), [problem]);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw fail(`HOOKRAIL_SOURCES file ${file} cannot be read as JSON (${reason})`);
  }
  if (!Array.isArray(raw)) throw fail(`HOOKRAIL_SOURCES file ${file} must hold a JSON array of sources`);
  return raw
    .filter((entry) => entry && typeof entry.name === 'string')
    .map((entry) => ({ name: entry.name, scheme: String(entry.scheme ?? ''), topic: String(entry.topic ?? '') }));
}
