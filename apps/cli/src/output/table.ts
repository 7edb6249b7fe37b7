/** A plain-text table: a header row, a rule, one line per row; columns as wide as their widest cell (capped). */
export function formatTable<T extends object>(rows: T[], columns: Array<keyof T & string>, maxWidth = 60): string {
  if (rows.length === 0) return '(none)';
  const cell = (value: unknown): string => {
    const text = value instanceof Date ? value.toISOString().replace(/\.\d{3}Z$/, 'Z') : plainText(value);
    const line = text.replace(/\s+/g, ' ');
    return line.length > maxWidth ? `${line.slice(0, maxWidth - 1)}…` : line;
  };
  const cells = rows.map((row) => columns.map((column) => cell(row[column] as unknown)));
  const widths = columns.map((column, index) => Math.max(column.length, ...cells.map((line) => line[index].length)));
  const render = (line: string[]) =>
    line
      .map((text, index) => text.padEnd(widths[index]))
      .join('  ')
      .trimEnd();
  return [render(columns), render(widths.map((width) => '-'.repeat(width))), ...cells.map(render)].join('\n');
}

/** `name: value` lines, names aligned. */
export function formatFields(fields: Record<string, unknown>): string {
  const width = Math.max(...Object.keys(fields).map((name) => name.length));
  return Object.entries(fields)
    .map(
      ([name, value]) =>
        `${`${name}:`.padEnd(width + 1)} ${value instanceof Date ? value.toISOString() : plainText(value)}`,
    )
    .join('\n');
}

/** A value as text: nothing for null, JSON for an object or a list (never "[object Object]"). */
function plainText(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}
