/**
 * Human output: aligned columns, the findings with their advice, colours only when the stream is a
 * terminal and NO_COLOR is not set (https://no-color.org). Everything printed from an answer is upstream
 * text: control characters are shown escaped, so an answer cannot move the cursor or recolour a terminal.
 */
import type { Finding, Severity } from '../web/report/findings.js';

export interface Style {
  bold(text: string): string;
  dim(text: string): string;
  tone(severity: Severity | 'ok', text: string): string;
}

const codes = { bold: [1, 22], dim: [2, 22], red: [31, 39], yellow: [33, 39], cyan: [36, 39], green: [32, 39] };
const paint = (on: boolean, [open, close]: number[], text: string) =>
  on ? `\u001b[${open}m${text}\u001b[${close}m` : text;

export function styleFor(
  stream: { isTTY?: boolean },
  env: Readonly<Record<string, string | undefined>>,
  forced: boolean | null,
): Style {
  const on = forced ?? (stream.isTTY === true && !env.NO_COLOR && env.TERM !== 'dumb');
  return {
    bold: (t) => paint(on, codes.bold, t),
    dim: (t) => paint(on, codes.dim, t),
    tone: (severity, t) =>
      paint(
        on,
        severity === 'critical'
          ? codes.red
          : severity === 'warning'
            ? codes.yellow
            : severity === 'info'
              ? codes.cyan
              : codes.green,
        t,
      ),
  };
}

/** Upstream text made safe for a terminal: control characters (escape sequences included) shown as \\xNN. */
export function printable(value: unknown): string {
  const text = value === null || value === undefined ? '–' : typeof value === 'string' ? value : JSON.stringify(value);
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** Display width: what printable() gives, without colour codes. */
const width = (text: string) => text.replace(/\u001b\[\d+m/g, '').length;

/** Rows as columns padded to their widest cell. */
export function columns(rows: readonly (readonly string[])[], gap = '  '): string[] {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, width(cell));
    });
  }
  return rows.map((row) =>
    row
      .map((cell, i) => (i === row.length - 1 ? cell : cell + ' '.repeat((widths[i] ?? 0) - width(cell))))
      .join(gap)
      .trimEnd(),
  );
}

/** Longer strings than this are cut in human output (--json has them whole). */
const LONGEST_VALUE = 160;

const short = (value: unknown) => {
  const text = printable(value);
  return text.length > LONGEST_VALUE
    ? `${text.slice(0, LONGEST_VALUE)}… (${text.length} characters; --json has all)`
    : text;
};

const isScalar = (v: unknown) => v === null || typeof v !== 'object';

/** An answer's fields: scalars as "name  value", lists of scalars joined, objects and lists of objects nested. */
export function dataLines(data: unknown, style: Style, indent = ''): string[] {
  if (isScalar(data)) return [`${indent}${short(data)}`];
  if (Array.isArray(data)) {
    if (data.every(isScalar)) return [`${indent}${data.length === 0 ? '–' : data.map(short).join(', ')}`];
    return objectTable(data as Record<string, unknown>[], style, indent);
  }
  const entries = Object.entries(data as Record<string, unknown>);
  const flat: string[][] = [];
  const nested: string[] = [];
  for (const [name, value] of entries) {
    if (isScalar(value) || (Array.isArray(value) && value.every(isScalar))) {
      flat.push([
        `${indent}${style.dim(name)}`,
        Array.isArray(value) ? (value.length ? value.map(short).join(', ') : '–') : short(value),
      ]);
    } else {
      nested.push(`${indent}${style.bold(name)}`, ...dataLines(value, style, `${indent}  `));
    }
  }
  return [...columns(flat), ...nested];
}

/** A list of objects as a table: one column per scalar field, nested values as JSON. */
function objectTable(rows: Record<string, unknown>[], style: Style, indent: string): string[] {
  const names = [...new Set(rows.flatMap((r) => (r && typeof r === 'object' ? Object.keys(r) : [])))];
  const header = names.map((n) => style.dim(n));
  const body = rows.map((r) => names.map((n) => short((r as Record<string, unknown>)?.[n])));
  return columns([header, ...body]).map((line) => `${indent}${line}`);
}

const WORDS: Record<Severity, string> = { critical: 'CRITICAL', warning: 'WARNING', info: 'NOTE' };

export function findingLines(findings: readonly Finding[], style: Style, indent = ''): string[] {
  const lines: string[] = [];
  for (const f of findings) {
    lines.push(`${indent}${style.tone(f.severity, WORDS[f.severity].padEnd(8))} ${style.bold(printable(f.title))}`);
    if (f.what) lines.push(`${indent}         ${printable(f.what)}`);
    if (f.advice) {
      lines.push(`${indent}         ${style.dim('why')}  ${f.advice.why}`);
      lines.push(`${indent}         ${style.dim('fix')}  ${f.advice.fix}`);
      lines.push(`${indent}         ${style.dim('see')}  ${f.advice.link.title}: ${f.advice.link.url}`);
    }
  }
  return lines;
}

/** A progress line on a terminal's stderr, redrawn in place; nothing when stderr is not a terminal. */
export function progressLine(stream: { isTTY?: boolean; write(text: string): unknown }) {
  const on = stream.isTTY === true;
  let shown = false;
  return {
    show(text: string) {
      if (!on) return;
      stream.write(`\r\u001b[2K${text}`);
      shown = true;
    },
    clear() {
      if (on && shown) stream.write('\r\u001b[2K');
      shown = false;
    },
  };
}
