/**
 * GET …/results?format=csv (docs/contract/jobs.md "Endpoints"): columns index,target,ok,status,error, then
 * one column per field of the items' `data` (`data.hosts`, …), an array or object value as its JSON
 * text. The columns are the union over every item, so the journal is read twice: once for the
 * columns, once for the rows — nothing of it is held in memory.
 */
import type { ItemOutcome } from './job-record.js';

const FIXED = ['index', 'target', 'ok', 'status', 'error'];

/** RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled. */
function field(value: unknown): string {
  if (value === undefined || value === null) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export async function csvColumns(lines: AsyncIterable<string>): Promise<string[]> {
  const columns = new Set<string>();
  for await (const line of lines) {
    const { data } = JSON.parse(line) as ItemOutcome;
    if (data !== null && typeof data === 'object' && !Array.isArray(data))
      for (const name of Object.keys(data)) columns.add(name);
  }
  return [...columns];
}

export function csvHeader(dataColumns: readonly string[]): string {
  return `${[...FIXED, ...dataColumns.map((c) => `data.${c}`)].map(field).join(',')}\r\n`;
}

export function csvRow(line: string, dataColumns: readonly string[]): string {
  const item = JSON.parse(line) as ItemOutcome;
  const data = (item.data ?? {}) as Record<string, unknown>;
  const cells = [item.index, item.target, item.ok, item.status, item.error, ...dataColumns.map((c) => data[c])];
  return `${cells.map(field).join(',')}\r\n`;
}
