/**
 * What comments may say (issue 25):
 * - no measured figure in a comment of src/: a measurement (MB, µs, %, req/s, a × speedup, "about N …")
 *   goes stale where nobody re-measures it; the comment keeps the reason and the figure lives in
 *   docs/performance.md "Measured reasons behind design choices". Bounds and limits are facts of the
 *   configuration or a protocol ("at most 64 KiB", "a 2 s bound") and stay;
 * - every citation of a document, a path and a quoted heading (README stands for README.md), names a file
 *   that exists and a markdown heading of exactly that text; documents are cited from this repository
 *   (docs/contract/ holds the specification's copies), never from `../shared/`;
 * - every `src/…` path, and every source file name (`connection.ts`, `tcp/connect.ts`), a comment names exists.
 * Comments are read as TypeScript's parser sees them (test/helpers/source-comments.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commentsOf, ROOT, sourceFiles, type SourceComment } from '../helpers/source-comments.js';

/**
 * TEMPORARY, must be emptied: findings in files other engineers were editing when this test was written
 * (issue 25), to be fixed by them; each entry is the start of a finding (a file or folder) or a cited
 * document. They are scanned and printed but do not fail the test. Remove each entry once its findings
 * are fixed, and this list with the last one.
 */
const TEMPORARY_EXEMPTIONS: readonly string[] = [
  // headings of docs/contract/jobs.md that it does not have (jobs, being written)
  'src/rest/jobs/',
  'docs/contract/jobs.md "',
];

const GENERATED = ['src/rest/generated'];

/** A unit of measurement after a number: sizes in decimal units and durations below a millisecond. */
const MEASURED_UNIT = /\d[\d.,]*\s?(?:MB|GB|kB|KB|µs|ns)(?![\w])/;
/** A share of something measured ("15 % of its throughput", "2 % (Node 20) more"); "100 % is info" is a rule. */
const PERCENT = /\d[\d.,]*\s?%[^.;]{0,25}\b(?:more|less|fewer|faster|slower|throughput|CPU|of its|of a worker)\b/;
/** A speed-up or a ratio: "0.30×", "1.7×". "0.3 × protocol" is a formula. */
const RATIO = /\d×/;
/** A rate. */
const RATE = /\d[\d.,]*\s?(?:k\s)?(?:req\/s|requests? (?:a|per) second|answers?\/s|answers? (?:a|per) second)/;
/**
 * Approximation or measurement phrasing before a figure with a unit ("about 40 MB", "~17 µs", "roughly
 * 250 bytes"). Binary units (KiB, MiB) are those of limits and formats ("about 2 KiB of DER") and pass.
 */
const APPROXIMATE =
  /(?:\b(?:about|roughly|approximately|around|nearly|measured)\b|~)\s?\d[\d.,–-]*\s?(?:MB|GB|kB|KB|µs|ns|ms|s|%|×|bytes|req\/s|answers|requests)(?![\w])/i;
/** A duration something took or saved ("took 0.8 s", "saves 100–2000 ms"). */
const TOOK =
  /\b(?:took|takes|saves?|saved|costs?|held)\b(?:(?!at most|no more than|up to|within)[^.;]){0,30}?\d[\d.,]*\s?(?:ms|s)\b/;
/** A limit, stated as one: the figure after it is a bound, not a measurement. */
const LIMIT_BEFORE =
  /(?:at most|up to|no more than|under|below|over|above|beyond|≤|<|max(?:imum)?|limit(?:ed)?|cap(?:ped)?|bound(?:ed)?)\W+(?:\w+\W+)?$/i;

const PATTERNS: readonly RegExp[] = [MEASURED_UNIT, PERCENT, RATIO, RATE, APPROXIMATE, TOOK];

/** The measured figures of one comment line: the matched text, or nothing when the figure is a stated limit. */
function measuredFigures(line: string): string[] {
  const found: string[] = [];
  for (const pattern of PATTERNS) {
    const m = pattern.exec(line);
    if (!m) continue;
    if (pattern === MEASURED_UNIT && LIMIT_BEFORE.test(line.slice(0, m.index))) continue;
    found.push(m[0]);
  }
  return found;
}

function commentsBelow(dirs: readonly string[]): SourceComment[] {
  return dirs.flatMap((dir) => sourceFiles(dir, GENERATED)).flatMap(commentsOf);
}

/** `findings` split into those that fail and those of the temporarily exempted files (printed). */
function failing(findings: readonly string[]): string[] {
  const exempted = findings.filter((f) => TEMPORARY_EXEMPTIONS.some((entry) => f.includes(entry)));
  if (exempted.length > 0) console.log(`temporarily exempted (issue 25):\n  ${exempted.join('\n  ')}`);
  return findings.filter((f) => !exempted.includes(f));
}

describe('measured figures', () => {
  const comments = commentsBelow(['src']);

  it('the scan sees the comments of src/ (a sanity check of the parser)', () => {
    expect(comments.length).toBeGreaterThan(1000);
    expect(measuredFigures('a Redis hit costs 30–110 µs')).not.toEqual([]);
    expect(measuredFigures('a new one per request cost my-ip 15 % of its throughput')).not.toEqual([]);
    expect(measuredFigures('(bench/my-ip.ts: 0.25× → 0.30× of bare node:http)')).not.toEqual([]);
    expect(measuredFigures('the tables it builds (about 40 MB)')).not.toEqual([]);
    expect(measuredFigures('held the event loop for ~0.8 s')).not.toEqual([]);
    expect(measuredFigures('a hit saves 100–2000 ms per WHOIS hop')).not.toEqual([]);
    expect(measuredFigures('at most 64 KiB')).toEqual([]);
    expect(measuredFigures('a dead server costs at most 5 s per phase')).toEqual([]);
    expect(measuredFigures('the memo is bounded under 1 MB')).toEqual([]);
    expect(measuredFigures('a 16384-bit RSA key is about 2 KiB of DER')).toEqual([]);
    expect(measuredFigures('again once at 40 % of the budget; 100 % is info')).toEqual([]);
    expect(measuredFigures('answered 2 % (Node 20) to 6 % (Node 24) more per second')).not.toEqual([]);
    expect(measuredFigures('4 packets transmitted, 3 received, 25% packet loss, time 3004ms')).toEqual([]);
    expect(measuredFigures('0.3 × protocol + 0.3 × key exchange')).toEqual([]);
  });

  it('no comment in src/ quotes one (they belong in docs/performance.md)', () => {
    const findings = comments.flatMap((c) =>
      c.lines.flatMap((l) => measuredFigures(l.text).map((figure) => `${c.file}:${l.line}: ${figure}`)),
    );
    expect(failing(findings)).toEqual([]);
  });
});

/** The headings of a markdown file, as written after the `#`s (fenced code left out). */
function headingsOf(path: string): Set<string> {
  const headings = new Set<string>();
  let fenced = false;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) headings.add(heading[1]!);
  }
  return headings;
}

/** A path (`docs/operations.md`, or README for README.md) and a quoted heading; a `<placeholder>` is none. */
const CITATION = /(?<![\w./-])((?:\.\.\/)*[\w./-]*\.md|README)\)?,? "([^"]+)"/g;
/** A `src/…` path: stops before a placeholder, a glob or a brace list, which name no one file. */
const SRC_PATH = /(?<![\w./-])src\/[\w./@-]*[\w/]/g;

/** A TypeScript or ES module file name, bare or with its folders ("connection.ts", "tcp/connect.ts", "../helpers/app.ts"). */
const SOURCE_NAME = /(?<![\w./@<>*-])(?:\.{1,2}\/)*[\w-]+(?:\/[\w.-]+)*\.(?:ts|mts|mjs|cjs)\b/g;

/** The folder of `file` and each folder above it, up to the root (''). */
function foldersUp(file: string): string[] {
  const parts = file.split('/').slice(0, -1);
  return parts.map((_, i) => parts.slice(0, parts.length - i).join('/')).concat('');
}

/** Whether `path` is of this repository: another project's `src/…` (an upstream package's) names a folder we lack. */
function ofThisRepository(path: string): boolean {
  const top = /^src\/[^/]+/.exec(path)![0];
  return existsSync(join(ROOT, top)) || top.endsWith('.ts');
}

describe('citations and paths in comments', () => {
  const comments = commentsBelow(['src', 'test', 'bench', 'scripts']);

  it('every cited document and heading exists', () => {
    const broken: string[] = [];
    for (const c of comments) {
      for (const m of c.text.matchAll(CITATION)) {
        const [, cited, heading] = m as unknown as [string, string, string];
        if (heading.includes('<')) continue;
        const path = cited === 'README' ? 'README.md' : cited;
        const where = `${c.file}:${c.line}: ${path} "${heading}"`;
        if (path.startsWith('../')) broken.push(`${where} (cite the copy in docs/contract/)`);
        else if (!existsSync(join(ROOT, path))) broken.push(`${where} (no such file)`);
        else if (!headingsOf(join(ROOT, path)).has(heading)) broken.push(`${where} (no such heading)`);
      }
    }
    expect(failing(broken)).toEqual([]);
  });

  it('every source file named in a comment exists', () => {
    // "connection.ts", "tcp/connect.ts", "../helpers/app.ts": from the commenting file's folder or one above
    // it, or as the end of a path in the repository ("verdict.ts" for src/checks/composite/shared/verdict.ts)
    const known = ['src', 'test', 'bench', 'scripts'].flatMap((dir) => sourceFiles(dir));
    const missing: string[] = [];
    for (const c of comments) {
      for (const m of c.text.matchAll(SOURCE_NAME)) {
        const name = m[0];
        const found =
          foldersUp(c.file).some((dir) => existsSync(join(ROOT, dir, name))) ||
          (!name.startsWith('.') && known.some((file) => file.endsWith(`/${name}`)));
        if (!found) missing.push(`${c.file}:${c.line}: ${name}`);
      }
    }
    expect(failing(missing)).toEqual([]);
  });

  it('every src/… path named in a comment exists', () => {
    const missing: string[] = [];
    for (const c of comments) {
      for (const m of c.text.matchAll(SRC_PATH)) {
        const next = c.text[m.index + m[0].length];
        if (next === '<' || next === '*' || next === '{') continue;
        const path = m[0].replace(/\.$/, '');
        if (ofThisRepository(path) && !existsSync(join(ROOT, path))) missing.push(`${c.file}:${c.line}: ${path}`);
      }
    }
    expect(failing(missing)).toEqual([]);
  });
});
