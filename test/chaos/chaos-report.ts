import { InvariantRow } from './groups/chaos-group';

/** The invariants as a Markdown table, then the examples of every row that failed. */
export function invariantTable(rows: readonly InvariantRow[]): string {
  const lines = ['| invariant | expected | observed | result |', '|---|---|---|---|'];
  for (const row of rows)
    lines.push(`| ${row.invariant} | ${row.expected} | ${row.observed} | ${row.ok ? 'ok' : 'VIOLATED'} |`);
  for (const row of rows.filter((candidate) => !candidate.ok && candidate.examples?.length)) {
    lines.push('', `${row.invariant}, for example:`, ...row.examples!.slice(0, 5).map((example) => `  - ${example}`));
  }
  return lines.join('\n');
}

/** `label: value` lines, aligned. */
export function facts(entries: ReadonlyArray<[string, string]>): string {
  const width = Math.max(...entries.map(([label]) => label.length));
  return entries.map(([label, value]) => `${label.padEnd(width)}  ${value}`).join('\n');
}

/** Counts of things by a key, as `a 3, b 1`. */
export function countsBy<T>(items: readonly T[], key: (item: T) => string): string {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return [...counts].map(([name, count]) => `${name} ${count}`).join(', ') || 'none';
}
