import { readFileSync } from 'node:fs';
import path from 'node:path';

export type AppName = 'ingress' | 'admin' | 'relay' | 'consumers';

const root = path.resolve(__dirname, '../..');

/**
 * The Node flags an app runs with: those of its `start:<app>` script in package.json, which the Dockerfile and
 * docker-compose.yml repeat (test/docs/node-options.e2e-spec.ts keeps them the same). A benchmark measures the app
 * with them unless `override` is given (a `BENCH_*_NODE_OPTIONS` variable; set but empty: no flags at all).
 */
export function appNodeOptions(app: AppName, override?: string): string[] {
  if (override !== undefined) return override.split(' ').filter(Boolean);
  const scripts = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).scripts as Record<string, string>;
  return startScriptNodeOptions(scripts[`start:${app}`] ?? '');
}

/** The V8 heap flags a start script may set: the generations' limits, and how far the heap grows between full GCs. */
export const HEAP_FLAG = /^--(max-semi-space-size|max-old-space-size|heap-growing-percent)=\d+$/;

/** The flags between `node` and the first argument that is not a V8 heap flag, e.g. `node --max-old-space-size=96 -r …`. */
export function startScriptNodeOptions(script: string): string[] {
  const words = script.split(' ').filter(Boolean);
  if (words[0] !== 'node') return [];
  const flags: string[] = [];
  for (const word of words.slice(1)) {
    if (!HEAP_FLAG.test(word)) break;
    flags.push(word);
  }
  return flags;
}
