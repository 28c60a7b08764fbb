/**
 * GET …/results?format=csv (docs/jobs.md "CSV and spreadsheets"): columns index,target,ok,status,error,
 * then one column per field of the items' `data` (`data.hosts`, …), an array or object value as its JSON
 * text. The columns are the union over every item, so the results are read twice: once for the columns,
 * once for the rows — nothing of them is held in memory.
 *
 * A cell is text from upstream (a page title, a reason phrase, a TXT record): a spreadsheet that opens
 * the file would run one starting with `=`, `+`, `-` or `@` (or a tab or carriage return before them) as a
 * formula. Such a cell is written with a `'` before it, as OWASP's CSV injection guidance advises, so
 * it stays text; the NDJSON results are untouched.
 */
import type { ItemOutcome } from './job-shape.js';

const FIXED = ['index', 'target', 'ok', 'status', 'error'];

/** the first characters a spreadsheet reads as the start of a formula */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A cell as text a spreadsheet shows as it is: a leading formula character is prefixed with `'`. */
export function neutralised(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled. */
function field(value: unknown): string {
  if (value === undefined || value === null) return '';
  // numbers and booleans are the service's own values: a negative number stays a number
  const text =
    typeof value === 'number' || typeof value === 'boolean'
      ? String(value)
      : neutralised(typeof value === 'object' ? JSON.stringify(value) : String(value));
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
