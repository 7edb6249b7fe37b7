import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The repository's root: the nearest directory above `from` with a package-lock.json. The same from the TypeScript
 * sources (scripts/…) and from their compiled copies (dist/scripts/…), which `npm start` runs.
 */
export function repoRoot(from: string = __dirname): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package-lock.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package-lock.json above ${from}`);
  }
}
