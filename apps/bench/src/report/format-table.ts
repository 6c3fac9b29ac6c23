/** A Markdown table (readable as it is in a terminal, and pasted as it is into BENCHMARKS.md). */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    `| ${cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(' | ')} |`;
  return [line(header), `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

/** A number with a sensible amount of digits for the report. */
export function formatNumber(value: number | undefined): string {
  if (value === undefined || Number.isNaN(value)) return '—';
  const magnitude = Math.abs(value);
  if (magnitude >= 100) return Math.round(value).toLocaleString('en-US');
  if (magnitude >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

export function formatRatio(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value)) return '—';
  return `${formatNumber(value)}×`;
}
