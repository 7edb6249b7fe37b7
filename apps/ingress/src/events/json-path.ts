/** Reads a dot path (`data.object.id`) from parsed JSON; undefined when any step is missing. */
export function readPath(value: unknown, path: string): unknown {
  let current = value;
  for (const step of path.split('.')) {
    if (current === null || typeof current !== 'object' || !Object.prototype.hasOwnProperty.call(current, step))
      return undefined;
    current = (current as Record<string, unknown>)[step];
  }
  return current;
}

/** A string or finite number at `path`, as a string. */
export function readKey(value: unknown, path: string): string | undefined {
  const found = readPath(value, path);
  if (typeof found === 'string' && found.length > 0) return found;
  if (typeof found === 'number' && Number.isFinite(found)) return String(found);
  return undefined;
}
